"""The club's calendar: what day it is where the club plays (the current club's
``time_zone``, :func:`clubsite.club_scope.current_club`).

Dates in the ledger (``Hanchan.played_on``), the standings' periods and the confirmation
rules (a game dated before yesterday needs a steward) are club-local dates.
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.utils import timezone

from clubsite.club_scope import current_club


def club_time_zone() -> ZoneInfo:
    """The current club's time zone (``Club.time_zone``, a zoneinfo key such as
    ``"Asia/Tokyo"``; a new club starts with ``CLUB_TIME_ZONE``). No query inside a club's
    scope, one outside (:func:`clubsite.club_scope.current_club`).

    Raises:
        zoneinfo.ZoneInfoNotFoundError: a key the time zone database does not have (the
            stewards' form refuses one: ``scoring.club_choices``).
        clubsite.club_scope.ClubNotChosen: outside any scope on a site of several clubs.
    """
    return ZoneInfo(current_club().time_zone)


def club_today(now: datetime | None = None) -> date:
    """Today's date where the club is (:func:`club_time_zone`), whatever time zone is
    active for the request; ``now`` (an aware datetime) defaults to the current time.

    Raises as :func:`club_time_zone`."""
    moment = now if now is not None else timezone.now()
    return moment.astimezone(club_time_zone()).date()
