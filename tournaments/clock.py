"""The round's clock (rules-spec T-07): a time-limited round ends at its start
plus its length (:attr:`tournaments.models.Round.ends_at`), a table gets its steward's extra
time on top, and when a table's time is up the hand in play is its last (the ledger's
:func:`scoring.ledger.hanchan_call_time`).

Time is called by a steward (every table of the round at once,
:func:`tournaments.services.round_call_time`) or by the clock itself: whichever page looks at
a table after its end (the table's own clock, polled every 10 s by each phone at the table;
the event page; the live board) calls it there (:func:`call_due`), so no worker has to be
awake at the minute the round ends. Calling is idempotent: the ledger records one call.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.dates import club_time_zone
from clubsite.models import Member
from scoring.ledger import LedgerError, hanchan_call_time
from scoring.models import Hanchan
from tournaments.models import Round, Table

MAX_EXTRA_MINUTES = 60
"""The most extra time a table can have in all (a dispute; more is a round of its own)."""


class ClockError(Exception):
    """An action on the clock that is refused; ``str(error)`` says why, for a person."""


@dataclass(frozen=True, slots=True)
class Clock:
    """One table's clock as of ``now``: ``ends_at`` (the round's end plus the table's
    ``extra_minutes``; ``None``: no clock), whether time has been ``called`` at the table
    (the ledger's ``Hanchan.time_called``) and whether its game is still ``in_play``."""

    ends_at: datetime.datetime | None
    extra_minutes: int
    called: bool
    in_play: bool
    now: datetime.datetime

    @property
    def ends_local(self) -> str:
        """The end as the club's clock shows it ("14:30", in the current club's time zone,
        :func:`clubsite.dates.club_time_zone`)."""
        if self.ends_at is None:
            return ""
        return self.ends_at.astimezone(club_time_zone()).strftime("%H:%M")

    @property
    def seconds_left(self) -> int | None:
        """Whole seconds until the end (0 once it is past), ``None`` without a clock."""
        if self.ends_at is None:
            return None
        return max(0, int((self.ends_at - self.now).total_seconds()))

    @property
    def minutes_left(self) -> int | None:
        """Minutes left, rounded up (a clock says "1 min" until the very end)."""
        seconds = self.seconds_left
        return None if seconds is None else -(-seconds // 60)

    @property
    def due(self) -> bool:
        """The table's time is up and the ledger has not been told yet."""
        return (
            self.in_play
            and not self.called
            and self.ends_at is not None
            and self.ends_at <= self.now
        )

    @property
    def time_up(self) -> bool:
        """The hand in play is the table's last: time was called, or is due to be."""
        return self.in_play and (self.called or self.due)

    @property
    def state(self) -> str:
        """``"over"`` (the game is finished or voided), ``"time_up"``, ``"running"`` (time
        left on the clock) or ``"no_clock"`` (in play, time called by hand only)."""
        if not self.in_play:
            return "over"
        if self.time_up:
            return "time_up"
        return "running" if self.ends_at is not None else "no_clock"


def table_end(
    round_ends_at: datetime.datetime | None, extra_minutes: int
) -> datetime.datetime | None:
    """When a table's time is up: the round's end plus its extra time (``None``: no clock)."""
    if round_ends_at is None:
        return None
    return round_ends_at + datetime.timedelta(minutes=extra_minutes)


def clock_of(
    rnd: Round, table: Table | None, hanchan: Hanchan, now: datetime.datetime | None = None
) -> Clock:
    """The clock of ``table`` (its game ``hanchan``) in ``rnd``; ``table`` ``None`` for the
    round's own clock (no extra time). No query."""
    extra = table.extra_minutes if table is not None else 0
    return Clock(
        ends_at=table_end(rnd.ends_at, extra),
        extra_minutes=extra,
        called=hanchan.time_called,
        in_play=hanchan.status == Hanchan.Status.IN_PLAY,
        now=now or timezone.now(),
    )


def round_clock(rnd: Round, now: datetime.datetime | None = None) -> Clock | None:
    """The round's clock without any table's extra time (``None`` for a round not started
    or without a clock). No query."""
    if rnd.started_at is None or rnd.ends_at is None:
        return None
    return Clock(rnd.ends_at, 0, called=False, in_play=True, now=now or timezone.now())


def call_due(tables: Iterable[tuple[Round, Table, Hanchan]], by: Member | None = None) -> int:
    """Call time, through the ledger, at each given table whose time is up and not yet called
    (``by`` ``None``: the clock did). Returns how many were called; ``hanchan.time_called``
    is set on the objects given, so the page shows it without reading them again. A game
    that ended meanwhile is left alone."""
    called = 0
    now = timezone.now()
    for rnd, table, hanchan in tables:
        if not clock_of(rnd, table, hanchan, now).due:
            continue
        try:
            hanchan_call_time(hanchan_id=hanchan.pk, by=by)
        except LedgerError:
            continue  # the last hand was entered while we looked: nothing to call
        hanchan.time_called = True
        called += 1
    return called


def table_extra_time(*, table_id: int, minutes: int, by: Member | None = None) -> Table:
    """Give a table ``minutes`` more (a dispute stopped play): its end moves on; if its time
    had been called and the new end is still ahead, the call is taken back through the
    ledger (the hand in play is no longer the last). One transaction.

    Raises:
        ClockError: minutes not from 1 to :data:`MAX_EXTRA_MINUTES` in all, a round without
            a clock, or a game that is over.
    """
    with transaction.atomic():
        try:
            table = (
                Table.objects.select_for_update()
                .select_related("round", "hanchan")
                .get(pk=table_id)
            )
        except Table.DoesNotExist:
            raise ClockError(_("There is no such table.")) from None
        if table.round.ends_at is None:
            raise ClockError(_("This round has no clock."))
        if minutes < 1 or table.extra_minutes + minutes > MAX_EXTRA_MINUTES:
            raise ClockError(
                _("Extra time is 1 to %(n)d minutes in all for a table.") % {"n": MAX_EXTRA_MINUTES}
            )
        if table.hanchan.status != Hanchan.Status.IN_PLAY:
            raise ClockError(_("This table's game is over."))
        table.extra_minutes += minutes
        table.save(update_fields=["extra_minutes"])
        end = table_end(table.round.ends_at, table.extra_minutes)
        if table.hanchan.time_called and end is not None and end > timezone.now():
            hanchan_call_time(hanchan_id=table.hanchan_id, by=by, cancel=True)
    return table
