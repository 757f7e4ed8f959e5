"""How good the chances are (docs/placement.md): log-loss, Brier score and calibration of
the model on games held out by date, against two baselines.

- ``model``: the parameters fitted on the games before the held-out ones, blended with the
  family's prior by their number (what the site would have used);
- ``current order``: each seat's current place (the ruleset's tie rule) gets ``1 - e`` and
  every place ``e / n`` besides, ``e`` the smoothing that suits the training games best;
- ``uniform``: ``1 / n`` for every place.

Every state in play of a held-out game (before its first hand and after every hand but the
last) counts once per seat: log-loss is the mean ``-ln P(the place it ended at)``, Brier the
mean of ``sum over places (P - outcome)^2``. Calibration: every predicted chance (seat and
place) by tenths of probability, the mean chance against how often it happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .fitting import fit, training_states
from .model import Params, blend, chances_many
from .states import PlacementState

Games = Sequence[Sequence[PlacementState]]
# Calibration targets: a tenth with at least this many predictions is within this of its
# observed frequency.
CALIBRATION_MIN = 200
CALIBRATION_TOLERANCE = 0.05
SMOOTHINGS = (0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)


@dataclass(frozen=True, slots=True)
class Scores:
    """Mean log-loss and Brier score of one predictor over the held-out predictions."""

    log_loss: float
    brier: float


@dataclass(frozen=True, slots=True)
class Decile:
    """One tenth of the calibration table: chances in ``[low, low + 0.1)`` (the last tenth
    takes 1.0), ``count`` of them, their ``predicted`` mean and ``observed`` frequency."""

    low: float
    count: int
    predicted: float
    observed: float

    @property
    def gap(self) -> float:
        """``|predicted - observed|`` (0 where empty)."""
        return abs(self.predicted - self.observed)

    @property
    def within(self) -> bool:
        """Within :data:`CALIBRATION_TOLERANCE`, or too few predictions to judge."""
        return self.count < CALIBRATION_MIN or self.gap <= CALIBRATION_TOLERANCE


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The figures of one family: games trained on and held out, predictions (states x
    seats), the three predictors' scores, the calibration table, the fitted parameters and
    the current-order smoothing."""

    train_games: int
    test_games: int
    predictions: int
    model: Scores
    current_order: Scores
    uniform: Scores
    deciles: tuple[Decile, ...]
    params: Params
    smoothing: float

    @property
    def beats_current_order(self) -> bool:
        """Lower log-loss and Brier score than the current order."""
        return (
            self.model.log_loss < self.current_order.log_loss
            and self.model.brier < self.current_order.brier
        )

    @property
    def calibrated(self) -> bool:
        """Every tenth with enough predictions within the tolerance."""
        return all(d.within for d in self.deciles)


def _outcomes(games: Games) -> tuple[list[PlacementState], NDArray[np.float64]]:
    pairs = training_states(games, cap=None)
    states = [s for s, _ in pairs]
    if not pairs:
        return states, np.zeros((0, 0, 0))
    places = np.array([p for _, p in pairs]) - 1
    n = places.shape[1]
    out = np.zeros((len(pairs), n, n))
    out[np.arange(len(pairs))[:, None], np.arange(n)[None, :], places] = 1.0
    return states, out


def current_order(states: Sequence[PlacementState], smoothing: float) -> NDArray[np.float64]:
    """The current-order baseline's chances, shape (states, seats, places)."""
    n = states[0].players
    out = np.full((len(states), n, n), smoothing / n)
    for k, state in enumerate(states):
        ties = state.seat_first_on_ties
        order = sorted(range(n), key=lambda s: (-state.scores[s], s if ties else -s))
        for place, seat in enumerate(order):
            out[k, seat, place] += 1 - smoothing
    return out


def scores(probs: NDArray[np.float64], outcome: NDArray[np.float64]) -> Scores:
    """Mean log-loss and Brier score per (state, seat)."""
    picked = (probs * outcome).sum(axis=2)
    return Scores(
        log_loss=float(-np.log(picked).mean()),
        brier=float(((probs - outcome) ** 2).sum(axis=2).mean()),
    )


def calibration(probs: NDArray[np.float64], outcome: NDArray[np.float64]) -> tuple[Decile, ...]:
    """The calibration table by tenths of probability (see the module)."""
    p = probs.ravel()
    y = outcome.ravel()
    bins = np.minimum((p * 10).astype(int), 9)
    out = []
    for b in range(10):
        mask = bins == b
        count = int(mask.sum())
        out.append(
            Decile(
                low=b / 10,
                count=count,
                predicted=float(p[mask].mean()) if count else 0.0,
                observed=float(y[mask].mean()) if count else 0.0,
            )
        )
    return tuple(out)


def split_by_date(games: Games, held_out: float) -> tuple[Games, Games]:
    """The earlier and the later games (``games`` in the order played), the later
    ``held_out`` share held out."""
    cut = len(games) - max(1, round(len(games) * held_out))
    return games[:cut], games[cut:]


def evaluate(train: Games, test: Games, prior: Params) -> Evaluation:
    """The figures of the model fitted on ``train`` (blended with ``prior``) and of the
    baselines on ``test`` (one family; see the module).

    Raises:
        ValueError: ``test`` has no finished game with a state in play.
    """
    states, outcome = _outcomes(test)
    if not states:
        raise ValueError("no finished game to hold out")
    params = blend(fit(train, prior), prior)
    probs = chances_many(params, states)
    train_states, train_outcome = _outcomes(train)
    smoothing = 0.1
    if train_states:
        smoothing = min(
            SMOOTHINGS,
            key=lambda e: scores(current_order(train_states, e), train_outcome).log_loss,
        )
    n = states[0].players
    return Evaluation(
        train_games=len(train),
        test_games=len(test),
        predictions=len(states) * n,
        model=scores(probs, outcome),
        current_order=scores(current_order(states, smoothing), outcome),
        uniform=scores(np.full(outcome.shape, 1 / n), outcome),
        deciles=calibration(probs, outcome),
        params=params,
        smoothing=smoothing,
    )


def report(title: str, figures: Evaluation) -> list[str]:
    """The figures as lines of text, as ``manage.py placement_eval`` prints them."""
    verdict = "ok" if figures.beats_current_order else "BELOW TARGET"
    calibrated = "ok" if figures.calibrated else "BELOW TARGET"
    p = figures.params
    lines = [
        f"{title}: {figures.train_games} games fitted, {figures.test_games} held out "
        f"(the latest), {figures.predictions} predictions",
        f"  parameters: sigma {p.sigma:.3f}, extra {p.extra:.2f}, dealer {p.dealer:.2f}, "
        f"tail {p.tail:g}, from {p.games} games ({p.source})",
        f"  {'':<26}{'log-loss':>10}{'Brier':>10}",
        f"  {'model':<26}{figures.model.log_loss:>10.4f}{figures.model.brier:>10.4f}",
        f"  {f'current order (e={figures.smoothing:g})':<26}"
        f"{figures.current_order.log_loss:>10.4f}{figures.current_order.brier:>10.4f}",
        f"  {'uniform':<26}{figures.uniform.log_loss:>10.4f}{figures.uniform.brier:>10.4f}",
        f"  better than current order: {verdict}",
        f"  calibration ({CALIBRATION_TOLERANCE * 100:g} points where >= {CALIBRATION_MIN} "
        f"predictions): {calibrated}",
        f"  {'chance':<12}{'count':>8}{'predicted':>11}{'observed':>10}{'gap':>8}",
    ]
    for d in figures.deciles:
        mark = "" if d.within else "  BELOW TARGET"
        lines.append(
            f"  {f'{d.low:.1f}-{d.low + 0.1:.1f}':<12}{d.count:>8}{d.predicted:>11.3f}"
            f"{d.observed:>10.3f}{d.gap * 100:>7.1f}p{mark}"
        )
    return lines
