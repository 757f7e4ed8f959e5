"""Members' totals per month (``MemberMonth``) and per year (``MemberYear``), kept up to date
in the transaction that counts a game (scoring.ledger.confirmation, scoring.ledger.write).

A row is recomputed rather than added to, since the best game is a maximum: :func:`refresh`
recomputes the month rows of the games' members, months and ruleset versions from the
counted results, then their year rows from the month rows, each with one aggregate query,
and replaces them.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django.db.models import Sum
from django.db.models.functions import TruncMonth, TruncYear

from scoring.models import CountedSeat, MemberMonth, MemberYear
from scoring.standings.counted import ADDED, AGGREGATES, MONTH_SUMS
from scoring.standings.periods import month_period

# The per-hand sums a month adds up, besides the standings row's figures.
HAND_SUMS = ("hands", "wins", "tsumo_wins", "deal_ins", "riichi", "chombo", "win_points")


def refresh(
    members: Iterable[int], months: Iterable[datetime.date], versions: Iterable[int]
) -> None:
    """Recompute the ``MemberMonth`` rows of ``members`` in ``months`` (first days) under
    ``versions``, and the ``MemberYear`` rows of their years: per table one aggregate query,
    one delete, one insert."""
    members, months, versions = set(members), sorted(set(months)), set(versions)
    if not members or not months or not versions:
        return
    counted = CountedSeat.objects.filter(
        member_id__in=members,
        ruleset_version_id__in=versions,
        played_on__range=(months[0], month_period(months[-1].year, months[-1].month).end),
    )
    grouped = (
        counted.values("member_id", "ruleset_version_id", month=TruncMonth("played_on"))
        .annotate(**AGGREGATES, **{name: Sum(name) for name in HAND_SUMS})
        .order_by()
    )
    wanted = set(months)
    rows = [_row(dict(values)) for values in grouped if _as_date(values["month"]) in wanted]
    MemberMonth.objects.filter(
        member_id__in=members, ruleset_version_id__in=versions, month__in=months
    ).delete()
    MemberMonth.objects.bulk_create(rows, batch_size=2000)
    _refresh_years(members, {datetime.date(m.year, 1, 1) for m in months}, versions)


def _refresh_years(members: set[int], years: set[datetime.date], versions: set[int]) -> None:
    first, last = min(years), max(years)
    grouped = (
        MemberMonth.objects.filter(
            member_id__in=members,
            ruleset_version_id__in=versions,
            month__range=(first, datetime.date(last.year, 12, 31)),
        )
        .values("member_id", "ruleset_version_id", year=TruncYear("month"))
        .annotate(**MONTH_SUMS, **{name: Sum(name) for name in HAND_SUMS})
        .order_by()
    )
    rows = [
        MemberYear(
            member_id=values["member_id"],
            ruleset_version_id=values["ruleset_version_id"],
            year=_as_date(values["year"]),
            **{name: int(values[name] or 0) for name in (*ADDED, "best", *HAND_SUMS)},
        )
        for values in map(dict[str, Any], grouped)
        if _as_date(values["year"]) in years
    ]
    MemberYear.objects.filter(
        member_id__in=members, ruleset_version_id__in=versions, year__in=years
    ).delete()
    MemberYear.objects.bulk_create(rows, batch_size=2000)


def _row(values: dict[str, Any]) -> MemberMonth:
    return MemberMonth(
        member_id=values["member_id"],
        ruleset_version_id=values["ruleset_version_id"],
        month=_as_date(values["month"]),
        **{
            name: int(values[name] or 0)
            for name in (
                "games", "total_points", "rank_sum", "first", "second", "third", "fourth",
                "lasts", "tobis", "best", *HAND_SUMS,
            )
        },
    )  # fmt: skip


def _as_date(value: datetime.date | datetime.datetime) -> datetime.date:
    return value.date() if isinstance(value, datetime.datetime) else value


__all__ = ["HAND_SUMS", "refresh"]
