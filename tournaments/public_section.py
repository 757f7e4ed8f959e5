"""The tournaments' part of the club's public page (``clubsite.public``): links to the live
boards the club's stewards made public (``Event.public``), which visitors may open without a
login (:func:`tournaments.board_views.event_board`). The event's name and days only here; the
board itself shows what a board shows."""

from __future__ import annotations

import datetime

from clubsite.club_model import Club
from clubsite.dates import club_today
from tournaments.models import Event

PUBLIC_BOARDS = 5
"""The most boards the public page links."""

RECENT_DAYS = 30
"""A board stays linked this many days after its event's last day."""


def boards_section(club: Club) -> dict[str, object] | None:
    """``events``: the club's public events, not cancelled, whose last day is at most
    :data:`RECENT_DAYS` ago, soonest first; None when there is none. One query."""
    since = club_today() - datetime.timedelta(days=RECENT_DAYS)
    events = list(
        Event.objects.filter(public=True, ends_on__gte=since)
        .exclude(status=Event.Status.CANCELLED)
        .order_by("starts_on", "pk")[:PUBLIC_BOARDS]
    )
    return {"events": events} if events else None
