"""The stewards' task page: the tasks of the worker's queue that failed,
with their error, and those waiting or running, with the attempt number and previous error
of a task tried again (``clubsite.task_retries``: a mail, ``clubsite.mail.resend_email``, or
a rating update). Read-only: the admin ("Tasks Database Backend") has every
field and the full traceback; the worker retries the e-mails itself.

Tasks are named by what they do, not their code path; a task's arguments are not shown (a
password reset's holds the address that was asked for), except the recipients of a mail being
sent again.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.tasks import TaskResultStatus
from django.utils.translation import gettext_lazy as _
from django_tasks_db.models import DBTaskResult, get_date_max

from clubsite.mail import resend_email
from clubsite.permissions import task_queue_steward
from clubsite.task_retries import MAX_ATTEMPTS
from clubsite.worker_health import heartbeat, uses_worker, worker_state

# What each task does, by its code path (the task modules of every app; the page imports none).
TASK_LABELS = {
    "clubsite.password_reset.send_password_reset_emails": _("Password reset e-mail"),
    "clubsite.mail.resend_email": _("E-mail, another attempt"),
    "meetings.emails.send_notice_emails": _("Meetup notice e-mails"),
    "meetings.emails.send_reminder_emails": _("Meetup reminder e-mails"),
    "meetings.reminders.send_due_reminders": _("Scheduled meetup reminders"),
    "tournaments.emails.send_seating_emails": _("Seating e-mails"),
    "clubsite.desk.welcome.send_welcome_email": _("Welcome e-mail"),
    "clubsite.desk.joined.send_joined_email": _("E-mail of a new membership"),
    "clubsite.desk.join.send_join_notice": _("Join application notice"),
    "ratings.tasks.ratings_follow": _("Rating update"),
}
# The most rows of each list on the page; the admin has them all.
SHOWN = 100


@dataclass(frozen=True)
class TaskRow:
    """One task as the page shows it. ``when``: finished (failed), due (waiting, None for
    "now") or started (running); ``error``: one line, or ""; ``attempt`` only for a task tried
    again, ``to`` only for a mail sent again."""

    label: str
    status: str
    when: datetime.datetime | None
    error: str
    attempt: int | None
    to: str


def task_row(result: DBTaskResult) -> TaskRow:
    """The page's row of one stored task."""
    label = str(TASK_LABELS.get(result.task_path, result.task_path.rsplit(".", 1)[-1]))
    attempt, to, error = None, "", ""
    kwargs = result.args_kwargs.get("kwargs", {})
    if isinstance(kwargs.get("attempt"), int) and kwargs["attempt"] > 1:
        attempt, error = kwargs["attempt"], str(kwargs.get("last_error", ""))
    args = result.args_kwargs.get("args", [])
    if result.task_path == resend_email.module_path and args and isinstance(args[0], dict):
        to = ", ".join(str(address) for address in args[0].get("to", []))
    if result.status == TaskResultStatus.FAILED:
        lines = [line for line in result.traceback.splitlines() if line.strip()]
        error = lines[-1].strip() if lines else result.exception_class_path
        when = result.finished_at
    elif result.status == TaskResultStatus.RUNNING:
        when = result.started_at
    else:
        when = None if result.run_after == get_date_max() else result.run_after
    return TaskRow(label, result.status, when, error, attempt, to)


def task_queue_page(request: HttpRequest) -> HttpResponse:
    """The task page, for stewards only.

    Raises:
        PermissionDenied: not a steward.
    """
    task_queue_steward(request)
    context: dict[str, object] = {"uses_worker": uses_worker(), "max_attempts": MAX_ATTEMPTS}
    if uses_worker():
        tasks = DBTaskResult.objects.exclude(task_path=heartbeat.module_path)
        failed = tasks.filter(status=TaskResultStatus.FAILED).order_by("-finished_at")
        waiting = tasks.filter(
            status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING]
        ).order_by("run_after", "enqueued_at")
        context.update(
            failed=[task_row(r) for r in failed[:SHOWN]],
            failed_count=failed.count(),
            waiting=[task_row(r) for r in waiting[:SHOWN]],
            waiting_count=waiting.count(),
            worker=worker_state(),
        )
    return render(request, "tasks/queue.html", context)
