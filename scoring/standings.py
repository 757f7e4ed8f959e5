"""Standings, champions and player statistics, read from the stored settlement.

Everything here reads what the ledger stored when each game finished (``Seat.final_score``,
``rank``, ``points``, ``Hanchan.ended_by``) and, for the per-hand statistics only, the stored
hands (``HandEntry.data`` and ``result["payments"]``). No game is ever replayed. Only finished
games count: voided games and games in play count nowhere.

Units: points are integers in points (``55000`` is +55.0 in the thousand-point units clubs
write down; formatting is the view's job). Averages and rates are exact
:class:`~fractions.Fraction` values, never floats. Dates are the club's local dates
(``Hanchan.played_on``), so every period is an inclusive range of dates; "today" is taken in
``settings.CLUB_TIME_ZONE``.

Which games count: ``ruleset_ids=None`` means the club's standard rulesets
(``settings.CLUB_STANDARD_RULESETS``, the "standard-rule games" of rules-spec §4.4); a game
counts under the ruleset id of the version it is pinned to, whatever that version's edits.

Sources: rules-spec §4.4 (monthly and half-year champions), §6.6 T-04 (half years are
January-June and July-December) and T-06 (champion, minimum games and ties are club settings).

Every public function takes a fixed, small number of SQL queries, whatever the size of the
history (stated per function); sums, counts and maxima are computed by the database.
"""

from __future__ import annotations

import calendar
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from fractions import Fraction
from typing import Any, Literal, cast
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import BigIntegerField, Count, ExpressionWrapper, F, Max, Q, Sum, Value
from django.db.models.fields.json import KT
from django.db.models.functions import TruncMonth
from django.utils import timezone

from clubsite.models import Member
from scoring.models import Hanchan, HandEntry, RulesetVersion, Seat, SeatQuerySet

PeriodKind = Literal["month", "half_year", "year", "range", "all_time"]

# The whole ledger, for "all time": dates every backend stores and compares.
EARLIEST = date(1, 1, 1)
LATEST = date(9999, 12, 31)


# -- periods ------------------------------------------------------------------------------------


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


def club_today(now: datetime | None = None) -> date:
    """Today's date where the club is (``settings.CLUB_TIME_ZONE``), whatever time zone is
    active for the request; ``now`` (an aware datetime) defaults to the current time."""
    moment = now if now is not None else timezone.now()
    return moment.astimezone(ZoneInfo(settings.CLUB_TIME_ZONE)).date()


def month_period(year: int, month: int) -> Period:
    """Calendar month ``month`` (1-12) of ``year``. Raises ``ValueError`` for a bad month."""
    last = calendar.monthrange(year, month)[1]
    return Period("month", date(year, month, 1), date(year, month, last), year, month)


def current_month_period(now: datetime | None = None) -> Period:
    """The club's current month (in ``settings.CLUB_TIME_ZONE``), the standings' default."""
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


# -- standings ----------------------------------------------------------------------------------


def round_half_away(value: Fraction) -> int:
    """``value`` rounded to an integer, halves away from zero (``-2.5`` -> ``-3``)."""
    magnitude = math.floor(abs(value) + Fraction(1, 2))
    return magnitude if value >= 0 else -magnitude


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One member's record over a period (finished games under the counted rulesets).

    ``games`` (at least 1); ``total_points`` in points; ``rank_sum`` the sum of their ranks;
    ``rank_counts`` how often they finished 1st, 2nd, 3rd and 4th (4th stays 0 in 3-player
    games); ``lasts`` how often they finished last at their table (4th of 4, 3rd of 3);
    ``tobis`` how many games ended by tobi with their final score bust (below 0, or at 0
    where the game's ruleset version says ``tobi_at_zero``); ``best_points`` their highest
    single-game points and ``best_hanchan_id`` that game (the earliest entered, if several).
    """

    member_id: int
    display_name: str
    games: int
    total_points: int
    rank_sum: int
    rank_counts: tuple[int, int, int, int]
    lasts: int
    tobis: int
    best_points: int
    best_hanchan_id: int

    @property
    def average_points(self) -> Fraction:
        """Points per game, exact."""
        return Fraction(self.total_points, self.games)

    @property
    def average_points_rounded(self) -> int:
        """Points per game as an integer number of points, halves away from zero."""
        return round_half_away(self.average_points)

    @property
    def average_rank(self) -> Fraction:
        """Mean rank (1 = always top), exact."""
        return Fraction(self.rank_sum, self.games)

    @property
    def rank_rates(self) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        """Share of games finished 1st, 2nd, 3rd and 4th."""
        first, second, third, fourth = (Fraction(n, self.games) for n in self.rank_counts)
        return first, second, third, fourth

    @property
    def top_rate(self) -> Fraction:
        """Share of games finished 1st (トップ率)."""
        return Fraction(self.rank_counts[0], self.games)

    @property
    def last_avoidance_rate(self) -> Fraction:
        """Share of games not finished last at the table (ラス回避率)."""
        return 1 - Fraction(self.lasts, self.games)

    @property
    def tobi_rate(self) -> Fraction:
        """Share of games that ended with this member bust (飛び率)."""
        return Fraction(self.tobis, self.games)


def table_order_key(row: StandingsRow) -> tuple[int, Fraction, int, str]:
    """The standings order: total points (highest first), then average rank (lowest first),
    then best game (highest first), then display name.

    No seed says how to order equal totals (issue 4, rules-spec T-06); average rank and best
    game are the club's choice, the display name only makes the order total.
    """
    return (-row.total_points, row.average_rank, -row.best_points, row.display_name)


# Column name -> sort key, for tables "sortable by any column". Rates sort by their value.
STANDINGS_COLUMNS: Mapping[str, Callable[[StandingsRow], Any]] = {
    "name": lambda row: row.display_name,
    "games": lambda row: row.games,
    "total_points": lambda row: row.total_points,
    "average_points": lambda row: row.average_points,
    "average_rank": lambda row: row.average_rank,
    "first_rate": lambda row: row.rank_rates[0],
    "second_rate": lambda row: row.rank_rates[1],
    "third_rate": lambda row: row.rank_rates[2],
    "fourth_rate": lambda row: row.rank_rates[3],
    "top_rate": lambda row: row.top_rate,
    "last_avoidance_rate": lambda row: row.last_avoidance_rate,
    "tobi_rate": lambda row: row.tobi_rate,
    "best_points": lambda row: row.best_points,
}


def sort_rows(rows: Iterable[StandingsRow], column: str, *, descending: bool) -> list[StandingsRow]:
    """``rows`` sorted by one of :data:`STANDINGS_COLUMNS`; equal values keep the standings
    order (:func:`table_order_key`). Raises ``KeyError`` for an unknown column."""
    key = STANDINGS_COLUMNS[column]
    in_order = sorted(rows, key=table_order_key)
    return sorted(in_order, key=key, reverse=descending)


@dataclass(frozen=True, slots=True)
class Standings:
    """A standings table.

    ``rows``: members with at least ``min_games`` games, in the order of
    :func:`table_order_key` (``rows[0]`` leads); ``below_minimum``: the others who played,
    in the same order. ``ruleset_ids`` are the rulesets whose games counted.
    """

    start: date
    end: date
    ruleset_ids: tuple[str, ...]
    min_games: int
    rows: tuple[StandingsRow, ...]
    below_minimum: tuple[StandingsRow, ...]


def standings(
    *, start: date, end: date, ruleset_ids: Sequence[str] | None, min_games: int
) -> Standings:
    """The standings of finished games played from ``start`` to ``end`` (both included).

    Args:
        start, end: club-local dates (a :class:`Period`'s ``start`` and ``end``).
        ruleset_ids: rulesets whose games count; ``None`` for the club's standard rulesets
            (``settings.CLUB_STANDARD_RULESETS``). Ids with no games match nothing.
        min_games: members with fewer games go to ``below_minimum``.

    Returns:
        A :class:`Standings`: one :class:`StandingsRow` per member who played, ordered by
        total points, then average rank, then best game, then display name (no seed says
        how to order equal totals; see :func:`table_order_key`).

    Raises:
        ValueError: ``end`` before ``start``, or a negative ``min_games``.

    Three queries: the ruleset versions, one aggregate grouped by member, the members' names.
    """
    if end < start:
        raise ValueError("the end of a period cannot be before its start")
    if min_games < 0:
        raise ValueError("min_games cannot be negative")
    counted = _counted_versions(ruleset_ids)
    grouped = list(
        _counted_seats(counted, start, end)
        .values("member_id")
        .annotate(**_aggregates(counted))
        .order_by()
    )
    names = _display_names(_members(grouped))
    rows = sorted((_row(values, counted, names) for values in grouped), key=table_order_key)
    return Standings(
        start=start,
        end=end,
        ruleset_ids=counted.ruleset_ids,
        min_games=min_games,
        rows=tuple(r for r in rows if r.games >= min_games),
        below_minimum=tuple(r for r in rows if r.games < min_games),
    )


def period_standings(
    period: Period, *, ruleset_ids: Sequence[str] | None = None, min_games: int = 0
) -> Standings:
    """:func:`standings` over ``period``."""
    return standings(
        start=period.start, end=period.end, ruleset_ids=ruleset_ids, min_games=min_games
    )


# -- champions ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Title:
    """Who holds the monthly or half-year title of ``period``.

    ``holders``: one row, or several when the title is shared, or none when nobody played
    ``min_games`` games; each row is the holder's record over the period, so ``points`` is
    the "チャンピオン月のポイント" that ranks monthly champions for the Meijin (§4.3 B).
    """

    period: Period
    min_games: int
    holders: tuple[StandingsRow, ...]

    @property
    def points(self) -> int | None:
        """The holders' total points over the period (``None`` without a holder)."""
        return self.holders[0].total_points if self.holders else None


@dataclass(frozen=True, slots=True)
class ChampionsHistory:
    """Every past title, newest first: ``months`` and ``halves`` (half years)."""

    months: tuple[Title, ...]
    halves: tuple[Title, ...]


def monthly_champion(
    year: int,
    month: int,
    *,
    ruleset_ids: Sequence[str] | None = None,
    min_games: int | None = None,
) -> Title:
    """The 月間チャンピオン of ``month``/``year`` (rules-spec §4.4, T-06).

    The highest total points of the month among members with at least ``min_games`` games
    (default ``settings.CHAMPION_MIN_GAMES``; the spec states no minimum), over the club's
    standard-rule games by default. Equal totals follow ``settings.CHAMPION_TIES`` (see
    :func:`title_holders`).

    Three queries (those of :func:`standings`).
    """
    minimum = settings.CHAMPION_MIN_GAMES if min_games is None else min_games
    period = month_period(year, month)
    table = period_standings(period, ruleset_ids=ruleset_ids, min_games=minimum)
    return Title(period, minimum, title_holders(table.rows))


def half_year_champion(
    year: int,
    half: int,
    *,
    ruleset_ids: Sequence[str] | None = None,
    min_games: int | None = None,
) -> Title:
    """The 上半期 (``half=1``, January-June) or 下半期 (``half=2``) champion of ``year``.

    The highest total points of the half year (the "トータルポイント" of §4.4 item 4) among
    members with at least ``min_games`` games (default
    ``settings.HALF_YEAR_CHAMPION_MIN_GAMES``); ties as :func:`monthly_champion`.

    Three queries. Raises ``ValueError`` for a ``half`` other than 1 or 2.
    """
    minimum = settings.HALF_YEAR_CHAMPION_MIN_GAMES if min_games is None else min_games
    period = half_year_period(year, half)
    table = period_standings(period, ruleset_ids=ruleset_ids, min_games=minimum)
    return Title(period, minimum, title_holders(table.rows))


def title_holders(
    rows: Sequence[StandingsRow], ties: str | None = None
) -> tuple[StandingsRow, ...]:
    """Who takes the title, given the qualified ``rows`` in standings order.

    ``ties`` (default ``settings.CHAMPION_TIES``), the club's rule for equal top totals,
    which the spec leaves open (§4.4):

    - ``"standings"``: broken as in the standings, by average rank, then best game; the
      title is shared only by members equal on all three (never decided by name);
    - ``"shared"``: everyone on the top total shares the title.

    Raises ``ValueError`` for another rule.
    """
    rule = settings.CHAMPION_TIES if ties is None else ties
    if rule not in ("standings", "shared"):
        raise ValueError(f"CHAMPION_TIES must be 'standings' or 'shared', not {rule!r}")
    if not rows:
        return ()
    top = rows[0]
    if rule == "shared":
        return tuple(r for r in rows if r.total_points == top.total_points)
    return tuple(r for r in rows if table_order_key(r)[:3] == table_order_key(top)[:3])


def champions_history(
    *, today: date | None = None, ruleset_ids: Sequence[str] | None = None
) -> ChampionsHistory:
    """Every completed month and half year with its champion(s), newest first.

    From the month (half year) of the first counted game up to the last one that ended
    before ``today`` (default :func:`club_today`); a period in which nobody met the minimum
    (or nobody played) is listed with no holders. Minimums and ties as
    :func:`monthly_champion` and :func:`half_year_champion`.

    Three queries: the ruleset versions, one aggregate grouped by member and month, the
    members' names; half years are summed from the monthly figures (totals, counts and
    maxima add up exactly).
    """
    today = club_today() if today is None else today
    this_month = month_period(today.year, today.month)
    counted = _counted_versions(ruleset_ids)
    monthly = (
        _counted_seats(counted, EARLIEST, this_month.previous().end)
        .values("member_id", month=TruncMonth("hanchan__played_on"))
        .annotate(**_aggregates(counted))
        .order_by()
    )
    names: dict[int, str] = {}
    # Keyed by the first day of the month / half year.
    by_month: dict[date, list[Mapping[str, Any]]] = defaultdict(list)
    by_half: dict[date, dict[int, dict[str, Any]]] = defaultdict(dict)
    for values in monthly:
        first_day: date = values["month"]
        by_month[first_day].append(values)
        half = by_half[half_year_of(first_day).start]
        half[values["member_id"]] = _merge(half.get(values["member_id"]), values)
    if not by_month:
        return ChampionsHistory(months=(), halves=())
    names.update(_display_names({m for rows in by_month.values() for m in _members(rows)}))

    month_minimum = settings.CHAMPION_MIN_GAMES
    half_minimum = settings.HALF_YEAR_CHAMPION_MIN_GAMES
    first = min(by_month)
    months = []
    period = month_period(first.year, first.month)
    while period.end < today:
        rows = _qualified(by_month.get(period.start, ()), month_minimum, counted, names)
        months.append(Title(period, month_minimum, title_holders(rows)))
        period = period.next()
    halves = []
    period = half_year_of(first)
    while period.end < today:
        rows = _qualified(by_half.get(period.start, {}).values(), half_minimum, counted, names)
        halves.append(Title(period, half_minimum, title_holders(rows)))
        period = period.next()
    return ChampionsHistory(months=tuple(reversed(months)), halves=tuple(reversed(halves)))


# -- a member's games and statistics ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MemberGame:
    """One finished game of a member: ``seat`` 0 is the first dealer; ``final_score`` the raw
    score at the end (deposits included), ``rank`` 1 = top of ``players``, ``points`` the
    settlement in points; ``ended_by`` as the engine says (``last_hand``, ``tobi``, ...)."""

    hanchan_id: int
    played_on: date
    ruleset_id: str
    players: int
    seat: int
    final_score: int
    rank: int
    points: int
    ended_by: str


@dataclass(frozen=True, slots=True)
class MonthTotal:
    """A member's games and total points in one calendar month."""

    year: int
    month: int
    games: int
    points: int
    rank_sum: int

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
    """A member's per-hand record over some games, from the stored hands.

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

    Two queries: the ruleset versions, then the member's seats.
    """
    counted = _counted_versions(ruleset_ids)
    return _member_games(counted, member_id, start, end)


def monthly_totals(games: Iterable[MemberGame]) -> list[MonthTotal]:
    """Games, points and rank sum per calendar month of ``games``, oldest month first.
    No query."""
    totals: dict[tuple[int, int], list[int]] = {}
    for game in games:
        entry = totals.setdefault((game.played_on.year, game.played_on.month), [0, 0, 0])
        entry[0] += 1
        entry[1] += game.points
        entry[2] += game.rank
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

    At most three queries: the ruleset versions, the outcome of each hand of those games,
    the payments of the hands the member won.
    """
    counted = _counted_versions(ruleset_ids)
    return _hand_stats(counted, member_id, start, end)


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

    At most five queries: the ruleset versions, the period's games, the latest games, the
    hands' outcomes and the payments of the hands won.
    """
    counted = _counted_versions(ruleset_ids)
    games = _member_games(counted, member_id, period.start, period.end)
    latest = _member_games(counted, member_id, EARLIEST, LATEST, latest=last_games)
    return PlayerStats(
        member_id=member_id,
        period=period,
        ruleset_ids=counted.ruleset_ids,
        games=tuple(games),
        months=tuple(monthly_totals(games)),
        cumulative=tuple(cumulative_points(games)),
        last_games=tuple(latest),
        hands=_hand_stats(counted, member_id, period.start, period.end),
    )


def stored_ruleset_ids() -> list[str]:
    """Ids of the rulesets any game was ever pinned to, sorted (for filters). One query."""
    return sorted(set(RulesetVersion.objects.values_list("ruleset_id", flat=True)))


# -- internals ----------------------------------------------------------------------------------

# Best game in the same aggregate as the rest: Max(points * 2**32 + (2**32 - 1 - hanchan_id))
# is the highest points, and among equal points the lowest (earliest entered) game id; both
# are decoded exactly. Points fit in 32 bits (an IntegerField), ids are below 2**32.
_BEST_SHIFT = 32
_BEST_MASK = (1 << _BEST_SHIFT) - 1


@dataclass(frozen=True, slots=True)
class _Versions:
    """The stored ruleset versions whose games count, and what the aggregates need of them."""

    ruleset_ids: tuple[str, ...]
    ids: tuple[int, ...]
    by_players: Mapping[int, tuple[int, ...]]
    zero_is_bust: tuple[int, ...]
    ruleset_of: Mapping[int, str]
    players_of: Mapping[int, int]

    @property
    def table_size(self) -> int:
        """The number of players of every counted game (4 if none), for one table size."""
        return next(iter(self.by_players), 4)


def _counted_versions(ruleset_ids: Sequence[str] | None) -> _Versions:
    names = tuple(settings.CLUB_STANDARD_RULESETS if ruleset_ids is None else ruleset_ids)
    by_players: dict[int, list[int]] = defaultdict(list)
    zero: list[int] = []
    ruleset_of: dict[int, str] = {}
    players_of: dict[int, int] = {}
    for pk, ruleset_id, parameters in RulesetVersion.objects.filter(
        ruleset_id__in=names
    ).values_list("pk", "ruleset_id", "parameters"):
        players = int(parameters["players"])
        by_players[players].append(pk)
        if parameters.get("tobi_at_zero"):
            zero.append(pk)
        ruleset_of[pk] = ruleset_id
        players_of[pk] = players
    return _Versions(
        ruleset_ids=names,
        ids=tuple(ruleset_of),
        by_players={n: tuple(ids) for n, ids in by_players.items()},
        zero_is_bust=tuple(zero),
        ruleset_of=ruleset_of,
        players_of=players_of,
    )


def _counted_seats(counted: _Versions, start: date, end: date) -> SeatQuerySet:
    return Seat.objects.finished().played_between(start, end).under_versions(counted.ids)


def _aggregates(counted: _Versions) -> dict[str, Any]:
    """The per-group aggregates of a standings row, all in one pass over the seats."""
    aggregates: dict[str, Any] = {
        "games": Count("pk"),
        "total_points": Sum("points"),
        "rank_sum": Sum("rank"),
        "first": Count("pk", filter=Q(rank=1)),
        "second": Count("pk", filter=Q(rank=2)),
        "third": Count("pk", filter=Q(rank=3)),
        "fourth": Count("pk", filter=Q(rank=4)),
    }
    if len(counted.by_players) > 1:
        # 3- and 4-player games together: last is 3rd of 3 or 4th of 4. (With one table
        # size, it is the count of that rank; see _row.)
        last = Q()
        for size, ids in counted.by_players.items():
            last |= Q(rank=size, hanchan__ruleset_version_id__in=ids)
        aggregates["lasts"] = Count("pk", filter=last)
    # Bust: below 0, or exactly 0 where the pinned version (unless the game's overrides say
    # otherwise) or the game's overrides say tobi_at_zero. Only games that ended by tobi.
    zero_bust = Q(hanchan__overrides__tobi_at_zero=True)
    if counted.zero_is_bust:
        zero_bust |= Q(hanchan__ruleset_version_id__in=counted.zero_is_bust) & ~Q(
            hanchan__overrides__has_key="tobi_at_zero"
        )
    bust = Q(hanchan__ended_by="tobi") & (Q(final_score__lt=0) | (Q(final_score=0) & zero_bust))
    aggregates["tobis"] = Count("pk", filter=bust)
    aggregates["best"] = Max(
        ExpressionWrapper(
            F("points") * Value(1 << _BEST_SHIFT) + (Value(_BEST_MASK) - F("hanchan_id")),
            output_field=BigIntegerField(),
        )
    )
    return aggregates


_ADDED = ("games", "total_points", "rank_sum", "first", "second", "third", "fourth", "tobis")


def _merge(into: dict[str, Any] | None, values: Mapping[str, Any]) -> dict[str, Any]:
    """Add one month's aggregate row to a member's running half-year row."""
    if into is None:
        return dict(values)
    for name in _ADDED:
        into[name] += values[name]
    if "lasts" in values:
        into["lasts"] += values["lasts"]
    into["best"] = max(into["best"], values["best"])
    return into


def _members(rows: Iterable[Mapping[str, Any]]) -> Iterator[int]:
    return (values["member_id"] for values in rows)


def _display_names(member_ids: Iterable[int]) -> dict[int, str]:
    return dict(Member.objects.filter(pk__in=list(member_ids)).values_list("pk", "display_name"))


def _row(values: Mapping[str, Any], counted: _Versions, names: Mapping[int, str]) -> StandingsRow:
    best = int(values["best"])
    counts = (values["first"], values["second"], values["third"], values["fourth"])
    # With one table size, last place is simply that rank.
    lasts = values["lasts"] if "lasts" in values else counts[counted.table_size - 1]
    return StandingsRow(
        member_id=values["member_id"],
        display_name=names[values["member_id"]],
        games=values["games"],
        total_points=int(values["total_points"]),
        rank_sum=int(values["rank_sum"]),
        rank_counts=counts,
        lasts=lasts,
        tobis=values["tobis"],
        best_points=best >> _BEST_SHIFT,
        best_hanchan_id=_BEST_MASK - (best & _BEST_MASK),
    )


def _qualified(
    rows: Iterable[Mapping[str, Any]],
    min_games: int,
    counted: _Versions,
    names: Mapping[int, str],
) -> list[StandingsRow]:
    qualified = [_row(values, counted, names) for values in rows if values["games"] >= min_games]
    qualified.sort(key=table_order_key)
    return qualified


def _member_games(
    counted: _Versions, member_id: int, start: date, end: date, *, latest: int | None = None
) -> list[MemberGame]:
    seats = (
        _counted_seats(counted, start, end)
        .filter(member_id=member_id)
        .order_by()
        .values_list(
            "hanchan_id",
            "hanchan__played_on",
            "hanchan__ruleset_version_id",
            "index",
            "final_score",
            "rank",
            "points",
            "hanchan__ended_by",
        )
    )
    if latest is None:
        seats = seats.order_by("hanchan__played_on", "hanchan_id")
    else:
        seats = seats.order_by("-hanchan__played_on", "-hanchan_id")[:latest]
    # A finished game's seats always have their settlement (never None).
    rows = cast(Iterable[tuple[int, date, int, int, int, int, int, str]], seats)
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
        )
        for hanchan_id, played_on, version_id, index, final_score, rank, points, ended_by in rows
    ]
    if latest is not None:
        games.reverse()
    return games


# Payments that are the value of a win (honba and deposits are not).
_WIN_VALUE_REASONS = frozenset({"ron", "tsumo", "pao", "rinshan"})
# A ron has at most three winners (../shared/game-record-format.md).
MAX_WINNERS = 3


def _seat(value: object) -> int | None:
    """A seat number read from JSON as text (PostgreSQL) or as a number (SQLite)."""
    return None if value is None else int(str(value))


def _hand_stats(counted: _Versions, member_id: int, start: date, end: date) -> HandStats:
    """Two queries: each hand's outcome as plain columns (decoding every hand's whole JSON
    is what costs most), then the payments of the hands the member won."""
    winners = {f"winner_{i}": KT(f"data__wins__{i}__winner") for i in range(MAX_WINNERS)}
    hands = (
        HandEntry.objects.filter(
            hanchan__status=Hanchan.Status.FINISHED,
            hanchan__played_on__range=(start, end),
            hanchan__ruleset_version_id__in=counted.ids,
            hanchan__seats__member_id=member_id,
        )
        .annotate(
            outcome=KT("data__result"),
            discarder=KT("data__loser"),
            offender=KT("data__offender"),
            **winners,
        )
        .values_list(
            "pk", "hanchan__seats__index", "outcome", "discarder", "offender", "data__riichi",
            *winners,
        )
        .order_by()
    )  # fmt: skip
    played = wins = tsumo_wins = deal_ins = riichi = chombo = 0
    won: dict[int, int] = {}  # hand id -> the member's seat
    for pk, seat, outcome, discarder, offender, riichi_seats, *winner_seats in hands:
        if outcome == "chombo":
            chombo += _seat(offender) == seat
            continue
        played += 1
        riichi += seat in (riichi_seats or ())
        if outcome in ("ron", "tsumo") and seat in map(_seat, winner_seats):
            wins += 1
            tsumo_wins += outcome == "tsumo"
            won[pk] = seat
        if outcome == "ron" and _seat(discarder) == seat:
            deal_ins += 1
    win_points = 0
    payments = HandEntry.objects.filter(pk__in=list(won)).values_list("pk", "result__payments")
    for pk, paid in payments:
        win_points += sum(
            p["amount"]
            for p in paid or ()
            if p["payee"] == won[pk] and p["reason"] in _WIN_VALUE_REASONS
        )
    return HandStats(
        hands=played,
        wins=wins,
        tsumo_wins=tsumo_wins,
        deal_ins=deal_ins,
        riichi=riichi,
        chombo=chombo,
        win_points=win_points,
    )
