"""The rating model: OpenSkill's Plackett-Luce with the club's tuned parameters
(docs/ratings.md). Plain Python, no Django: the harness (:mod:`ratings.simulation`) and the
ledger's ratings (:mod:`ratings.updating`) rate games with the same model.

A game is a list of seats, each a rating and a placement (1 = top; ties share a placement).
A rating is ``mu`` (the estimate of skill) and ``sigma`` (how unsure it is), in OpenSkill's
units (a new player has mu 25). It is shown as the ordinal ``mu - 3 sigma``: what the
player's skill is at least, with 99.7% confidence under the model.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating


@dataclass(frozen=True, slots=True)
class Parameters:
    """The model's parameters, in OpenSkill's units: ``mu`` and ``sigma``, a new player's
    rating; ``beta``, the spread of one game's performance (the luck; larger = each game tells
    less); ``tau``, how much sigma grows before each game (skill drifts); ``gamma``, how fast
    sigma shrinks with each game, as a multiple of OpenSkill's own rate (its ``gamma``
    function, ``sigma / c``)."""

    mu: float
    sigma: float
    beta: float
    tau: float
    gamma: float = 1.0


# Chosen with `manage.py rating_eval --tune` on the simulated club (docs/ratings.md): the
# grid's best log-loss on random tables among the settings that rank same-strength tables
# at Spearman >= 0.85.
TUNED = Parameters(mu=25.0, sigma=25.0 / 3.0, beta=50.0 / 3.0, tau=0.0, gamma=8.0)
# OpenSkill's own defaults, the baseline the docs compare against.
DEFAULTS = Parameters(mu=25.0, sigma=25.0 / 3.0, beta=25.0 / 6.0, tau=25.0 / 300.0)


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating: ``mu`` and ``sigma`` (OpenSkill units)."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: the rating shown and ranked by."""
        return self.mu - 3 * self.sigma


class RatingModel:
    """Plackett-Luce over placements with :class:`Parameters` (default :data:`TUNED`)."""

    def __init__(self, parameters: Parameters = TUNED) -> None:
        self.parameters = parameters
        self._model = PlackettLuce(
            mu=parameters.mu,
            sigma=parameters.sigma,
            beta=parameters.beta,
            tau=parameters.tau,
            gamma=self._gamma,
            limit_sigma=False,
        )

    def _gamma(
        self,
        c: float,
        k: int,
        mu: float,
        sigma_squared: float,
        team: Sequence[PlackettLuceRating],
        rank: int,
        weights: list[float] | None,
    ) -> float:
        # OpenSkill's default (openskill.models.weng_lin.plackett_luce._gamma) times ours.
        return self.parameters.gamma * math.sqrt(sigma_squared) / c

    def new(self) -> Rating:
        """A new player's rating."""
        return Rating(self.parameters.mu, self.parameters.sigma)

    def rate(self, ratings: Sequence[Rating], placements: Sequence[int]) -> list[Rating]:
        """The seats' ratings after a game they finished at ``placements`` (1 = top, same
        order as ``ratings``; 3 or 4 seats). Sigma first grows by tau (drift)."""
        teams = [[PlackettLuceRating(r.mu, r.sigma)] for r in ratings]
        rated = self._model.rate(teams, ranks=[float(p) for p in placements])
        return [Rating(team[0].mu, team[0].sigma) for team in rated]

    def score(self, rating: Rating) -> float:
        """The number players are ranked by: ``mu``, the estimate the pages show (a rating's
        uncertainty is said in words beside it)."""
        return rating.mu

    def order_probability(self, ratings: Sequence[Rating], placements: Sequence[int]) -> float:
        """The model's probability, before the game, of the placements it ended with: the
        Plackett-Luce likelihood OpenSkill's update uses, strengths ``exp(mu / c)`` with
        ``c = sqrt(sum(sigma^2 + beta^2))``. Tied seats are taken in seat order."""
        c = math.sqrt(sum(r.sigma**2 + self.parameters.beta**2 for r in ratings))
        return plackett_luce_probability([r.mu / c for r in ratings], placements)


def plackett_luce_probability(strengths: Sequence[float], placements: Sequence[int]) -> float:
    """The probability of the finishing order ``placements`` (1 = top) when seat ``i`` has the
    log-strength ``strengths[i]``: the top seat first among all, the next among the rest, ...
    Ties are taken in seat order."""
    order = sorted(range(len(strengths)), key=lambda i: (placements[i], i))
    top = max(strengths)
    weights = [math.exp(strengths[i] - top) for i in order]
    probability = 1.0
    remaining = sum(weights)
    for weight in weights[:-1]:
        probability *= weight / remaining
        remaining -= weight
    return probability
