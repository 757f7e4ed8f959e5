"""Simple ratings to judge the OpenSkill model beside (docs/ratings.md):
what a club could do without a rating model at all. Both are :class:`ratings.simulation.
Predictor`s, so the harness judges them on the same games in the same way, and both predict
a finishing order with Plackett-Luce over their own numbers (the probability the log-loss
needs; Elo's pairwise law is Plackett-Luce's two-player case).

- :class:`ShrunkPlacement`: a player's average placement, shrunk toward the middle place by
  ``prior_games`` games of it (a member with two 1st places is not the club's best); the
  number ranked by is minus that average's distance from the middle; the strengths of a
  prediction ``scale`` times it.
- :class:`Elo`: multiplayer Elo. A game of ``n`` is its ``n (n - 1) / 2`` pairs, each a win,
  a loss or a tie at the expected score ``1 / (1 + 10^((r_j - r_i) / 400))``; a player's
  rating moves by ``k / (n - 1)`` times their actual minus expected pair results. A new
  player has 1,500. The strengths of a prediction are ``r ln 10 / 400``.

Their parameters are chosen on the tuning seed as the model's were (:func:`ratings.evaluation.
tune_baselines`). Plain Python, no Django.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ratings.model import plackett_luce_probability


@dataclass(frozen=True, slots=True)
class Placed:
    """A player's games and the sum of their placements' distances from the middle place
    (``placement - (seats + 1) / 2``: negative is better), so that 3- and 4-player games add
    up alike."""

    games: int
    offset: float


@dataclass(frozen=True, slots=True)
class ShrunkPlacement:
    """The average placement shrunk toward the middle by ``prior_games`` (see the module)."""

    prior_games: float = 20.0
    scale: float = 1.0
    name: str = "shrunk average placement"

    def new(self) -> Placed:
        return Placed(0, 0.0)

    def score(self, rating: Placed) -> float:
        """Higher = better: minus the shrunk average distance from the middle place."""
        return -rating.offset / (rating.games + self.prior_games)

    def rate(self, ratings: Sequence[Placed], placements: Sequence[int]) -> list[Placed]:
        middle = (len(placements) + 1) / 2
        return [
            Placed(r.games + 1, r.offset + place - middle)
            for r, place in zip(ratings, placements, strict=True)
        ]

    def order_probability(self, ratings: Sequence[Placed], placements: Sequence[int]) -> float:
        return plackett_luce_probability([self.scale * self.score(r) for r in ratings], placements)


@dataclass(frozen=True, slots=True)
class Elo:
    """Multiplayer Elo with step ``k`` (see the module)."""

    k: float = 16.0
    start: float = 1500.0
    name: str = "Elo"

    def new(self) -> float:
        return self.start

    def score(self, rating: float) -> float:
        return rating

    def rate(self, ratings: Sequence[float], placements: Sequence[int]) -> list[float]:
        n = len(ratings)
        after = []
        for i, mine in enumerate(ratings):
            change = 0.0
            for j, theirs in enumerate(ratings):
                if i == j:
                    continue
                expected = 1.0 / (1.0 + 10.0 ** ((theirs - mine) / 400.0))
                if placements[i] < placements[j]:
                    actual = 1.0
                elif placements[i] == placements[j]:
                    actual = 0.5
                else:
                    actual = 0.0
                change += actual - expected
            after.append(mine + self.k / (n - 1) * change)
        return after

    def order_probability(self, ratings: Sequence[float], placements: Sequence[int]) -> float:
        return plackett_luce_probability([r * math.log(10) / 400 for r in ratings], placements)
