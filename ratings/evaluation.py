"""The harness's runs (docs/ratings.md): the simulated club with both seatings, the club's
own counted games in time order, and the parameter grid ``rating_eval --tune`` searches."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace

from ratings.model import TUNED, Parameters, RatingModel
from ratings.simulation import Club, Figures, Game, evaluate, simulate

# The simulated club the figures in docs/ratings.md come from (``make bench``): 40 members
# coming 40-100% of 2,000 rounds (about 1,370 games each), skill sd 0.25 drifting by 0.001
# a round, same-strength tables seated by skill blurred by one sd.
BENCH_CLUB = Club(players=40, rounds=2000, skill_sd=0.25, drift_sd=0.001, seat_jitter=1.0)
# The CI's smaller run of the same club (tests/test_ratings_eval.py).
CI_CLUB = replace(BENCH_CLUB, rounds=600)

# The targets of issue 23 item 3.
SPEARMAN_TARGET = 0.85
GAIN_SHARE_TARGET = 0.85

# The grid ``--tune`` searches (mu fixed at 25, so a new player's ordinal is 0 at sigma 25/3).
GRID_SIGMA = (6.0, 25.0 / 3.0)
GRID_BETA = (25.0 / 6.0, 50.0 / 3.0, 25.0)
GRID_TAU = (0.0, 0.05)
GRID_GAMMA = (1.0, 4.0, 8.0, 16.0)


@dataclass(frozen=True, slots=True)
class SimulatedFigures:
    """The rating's figures on the two seatings of one simulated club."""

    random: Figures
    same_strength: Figures

    def meets_targets(self) -> bool:
        """Spearman >= 0.85 on same-strength tables and >= 85% of the oracle's log-loss gain
        on random tables."""
        rho = self.same_strength.spearman
        share = self.random.gain_share
        return (
            rho is not None
            and rho >= SPEARMAN_TARGET
            and share is not None
            and share >= GAIN_SHARE_TARGET
        )


def simulated(club: Club, parameters: Parameters = TUNED) -> SimulatedFigures:
    """The figures of the model with ``parameters`` on ``club`` seated both ways."""
    model = RatingModel(parameters)
    figures = {}
    for seating in ("random", "same_strength"):
        simulation = simulate(replace(club, seating=seating))
        figures[seating] = evaluate(simulation.games, model, simulation.final_skill)
    return SimulatedFigures(figures["random"], figures["same_strength"])


def tune(
    club: Club, progress: Callable[[Parameters, SimulatedFigures], None] | None = None
) -> Parameters:
    """The grid's parameters with the best log-loss on random tables among those that reach
    the Spearman target on same-strength tables (the best Spearman when none does)."""
    simulations = {
        seating: simulate(replace(club, seating=seating)) for seating in ("random", "same_strength")
    }
    results = []
    grid = itertools.product(GRID_SIGMA, GRID_BETA, GRID_TAU, GRID_GAMMA)
    for sigma, beta, tau, gamma in grid:
        parameters = Parameters(mu=25.0, sigma=sigma, beta=beta, tau=tau, gamma=gamma)
        model = RatingModel(parameters)
        figures = SimulatedFigures(
            *(
                evaluate(simulations[s].games, model, simulations[s].final_skill)
                for s in ("random", "same_strength")
            )
        )
        if progress is not None:
            progress(parameters, figures)
        results.append((parameters, figures))
    ranked = [r for r in results if (r[1].same_strength.spearman or 0) >= SPEARMAN_TARGET]
    if ranked:
        return min(ranked, key=lambda r: r[1].random.log_loss)[0]
    return max(results, key=lambda r: r[1].same_strength.spearman or 0)[0]


def real(games: list[Game], parameters: Parameters = TUNED) -> Figures | None:
    """The figures of the model on the club's own ``games`` in time order (None: none)."""
    if not games:
        return None
    return evaluate(games, RatingModel(parameters))
