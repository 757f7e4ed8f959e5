"""The game state the placement model reads after a hand, taken from the engine.

A :class:`PlacementState` is the table between hands (scores, round, dealer, honba,
deposits) plus what follows from the ruleset: how many hands the schedule still holds and
how many of them each seat deals, in the ruleset's typical hand (a non-dealer mangan ron,
8,000 points under every shipped ruleset) as the unit of score. A finished game's state
holds its exact places (the engine's settlement: the ruleset's tie rule, rules-spec §1B).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.engine import Game, Ruleset, hand_payment, parse_hand

FAMILIES = ("4p-hanchan", "4p-tonpuusen", "3p")


def family_of(ruleset: Ruleset) -> str:
    """The ruleset family a model is fitted per: ``"3p"`` for any 3-player ruleset, else
    ``"4p-hanchan"`` (two or more base winds) or ``"4p-tonpuusen"`` (East only)."""
    if ruleset.players == 3:
        return "3p"
    return "4p-tonpuusen" if ruleset.rounds == 1 else "4p-hanchan"


def hand_unit(ruleset: Ruleset) -> int:
    """The ruleset's typical hand in points: a non-dealer mangan ron (rules-spec §1, the
    payment grid), the unit of every score difference the model reads."""
    return hand_payment(ruleset, han=5, fu=30, dealer=False, tsumo=False)[0]


@dataclass(frozen=True, slots=True)
class PlacementState:
    """The table after a hand (or before the first), as the model reads it.

    ``scores``: points per seat; ``hands_left``: hands the schedule still holds, the coming
    one included (0 once the game is over), plus half a round where an extension may follow
    (nobody has reached ``extension_target``); ``dealer_turns``: per seat, how many of those
    hands it deals; ``unit``: :func:`hand_unit`; ``seat_first_on_ties``: the ruleset's tie
    rule (True: the seat nearer the chicha ranks higher on equal scores, rules-spec M-02);
    ``final_places``: 1 = top, per seat, for a finished game, else ``None``.
    """

    scores: tuple[int, ...]
    dealer: int
    honba: int
    deposits: int
    hands_left: float
    dealer_turns: tuple[int, ...]
    unit: int
    seat_first_on_ties: bool
    final_places: tuple[int, ...] | None = None

    @property
    def players(self) -> int:
        """3 or 4."""
        return len(self.scores)


def state_of(game: Game) -> PlacementState:
    """The :class:`PlacementState` of an engine game between hands, or of a finished one."""
    rs = game.ruleset
    n = rs.players
    unit = hand_unit(rs)
    ties = rs.tie_break == "seat_order"
    if game.ended_by is not None:
        settlement = game.settlement
        assert settlement is not None  # the engine settles every game it ends
        return PlacementState(
            scores=tuple(game.scores),
            dealer=game.dealer,
            honba=game.honba,
            deposits=game.deposits,
            hands_left=0.0,
            dealer_turns=(0,) * n,
            unit=unit,
            seat_first_on_ties=ties,
            final_places=tuple(settlement.ranks),
        )
    turns = [0] * n
    if game.wind_index < rs.rounds:
        left = (rs.rounds - game.wind_index) * n - game.hand_number
        for position in range(left):
            turns[(game.hand_number + position) % n] += 1
    else:
        # An extension round: its own hands are left, whatever follows it.
        left = n - game.hand_number
        for seat in range(game.hand_number, n):
            turns[seat] += 1
    extra = 0.0
    if rs.extension != "none" and max(game.scores) < rs.extension_target and left <= n:
        extra = n / 2
    return PlacementState(
        scores=tuple(game.scores),
        dealer=game.dealer,
        honba=game.honba,
        deposits=game.deposits,
        hands_left=left + extra,
        dealer_turns=tuple(turns),
        unit=unit,
        seat_first_on_ties=ties,
    )


def states_of_hands(ruleset: Ruleset, hands: Iterable[Mapping[str, Any]]) -> list[PlacementState]:
    """The state before the first hand and after each of ``hands`` (hand objects of
    docs/game-record-format.md), played from East 1 by the engine.

    Raises:
        RecordError: a hand the engine refuses (as a replay would).
    """
    game = Game(ruleset)
    states = [state_of(game)]
    for index, raw in enumerate(hands):
        game.play(parse_hand(raw, ruleset.players, index))
        states.append(state_of(game))
    return states


def final_places(states: Sequence[PlacementState]) -> tuple[int, ...] | None:
    """The exact places of a finished game's states (its last state's), else ``None``."""
    return states[-1].final_places if states else None
