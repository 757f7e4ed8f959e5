"""Helpers for the meetup tests (this module holds no tests): more players, calls for players
in each state, e-mail addresses and the outbox.

The personas come from ``tests/conftest.py``. A typical table: Chiba (``coordinator``) posts a
call and plays; Aoki (``member``, the one with a phone number), Baba (``other_member``) and
Fujii apply, in that order, and Goto after them (the waiting list).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence

from django.core.mail import EmailMessage
from django.utils import timezone

from clubsite.models import Member
from meetings import services
from meetings.models import Application, Meetup, Venue
from scoring.models import Hanchan, RulesetVersion, Seat
from tests.conftest import make_member

AOKI_PHONE = "090-1234-5678"


def day(offset: int) -> datetime.date:
    """The day ``offset`` days from today, in the club's time zone."""
    return timezone.localdate() + datetime.timedelta(days=offset)


def more_members(*usernames: str) -> list[Member]:
    """Plain members beyond the personas: ``more_members("fujii", "goto")``."""
    return [make_member(name, name.title(), name) for name in usernames]


def with_email(*members: Member) -> None:
    for member in members:
        member.user.email = f"{member.user.username}@example.org"
        member.user.save(update_fields=["email"])


def fresh(meetup: Meetup) -> Meetup:
    return Meetup.objects.for_page().get(pk=meetup.pk)


def seat_of(meetup: Meetup, member: Member) -> Application:
    """``member``'s application to ``meetup``, which must be in."""
    application = meetup.application_of(member)
    assert application is not None, f"{member} has not applied"
    return application


def post(
    coordinator: Member,
    *,
    days: Sequence[int] = (7, 8),
    plays: bool = True,
    tables: int = 1,
    ruleset_id: str = "makura-1.5",
) -> Meetup:
    return services.meetup_post(
        by=coordinator.user,
        dates=[day(offset) for offset in days],
        venue=Venue.objects.get(name="ビック"),
        ruleset_id=ruleset_id,
        tables=tables,
        coordinator_plays=plays,
    )


def apply(meetup: Meetup, *members: Member, days: Iterable[int] | None = None) -> Meetup:
    dates = None if days is None else [day(offset) for offset in days]
    for member in members:
        services.meetup_apply(meetup_id=meetup.pk, by=member.user, dates=dates)
    return fresh(meetup)


def provisional(
    coordinator: Member, players: Sequence[Member], *, days: Sequence[int] = (7, 8)
) -> Meetup:
    """Coordinator plus ``players`` applied in order; the line-up declared for the first day
    (the coordinator and the first three players)."""
    meetup = apply(post(coordinator, days=days), *players)
    services.meetup_declare(meetup_id=meetup.pk, by=coordinator.user, date=day(days[0]))
    return fresh(meetup)


def confirmed(
    coordinator: Member, players: Sequence[Member], *, days: Sequence[int] = (7, 8)
) -> Meetup:
    """As :func:`provisional`, then everyone confirms and the final notice is out."""
    meetup = provisional(coordinator, players, days=days)
    for application in meetup.lineup():
        if application.confirmed_at is None:
            services.meetup_confirm(meetup_id=meetup.pk, by=application.member.user)
    services.meetup_finalize(meetup_id=meetup.pk, by=coordinator.user)
    return fresh(meetup)


def finished_game(
    played_on: datetime.date, players: Sequence[Member], *, table: str = "A"
) -> Hanchan:
    """A finished hanchan in the ledger, as if entered at the table."""
    game = Hanchan.objects.create(
        ruleset_version=RulesetVersion.current("makura-1.5"),
        played_on=played_on,
        table_name=table,
        status=Hanchan.Status.FINISHED,
        venue="ビック",
    )
    scores = [41000, 30000, 19000, 10000]
    for index, member in enumerate(players):
        Seat.objects.create(
            hanchan=game,
            index=index,
            member=member,
            final_score=scores[index],
            rank=index + 1,
            points=scores[index] - 30000,
        )
    return game


def mail_to(outbox: Sequence[EmailMessage], member: Member) -> list[EmailMessage]:
    return [message for message in outbox if any(member.user.email in to for to in message.to)]


def mail_to_list(outbox: Sequence[EmailMessage]) -> list[EmailMessage]:
    return [message for message in outbox if "club-list@example.org" in message.to]
