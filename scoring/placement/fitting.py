"""Fitting the placement model's parameters to finished games, by log-loss.

Every state of a finished game (before its first hand and after each hand but the last) is
one prediction per seat: the log-loss is the mean of ``-ln P(seat ends at its place)``. The
parameters are searched a coordinate at a time over fixed grids (the model's draws are fixed,
so the loss is a step function of the parameters and a gradient says nothing), twice over.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from .model import TAILS, Params, chances_many
from .states import PlacementState

SIGMAS = tuple(round(0.15 * 1.15**i, 4) for i in range(16))
EXTRAS = (0.0, 0.5, 1.0, 2.0, 3.0)
DEALERS = (-0.05, 0.0, 0.05, 0.1, 0.15, 0.2)
# The states fitted on at most: more adds time and nothing the figures show.
MAX_STATES = 1500


def training_states(
    games: Sequence[Sequence[PlacementState]], seed: int = 0, cap: int | None = MAX_STATES
) -> list[tuple[PlacementState, tuple[int, ...]]]:
    """``(state, final places)`` of every state in play of finished ``games`` (each game's
    states in order, its last one finished; others are left out), at most ``cap``
    (None: all), drawn evenly when more."""
    pairs: list[tuple[PlacementState, tuple[int, ...]]] = []
    for states in games:
        if not states or states[-1].final_places is None:
            continue
        places = states[-1].final_places
        pairs.extend((s, places) for s in states if s.final_places is None)
    if cap is not None and len(pairs) > cap:
        pairs = random.Random(seed).sample(pairs, cap)
    return pairs


def log_loss(params: Params, pairs: Sequence[tuple[PlacementState, tuple[int, ...]]]) -> float:
    """Mean ``-ln P`` of each seat's final place over ``pairs`` (one player count)."""
    if not pairs:
        return float("nan")
    probs = chances_many(params, [s for s, _ in pairs])
    places = np.array([p for _, p in pairs]) - 1
    n = places.shape[1]
    picked = probs[np.arange(len(pairs))[:, None], np.arange(n)[None, :], places]
    return float(-np.log(picked).mean())


def fit(games: Sequence[Sequence[PlacementState]], start: Params, source: str = "club") -> Params:
    """Parameters minimising the log-loss on ``games`` (see :func:`training_states`),
    searched from ``start``; ``games`` in the result is the number of finished games used.
    With no finished game: ``start`` itself."""
    pairs = training_states(games)
    finished = sum(1 for g in games if g and g[-1].final_places is not None)
    if not pairs:
        return start
    best = replace(start, games=finished, source=source)
    best_loss = log_loss(best, pairs)
    # The spread matters most: searched again once the others have moved.
    for name, grid in (
        ("sigma", SIGMAS),
        ("extra", EXTRAS),
        ("dealer", DEALERS),
        ("tail", TAILS),
        ("sigma", SIGMAS),
    ):
        for value in grid:
            trial = replace(best, **{name: value})  # type: ignore[arg-type]
            loss = log_loss(trial, pairs)
            if loss < best_loss - 1e-9:
                best, best_loss = trial, loss
    return best
