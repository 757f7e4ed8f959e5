"""``manage.py send_meetup_reminders``: members of a provisional line-up who have not confirmed
``MEETUP_REMINDER_HOURS`` after being asked get one e-mail per request to confirm."""

from __future__ import annotations

import datetime
import io

import pytest
from django.core import mail
from django.core.management import call_command
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from clubsite.models import Member
from meetings import services
from meetings.models import Application, Meetup, MeetupProfile
from tests.test_meetings_support import (
    AOKI_PHONE,
    day,
    fresh,
    mail_to,
    more_members,
    provisional,
    seat_of,
    with_email,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(member: Member, other_member: Member) -> list[Member]:
    return [member, other_member, *more_members("fujii", "goto")]


@pytest.fixture
def meetup(coordinator: Member, players: list[Member]) -> Meetup:
    """Provisional: Chiba (confirmed by declaring), Aoki, Baba, Fujii asked; Goto waits."""
    with_email(coordinator, *players)
    return provisional(coordinator, players)


def asked_hours_ago(meetup: Meetup, hours: float) -> None:
    Application.objects.filter(meetup=meetup, seated=True).update(
        confirm_requested_at=timezone.now() - datetime.timedelta(hours=hours)
    )


def remind(capture: DjangoCaptureOnCommitCallbacks, *args: str) -> str:
    out = io.StringIO()
    with capture(execute=True):
        call_command("send_meetup_reminders", *args, stdout=out)
    return out.getvalue()


def test_it_reminds_who_has_not_confirmed_after_a_day_once(
    meetup: Meetup,
    players: list[Member],
    coordinator: Member,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    member, other_member, fujii, goto = players
    services.meetup_confirm(meetup_id=meetup.pk, by=other_member.user)
    asked_hours_ago(meetup, 25)

    output = remind(django_capture_on_commit_callbacks)

    assert output.strip() == "Reminded 2 member(s)."
    assert sorted(message.to[0] for message in mail.outbox) == [
        "Aoki <aoki@example.org>",
        "Fujii <fujii@example.org>",
    ]
    (to_aoki,) = mail_to(mail.outbox, member)
    assert to_aoki.subject.startswith("[麻雀クラブ] 確認のお願い：")
    assert "まだ確認がありません" in to_aoki.body
    assert f"/meetups/{meetup.pk}/" in to_aoki.body
    assert AOKI_PHONE not in to_aoki.body
    # The page says who was reminded.
    assert seat_of(fresh(meetup), member).reminded_at is not None

    mail.outbox.clear()
    assert remind(django_capture_on_commit_callbacks).strip() == "Reminded 0 member(s)."
    assert mail.outbox == []


def test_it_waits_for_the_set_time(
    meetup: Meetup,
    settings: Settings,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    settings.MEETUP_REMINDER_HOURS = 48
    asked_hours_ago(meetup, 25)

    remind(django_capture_on_commit_callbacks)
    assert mail.outbox == []

    remind(django_capture_on_commit_callbacks, "--hours", "24")
    assert len(mail.outbox) == 3


def test_it_reminds_again_when_everyone_is_asked_again(
    meetup: Meetup,
    players: list[Member],
    coordinator: Member,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    for person in players[:3]:
        services.meetup_confirm(meetup_id=meetup.pk, by=person.user)
    services.meetup_finalize(meetup_id=meetup.pk, by=coordinator.user)
    services.meetup_move(
        meetup_id=meetup.pk, by=coordinator.user, date=day(9), start_time=datetime.time(19, 0)
    )
    asked_hours_ago(meetup, 30)

    remind(django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 3
    remind(django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 3


def test_it_reminds_in_the_members_language(
    meetup: Meetup,
    players: list[Member],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    MeetupProfile.remember_language(players[0], "en")
    asked_hours_ago(meetup, 25)

    remind(django_capture_on_commit_callbacks)

    (to_aoki,) = mail_to(mail.outbox, players[0])
    assert to_aoki.subject.startswith("[Mahjong club] Please confirm: ")
    assert "you are in the line-up but have not confirmed yet" in to_aoki.body


def test_it_reminds_nobody_once_the_meetup_is_not_provisional(
    meetup: Meetup,
    coordinator: Member,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    services.meetup_call_off(meetup_id=meetup.pk, by=coordinator.user)
    asked_hours_ago(meetup, 25)

    remind(django_capture_on_commit_callbacks)

    assert mail.outbox == []


def test_it_has_help() -> None:
    from meetings.management.commands.send_meetup_reminders import Command

    assert "MEETUP_REMINDER_HOURS" in Command.help
