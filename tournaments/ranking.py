"""An event's live ranking, from the settlements of its tables' games (docs/rules-spec.md §4).

Two totals per participant: ``seating_total`` over every finished game of the event (what
re-seating by standing and the qualifiers of a final read: "予選成績順位"), and ``total``
over the games of the phases that count in the final ranking (GP: all 6; Grand Champion:
the finals only, T-01; Meijin: all 8). Finalists rank above everyone who did not reach the
last final phase. Equal totals are ordered as the club's standings order them: average rank
(lower first), then best game (``scoring.standings.table_order_key``, T-06); finalists still
level then by the preliminaries (before the finals are played, the Grand Champion's finalists
stand in their preliminary order); and last by the reading of the name (furigana, as the
qualification races and the member list order names), so that equal totals do not follow
the character codes of kanji.

Points are integers in points (the settlement of each game, uma and oka included).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game of the event for one participant: ``phase`` number, whether the
    phase ``counts``, the settlement ``points`` and ``rank`` at the table."""

    participant: int
    phase: int
    counts: bool
    points: int
    rank: int


@dataclass(slots=True)
class RankRow:
    """A participant's line: ``number`` (seating index), ``name``, ``games`` played,
    ``total`` (counting phases), ``seating_total`` (all games), ``rank_sum`` and ``best`` over
    the counting games, ``finalist`` (reached the last phase with qualifiers), ``reading``
    (the name's furigana, the tie order's last word)."""

    number: int
    name: str
    reading: str = ""
    games: int = 0
    total: int = 0
    seating_total: int = 0
    seating_rank_sum: int = 0
    seating_games: int = 0
    rank_sum: int = 0
    counted_games: int = 0
    best: int | None = None
    finalist: bool = False
    withdrawn: bool = False
    results: list[GameResult] = field(default_factory=list)

    @property
    def ranked_total(self) -> int:
        """The total the row is ranked by: a finalist's counting total, else the total of
        all their games (see :func:`final_order`)."""
        return self.total if self.finalist else self.seating_total

    @property
    def uncounted_total(self) -> int:
        """The points of the games outside the final total (the Grand Champion's
        preliminaries, T-01); 0 where every game counts."""
        return self.seating_total - self.total

    @property
    def name_key(self) -> tuple[str, str]:
        """Names in the club's order: by reading, then as written."""
        return (self.reading or self.name, self.name)

    @property
    def average_rank(self) -> Fraction:
        """Mean rank over the counting games (0 without one)."""
        return Fraction(self.rank_sum, self.counted_games) if self.counted_games else Fraction(0)


def _add(row: RankRow, result: GameResult) -> None:
    row.games += 1
    row.seating_total += result.points
    row.seating_rank_sum += result.rank
    row.seating_games += 1
    row.results.append(result)
    if result.counts:
        row.total += result.points
        row.rank_sum += result.rank
        row.counted_games += 1
        row.best = result.points if row.best is None else max(row.best, result.points)


def seating_order(rows: Iterable[RankRow]) -> list[RankRow]:
    """Everyone by the total of all their games so far (the ranking seating and qualifiers
    read), ties as the club's standings break them."""

    def key(row: RankRow) -> tuple[int, Fraction, tuple[str, str], int]:
        average = (
            Fraction(row.seating_rank_sum, row.seating_games) if row.seating_games else Fraction(0)
        )
        return (-row.seating_total, average, row.name_key, row.number)

    return sorted(rows, key=key)


def final_order(rows: Iterable[RankRow]) -> list[RankRow]:
    """The event's ranking: finalists first, each group by its counting total, then average
    rank, best game, the preliminaries (finalists whose finals are level or not played yet)
    and the reading of the name; withdrawn participants last."""

    def key(row: RankRow) -> tuple[bool, bool, int, Fraction, int, int, tuple[str, str], int]:
        return (
            row.withdrawn,
            not row.finalist,
            -row.ranked_total,
            row.average_rank,
            -(row.best or 0),
            -row.uncounted_total if row.finalist else 0,
            row.name_key,
            row.number,
        )

    return sorted(rows, key=key)


def ranking(
    names: Sequence[tuple[int, str, bool] | tuple[int, str, bool, str]],
    results: Iterable[GameResult],
    finalists: Iterable[int] = (),
    *,
    has_finals: bool = False,
) -> list[RankRow]:
    """The event's ranking.

    Args:
        names: ``(number, display name, withdrawn)`` per participant, with the reading of
            the name (furigana) fourth where it is known.
        results: every finished game result of the event.
        finalists: numbers of the participants seated in the last phase with qualifiers.
        has_finals: the format has such a phase (otherwise everyone is a "finalist").

    Returns:
        Rows in :func:`final_order`.
    """
    rows = {
        entry[0]: RankRow(
            entry[0], entry[1], withdrawn=entry[2], reading=entry[3] if len(entry) > 3 else ""
        )
        for entry in names
    }
    for result in results:
        _add(rows[result.participant], result)
    final = set(finalists)
    for row in rows.values():
        row.finalist = row.number in final if has_finals else True
    return final_order(rows.values())
