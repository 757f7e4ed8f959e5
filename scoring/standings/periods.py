"""Periods of the standings: months, half years, years, custom ranges and all time, in the
club's local dates (docs/rules-spec.md §4.4, T-04: half years are January-June and
July-December). "Today" is taken in the current club's time zone
(:func:`clubsite.dates.club_today`)."""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

from clubsite.dates import club_today

__all__ = ["club_today"]  # kept here too: the standings' callers read "today" from periods

PeriodKind = Literal["month", "half_year", "year", "range", "all_time"]

# The whole ledger, for "all time": dates every backend stores and compares.
EARLIEST = date(1, 1, 1)
LATEST = date(9999, 12, 31)


@dataclass(frozen=True, slots=True)
class Period:
    """An inclusive range of club-local dates, and what kind of period it is.

    ``kind`` is ``"month"`` (``number`` = 1-12), ``"half_year"`` (``number`` = 1 for
    January-June, 2 for July-December, T-04 a), ``"year"``, ``"range"`` (custom) or
    ``"all_time"``; ``year`` and ``number`` are ``None`` where they do not apply.
    """

    kind: PeriodKind
    start: date
    end: date
    year: int | None = None
    number: int | None = None

    def __contains__(self, day: object) -> bool:
        return isinstance(day, date) and self.start <= day <= self.end

    def previous(self) -> Period:
        """The month, half year or year before this one.

        Raises ``ValueError`` for a custom range or all time, which have no neighbours.
        """
        return self._step(-1)

    def next(self) -> Period:
        """The month, half year or year after this one (``ValueError`` as :meth:`previous`)."""
        return self._step(1)

    def _step(self, step: int) -> Period:
        if self.year is None:
            raise ValueError(f"a {self.kind} period has no previous or next")
        if self.kind == "year":
            return year_period(self.year + step)
        assert self.number is not None
        per_year = 12 if self.kind == "month" else 2
        index = self.year * per_year + self.number - 1 + step
        year, number = divmod(index, per_year)
        if self.kind == "month":
            return month_period(year, number + 1)
        return half_year_period(year, number + 1)


def month_period(year: int, month: int) -> Period:
    """Calendar month ``month`` (1-12) of ``year``. Raises ``ValueError`` for a bad month."""
    last = calendar.monthrange(year, month)[1]
    return Period("month", date(year, month, 1), date(year, month, last), year, month)


def current_month_period(now: datetime | None = None) -> Period:
    """The club's current month (in the current club's time zone), the standings' default."""
    today = club_today(now)
    return month_period(today.year, today.month)


def half_year_period(year: int, half: int) -> Period:
    """上半期 (``half=1``, January-June) or 下半期 (``half=2``, July-December) of ``year``,
    rules-spec T-04 (a). Raises ``ValueError`` for another ``half``."""
    if half == 1:
        return Period("half_year", date(year, 1, 1), date(year, 6, 30), year, 1)
    if half == 2:
        return Period("half_year", date(year, 7, 1), date(year, 12, 31), year, 2)
    raise ValueError(f"half must be 1 or 2, not {half!r}")


def half_year_of(day: date) -> Period:
    """The half year ``day`` falls in."""
    return half_year_period(day.year, 1 if day.month <= 6 else 2)


def year_period(year: int) -> Period:
    """Calendar year ``year``."""
    return Period("year", date(year, 1, 1), date(year, 12, 31), year)


def range_period(start: date, end: date) -> Period:
    """A custom range from ``start`` to ``end``, both included.

    Raises ``ValueError`` when ``end`` is before ``start``.
    """
    if end < start:
        raise ValueError("the end of a period cannot be before its start")
    return Period("range", start, end)


def all_time_period() -> Period:
    """Every game in the ledger."""
    return Period("all_time", EARLIEST, LATEST)
