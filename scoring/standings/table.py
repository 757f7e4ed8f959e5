"""Standings tables: each member's record over a period, from the counted results.

A finished game counts once its result is confirmed (``CountedSeat``, written by the ledger:
scoring.ledger.confirmation); standings add up its columns with plain aggregates, no hand
JSON and no rules re-derived. Voided games and games in play count nowhere.

Units: points are integers in points (``55000`` is +55.0 in the thousand-point units clubs
write down). Averages and rates are exact :class:`~fractions.Fraction` values, never floats.

Which games count: ``ruleset_ids=None`` means the current club's standard rulesets
(``Club.standard_rulesets``, the "standard-rule games" of docs/rules-spec.md §4.4); a
game counts under the ruleset id of the version it is pinned to, whatever that version's edits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from clubsite.club_scope import current_club
from scoring.standings.counted import aggregate_rows, counted_versions, decode_best, display_names
from scoring.standings.periods import Period


def round_half_away(value: Fraction) -> int:
    """``value`` rounded to an integer, halves away from zero (``-2.5`` -> ``-3``)."""
    # In integers: floor(|n/d| + 1/2) == (2|n| + d) // 2d for d > 0 (Fraction arithmetic
    # made this a visible part of rendering a standings table).
    numerator, denominator = value.numerator, value.denominator
    magnitude = (2 * abs(numerator) + denominator) // (2 * denominator)
    return magnitude if numerator >= 0 else -magnitude


def in_tenths(points: int) -> int:
    """Ledger points in the standings' unit times ten, as ``manage.py qualifiers`` and
    ``player_stats`` print them: 52000 -> 520 (halves away from zero)."""
    return round_half_away(Fraction(points, 100))


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One member's record over a period (finished games under the counted rulesets).

    ``games`` (at least 1); ``total_points`` in points; ``rank_sum`` the sum of their ranks;
    ``rank_counts`` how often they finished 1st, 2nd, 3rd and 4th (4th stays 0 in 3-player
    games); ``lasts`` how often they finished last at their table (4th of 4, 3rd of 3);
    ``tobis`` how many games ended by tobi with their final score bust (below 0, or at 0
    where the game's ruleset version says ``tobi_at_zero``); ``best_points`` their highest
    single-game points and ``best_hanchan_id`` that game (the earliest entered, if several).
    ``uma_ep`` and ``chips``: their totals in the club's own units, 0 under
    rulesets without them.
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
    uma_ep: int = 0
    chips: int = 0

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


# The tie-breakers a club may order (``Club.standings_ties``), each as a key that sorts the
# better record first.
TIE_BREAKERS: Mapping[str, Callable[[StandingsRow], Any]] = {
    "average_rank": lambda row: row.average_rank,
    "best_points": lambda row: -row.best_points,
    "top_rate": lambda row: -row.top_rate,
    "games": lambda row: -row.games,
}


def order_key(ties: Sequence[str] | None = None) -> Callable[[StandingsRow], tuple[Any, ...]]:
    """The standings order as a sort key: total points (highest first), then ep where a
    ruleset keeps its floating uma in ep apart from points (seed 002 L10-24, rules-spec S-01:
    points first, ep next; 0 for everyone elsewhere), then the tie-breakers ``ties`` in their
    order (default: the current club's ``standings_ties``, which a new club starts as
    ``CLUB_STANDINGS_TIES``: average rank, lowest first, then best game, highest first;
    :data:`TIE_BREAKERS`), then display name. Chips have no point value (H-16) and order
    nothing. The club is asked once, here, not once per row.

    No seed says how to order equal totals (rules-spec T-06): the tie-breakers are
    the club's choice, the display name only makes the order total.

    Raises:
        KeyError: a tie-breaker that :data:`TIE_BREAKERS` does not have (the stewards' form
            and ``manage.py check``, scoring.E003, refuse one).
    """
    names = current_club().standings_ties if ties is None else ties
    breakers = tuple(TIE_BREAKERS[name] for name in names)

    def key(row: StandingsRow) -> tuple[Any, ...]:
        return (
            -row.total_points,
            -row.uma_ep,
            *(breaker(row) for breaker in breakers),
            row.display_name,
        )

    return key


def table_order_key(row: StandingsRow) -> tuple[Any, ...]:
    """``row``'s place in the current club's standings order (:func:`order_key`); a sort of
    many rows takes ``key=order_key()``, which asks the club once.

    Raises:
        KeyError: as :func:`order_key`.
    """
    return order_key()(row)


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
    "uma_ep": lambda row: row.uma_ep,
    "chips": lambda row: row.chips,
}


def sort_rows(rows: Iterable[StandingsRow], column: str, *, descending: bool) -> list[StandingsRow]:
    """``rows`` sorted by one of :data:`STANDINGS_COLUMNS`; equal values keep the standings
    order (:func:`order_key`). Raises ``KeyError`` for an unknown column."""
    key = STANDINGS_COLUMNS[column]
    in_order = sorted(rows, key=order_key())
    return sorted(in_order, key=key, reverse=descending)


@dataclass(frozen=True, slots=True)
class Standings:
    """A standings table.

    ``rows``: members with at least ``min_games`` games, in the order of
    :func:`table_order_key` (``rows[0]`` leads); ``below_minimum``: the others who played,
    in the same order. ``ruleset_ids`` are the rulesets whose games counted, ``version_ids``
    their stored versions; ``units`` the units besides points they settle (``"ep"``,
    ``"chips"``), shown as columns.
    """

    start: date
    end: date
    ruleset_ids: tuple[str, ...]
    min_games: int
    rows: tuple[StandingsRow, ...]
    below_minimum: tuple[StandingsRow, ...]
    units: tuple[str, ...] = ()
    version_ids: tuple[int, ...] = ()


def standings(
    *,
    start: date,
    end: date,
    ruleset_ids: Sequence[str] | None,
    min_games: int,
    tournaments: bool = True,
) -> Standings:
    """The standings of finished games played from ``start`` to ``end`` (both included).

    Args:
        start, end: club-local dates (a :class:`Period`'s ``start`` and ``end``).
        ruleset_ids: rulesets whose games count; ``None`` for the current club's standard
            rulesets and the online keys it counts with them
            (:func:`scoring.standings.counted.standard_keys`). Ids with no games match
            nothing.
        min_games: members with fewer games go to ``below_minimum``.
        tournaments: tournament games count (the page's default is the
            club's, :func:`scoring.standings.counted.tournaments_counted_by_default`).

    Returns:
        A :class:`Standings`: one :class:`StandingsRow` per member who played, ordered by
        total points, then ep (where a ruleset keeps it), then average rank, then best game,
        then display name (no seed says how to order equal totals; see
        :func:`table_order_key`).

    Raises:
        ValueError: ``end`` before ``start``, or a negative ``min_games``.

    Three queries: the ruleset versions, one aggregate grouped by member, the members' names.
    """
    if end < start:
        raise ValueError("the end of a period cannot be before its start")
    if min_games < 0:
        raise ValueError("min_games cannot be negative")
    counted = counted_versions(ruleset_ids)
    grouped = aggregate_rows(counted, start, end, tournaments=tournaments)
    names = display_names(values["member_id"] for values in grouped)
    rows = sorted((row_of(values, names) for values in grouped), key=order_key())
    return Standings(
        start=start,
        end=end,
        ruleset_ids=counted.ruleset_ids,
        min_games=min_games,
        rows=tuple(r for r in rows if r.games >= min_games),
        below_minimum=tuple(r for r in rows if r.games < min_games),
        units=counted.units,
        version_ids=counted.ids,
    )


def period_standings(
    period: Period,
    *,
    ruleset_ids: Sequence[str] | None = None,
    min_games: int = 0,
    tournaments: bool = True,
) -> Standings:
    """:func:`standings` over ``period``."""
    return standings(
        start=period.start,
        end=period.end,
        ruleset_ids=ruleset_ids,
        min_games=min_games,
        tournaments=tournaments,
    )


def row_of(values: Mapping[str, Any], names: Mapping[int, str]) -> StandingsRow:
    """A :class:`StandingsRow` from one member's aggregate figures
    (:data:`scoring.standings.counted.AGGREGATES`)."""
    best_points, best_hanchan_id = decode_best(int(values["best"]))
    return StandingsRow(
        member_id=values["member_id"],
        display_name=names[values["member_id"]],
        games=values["games"],
        total_points=int(values["total_points"]),
        rank_sum=int(values["rank_sum"]),
        rank_counts=(values["first"], values["second"], values["third"], values["fourth"]),
        lasts=values["lasts"],
        tobis=values["tobis"],
        best_points=best_points,
        best_hanchan_id=best_hanchan_id,
        uma_ep=int(values.get("uma_ep") or 0),
        chips=int(values.get("chips") or 0),
    )


def qualified(rows: Iterable[Mapping[str, Any]], min_games: int, names: Mapping[int, str]
              ) -> list[StandingsRow]:  # fmt: skip
    """The rows of members with at least ``min_games`` games, in standings order."""
    kept = [row_of(values, names) for values in rows if values["games"] >= min_games]
    kept.sort(key=order_key())
    return kept
