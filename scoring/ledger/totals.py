"""Members' totals per month (``MemberMonth``), kept up to date in the transaction that
counts a game (scoring.ledger.confirmation, scoring.ledger.write).

A month's row is recomputed from the counted results rather than added to, since the best
game is a maximum: :func:`games_changed` recomputes the rows of the games' members, months and
ruleset versions with one aggregate query and replaces them.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import Sum
from django.db.models.functions import TruncMonth

from scoring.models import CountedSeat, Hanchan, MemberMonth, Seat
from scoring.standings.counted import AGGREGATES

# The per-hand sums a month adds up, besides the standings row's figures.
HAND_SUMS = ("hands", "wins", "tsumo_wins", "deal_ins", "riichi", "chombo", "win_points")


def games_changed(hanchans: Sequence[Hanchan]) -> None:
    """Bring the totals of the members of ``hanchans`` up to date after those games' counted
    results changed (counted for the first time, replaced, or taken out)."""
    if not hanchans:
        return
    members = set(
        Seat.objects.filter(hanchan__in=[h.pk for h in hanchans]).values_list(
            "member_id", flat=True
        )
    )
    months = {_first_day(h.played_on) for h in hanchans}
    versions = {h.ruleset_version_id for h in hanchans}
    refresh(members, months, versions)


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
        played_on__range=(months[0], _last_day(months[-1])),
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


def _first_day(day: datetime.date) -> datetime.date:
    return day.replace(day=1)


def _last_day(first: datetime.date) -> datetime.date:
    following = (first.replace(day=28) + datetime.timedelta(days=4)).replace(day=1)
    return following - datetime.timedelta(days=1)


__all__ = ["HAND_SUMS", "games_changed", "refresh"]
