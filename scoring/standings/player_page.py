"""What the player page reads, sized by what it shows rather than by the member's history:
totals per month from the members' monthly totals, the games list a page at a time, and
the games themselves only where the chart plots them one by one (so that the page of
a member with ten years of games costs about what a one-year member's does).

Points are integers in points. The figures equal :func:`scoring.standings.player.player_stats`'s
(``tests/test_standings.py`` checks both on the same history).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import date
from typing import Any, overload

from django.db.models import Sum

from scoring.models import MemberMonth
from scoring.standings.counted import Versions, counted_versions, month_aligned
from scoring.standings.periods import EARLIEST, LATEST, Period
from scoring.standings.player import (
    CumulativePoint,
    HandStats,
    MemberGame,
    MonthTotal,
    cumulative_points,
    hand_stats_of,
    member_games_of,
    monthly_totals,
)

# The ``HandStats`` fields, each the sum of the ``MemberMonth`` column of that name.
HAND_FIELDS = tuple(field.name for field in fields(HandStats))


class GameList(Sequence[MemberGame]):
    """A member's games over a period, newest first, of known length: each slice is one
    query (what :class:`django.core.paginator.Paginator` asks of a page)."""

    def __init__(self, counted: Versions, member_id: int, period: Period, count: int) -> None:
        self._counted = counted
        self._member_id = member_id
        self._period = period
        self._count = count

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> MemberGame: ...

    @overload
    def __getitem__(self, index: slice) -> list[MemberGame]: ...

    def __getitem__(self, index: int | slice) -> MemberGame | list[MemberGame]:
        if isinstance(index, int):
            return self[index : index + 1][0]
        start, stop, step = index.indices(self._count)
        if step != 1:
            raise ValueError("a game list is sliced in steps of 1")
        return member_games_of(
            self._counted,
            self._member_id,
            self._period.start,
            self._period.end,
            newest_first=True,
            offset=start,
            limit=max(0, stop - start),
        )


@dataclass(frozen=True, slots=True)
class PlayerPage:
    """The player page's figures for one member and period.

    ``months``: totals per month, oldest first; ``game_count``, ``total_points`` and
    ``rank_sum`` over the period; ``cumulative``: the running total after each game, or,
    when ``cumulative_by_month``, after each month (``hanchan_id`` 0, ``played_on`` the
    month's first day); ``games``: the games, newest first, read a slice at a time;
    ``last_games``: the member's latest games under the same rulesets, oldest first;
    ``hands``: the per-hand statistics; ``ruleset_ids``: the rulesets counted; ``units``
    the club units they settle besides points, with the period's ``uma_ep`` and ``chips``.
    """

    member_id: int
    period: Period
    ruleset_ids: tuple[str, ...]
    months: tuple[MonthTotal, ...]
    game_count: int
    total_points: int
    rank_sum: int
    cumulative: tuple[CumulativePoint, ...]
    cumulative_by_month: bool
    games: GameList
    last_games: tuple[MemberGame, ...]
    hands: HandStats
    units: tuple[str, ...] = ()
    uma_ep: int = 0
    chips: int = 0


def player_page(
    member_id: int,
    period: Period,
    *,
    ruleset_ids: Sequence[str] | None = None,
    last_games: int = 20,
    chart_games: int = 120,
) -> PlayerPage:
    """The player page of ``member_id`` over ``period`` (see :class:`PlayerPage`); the
    cumulative chart goes game by game up to ``chart_games`` games, month by month beyond.

    Three queries for a month-aligned period with more than ``chart_games`` games (ruleset
    versions, monthly totals with their hand sums, latest games; each page of games one
    more), one more for the games of a shorter period; a custom date range reads its games
    and sums its hands (five).
    """
    counted = counted_versions(ruleset_ids)
    start, end = period.start, period.end
    games: list[MemberGame] | None = None
    if month_aligned(start, end):
        months, hands = _month_totals(counted, member_id, start, end)
        count = sum(m.games for m in months)
        if count <= chart_games:
            games = member_games_of(counted, member_id, start, end)
    else:
        games = member_games_of(counted, member_id, start, end)
        months = monthly_totals(games)
        count = len(games)
        hands = hand_stats_of(counted, member_id, start, end)
    by_month = count > chart_games
    if by_month:
        cumulative = _monthly_cumulative(months)
    else:
        assert games is not None
        cumulative = cumulative_points(games)
    latest = member_games_of(counted, member_id, EARLIEST, LATEST, latest=last_games)
    return PlayerPage(
        member_id=member_id,
        period=period,
        ruleset_ids=counted.ruleset_ids,
        months=tuple(months),
        game_count=count,
        total_points=sum(m.points for m in months),
        rank_sum=sum(m.rank_sum for m in months),
        cumulative=tuple(cumulative),
        cumulative_by_month=by_month,
        games=GameList(counted, member_id, period, count),
        last_games=tuple(latest),
        hands=hands,
        units=counted.units,
        uma_ep=sum(m.uma_ep for m in months),
        chips=sum(m.chips for m in months),
    )


def _month_totals(
    counted: Versions, member_id: int, start: date, end: date
) -> tuple[list[MonthTotal], HandStats]:
    """The member's totals per month with games, oldest first, and the hand statistics of
    all those months: one query over the member's monthly totals, whose rows each carry
    both (a second aggregate over the same rows would visit them again, ten years' worth
    of scattered rows for an all-time page)."""
    rows: list[Mapping[str, Any]] = list(
        MemberMonth.objects.filter(
            member_id=member_id,
            ruleset_version_id__in=list(counted.ids),
            month__range=(start, end),
        )
        .values("month")
        .annotate(
            games=Sum("games"),
            points=Sum("total_points"),
            ranks=Sum("rank_sum"),
            uma_ep=Sum("uma_ep"),
            chips=Sum("chips"),
            **{name: Sum(name) for name in HAND_FIELDS},
        )
        .order_by("month")
    )
    sums: dict[str, int] = {name: sum(int(row[name] or 0) for row in rows) for name in HAND_FIELDS}
    hands = HandStats(**sums)
    months = [
        MonthTotal(
            row["month"].year,
            row["month"].month,
            row["games"],
            row["points"],
            row["ranks"],
            int(row["uma_ep"] or 0),
            int(row["chips"] or 0),
        )
        for row in rows
        if row["games"]
    ]
    return months, hands


def _monthly_cumulative(months: Sequence[MonthTotal]) -> list[CumulativePoint]:
    running = 0
    points = []
    for month in months:
        running += month.points
        points.append(CumulativePoint(0, date(month.year, month.month, 1), month.points, running))
    return points
