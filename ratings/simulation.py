"""The rating's harness (docs/ratings.md): a seeded simulated club whose
players' true skill is known, and the figures a rating earns on it or on real games.

The simulated club: ``players`` members of true skill ``s`` drawn from a normal law of sd
``skill_sd`` (log-strength); a game's placements are drawn from Plackett-Luce with strengths
``exp(s)``, so a player one sd above the field (4 players, ``skill_sd`` 0.25) finishes first
29% of the time instead of 25%: placement is mostly luck. Skill drifts: after every round
each player's ``s`` moves by a normal step of sd ``drift_sd``. Each round every member
comes with their own attendance (0.4 to 1.0); those present sit at tables of ``seats``:

- ``random`` tables: drawn by lot;
- ``same_strength`` tables: sorted by true skill blurred by a normal error of sd
  ``seat_jitter`` x ``skill_sd`` (a club seating its league by its sense of strength), then
  cut into tables in that order: strong play strong, weak play weak.

Two laws of the game (``law``), so that the rating is not judged only on the law it assumes:

- ``plackett_luce``: the placements drawn from Plackett-Luce with strengths ``exp(s)`` (the
  rating's own model);
- ``hands``: a hanchan played hand by hand (:func:`_play_hands`): each of ``hands_per_game``
  hands is a draw (15%) or a win, the winner drawn with weights ``exp(s / 2)``, a ron (65%)
  paid by a discarder drawn with weights ``exp(-s / 2)`` or a tsumo paid by all, the value
  drawn from a spread of hand values (1,000 to 24,000); the placements are the final scores'
  order. Skill acts on every hand; luck is the hands' values and who meets whom, not a law
  of whole placements. The halving keeps the edge of the other law: a player one sd (0.25)
  above three average ones finishes first 29.7% of the time (29.9% under Plackett-Luce).

A rating (any :class:`Predictor`: the OpenSkill model, or a baseline of
:mod:`ratings.baselines`) is judged on the same games, each predicted before it is rated:

- ``spearman``: rank correlation (scipy.stats.spearmanr) of the final numbers the predictor
  ranks by (:meth:`Predictor.score`; the OpenSkill model's ``mu``, the number the pages show
  and rank by) against the final true skills, over the players with at least ``min_games``
  games;
- ``log_loss``: mean of ``-ln P(placements)`` per game, the rating's P from
  :meth:`ratings.model.RatingModel.order_probability`; ``uniform``: the same with every order
  equally likely (ln 24 for 4 seats, ln 6 for 3); ``oracle``: with the true skills, under
  the ``plackett_luce`` law only (the ``hands`` law's probability of an order has no closed
  form: there the figures are compared with the baselines' and uniform);
- ``gain_share``: ``(uniform - log_loss) / (uniform - oracle)``, the share of the oracle's
  gain over guessing the rating recovers.

Plain Python and scipy, no Django.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from scipy.stats import spearmanr  # type: ignore[import-untyped]  # scipy ships no stubs

from ratings.model import plackett_luce_probability

SEATINGS = ("random", "same_strength")
LAWS = ("plackett_luce", "hands")

# The hands law (see the module): a hand's value, in points, and how often (a club's spread
# from 1,000-point wins to haneman and the odd baiman); the share of drawn hands and of rons.
HAND_VALUES = (1000, 2000, 2600, 3900, 5200, 7700, 8000, 12000, 18000, 24000)
HAND_WEIGHTS = (14, 16, 10, 14, 10, 8, 14, 8, 4, 2)
DRAW_SHARE = 0.15
RON_SHARE = 0.65
# A hand's weights are exp(HAND_SKILL * s): with it a player one skill sd (0.25) above three
# average ones finishes first 29.7% of the time, as under the Plackett-Luce law (29.9%).
HAND_SKILL = 0.5


class Predictor(Protocol):
    """What :func:`evaluate` judges: a rating per player, a new player's, the ratings after a
    game, the probability of a finishing order before it, and the number players are ranked
    by (higher = stronger)."""

    def new(self) -> Any: ...

    def rate(self, ratings: Sequence[Any], placements: Sequence[int]) -> list[Any]: ...

    def order_probability(self, ratings: Sequence[Any], placements: Sequence[int]) -> float: ...

    def score(self, rating: Any) -> float: ...


@dataclass(frozen=True, slots=True)
class Club:
    """A simulated club (see the module): sizes, skill law, seating and seed."""

    players: int = 40
    rounds: int = 150
    seats: int = 4
    skill_sd: float = 0.25
    drift_sd: float = 0.01
    seating: str = "random"
    seat_jitter: float = 0.5
    seed: int = 1
    law: str = "plackett_luce"
    hands_per_game: int = 10


@dataclass(frozen=True, slots=True)
class Game:
    """One game: the players' ids in seat order, their placements (1 = top) and, in a
    simulation, their true skills when they played (empty for real games)."""

    players: tuple[Hashable, ...]
    placements: tuple[int, ...]
    skills: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Simulation:
    """The games of a simulated club in time order and each player's final true skill."""

    games: list[Game]
    final_skill: dict[int, float]


@dataclass(frozen=True, slots=True)
class Figures:
    """What a rating earned on a list of games (see the module). ``spearman`` is None when
    there are no true skills (real games) or fewer than 3 players to rank; ``oracle`` and
    ``gain_share`` are None for real games."""

    games: int
    players: int
    spearman: float | None
    log_loss: float
    uniform: float
    oracle: float | None

    @property
    def gain(self) -> float:
        """``uniform - log_loss``: nats a game the predictor gains over guessing (positive:
        better than uniform)."""
        return self.uniform - self.log_loss

    @property
    def gain_share(self) -> float | None:
        if self.oracle is None or self.uniform <= self.oracle:
            return None
        return (self.uniform - self.log_loss) / (self.uniform - self.oracle)


def simulate(club: Club) -> Simulation:
    """The games of ``club`` (one seeded ``random.Random``: the same club, the same games).

    Raises:
        ValueError: an unknown seating or law, fewer players than seats, or seats not 3 or 4.
    """
    if club.seating not in SEATINGS:
        raise ValueError(f"seating must be one of {SEATINGS}, not {club.seating!r}")
    if club.law not in LAWS:
        raise ValueError(f"law must be one of {LAWS}, not {club.law!r}")
    if club.seats not in (3, 4) or club.players < club.seats:
        raise ValueError("a club needs tables of 3 or 4 and at least one table of players")
    rng = random.Random(club.seed)
    skill = [rng.gauss(0.0, club.skill_sd) for _ in range(club.players)]
    attendance = [rng.uniform(0.4, 1.0) for _ in range(club.players)]
    games: list[Game] = []
    for _ in range(club.rounds):
        present = [p for p in range(club.players) if rng.random() < attendance[p]]
        rng.shuffle(present)
        present = present[: len(present) - len(present) % club.seats]
        if club.seating == "same_strength":
            blur = {p: skill[p] + rng.gauss(0.0, club.seat_jitter * club.skill_sd) for p in present}
            present.sort(key=blur.__getitem__)
        for start in range(0, len(present), club.seats):
            table = present[start : start + club.seats]
            if club.law == "hands":
                games.append(_play_hands(rng, table, skill, club.hands_per_game))
            else:
                games.append(_play(rng, table, skill))
        for p in range(club.players):
            skill[p] += rng.gauss(0.0, club.drift_sd)
    return Simulation(games, dict(enumerate(skill)))


def _play(rng: random.Random, table: Sequence[int], skill: Sequence[float]) -> Game:
    # Plackett-Luce drawn as Gumbel-max: each seat's performance is its skill plus a
    # standard Gumbel draw, highest first.
    performance = [skill[p] - math.log(-math.log(rng.random() or 1e-300)) for p in table]
    order = sorted(range(len(table)), key=lambda i: -performance[i])
    placements = [0] * len(table)
    for place, seat in enumerate(order, start=1):
        placements[seat] = place
    return Game(tuple(table), tuple(placements), tuple(skill[p] for p in table))


def _play_hands(
    rng: random.Random, table: Sequence[int], skill: Sequence[float], hands: int
) -> Game:
    # A hanchan hand by hand (the module's "hands" law); ties in the final scores go to the
    # earlier seat, as a ruleset's seat-order tie-break. No true skills are kept: no oracle.
    seats = len(table)
    scores = [0] * seats
    win_weights = [math.exp(HAND_SKILL * skill[p]) for p in table]
    for _ in range(hands):
        if rng.random() < DRAW_SHARE:
            continue
        winner = rng.choices(range(seats), weights=win_weights)[0]
        value = rng.choices(HAND_VALUES, weights=HAND_WEIGHTS)[0]
        others = [seat for seat in range(seats) if seat != winner]
        if rng.random() < RON_SHARE:
            weights = [math.exp(-HAND_SKILL * skill[table[o]]) for o in others]
            loser = rng.choices(others, weights=weights)[0]
            scores[loser] -= value
        else:
            for other in others:
                scores[other] -= value // (seats - 1)
        scores[winner] += value
    order = sorted(range(seats), key=lambda seat: (-scores[seat], seat))
    placements = [0] * seats
    for place, seat in enumerate(order, start=1):
        placements[seat] = place
    return Game(tuple(table), tuple(placements))


def evaluate(
    games: Iterable[Game],
    model: Predictor,
    final_skill: dict[int, float] | None = None,
    min_games: int = 10,
) -> Figures:
    """Rate ``games`` in order with ``model`` (any :class:`Predictor`), predicting each before
    rating it (see the module for the figures). The oracle is given when every game keeps
    its players' true skills (the ``plackett_luce`` law). ``final_skill``: the players' true
    skills at the end, for the Spearman correlation (None for real games).

    Raises:
        ValueError: no games.
    """
    ratings: dict[Hashable, Any] = {}
    played: dict[Hashable, int] = {}
    loss = uniform = oracle = 0.0
    count = 0
    with_skill = True
    for game in games:
        before = [ratings.get(p) or model.new() for p in game.players]
        loss -= math.log(max(model.order_probability(before, game.placements), 1e-300))
        uniform += math.log(math.factorial(len(game.players)))
        if game.skills:
            oracle -= math.log(plackett_luce_probability(game.skills, game.placements))
        else:
            with_skill = False
        for player, rating in zip(game.players, model.rate(before, game.placements), strict=True):
            ratings[player] = rating
            played[player] = played.get(player, 0) + 1
        count += 1
    if not count:
        raise ValueError("no games to evaluate")
    spearman = None
    if final_skill is not None:
        ranked = [p for p in final_skill if played.get(p, 0) >= min_games]
        if len(ranked) >= 3:
            result = spearmanr(
                [model.score(ratings[p]) for p in ranked], [final_skill[p] for p in ranked]
            )
            spearman = float(result.statistic)
    return Figures(
        games=count,
        players=len(ratings),
        spearman=spearman,
        log_loss=loss / count,
        uniform=uniform / count,
        oracle=oracle / count if with_skill else None,
    )


def run(club: Club, model: Predictor) -> Figures:
    """Simulate ``club`` and evaluate ``model`` on it."""
    simulation = simulate(club)
    return evaluate(simulation.games, model, simulation.final_skill)
