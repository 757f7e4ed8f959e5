"""The worker's queue end to end: mails enqueued with the database backend,
run by `manage.py db_worker`, delivered to the locmem outbox; a mail the server refuses tried
again with backoff and, after the last attempt, failed and shown to the stewards; meetup
reminders scheduled for their time, moved with the meetup, dropped when it is cancelled; the
worker's heartbeat."""

from __future__ import annotations

import datetime

import pytest
from django.core import mail
from django.core.mail import EmailMessage, mailers
from django.tasks import TaskResultStatus
from django.utils import timezone, translation
from django_tasks_db.models import DBTaskResult

from clubsite import worker_health
from clubsite.mail import resend_email, send_each
from clubsite.models import Member
from clubsite.task_queue import TaskRow, task_row
from clubsite.task_retries import MAX_ATTEMPTS, RETRY_DELAYS
from meetings import services
from meetings.models import Application, Meetup, Notice, Venue
from meetings.reminders import send_due_reminders
from tests.test_meetings_support import (
    day,
    fresh,
    mail_to,
    more_members,
    post,
    provisional,
    with_email,
)
from tests.test_tasks import DATABASE, run_worker, worker_process_state  # noqa: F401

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("worker_process_state"),
]


@pytest.fixture(autouse=True)
def queue(settings) -> None:
    settings.TASKS = DATABASE
    # A transactional test starts from empty tables: the venue the migrations seed is gone.
    Venue.objects.get_or_create(name="ビック", defaults={"address": "札幌"})


@pytest.fixture
def players(member: Member, other_member: Member, coordinator: Member) -> list[Member]:
    everyone = [member, other_member, *more_members("fujii", "goto")]
    with_email(coordinator, *everyone)
    return everyone


@pytest.fixture
def refusing(monkeypatch) -> list[int]:
    """The mail server refuses every message while the returned list holds a 1 (its first
    item); the count of refusals is appended."""
    backend = type(mailers.default)
    real = backend.send_messages
    switch = [1]

    def refuse(self, messages):
        if switch[0]:
            switch.append(1)
            raise ConnectionRefusedError(111, "Connection refused")
        return real(self, messages)

    monkeypatch.setattr(backend, "send_messages", refuse)
    return switch


def tasks(task) -> list[DBTaskResult]:
    return list(DBTaskResult.objects.filter(task_path=task.module_path).order_by("enqueued_at"))


def make_due(task) -> None:
    """The clock moved on: the task's queued runs are due now."""
    DBTaskResult.objects.filter(task_path=task.module_path, status="READY").update(
        run_after=timezone.now() - datetime.timedelta(seconds=1)
    )


def row_in_english(result: DBTaskResult) -> TaskRow:
    """The stewards' page's row of the task, in English."""
    with translation.override("en"):
        return task_row(result)


# -- a mail through the worker -----------------------------------------------------------------


def test_a_notice_waits_for_the_worker_and_reaches_the_outbox(coordinator, players):
    meetup = post(coordinator, days=[7])
    services.meetup_apply(meetup_id=meetup.pk, by=players[0].user)
    assert mail.outbox == []
    assert [r.status for r in DBTaskResult.objects.order_by("enqueued_at")] == ["READY", "READY"]

    run_worker()

    assert DBTaskResult.objects.filter(status="SUCCESSFUL").count() == 2
    to_coordinator = mail_to(mail.outbox, coordinator)
    assert len(to_coordinator) == 1 and "Aoki" in to_coordinator[0].subject
    assert sorted(m.to[0] for m in mail.outbox if "club-list" in m.to[0]) == [
        "club-list@example.org",
        "club-list@example.org",
    ]


# -- retries -----------------------------------------------------------------------------------


def test_a_refused_mail_is_tried_again_later_and_delivered(coordinator, players, refusing):
    started = timezone.now()
    provisional(coordinator, players)
    run_worker()
    assert mail.outbox == []
    retries = [r for r in tasks(resend_email) if r.status == "READY"]
    # Five members of the line-up and the applicants told, and the list: each its own retry.
    assert len(retries) == len(refusing) - 1 > 0
    first = retries[0]
    message, what = first.args_kwargs["args"]
    notice = Notice.objects.get(pk=int(what.split()[1]))
    assert first.args_kwargs["kwargs"] == {
        "attempt": 2,
        "last_error": "ConnectionRefusedError: [Errno 111] Connection refused",
        # The notice's club: the later attempt's receiver runs in the worker as that club's.
        "origin": {"notice": notice.pk, "club": notice.meetup.club_id},
    }
    assert what.startswith("notice ") and message["to"]
    # The meetup page lists the recipients as not delivered while the retries wait.
    assert message["to"] == notice.undelivered
    assert sum(len(n.undelivered) for n in Notice.objects.all()) == len(retries)
    waited = first.run_after - started
    assert RETRY_DELAYS[0] <= waited < RETRY_DELAYS[0] + datetime.timedelta(seconds=30)

    # Not yet due: the worker leaves them.
    run_worker()
    assert mail.outbox == [] and first.__class__.objects.get(pk=first.pk).status == "READY"

    row = row_in_english(DBTaskResult.objects.get(pk=first.pk))
    assert (row.label, row.status, row.attempt, row.when) == (
        "E-mail, another attempt",
        "READY",
        2,
        first.run_after,
    )
    assert row.to == message["to"][0] and row.error.endswith("Connection refused")

    refusing[0] = 0  # the server is back
    make_due(resend_email)
    run_worker()
    assert len(mail.outbox) == len(retries)
    assert {m.to[0] for m in mail.outbox} >= {message["to"][0]}
    assert all(r.status == "SUCCESSFUL" for r in tasks(resend_email))
    # Delivered at the second attempt: no longer listed as not delivered.
    assert [n.undelivered for n in Notice.objects.all()] == [[]] * Notice.objects.count()
    waiting = DBTaskResult.objects.filter(status__in=["READY", "RUNNING"])
    assert [row_in_english(r).label for r in waiting] == ["Scheduled meetup reminders"]


def test_the_waits_grow_and_the_last_failure_shows_on_the_stewards_page(member, refusing):
    message = EmailMessage("Hello", "Body", "club@example.org", ["aoki@example.org"])
    assert send_each([message], "greeting") == (0, ["aoki@example.org"])
    waits = []
    for attempt in range(2, MAX_ATTEMPTS + 1):
        (queued,) = [r for r in tasks(resend_email) if r.status == "READY"]
        assert queued.args_kwargs["kwargs"]["attempt"] == attempt
        waits.append(queued.run_after - queued.enqueued_at)
        make_due(resend_email)
        run_worker()
    assert [round(w.total_seconds() / 60) for w in waits] == [1, 5, 30, 120, 360]

    results = tasks(resend_email)
    assert [r.status for r in results] == ["SUCCESSFUL"] * (MAX_ATTEMPTS - 2) + ["FAILED"]
    assert results[-1].exception_class_path == "clubsite.mail.MailNotDelivered"
    assert mail.outbox == []

    row = row_in_english(results[-1])
    assert (row.label, row.status, row.when) == (
        "E-mail, another attempt",
        "FAILED",
        results[-1].finished_at,
    )
    assert row.error == (
        f"clubsite.mail.MailNotDelivered: greeting: e-mail to aoki@example.org not delivered "
        f"after {MAX_ATTEMPTS} attempts: ConnectionRefusedError: [Errno 111] Connection refused"
    )


# -- scheduled reminders -------------------------------------------------------------------------


def asked_ago(meetup: Meetup, hours: float) -> None:
    Application.objects.filter(meetup=meetup, seated=True).update(
        confirm_requested_at=timezone.now() - datetime.timedelta(hours=hours)
    )


def test_a_reminder_is_scheduled_for_its_time(coordinator, players, settings):
    asked = timezone.now()
    meetup = provisional(coordinator, players)
    (scheduled,) = tasks(send_due_reminders)
    assert scheduled.args_kwargs["args"] == [meetup.pk]
    expected = asked + datetime.timedelta(hours=settings.MEETUP_REMINDER_HOURS)
    assert abs(scheduled.run_after - expected) < datetime.timedelta(seconds=30)
    # A confirmation asks nobody new: the same run stays the one scheduled.
    services.meetup_confirm(meetup_id=meetup.pk, by=players[0].user)
    assert len([r for r in tasks(send_due_reminders) if r.status == "READY"]) == 1

    run_worker()
    mail.outbox.clear()
    asked_ago(meetup, 25)  # a day has passed
    make_due(send_due_reminders)
    run_worker()

    reminded = {m.to[0] for m in mail.outbox}
    assert reminded == {"Baba <baba@example.org>", "Fujii <fujii@example.org>"}
    assert tasks(send_due_reminders)[0].return_value == 2


def test_a_moved_meetup_is_reminded_at_its_new_time_only(coordinator, players):
    meetup = provisional(coordinator, players)
    for person in players[:3]:
        services.meetup_confirm(meetup_id=meetup.pk, by=person.user)
    services.meetup_finalize(meetup_id=meetup.pk, by=coordinator.user)
    asked_ago(meetup, 20)  # the move comes 20 hours after the declaration
    moved_at = timezone.now()
    services.meetup_move(
        meetup_id=meetup.pk, by=coordinator.user, date=day(9), start_time=datetime.time(19)
    )
    waiting = [r for r in tasks(send_due_reminders) if r.status == "READY"]
    assert len(waiting) == 2
    new = max(waiting, key=lambda r: r.run_after)
    assert new.run_after - moved_at >= datetime.timedelta(hours=23, minutes=59)
    run_worker()
    mail.outbox.clear()

    # The old time comes: everyone was asked again at the move, so nobody is due.
    DBTaskResult.objects.filter(pk=min(waiting, key=lambda r: r.run_after).pk).update(
        run_after=timezone.now()
    )
    run_worker()
    assert mail.outbox == []

    asked_ago(meetup, 25)
    make_due(send_due_reminders)
    run_worker()
    assert len(mail.outbox) == 3  # the line-up but the coordinator, who moved it


def test_a_cancelled_meetup_sends_no_reminder(coordinator, players):
    meetup = provisional(coordinator, players)
    services.meetup_call_off(meetup_id=meetup.pk, by=coordinator.user)
    run_worker()
    mail.outbox.clear()
    asked_ago(meetup, 25)
    make_due(send_due_reminders)
    run_worker()
    assert mail.outbox == []
    assert fresh(meetup).state != "provisional"
    assert all(r.return_value == 0 for r in tasks(send_due_reminders))


# -- the heartbeat -----------------------------------------------------------------------------


def test_the_heartbeat_shows_a_running_worker():
    assert worker_health.worker_state() == "stale"
    assert worker_health.start_heartbeat() is True
    assert worker_health.start_heartbeat() is False  # one chain
    run_worker()
    assert worker_health.worker_state() == "ok"
    later = timezone.now() + datetime.timedelta(seconds=worker_health.HEARTBEAT_STALE_SECONDS + 1)
    assert worker_health.worker_state(later) == "stale"
    (next_beat,) = tasks(worker_health.heartbeat)[1:]
    assert next_beat.status == TaskResultStatus.READY
    assert 55 <= (next_beat.run_after - timezone.now()).total_seconds() <= 60
    for _ in range(worker_health.KEPT_BEATS + 3):
        make_due(worker_health.heartbeat)
        run_worker()
    beats = tasks(worker_health.heartbeat)
    assert len(beats) == worker_health.KEPT_BEATS + 1  # the kept ones and the next
    assert worker_health.heartbeat.get_backend().supports_defer


def test_the_worker_starts_the_heartbeat():
    """`manage.py db_worker` queues the first beat itself (here it stops after one task)."""
    from django.core.management import call_command

    assert worker_health.worker_state() == "stale"
    call_command(
        "db_worker",
        "--max-tasks",
        "1",
        "--no-reload",
        "--no-startup-delay",
        "--interval",
        "0",
        verbosity=0,
    )
    assert worker_health.worker_state() == "ok"
    assert [r.status for r in tasks(worker_health.heartbeat)] == ["SUCCESSFUL", "READY"]


def test_a_rating_update_the_database_refused_is_tried_again(monkeypatch, member):
    from django.db import OperationalError

    from ratings import tasks as rating_tasks
    from ratings import updating

    asked: list[list[int]] = []

    def deadlocked(ids):
        asked.append(list(ids))
        if len(asked) == 1:
            raise OperationalError("deadlock detected")

    monkeypatch.setattr(updating, "follow", deadlocked)
    rating_tasks.ratings_follow.enqueue([7, 8])
    run_worker()
    first, again = tasks(rating_tasks.ratings_follow)
    assert (first.status, first.return_value) == ("SUCCESSFUL", 0)
    assert again.status == "READY" and again.args_kwargs == {
        "args": [[7, 8]],
        "kwargs": {"attempt": 2, "last_error": "OperationalError: deadlock detected"},
    }
    row = row_in_english(again)
    assert (row.label, row.attempt, row.error) == (
        "Rating update",
        2,
        "OperationalError: deadlock detected",
    )
    make_due(rating_tasks.ratings_follow)
    run_worker()
    assert asked == [[7, 8], [7, 8]]
    assert tasks(rating_tasks.ratings_follow)[1].return_value == 2
