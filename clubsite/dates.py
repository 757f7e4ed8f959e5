"""The club's calendar: what day it is where the club plays (``settings.CLUB_TIME_ZONE``).

Dates in the ledger (``Hanchan.played_on``), the standings' periods and the confirmation
rules (a game dated before yesterday needs a steward) are club-local dates.
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone


def club_today(now: datetime | None = None) -> date:
    """Today's date where the club is (``settings.CLUB_TIME_ZONE``), whatever time zone is
    active for the request; ``now`` (an aware datetime) defaults to the current time."""
    moment = now if now is not None else timezone.now()
    return moment.astimezone(ZoneInfo(settings.CLUB_TIME_ZONE)).date()
