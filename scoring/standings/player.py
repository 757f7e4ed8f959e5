"""A member's games and statistics over a period, from the counted results: the games list,
totals per month, the cumulative-points series and per-hand statistics (sums of the hand
facts the ledger stored with each counted game). Points are integers in points."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any, cast

from django.db.models import Sum

from scoring.models import MemberMonth, RulesetVersion
from scoring.standings.counted import Versions, counted_seats, counted_versions, month_aligned
from scoring.standings.periods import EARLIEST, LATEST, Period


@dataclass(frozen=True, slots=True)
class MemberGame:
    """One finished game of a member: ``seat`` 0 is the first dealer; ``final_score`` the raw
    score at the end (deposits included), ``rank`` 1 = top of ``players``, ``points`` the
    settlement in points; ``ended_by`` as the engine says (``last_hand``, ``tobi``, ...);
    ``uma_ep`` and ``chips`` in the club's own units, 0 where none."""

    hanchan_id: int
    played_on: date
    ruleset_id: str
    players: int
    seat: int
    final_score: int
    rank: int
    points: int
    ended_by: str
    uma_ep: int = 0
    chips: int = 0


@dataclass(frozen=True, slots=True)
class MonthTotal:
    """A member's games and total points in one calendar month, and its ep and chips."""

    year: int
    month: int
    games: int
    points: int
    rank_sum: int
    uma_ep: int = 0
    chips: int = 0

    @property
    def average_rank(self) -> Fraction:
        """The month's average rank, exact (1 = always top)."""
        return Fraction(self.rank_sum, self.games)


@dataclass(frozen=True, slots=True)
class CumulativePoint:
    """One step of the cumulative-points chart: after game ``hanchan_id`` on ``played_on``,
    which scored ``points``, the running total is ``cumulative``."""

    hanchan_id: int
    played_on: date
    points: int
    cumulative: int


@dataclass(frozen=True, slots=True)
class HandStats:
    """A member's per-hand record over some games, from the hand facts stored with each
    counted game (games entered as final scores only have no hands and add nothing).

    ``hands``: hands they sat in, chombo hands left out (a chombo hand is played again, so
    it is not a round of its own); ``wins``: ron and tsumo wins (each winner of a multi-ron
    counts; nagashi is a draw, not a win); ``tsumo_wins``; ``deal_ins``: hands in which they
    discarded a winning tile; ``riichi``: hands in which they put a riichi stick out;
    ``chombo``: chombos they committed; ``win_points``: points received as the value of
    their wins (ron, tsumo, pao and rinshan payments; honba and deposits left out).
    """

    hands: int
    wins: int
    tsumo_wins: int
    deal_ins: int
    riichi: int
    chombo: int
    win_points: int

    @property
    def win_rate(self) -> Fraction | None:
        """Wins per hand (和了率); ``None`` without hands."""
        return Fraction(self.wins, self.hands) if self.hands else None

    @property
    def deal_in_rate(self) -> Fraction | None:
        """Deal-ins per hand (放銃率); ``None`` without hands."""
        return Fraction(self.deal_ins, self.hands) if self.hands else None

    @property
    def riichi_rate(self) -> Fraction | None:
        """Riichi per hand (立直率); ``None`` without hands."""
        return Fraction(self.riichi, self.hands) if self.hands else None

    @property
    def average_win_value(self) -> Fraction | None:
        """Points received per win (平均打点); ``None`` without wins."""
        return Fraction(self.win_points, self.wins) if self.wins else None

    @property
    def tsumo_share(self) -> Fraction | None:
        """Share of wins by tsumo (ツモ率); ``None`` without wins."""
        return Fraction(self.tsumo_wins, self.wins) if self.wins else None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Everything the player page shows for one member and period: ``games`` oldest first,
    ``months`` oldest first, ``cumulative`` over ``games``, ``last_games`` (the member's
    latest games under the same rulesets, whatever the period, oldest first) and ``hands``."""

    member_id: int
    period: Period
    ruleset_ids: tuple[str, ...]
    games: tuple[MemberGame, ...]
    months: tuple[MonthTotal, ...]
    cumulative: tuple[CumulativePoint, ...]
    last_games: tuple[MemberGame, ...]
    hands: HandStats


def member_games(
    member_id: int, *, start: date, end: date, ruleset_ids: Sequence[str] | None
) -> list[MemberGame]:
    """The member's finished games played from ``start`` to ``end`` under ``ruleset_ids``
    (``None``: the club's standard rulesets; :func:`stored_ruleset_ids` for every game),
    oldest first (by date, then by the order the games were entered).

    Two queries: the ruleset versions, then the member's counted results.
    """
    counted = counted_versions(ruleset_ids)
    return member_games_of(counted, member_id, start, end)


def monthly_totals(games: Iterable[MemberGame]) -> list[MonthTotal]:
    """Games, points and rank sum per calendar month of ``games``, oldest month first.
    No query."""
    totals: dict[tuple[int, int], list[int]] = {}
    for game in games:
        entry = totals.setdefault((game.played_on.year, game.played_on.month), [0] * 5)
        entry[0] += 1
        entry[1] += game.points
        entry[2] += game.rank
        entry[3] += game.uma_ep
        entry[4] += game.chips
    return [MonthTotal(y, m, *totals[(y, m)]) for y, m in sorted(totals)]


def cumulative_points(games: Iterable[MemberGame]) -> list[CumulativePoint]:
    """The running total of points over ``games``, in the order given. No query."""
    running = 0
    series = []
    for game in games:
        running += game.points
        series.append(CumulativePoint(game.hanchan_id, game.played_on, game.points, running))
    return series


def hand_stats(
    member_id: int, *, start: date, end: date, ruleset_ids: Sequence[str] | None
) -> HandStats:
    """Per-hand statistics of the member over the finished games of :func:`member_games`.

    Two queries: the ruleset versions, one aggregate of the member's counted results.
    """
    counted = counted_versions(ruleset_ids)
    return hand_stats_of(counted, member_id, start, end)


def player_stats(
    member_id: int,
    period: Period,
    *,
    ruleset_ids: Sequence[str] | None = None,
    last_games: int = 20,
) -> PlayerStats:
    """The player page's figures for ``member_id`` over ``period``: games, totals per month,
    the cumulative-points series, the ranks of the latest ``last_games`` games and the
    per-hand statistics (see :class:`PlayerStats`).

    Four queries: the ruleset versions, the period's games, the latest games, the sums of
    the hand facts.
    """
    counted = counted_versions(ruleset_ids)
    games = member_games_of(counted, member_id, period.start, period.end)
    latest = member_games_of(counted, member_id, EARLIEST, LATEST, latest=last_games)
    return PlayerStats(
        member_id=member_id,
        period=period,
        ruleset_ids=counted.ruleset_ids,
        games=tuple(games),
        months=tuple(monthly_totals(games)),
        cumulative=tuple(cumulative_points(games)),
        last_games=tuple(latest),
        hands=hand_stats_of(counted, member_id, period.start, period.end),
    )


def stored_ruleset_ids() -> list[str]:
    """Standings keys of every stored version (ruleset ids, and ``"<id>@<service>"`` for
    online games), sorted (for filters). One query."""
    keys = {
        f"{ruleset_id}@{service}" if service else ruleset_id
        for ruleset_id, service in RulesetVersion.objects.values_list("ruleset_id", "service")
    }
    return sorted(keys)


def member_games_of(
    counted: Versions,
    member_id: int,
    start: date,
    end: date,
    *,
    latest: int | None = None,
    newest_first: bool = False,
    offset: int = 0,
    limit: int | None = None,
) -> list[MemberGame]:
    """The member's counted games from ``start`` to ``end`` under ``counted``: oldest first,
    or ``newest_first`` (from ``offset``, at most ``limit``), or the ``latest`` few oldest
    first. One query."""
    seats = (
        counted_seats(counted, start, end)
        .filter(member_id=member_id)
        .order_by()
        .values_list(
            "hanchan_id",
            "played_on",
            "ruleset_version_id",
            "seat",
            "final_score",
            "rank",
            "points",
            "ended_by",
            "uma_ep",
            "chips",
        )
    )
    if latest is not None:
        seats = seats.order_by("-played_on", "-hanchan_id")[:latest]
    elif newest_first:
        seats = seats.order_by("-played_on", "-hanchan_id")
        seats = seats[offset:] if limit is None else seats[offset : offset + limit]
    else:
        seats = seats.order_by("played_on", "hanchan_id")
    rows = cast(Iterable[tuple[int, date, int, int, int, int, int, str, int, int]], seats)
    games = [
        MemberGame(
            hanchan_id=hanchan_id,
            played_on=played_on,
            ruleset_id=counted.ruleset_of[version_id],
            players=counted.players_of[version_id],
            seat=index,
            final_score=final_score,
            rank=rank,
            points=points,
            ended_by=ended_by,
            uma_ep=uma_ep,
            chips=chips,
        )
        for (
            hanchan_id, played_on, version_id, index, final_score, rank, points, ended_by, uma_ep,
            chips,
        ) in rows
    ]  # fmt: skip
    if latest is not None:
        games.reverse()
    return games


def hand_stats_of(counted: Versions, member_id: int, start: date, end: date) -> HandStats:
    """The member's :class:`HandStats` from ``start`` to ``end``. One aggregate: over the
    member's monthly totals for whole months, else over their counted results; each sums
    the ``HandSeat`` facts of its games, written when they counted (chombo hands are no
    hands of their own)."""
    if month_aligned(start, end):
        rows: Any = MemberMonth.objects.filter(
            member_id=member_id, ruleset_version_id__in=list(counted.ids), month__range=(start, end)
        )
    else:
        rows = counted_seats(counted, start, end).filter(member_id=member_id)
    totals = rows.aggregate(
        hands=Sum("hands"),
        wins=Sum("wins"),
        tsumo_wins=Sum("tsumo_wins"),
        deal_ins=Sum("deal_ins"),
        riichi=Sum("riichi"),
        chombo=Sum("chombo"),
        win_points=Sum("win_points"),
    )
    return HandStats(**{name: int(value or 0) for name, value in totals.items()})
