"""The meetups' part of the club's public page (``clubsite.public``): the club's venues and
its next meetups, as a visitor may see them.

A venue shows what the club keeps of the place itself (name, role, address, directions, the
venue's phone); a meetup its days, start time, venue and whether it is still calling for
players. Never a member: no coordinator, no applicant, no line-up, no count of them.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Q

from clubsite.club_model import Club
from clubsite.dates import club_today
from meetings.display import format_day, join_list
from meetings.models import Meetup, Venue
from meetings.states import ARRANGING, State

NEXT_MEETUPS = 5
"""The most meetups the public page lists."""


@dataclass(frozen=True)
class PublicMeetup:
    """A meetup as a visitor sees it: ``days`` (the declared day, or the candidate days from
    today on), ``time`` (``"19:00"``), ``venue`` (its name) and ``recruiting`` (still calling
    for players)."""

    days: str
    time: str
    venue: str
    recruiting: bool


def venues_section(club: Club) -> dict[str, object] | None:
    """``venues``: the club's venues in their order; None when it has none."""
    venues = list(Venue.objects.all())
    return {"venues": venues} if venues else None


def next_meetups(today: datetime.date, limit: int = NEXT_MEETUPS) -> list[PublicMeetup]:
    """The club's meetups being arranged (recruiting, provisional, confirmed) with a day from
    ``today`` on, soonest first, at most ``limit``. Two queries."""
    meetups = (
        Meetup.objects.filter(state__in=ARRANGING)
        .filter(Q(date__gte=today) | Q(date__isnull=True, candidate_dates__date__gte=today))
        .select_related("venue")
        .prefetch_related("candidate_dates")
        .distinct()
    )
    rows = []
    for meetup in meetups:
        days = [day for day in meetup.days() if day >= today]
        if days:
            rows.append((min(days), meetup, days))
    rows.sort(key=lambda row: (row[0], row[1].start_time, row[1].pk))
    return [
        PublicMeetup(
            days=join_list(format_day(day) for day in days),
            time=meetup.time_text(),
            venue=meetup.venue.name,
            recruiting=meetup.state == State.RECRUITING,
        )
        for _first, meetup, days in rows[:limit]
    ]


def meetups_section(club: Club) -> dict[str, object] | None:
    """``meetups``: :func:`next_meetups` from the club's today; None when none is planned."""
    meetups = next_meetups(club_today())
    return {"meetups": meetups} if meetups else None
