"""Each member's standing both ways: as the ledger counted the period's games, and with
every game re-scored under another ruleset (docs/what-if.md). Pure Python.

A game that cannot be re-scored (:class:`scoring.whatif.games.Refusal`) keeps its stored
result on both sides, so that the change a member sees comes from the rules alone; the
games are listed with why. Under each game's own ruleset the stored result must come back:
:attr:`WhatIf.not_reproduced` lists the games where it does not (none, on a sound ledger).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.engine import Ruleset
from scoring.whatif.games import PENDING, Game, Refusal, Rescorer, Result


@dataclass(frozen=True, slots=True)
class Line:
    """One member: ``games`` counted in the period, total settlement points ``before`` (as
    counted) and ``after`` (re-scored), in points, and the place of each total (1 = most;
    equal totals share a place)."""

    member_id: int
    games: int
    before: int
    after: int
    place_before: int
    place_after: int

    @property
    def change(self) -> int:
        """``after - before``, in points."""
        return self.after - self.before

    @property
    def places_up(self) -> int:
        """How many places the member moves up (negative: down)."""
        return self.place_before - self.place_after


@dataclass(frozen=True, slots=True)
class Refused:
    """A game that cannot be re-scored, and why."""

    game: Game
    refusal: Refusal


@dataclass(frozen=True, slots=True)
class WhatIf:
    """The period both ways: ``lines`` in the order of the re-scored totals (then the
    counted ones, then member id), ``rescored`` games, ``final_scores_games`` among them
    (re-settled from their final scores), the ``refused`` ones, and ``not_reproduced``: the
    games whose replay under their own ruleset does not give their stored result."""

    other: str
    lines: tuple[Line, ...]
    games: int
    rescored: int
    final_scores_games: int
    refused: tuple[Refused, ...]
    not_reproduced: tuple[Game, ...]


def what_if(games: Iterable[Game], other: Ruleset) -> WhatIf:
    """Re-score ``games`` under ``other`` and add up each member's totals both ways.

    Each game is replayed twice: as it is (the check that its stored result comes back)
    and under ``other`` (once when ``other`` is its own ruleset); a game of hands is played
    by the engine hand by hand (:class:`scoring.whatif.games.Rescorer`), its ruleset built
    once per ruleset and overrides.
    """
    before: dict[int, int] = {}
    after: dict[int, int] = {}
    played: dict[int, int] = {}
    refused: list[Refused] = []
    not_reproduced: list[Game] = []
    count = rescored = final_scores = 0
    rescorer = Rescorer(other)
    for game in games:
        count += 1
        result: Result | Refusal
        if game.pending:
            result = Refusal(PENDING, None, "a correction waits for confirmation", {})
        else:
            own, result = rescorer.both(game.record)
            if own != game.stored:
                not_reproduced.append(game)
        if isinstance(result, Refusal):
            refused.append(Refused(game, result))
            result = game.stored
        else:
            rescored += 1
            final_scores += game.final_scores_only
        for seat, member in enumerate(game.members):
            played[member] = played.get(member, 0) + 1
            before[member] = before.get(member, 0) + game.stored.points[seat]
            after[member] = after.get(member, 0) + _points(result, seat)
    place_before = places(before)
    place_after = places(after)
    lines = sorted(
        (Line(m, played[m], before[m], after[m], place_before[m], place_after[m]) for m in played),
        key=lambda line: (-line.after, -line.before, line.member_id),
    )
    return WhatIf(
        other=other.id,
        lines=tuple(lines),
        games=count,
        rescored=rescored,
        final_scores_games=final_scores,
        refused=tuple(refused),
        not_reproduced=tuple(not_reproduced),
    )


def _points(result: Result, seat: int) -> int:
    return result.points[seat]


def places(totals: dict[int, int]) -> dict[int, int]:
    """Each member's place by total, most first; equal totals share the higher place
    (1, 2, 2, 4)."""
    ordered: Sequence[int] = sorted(totals.values(), reverse=True)
    first_at: dict[int, int] = {}
    for index, total in enumerate(ordered, start=1):
        first_at.setdefault(total, index)
    return {member: first_at[total] for member, total in totals.items()}
