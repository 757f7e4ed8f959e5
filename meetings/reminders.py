"""The reminders to confirm a line-up (rules-spec §5.2): a member of a provisional line-up
who has not confirmed ``MEETUP_REMINDER_HOURS`` after being asked gets one e-mail per request
to confirm (``Application.reminded_at``).

With the worker's queue (``CLUB_TASKS_BACKEND=database``) each announcement of a meetup
schedules :func:`send_due_reminders` for the moment its first pending reminder falls due
(:func:`schedule_reminders`, a task with ``run_after``). The task decides when it runs: a
meetup moved in the meantime asked everyone again, so the earlier task finds nobody due and
the one scheduled by the move reminds them; a cancelled, confirmed or called-off meetup is not
provisional, so nobody is reminded. Without a worker (the immediate backend) nothing runs
later, and ``manage.py send_meetup_reminders`` from cron sends them; both ways together send
nothing twice.
"""

from __future__ import annotations

import datetime
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import Min, QuerySet
from django.tasks import TaskResultStatus, task
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from clubsite.club_scope import current_club_id, task_scope
from meetings import emails
from meetings.models import Application, State


def pending(meetup_id: int | None = None) -> QuerySet[Application]:
    """The applications waiting for a reminder: seated in a provisional line-up, asked to
    confirm, neither confirmed, withdrawn nor reminded yet (of one meetup, or of all)."""
    applications = Application.objects.filter(
        meetup__state=State.PROVISIONAL,
        seated=True,
        withdrawn_at__isnull=True,
        confirmed_at__isnull=True,
        reminded_at__isnull=True,
        confirm_requested_at__isnull=False,
    )
    return applications if meetup_id is None else applications.filter(meetup_id=meetup_id)


def reminder_delay() -> datetime.timedelta:
    """``MEETUP_REMINDER_HOURS`` as a duration."""
    return datetime.timedelta(hours=settings.MEETUP_REMINDER_HOURS)


def reminders_send(
    *,
    after: datetime.timedelta,
    now: datetime.datetime | None = None,
    meetup_id: int | None = None,
) -> int:
    """E-mail each member of a provisional line-up (of ``meetup_id``, or of every meetup) who
    was asked to confirm more than ``after`` ago and has not, once per request to confirm.
    Returns how many members were reminded."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            pending(meetup_id)
            .select_for_update(skip_locked=True)
            .filter(confirm_requested_at__lte=now - after)
        )
        for application in due:
            application.reminded_at = now
            application.save(update_fields=["reminded_at"])
        ids = [application.pk for application in due]
        if ids:
            transaction.on_commit(
                partial(emails.send_reminder_emails.enqueue, ids, club_id=current_club_id()),
                robust=True,
            )
    return len(ids)


def schedule_reminders(meetup_id: int) -> datetime.datetime | None:
    """Queue :func:`send_due_reminders` for meetup ``meetup_id`` of the club in scope, with
    that club's id, at the moment its first pending reminder falls due (now, if that has
    passed), unless the same run is queued already. Returns that moment, or None: nobody is
    waiting, or the backend runs nothing later."""
    if not send_due_reminders.get_backend().supports_defer:
        return None
    first = pending(meetup_id).aggregate(first=Min("confirm_requested_at"))["first"]
    if first is None:
        return None
    due = max(first + reminder_delay(), timezone.now())
    club_id = current_club_id()
    queued = DBTaskResult.objects.filter(
        task_path=send_due_reminders.module_path,
        status=TaskResultStatus.READY,
        run_after=due,
        args_kwargs={"args": [meetup_id], "kwargs": {"club_id": club_id}},
    )
    if not queued.exists():
        send_due_reminders.using(run_after=due).enqueue(meetup_id, club_id=club_id)
    return due


@task
def send_due_reminders(meetup_id: int, *, club_id: int | None = None) -> int:
    """Remind the members of meetup ``meetup_id`` whose reminder is due
    (:func:`reminders_send`), then schedule the next run if others fall due later; run as
    club ``club_id``'s (None: the site's one club, a task queued before clubs). Returns how
    many were reminded."""
    with task_scope(club_id):
        count = reminders_send(after=reminder_delay(), meetup_id=meetup_id)
        first = pending(meetup_id).aggregate(first=Min("confirm_requested_at"))["first"]
        if first is not None and first + reminder_delay() > timezone.now():
            schedule_reminders(meetup_id)
    return count
