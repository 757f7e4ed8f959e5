"""The placement model: each seat's chance of each final place from a :class:`PlacementState`.

The rest of the game is drawn, not played: each seat's final score is its score now plus
``dealer`` typical hands for every hand it still deals (less the table's mean, so the draws
stay zero-sum) plus ``sigma`` typical hands times ``sqrt(hands_left + extra)`` times a
zero-sum draw (Student's t of ``tail`` degrees of freedom, 0 = normal). The draws are fixed
(one seeded table per player count) and closed under every permutation of the seats and
under negation, so seats in the same position get exactly the same chances, and every draw
is an ordering of the seats, so each seat's chances and each place's chances sum to 1
exactly (a doubly stochastic matrix without any Sinkhorn pass). A share ``floor`` of the
uniform matrix is mixed in: no outcome of a game in play is called impossible. Equal final
draws follow the ruleset's tie rule. Parameters are fitted per club and family
(:mod:`scoring.placement.fitting`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from functools import cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .states import PlacementState

# Draws per player count: 24 seat orders x 2 signs x 25 (4 players), 6 x 2 x 100 (3).
_BASE_DRAWS = {4: 25, 3: 100}
_SEED = 20261129
TAILS = (0.0, 4.0, 8.0)


@dataclass(frozen=True, slots=True)
class Params:
    """The model's parameters: ``sigma`` typical hands of spread per square root of a hand
    left, ``extra`` hands of spread added to what the schedule holds (renchan, draws),
    ``dealer`` typical hands a seat gains per hand it deals, ``tail`` Student's t degrees of
    freedom (0: normal), ``floor`` the uniform share; ``games`` the games they were fitted on
    (0: none; a prior from simulation says so in ``source``)."""

    sigma: float
    extra: float
    dealer: float
    tail: float
    floor: float = 0.004
    games: int = 0
    source: str = "prior"

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data, as stored per club and family."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Params:
        """The parameters :meth:`to_json` wrote (unknown keys ignored)."""
        names = cls.__dataclass_fields__
        return cls(**{k: v for k, v in data.items() if k in names})


def blend(club: Params, prior: Params, weight_games: float = 60.0) -> Params:
    """The club's fitted parameters pulled to the prior by its number of games: the club's
    weight is ``games / (games + weight_games)`` (spread blended on the log scale; the tail
    is the club's once its weight passes one half)."""
    if club.games <= 0:
        return prior
    w = club.games / (club.games + weight_games)
    return Params(
        sigma=math.exp(w * math.log(club.sigma) + (1 - w) * math.log(prior.sigma)),
        extra=w * club.extra + (1 - w) * prior.extra,
        dealer=w * club.dealer + (1 - w) * prior.dealer,
        tail=club.tail if w >= 0.5 else prior.tail,
        floor=prior.floor,
        games=club.games,
        source="blend",
    )


@cache
def _draws(players: int, tail: float) -> NDArray[np.float64]:
    """The fixed zero-sum draws, shape (rows, players), each seat's variance 1."""
    rng = np.random.default_rng(_SEED + players)
    base_count = _BASE_DRAWS[players]
    if tail > 0:
        base = rng.standard_t(tail, size=(base_count, players))
    else:
        base = rng.standard_normal(size=(base_count, players))
    perms = list(itertools.permutations(range(players)))
    rows = np.concatenate([base[:, list(p)] for p in perms])
    rows = np.concatenate([rows, -rows])
    rows = rows - rows.mean(axis=1, keepdims=True)
    rows /= rows.std()
    rows.setflags(write=False)
    return rows


def _features(
    states: Sequence[PlacementState],
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    scores = np.array([s.scores for s in states], dtype=np.float64)
    units = np.array([s.unit for s in states], dtype=np.float64)[:, None]
    turns = np.array([s.dealer_turns for s in states], dtype=np.float64)
    left = np.array([s.hands_left for s in states], dtype=np.float64)
    n = scores.shape[1]
    # The tie rule as a difference far below a point: the seat ranked higher on equal
    # scores gets the larger nudge.
    order = np.arange(n, dtype=np.float64)
    nudge = (-order if states[0].seat_first_on_ties else order) * 1e-7
    return scores / units + nudge, turns - turns.mean(axis=1, keepdims=True), left, units


def chances_many(params: Params, states: Sequence[PlacementState]) -> NDArray[np.float64]:
    """Chances for states of one player count, shape (states, seats, places): ``[k][s][p]``
    is seat ``s``'s chance of place ``p + 1`` in state ``k``. A finished state's row is its
    exact places (1.0 and 0.0)."""
    if not states:
        return np.zeros((0, 0, 0))
    n = states[0].players
    out = np.empty((len(states), n, n))
    live = [i for i, s in enumerate(states) if s.final_places is None]
    for i, s in enumerate(states):
        if s.final_places is not None:
            out[i] = 0.0
            out[i, np.arange(n), np.array(s.final_places) - 1] = 1.0
    if not live:
        return out
    picked = [states[i] for i in live]
    base, turns, left, _units = _features(picked)
    draws = _draws(n, params.tail)
    spread = params.sigma * np.sqrt(np.maximum(left + params.extra, 0.0))
    mean = base + params.dealer * turns
    finals = mean[:, None, :] + spread[:, None, None] * draws[None, :, :]
    # Place of each seat in each draw (0 = top): how many seats end above it. A few
    # comparisons of whole arrays are cheaper than sorting every draw.
    ranks = np.zeros(finals.shape, dtype=np.int8)
    for other in range(n):
        ranks += finals[:, :, other : other + 1] > finals
    probs = np.stack([(ranks == place).mean(axis=1) for place in range(n)], axis=2)
    out[live] = (1 - params.floor) * probs + params.floor / n
    return out


def chances(params: Params, state: PlacementState) -> list[list[float]]:
    """Each seat's chance of each final place, ``[seat][place - 1]`` (see the module)."""
    return chances_many(params, [state])[0].tolist()


def with_floor(params: Params, floor: float) -> Params:
    """The same parameters with another uniform share."""
    return replace(params, floor=floor)
