"""Members' totals per month (``MemberMonth``) and per year (``MemberYear``), kept up to date
in the transaction that counts a game (scoring.ledger.confirmation, scoring.ledger.write).
They are counted data, as ``CountedSeat`` is, so the ledger keeps them and the standings read
them (issue 19 item 1: the ledger imports nothing of the standings).

A row is recomputed rather than added to, since the best game is a maximum: :func:`refresh`
recomputes the month rows of the games' members, months and ruleset versions from the
counted results, then their year rows from the month rows, each with one aggregate query,
and replaces them.
"""

from __future__ import annotations

import calendar
import datetime
from collections.abc import Iterable
from typing import Any

from django.db.models import BigIntegerField, Count, ExpressionWrapper, F, Max, Q, Sum, Value
from django.db.models.functions import TruncMonth, TruncYear

from scoring.ledger.bulk import insert_objects
from scoring.models import CountedSeat, MemberMonth, MemberYear

# Best game in the same aggregate as the rest: Max(points * 2**32 + (2**32 - 1 - hanchan_id))
# is the highest points, and among equal points the lowest (earliest entered) game id; both
# are decoded exactly. Points fit in 32 bits (an IntegerField), ids are below 2**32.
BEST_SHIFT = 32
BEST_MASK = (1 << BEST_SHIFT) - 1

AGGREGATES: dict[str, Any] = {
    "games": Count("pk"),
    "total_points": Sum("points"),
    "rank_sum": Sum("rank"),
    "first": Count("pk", filter=Q(rank=1)),
    "second": Count("pk", filter=Q(rank=2)),
    "third": Count("pk", filter=Q(rank=3)),
    "fourth": Count("pk", filter=Q(rank=4)),
    "lasts": Count("pk", filter=Q(last_place=True)),
    "tobis": Count("pk", filter=Q(busted=True)),
    # The club's own units (issue 20 item 1): chips and ep, 0 under rulesets without them.
    "chips": Sum("chips"),
    "uma_ep": Sum("uma_ep"),
    "best": Max(
        ExpressionWrapper(
            F("points") * Value(1 << BEST_SHIFT) + (Value(BEST_MASK) - F("hanchan_id")),
            output_field=BigIntegerField(),
        )
    ),
}
"""A standings row's figures in one pass over the counted results (see ``StandingsRow``)."""

ADDED = ("games", "total_points", "rank_sum", "first", "second", "third", "fourth", "lasts",
         "tobis", "chips", "uma_ep")  # fmt: skip


# The figures of a standings row as sums of the members' months (MemberMonth columns).
MONTH_SUMS: dict[str, Any] = {
    **{name: Sum(name) for name in ADDED},
    "best": Max("best"),
}

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
        played_on__range=(months[0], _month_end(months[-1])),
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
    insert_objects(MemberMonth, rows)
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
    insert_objects(MemberYear, rows)


def _row(values: dict[str, Any]) -> MemberMonth:
    return MemberMonth(
        member_id=values["member_id"],
        ruleset_version_id=values["ruleset_version_id"],
        month=_as_date(values["month"]),
        **{
            name: int(values[name] or 0)
            for name in (*ADDED, "best", *HAND_SUMS)
        },
    )  # fmt: skip


def _as_date(value: datetime.date | datetime.datetime) -> datetime.date:
    return value.date() if isinstance(value, datetime.datetime) else value


def _month_end(month: datetime.date) -> datetime.date:
    # Not periods.month_period: the ledger imports nothing of the standings (issue 19 item 1).
    return month.replace(day=calendar.monthrange(month.year, month.month)[1])


__all__ = [
    "ADDED",
    "AGGREGATES",
    "BEST_MASK",
    "BEST_SHIFT",
    "HAND_SUMS",
    "MONTH_SUMS",
    "refresh",
]
