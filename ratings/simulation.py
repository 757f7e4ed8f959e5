"""The rating's harness (issue 23 item 3; docs/ratings.md): a seeded simulated club whose
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

A rating is judged on the same games, each predicted before it is rated:

- ``spearman``: rank correlation (scipy.stats.spearmanr) of the final ordinals against the
  final true skills, over the players with at least ``min_games`` games;
- ``log_loss``: mean of ``-ln P(placements)`` per game, the rating's P from
  :meth:`ratings.model.RatingModel.order_probability`; ``uniform``: the same with every order
  equally likely (ln 24 for 4 seats, ln 6 for 3); ``oracle``: with the true skills;
- ``gain_share``: ``(uniform - log_loss) / (uniform - oracle)``, the share of the oracle's
  gain over guessing the rating recovers.

Plain Python and scipy, no Django.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from scipy.stats import spearmanr  # type: ignore[import-untyped]  # scipy ships no stubs

from ratings.model import Rating, RatingModel, plackett_luce_probability

SEATINGS = ("random", "same_strength")


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
    def gain_share(self) -> float | None:
        if self.oracle is None or self.uniform <= self.oracle:
            return None
        return (self.uniform - self.log_loss) / (self.uniform - self.oracle)


def simulate(club: Club) -> Simulation:
    """The games of ``club`` (one seeded ``random.Random``: the same club, the same games).

    Raises:
        ValueError: an unknown seating, fewer players than seats, or seats not 3 or 4.
    """
    if club.seating not in SEATINGS:
        raise ValueError(f"seating must be one of {SEATINGS}, not {club.seating!r}")
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


def evaluate(
    games: Iterable[Game],
    model: RatingModel,
    final_skill: dict[int, float] | None = None,
    min_games: int = 10,
) -> Figures:
    """Rate ``games`` in order with ``model``, predicting each before rating it (see the
    module for the figures). ``final_skill``: the players' true skills at the end, for the
    Spearman correlation (None for real games).

    Raises:
        ValueError: no games.
    """
    ratings: dict[Hashable, Rating] = {}
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
                [ratings[p].ordinal for p in ranked], [final_skill[p] for p in ranked]
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


def run(club: Club, model: RatingModel) -> Figures:
    """Simulate ``club`` and evaluate ``model`` on it."""
    simulation = simulate(club)
    return evaluate(simulation.games, model, simulation.final_skill)
