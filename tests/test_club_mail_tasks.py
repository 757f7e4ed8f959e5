"""The e-mail tasks run as the club they were queued for (clubsite.club_scope.task_scope): a
worker has no request's scope, and on a site of several clubs it must not guess
(docs/clubs.md, "Tasks"). Their links name the club (``/c/<slug>/``, clubsite.club_links) and
their subjects the club's name. Pages open to visitors fetched without a club's prefix on such
a site: a calendar feed still finds its club by its secret; anything else is 404, not 500."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.core import mail
from django.test import Client
from django_scopes.state import state
from django_tasks_db.models import DBTaskResult

from clubsite.club_model import Club
from clubsite.club_scope import ClubNotChosen, only_club
from clubsite.desk.members import member_add
from clubsite.desk.welcome import send_welcome_email
from clubsite.mail import resend_email
from meetings import services
from meetings.emails import notice_delivered, send_notice_emails, send_reminder_emails
from meetings.models import MeetupProfile, Notice
from meetings.reminders import reminders_send, send_due_reminders
from tests.test_meetings_support import more_members, post, provisional, with_email
from tests.test_tasks import DATABASE
from tests.test_tournament_pages import _today, field
from tournaments.emails import send_seating_emails
from tournaments.models import Event
from tournaments.services import event_create, event_draw, participants_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def site_of_two(settings) -> tuple[Club, Club]:
    """The site club (where the personas are) and a second club: no work may guess now."""
    settings.TASKS = DATABASE
    home = only_club()
    home.name = "Makura Club"
    home.save(update_fields=["name"])
    fuji = Club.objects.create(slug="fuji", name="Shinbashi FUJI Club")
    return home, fuji


@contextmanager
def as_a_worker() -> Iterator[None]:
    """No scope at all, as in a worker process: only the task's own arguments say whose."""
    previous = state.get()
    state.set({})
    try:
        yield
    finally:
        state.set(previous)


def queued(task) -> list[DBTaskResult]:
    return list(DBTaskResult.objects.filter(task_path=task.module_path).order_by("enqueued_at"))


def run_queued(task) -> list[int]:
    """Run each queued call of ``task`` as a worker would: no scope, its own arguments."""
    results = []
    with as_a_worker():
        for row in queued(task):
            arguments = row.args_kwargs
            results.append(task.call(*arguments["args"], **arguments["kwargs"]))
    return results


def test_a_notice_is_queued_with_its_club_and_sent_by_a_worker(
    site_of_two, coordinator, member, other_member, django_capture_on_commit_callbacks
) -> None:
    home, _fuji = site_of_two
    with_email(coordinator, member, other_member)
    with django_capture_on_commit_callbacks(execute=True):
        meetup = post(coordinator, days=[7])
        services.meetup_apply(meetup_id=meetup.pk, by=member.user)
    rows = queued(send_notice_emails)
    assert [r.args_kwargs["kwargs"] for r in rows] == [{"club_id": home.pk}] * 2
    assert mail.outbox == []

    assert sum(run_queued(send_notice_emails)) == len(mail.outbox) > 0
    # The coordinator hears of the application; the list of both notices.
    (to_coordinator,) = [m for m in mail.outbox if coordinator.user.email in m.to[0]]
    assert to_coordinator.subject.startswith("[Makura Club] ")
    assert member.display_name in to_coordinator.subject
    assert f"http://127.0.0.1:8000/c/{home.slug}/meetups/{meetup.pk}/" in to_coordinator.body
    assert [m.to for m in mail.outbox if "club-list" in m.to[0]] == [["club-list@example.org"]] * 2


def test_a_notice_task_without_its_club_stops_on_a_site_of_two(
    site_of_two, coordinator, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        meetup = post(coordinator, days=[7])
    notice = Notice.objects.filter(meetup=meetup).latest("pk")
    with as_a_worker(), pytest.raises(ClubNotChosen):
        send_notice_emails.call(notice.pk, [coordinator.pk])
    assert mail.outbox == []


def test_reminders_carry_their_club_from_schedule_to_mail(
    site_of_two, coordinator, member, other_member, django_capture_on_commit_callbacks
) -> None:
    home, _fuji = site_of_two
    players = [member, other_member, *more_members("fujii")]
    with_email(coordinator, *players)
    with django_capture_on_commit_callbacks(execute=True):
        meetup = provisional(coordinator, players, days=[7])
    (scheduled,) = queued(send_due_reminders)
    assert scheduled.args_kwargs == {"args": [meetup.pk], "kwargs": {"club_id": home.pk}}

    # A day later: the scheduled run, in a worker, marks who is due and queues their mail.
    meetup.applications.filter(seated=True).update(
        confirm_requested_at=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert run_queued(send_due_reminders) == [3]
    (reminder,) = queued(send_reminder_emails)
    assert reminder.args_kwargs["kwargs"] == {"club_id": home.pk}
    assert run_queued(send_reminder_emails) == [3]
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        f"{p.display_name} <{p.user.email}>" for p in players
    )
    assert all(f"/c/{home.slug}/meetups/{meetup.pk}/" in m.body for m in mail.outbox)
    assert reminders_send(after=datetime.timedelta(0)) == 0  # nobody twice


def test_a_later_attempt_of_a_notice_clears_it_in_its_own_club(
    site_of_two, coordinator, django_capture_on_commit_callbacks
) -> None:
    home, _fuji = site_of_two
    with django_capture_on_commit_callbacks(execute=True):
        meetup = post(coordinator, days=[7])
    notice = Notice.objects.filter(meetup=meetup).latest("pk")
    Notice.objects.filter(pk=notice.pk).update(undelivered=["aoki@example.org"])
    with as_a_worker():
        notice_delivered(
            origin={"notice": notice.pk, "club": home.pk}, recipient="aoki@example.org"
        )
    notice.refresh_from_db()
    assert notice.undelivered == []


def test_the_welcome_mail_is_queued_with_its_club(
    site_of_two, django_capture_on_commit_callbacks
) -> None:
    home, _fuji = site_of_two
    with django_capture_on_commit_callbacks(execute=True):
        added = member_add(
            data={
                "username": "kimura",
                "email": "kimura@example.org",
                "steward": False,
                "display_name": "Kimura",
                "furigana": "きむら",
                "phone": "",
                "women_division": False,
            },
            language="en",
        )
    (row,) = queued(send_welcome_email)
    assert row.args_kwargs == {"args": [added.pk, "en"], "kwargs": {"club_id": home.pk}}
    assert run_queued(send_welcome_email) == [1]
    (message,) = mail.outbox
    assert message.to == ["Kimura <kimura@example.org>"]
    assert "http://127.0.0.1:8000/accounts/reset/" in message.body
    assert queued(resend_email) == []


def test_a_calendar_feed_without_the_prefix_finds_its_club_by_its_secret(
    site_of_two, member
) -> None:
    home, _fuji = site_of_two
    profile = MeetupProfile.of(member)
    profile.new_calendar_token()
    token = profile.calendar_token
    for address in (
        f"/meetups/calendar/{token}.ics",
        f"/c/{home.slug}/meetups/calendar/{token}.ics",
    ):
        response = Client().get(address)
        assert response.status_code == 200, address
        assert response.content.startswith(b"BEGIN:VCALENDAR")
    assert Client().get("/meetups/calendar/not-a-secret.ics").status_code == 404
    assert Client().get(f"/c/fuji/meetups/calendar/{token}.ics").status_code == 404


def test_a_public_board_without_the_prefix_is_404_on_a_site_of_two(site_of_two) -> None:
    home, _fuji = site_of_two
    event = Event.objects.create(
        name="Makura Cup",
        format=Event.Format.CUSTOM,
        ruleset_id="makura-1.5",
        starts_on=datetime.date(2026, 12, 5),
        ends_on=datetime.date(2026, 12, 5),
        public=True,
    )
    prefixed = Client().get(f"/c/{home.slug}/tournaments/{event.pk}/board/")
    assert prefixed.status_code == 200 and "Makura Cup" in prefixed.text
    # Whose event 1 is cannot be told from this address: no page, not a server error.
    assert Client().get(f"/tournaments/{event.pk}/board/").status_code == 404


def test_seating_mails_are_queued_with_the_events_club(
    site_of_two, django_capture_on_commit_callbacks
) -> None:
    home, _fuji = site_of_two
    players = field(8)
    event = event_create(
        name="Meijin", format_key="meijin", ruleset_id="makura-1.5", starts_on=_today()
    )
    participants_set(event_id=event.pk, members=players)
    with django_capture_on_commit_callbacks(execute=True):
        event_draw(event_id=event.pk)
    (row,) = queued(send_seating_emails)
    assert row.args_kwargs["kwargs"] == {"club_id": home.pk}
    assert run_queued(send_seating_emails) == [8]
    first = next(m for m in mail.outbox if "p00@" in m.to[0])
    assert first.subject == "[Makura Club] Meijin: your tables"
    assert f"http://127.0.0.1:8000/c/{home.slug}/tournaments/{event.pk}/" in first.body
