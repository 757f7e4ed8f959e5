"""A member's placement-probability swings over their games: in each game, how low their
chance of the place they finished at (or better) fell before they got there, and the hand
that moved their chance of that place the most; over the games, the biggest comeback and
the hand that decided most.

Pure: it reads each game's chances as ``chances[k][seat][place - 1]`` (probabilities 0-1;
``k = 0`` before the first hand, ``k = i`` after hand ``i``), as the placement model gives
them for a game, and the member's seat and final place from the counted result.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

Chances = Sequence[Sequence[Sequence[float]]]


@dataclass(frozen=True, slots=True)
class GameSwing:
    """One member's swing in one game.

    ``seat``: theirs (0 dealt first); ``place``: where they finished (1 = top) of
    ``players``. ``low``: their lowest chance of finishing at ``place`` or better before the
    last hand, and ``low_after`` when it was (0: before the first hand, ``i``: after hand
    ``i``). ``decided_hand``: the hand (1-based) that changed their chance of exactly
    ``place`` the most, from ``decided_before`` to ``decided_after``.
    """

    hanchan_id: int
    played_on: date
    seat: int
    place: int
    players: int
    low: float
    low_after: int
    decided_hand: int
    decided_before: float
    decided_after: float

    @property
    def decided_change(self) -> float:
        return self.decided_after - self.decided_before

    @property
    def is_comeback(self) -> bool:
        """Finishing last is no comeback: the chance of last or better is always 1."""
        return self.place < self.players


def game_swing(
    chances: Chances, *, seat: int, place: int, hanchan_id: int, played_on: date
) -> GameSwing | None:
    """The swing of ``seat``, which finished at ``place``, in a game of ``chances``;
    ``None`` for a game without a hand (entered as final scores)."""
    hands = len(chances) - 1
    if hands < 1:
        return None
    at_or_better = [sum(k[seat][:place]) for k in chances]
    # The lowest point before the last hand: after it, the place is reached.
    low_after = min(range(hands), key=lambda k: (at_or_better[k], -k))
    exactly = [k[seat][place - 1] for k in chances]
    decided = max(range(1, hands + 1), key=lambda i: (abs(exactly[i] - exactly[i - 1]), -i))
    return GameSwing(
        hanchan_id=hanchan_id,
        played_on=played_on,
        seat=seat,
        place=place,
        players=len(chances[0]),
        low=at_or_better[low_after],
        low_after=low_after,
        decided_hand=decided,
        decided_before=exactly[decided - 1],
        decided_after=exactly[decided],
    )


@dataclass(frozen=True, slots=True)
class Swings:
    """A member's swings over their games, newest first; ``comeback``: the game whose
    ``low`` was lowest among those not finished last; ``decider``: the game with the largest
    single-hand change (either way). The newer wins a tie."""

    games: tuple[GameSwing, ...]
    comeback: GameSwing | None
    decider: GameSwing | None


def member_swings(swings: Iterable[GameSwing | None]) -> Swings:
    """The summary of ``swings``, given newest first (``None``s left out)."""
    games = tuple(s for s in swings if s is not None)
    comebacks = [s for s in games if s.is_comeback]
    return Swings(
        games=games,
        # min and max keep the first of equals: the newest.
        comeback=min(comebacks, key=lambda s: s.low, default=None),
        decider=max(games, key=lambda s: abs(s.decided_change), default=None),
    )
