"""The harness's runs (docs/ratings.md): the simulated club with both seatings, the club's
own counted games in time order, the parameter grid ``rating_eval --tune`` searches, and the
held-out evaluation (``rating_eval --held-out``): the tuned model beside
simple baselines (:mod:`ratings.baselines`, tuned on the same seed), on seeds none of them was
tuned on, under both laws of the game (:data:`ratings.simulation.LAWS`), reported as the
median and the range over the seeds, never the best seed alone."""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ratings.baselines import Elo, ShrunkPlacement
from ratings.model import TUNED, Parameters, RatingModel
from ratings.simulation import LAWS, SEATINGS, Club, Figures, Game, Predictor, evaluate, simulate

# The simulated club the figures in docs/ratings.md come from (``make bench``): 40 members
# coming 40-100% of 2,000 rounds (about 1,370 games each), skill sd 0.25 drifting by 0.001
# a round, same-strength tables seated by skill blurred by one sd.
BENCH_CLUB = Club(players=40, rounds=2000, skill_sd=0.25, drift_sd=0.001, seat_jitter=1.0)
# The CI's smaller run of the same club (tests/test_ratings_eval.py).
CI_CLUB = replace(BENCH_CLUB, rounds=600)

# The model's parameters and the baselines' were chosen on this seed (BENCH_CLUB.seed); the
# held-out evaluation never uses it.
TUNING_SEED = 1
HELD_OUT_SEEDS = tuple(range(2, 12))

# The rating's targets (docs/ratings.md).
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


# The baselines' grids, searched on the tuning seed like the model's (best log-loss on random
# tables of the Plackett-Luce club).
GRID_PRIOR_GAMES = (5.0, 10.0, 20.0, 40.0, 80.0)
GRID_SCALE = (0.5, 1.0, 2.0, 4.0)
GRID_ELO_K = (2.0, 4.0, 8.0, 16.0, 32.0)


def tune_baselines(club: Club) -> tuple[ShrunkPlacement, Elo]:
    """The baselines with the best log-loss on ``club``'s random tables (its own seed and
    law; :data:`TUNING_SEED` and Plackett-Luce for the figures of docs/ratings.md)."""
    simulation = simulate(replace(club, seating="random"))

    def loss(predictor: Predictor) -> float:
        return evaluate(simulation.games, predictor).log_loss

    shrunk = min(
        (ShrunkPlacement(prior, scale) for prior in GRID_PRIOR_GAMES for scale in GRID_SCALE),
        key=loss,
    )
    elo = min((Elo(k) for k in GRID_ELO_K), key=loss)
    return shrunk, elo


@dataclass(frozen=True, slots=True)
class Spread:
    """One figure over the seeds: the median and the least and greatest value."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread | None:
        if not values:
            return None
        return cls(statistics.median(values), min(values), max(values))


@dataclass(frozen=True, slots=True)
class HeldOut:
    """One predictor on one law and seating over the held-out ``seeds``: its figures per seed
    (in the seeds' order) and their spreads (``share``: the oracle's gain share, Plackett-Luce
    law only)."""

    law: str
    seating: str
    predictor: str
    seeds: tuple[int, ...]
    figures: tuple[Figures, ...]

    @property
    def spearman(self) -> Spread | None:
        return Spread.of([f.spearman for f in self.figures if f.spearman is not None])

    @property
    def gain(self) -> Spread | None:
        return Spread.of([f.gain for f in self.figures])

    @property
    def share(self) -> Spread | None:
        return Spread.of([f.gain_share for f in self.figures if f.gain_share is not None])


def held_out(
    club: Club,
    predictors: Sequence[tuple[str, Predictor]],
    seeds: Sequence[int] = HELD_OUT_SEEDS,
    laws: Sequence[str] = LAWS,
) -> list[HeldOut]:
    """Each predictor on ``club`` under each law and seating, on each seed of ``seeds`` (the
    same games for every predictor), by law, seating and predictor in the order given.

    Raises:
        ValueError: a seed the parameters were tuned on (:data:`TUNING_SEED`), or no seeds.
    """
    if TUNING_SEED in seeds or not seeds:
        raise ValueError(f"held-out seeds exclude the tuning seed {TUNING_SEED}: {seeds}")
    results = []
    for law in laws:
        for seating in SEATINGS:
            per_predictor: list[list[Figures]] = [[] for _ in predictors]
            for seed in seeds:
                simulation = simulate(replace(club, law=law, seating=seating, seed=seed))
                for figures, (_, predictor) in zip(per_predictor, predictors, strict=True):
                    figures.append(evaluate(simulation.games, predictor, simulation.final_skill))
            results += [
                HeldOut(law, seating, name, tuple(seeds), tuple(figures))
                for (name, _), figures in zip(predictors, per_predictor, strict=True)
            ]
    return results


def standard_predictors(club: Club = BENCH_CLUB) -> list[tuple[str, Predictor]]:
    """The tuned model and the baselines tuned on ``club`` at :data:`TUNING_SEED`."""
    shrunk, elo = tune_baselines(replace(club, seed=TUNING_SEED, law="plackett_luce"))
    return [
        ("OpenSkill (tuned)", RatingModel(TUNED)),
        (f"Elo (k {elo.k:g})", elo),
        (f"shrunk placement ({shrunk.prior_games:g} games, x{shrunk.scale:g})", shrunk),
    ]
