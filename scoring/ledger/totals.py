"""Members' totals per month (``MemberMonth``), kept up to date in the transaction that
counts a game (scoring.ledger.confirmation, scoring.ledger.write).

A month's row is recomputed from the counted results rather than added to, since the best
game is a maximum: :func:`refresh` recomputes the rows of the games' members, months and
ruleset versions with one aggregate query and replaces them.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django.db.models import Sum
from django.db.models.functions import TruncMonth

from scoring.models import CountedSeat, MemberMonth
from scoring.standings.counted import AGGREGATES
from scoring.standings.periods import month_period

# The per-hand sums a month adds up, besides the standings row's figures.
HAND_SUMS = ("hands", "wins", "tsumo_wins", "deal_ins", "riichi", "chombo", "win_points")


def refresh(
    members: Iterable[int], months: Iterable[datetime.date], versions: Iterable[int]
) -> None:
    """Recompute the ``MemberMonth`` rows of ``members`` in ``months`` (first days) under
    ``versions``: one aggregate query, one delete, one insert."""
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
