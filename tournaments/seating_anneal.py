"""Simulated annealing for pairing tables by lot, on the figure a draw is judged by: repeat
meetings (the sum over pairs of ``meetings - 1``, :func:`tournaments.seating.quality`), and
among equal repeats the sum over pairs of ``m * (m - 1) / 2`` (:mod:`tournaments.seating_search`'s
cost), so that a pair meeting a third time is taken only where it saves a repeat meeting
elsewhere. Plain Python, deterministic for a random generator's seed.

The moves swap two players between two tables of a round (the neighbourhood of
:func:`tournaments.seating_search.hill_climb`); a move that raises the cost by ``d`` is taken
with probability ``exp(-d / T)``, ``T`` cooling geometrically from ``start_temperature`` to
``end_temperature`` over ``steps`` moves, in ``restarts`` runs from the best seating so far.
Repeat meetings weigh :data:`REPEAT_WEIGHT` times a step of the secondary cost, so the
search trades them only in that order.

Used by ``python -m tournaments.make_seating_tables`` (the tables made in advance) and by
:func:`anneal_draw` for a draw of a size with no stored table.
"""

from __future__ import annotations

import math
import random

from tournaments.seating_search import add_meetings, greedy_round

Table = list[int]
Round = list[Table]
Meet = list[list[int]]

# Weight of one repeat meeting against one step of the sum of m * (m - 1) / 2 (a pair meeting
# an m-th time adds m - 1 to that sum; no table of the sizes searched has a pair meeting more
# than 10 times, so 100 keeps the order: repeats first).
REPEAT_WEIGHT = 100

# Moves of a draw searched on the spot (:func:`anneal_draw`).
DRAW_STEPS = 500_000


def pair_cost(meetings: int) -> int:
    """The cost of one pair meeting ``meetings`` times (see the module)."""
    if meetings <= 1:
        return 0
    return REPEAT_WEIGHT * (meetings - 1) + meetings * (meetings - 1) // 2


def total_cost(meet: Meet) -> int:
    """The cost of a whole ``meet`` matrix (each unordered pair once)."""
    return sum(pair_cost(m) for i, row in enumerate(meet) for m in row[i + 1 :])


def anneal(
    groups: list[Round],
    meet: Meet,
    rng: random.Random,
    *,
    steps: int,
    restarts: int = 1,
    start_temperature: float = 60.0,
    end_temperature: float = 0.5,
) -> list[Round]:
    """The best seating found from ``groups`` (rounds of tables of player indices) whose
    meetings, with any pairs met before, ``meet`` counts; ``meet`` ends counting the returned
    seating. ``steps`` moves per restart (see the module). Stops early at cost 0."""
    rounds, tables = len(groups), len(groups[0])
    if tables < 2 or steps <= 0:
        return groups
    size = len(groups[0][0])
    # up[m]: the cost of a pair going from m to m + 1 meetings; down[m]: from m to m - 1.
    top = rounds + 2 + max((max(row) for row in meet), default=0)
    up = [pair_cost(m + 1) - pair_cost(m) for m in range(top + 1)]
    down = [pair_cost(m - 1) - pair_cost(m) if m else 0 for m in range(top + 1)]
    current = total_cost(meet)
    best_cost = current
    best = [[t[:] for t in rnd] for rnd in groups]
    ratio = (end_temperature / start_temperature) ** (1.0 / max(1, steps - 1))
    rand = rng.random
    randrange = rng.randrange
    exp = math.exp
    for restart in range(restarts):
        if best_cost == 0:
            break
        if restart:
            _set(meet, groups, best)
            groups = [[t[:] for t in rnd] for rnd in best]
            current = best_cost
        temperature = start_temperature
        for _step in range(steps):
            temperature *= ratio
            rnd = groups[randrange(rounds)]
            a = randrange(tables)
            b = randrange(tables - 1)
            if b >= a:
                b += 1
            ta, tb = rnd[a], rnd[b]
            i, j = randrange(size), randrange(size)
            x, y = ta[i], tb[j]
            mx, my = meet[x], meet[y]
            delta = 0
            for p in ta:
                if p != x:
                    delta += down[mx[p]] + up[my[p]]
            for q in tb:
                if q != y:
                    delta += down[my[q]] + up[mx[q]]
            if delta > 0 and rand() >= exp(-delta / temperature):
                continue
            for p in ta:
                if p != x:
                    mx[p] -= 1
                    meet[p][x] -= 1
                    my[p] += 1
                    meet[p][y] += 1
            for q in tb:
                if q != y:
                    my[q] -= 1
                    meet[q][y] -= 1
                    mx[q] += 1
                    meet[q][x] += 1
            ta[i], tb[j] = y, x
            current += delta
            if current < best_cost:
                best_cost = current
                best = [[t[:] for t in r] for r in groups]
                if best_cost == 0:
                    break
    _set(meet, groups, best)
    return best


def _set(meet: Meet, groups: list[Round], best: list[Round]) -> None:
    """Make ``meet`` count ``best`` instead of ``groups`` (the pairs met before stay)."""
    for rnd, sign in ((groups, -1), (best, 1)):
        for r in rnd:
            for table in r:
                for k, a in enumerate(table):
                    for b in table[k + 1 :]:
                        meet[a][b] += sign
                        meet[b][a] += sign


def anneal_draw(
    players: int, rounds: int, table_size: int, rng: random.Random, *, steps: int = DRAW_STEPS
) -> list[Round]:
    """A pairing table for a size with no stored table: a greedy start, round by round
    (:func:`tournaments.seating_search.greedy_round`), then :func:`anneal` for ``steps``
    moves (the default takes about 1.6 s of one core for 40 players over 12 rounds, where the
    hill climb and tabu search of :func:`tournaments.seating_search.search` took several
    times as long for more repeat meetings)."""
    meet: Meet = [[0] * players for _ in range(players)]
    groups: list[Round] = []
    for _ in range(rounds):
        rnd = greedy_round(players, table_size, meet, rng)
        for table in rnd:
            add_meetings(meet, table, 1)
        groups.append(rnd)
    return anneal(groups, meet, rng, steps=steps, start_temperature=40.0)
