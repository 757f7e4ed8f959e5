"""The search behind pairing tables by lot (:mod:`tournaments.seating`): rounds with as few
repeat meetings as possible. Plain Python, deterministic for a random generator's seed.

Three phases, all working on ``meet`` (how often each pair has met so far):

1. a greedy start, round by round (the next seat goes to whoever has met the table least);
2. a hill climb: random swaps of two players between two tables of a round, kept when they
   do not raise the cost (half of the neutral ones, to wander across plateaus);
3. a conflict-directed tabu search (after Dotú and Van Hentenryck's local search for the
   social golfer problem): each step makes the best swap that moves a player who meets
   someone at their table for the second time, a swap just undone being tabu for a few
   steps unless it beats the best seen.

The cost is the sum over pairs of ``m * (m - 1) / 2`` for ``m`` meetings: zero exactly when no
pair meets twice, and one pair meeting three times (3) costs more than two pairs meeting
twice (2), so the most times any pair meets stays low too.
"""

from __future__ import annotations

import itertools
import random

from tournaments.difference_blocks import base_blocks

Table = list[int]
Round = list[Table]
Meet = list[list[int]]


def search(
    players: int,
    rounds: int,
    table_size: int,
    rng: random.Random,
    met: Meet | None = None,
    *,
    effort: int = 1,
) -> list[Round]:
    """``rounds`` rounds of ``players // table_size`` tables with few repeat meetings, counting
    the pairs in ``met`` as having met already. ``effort`` multiplies both phases' budgets
    (1 answers within about a second for 40 players; the stored tables were made with
    more)."""
    meet = [row[:] for row in met] if met is not None else [[0] * players for _ in range(players)]
    groups: list[Round] = []
    for _ in range(rounds):
        rnd = greedy_round(players, table_size, meet, rng)
        for table in rnd:
            add_meetings(meet, table, 1)
        groups.append(rnd)
    if players // table_size < 2:
        return groups
    groups = hill_climb(groups, meet, rng, budget=(4000 + 500 * players * rounds) * effort)
    if cost_of(meet) == 0:
        return groups
    return tabu(groups, meet, rng, budget=(300 + 20 * players) * effort)


def greedy_round(players: int, table_size: int, meet: Meet, rng: random.Random) -> Round:
    pool = list(range(players))
    rng.shuffle(pool)
    tables: Round = []
    while pool:
        table = [pool.pop()]
        while len(table) < table_size:
            choice = min(pool, key=lambda p: (sum(meet[p][q] for q in table), rng.random()))
            pool.remove(choice)
            table.append(choice)
        tables.append(table)
    return tables


def add_meetings(meet: Meet, table: Table, step: int) -> None:
    for a, b in itertools.combinations(table, 2):
        meet[a][b] += step
        meet[b][a] += step


def cost_of(meet: Meet) -> int:
    """Over pairs, ``m * (m - 1) / 2`` for ``m`` meetings."""
    total = 0
    for i, row in enumerate(meet):
        for m in row[i + 1 :]:
            total += m * (m - 1) // 2
    return total


def _swap_delta(meet: Meet, ta: Table, x: int, tb: Table, y: int) -> int:
    """How the cost changes when ``x`` (at ``ta``) and ``y`` (at ``tb``) change tables."""
    delta = 0
    for p in ta:
        if p != x:
            delta += meet[y][p] - (meet[x][p] - 1)
    for q in tb:
        if q != y:
            delta += meet[x][q] - (meet[y][q] - 1)
    return delta


def _swap(meet: Meet, ta: Table, i: int, tb: Table, j: int) -> None:
    x, y = ta[i], tb[j]
    for p in ta:
        if p != x:
            meet[x][p] -= 1
            meet[p][x] -= 1
            meet[y][p] += 1
            meet[p][y] += 1
    for q in tb:
        if q != y:
            meet[y][q] -= 1
            meet[q][y] -= 1
            meet[x][q] += 1
            meet[q][x] += 1
    ta[i], tb[j] = y, x


def hill_climb(groups: list[Round], meet: Meet, rng: random.Random, *, budget: int) -> list[Round]:
    """Phase 2 (see the module); ``meet`` ends as the returned seating's."""
    rounds, tables, size = len(groups), len(groups[0]), len(groups[0][0])
    current = best_cost = cost_of(meet)
    best = [[t[:] for t in rnd] for rnd in groups]
    for _step in range(budget):
        if best_cost == 0:
            break
        r = rng.randrange(rounds)
        a, b = rng.sample(range(tables), 2)
        ta, tb = groups[r][a], groups[r][b]
        i, j = rng.randrange(size), rng.randrange(size)
        delta = _swap_delta(meet, ta, ta[i], tb, tb[j])
        if delta > 0 or (delta == 0 and rng.random() < 0.5):
            continue
        _swap(meet, ta, i, tb, j)
        current += delta
        if current < best_cost:
            best_cost = current
            best = [[t[:] for t in rnd] for rnd in groups]
    _recount(meet, groups, best)
    return best


def tabu(groups: list[Round], meet: Meet, rng: random.Random, *, budget: int) -> list[Round]:
    """Phase 3 (see the module); ``meet`` ends as the returned seating's."""
    tables = len(groups[0])
    current = best_cost = cost_of(meet)
    best = [[t[:] for t in rnd] for rnd in groups]
    tabu_until: dict[tuple[int, int, int], int] = {}
    for step in range(1, budget + 1):
        if best_cost == 0:
            break
        moves: list[tuple[int, int, int, int, int]] = []
        best_delta = 0
        for r, rnd in enumerate(groups):
            for a, ta in enumerate(rnd):
                for i, x in enumerate(ta):
                    row = meet[x]
                    if not any(y != x and row[y] > 1 for y in ta):
                        continue
                    for b in range(tables):
                        if b == a:
                            continue
                        tb = rnd[b]
                        for j, y in enumerate(tb):
                            delta = _swap_delta(meet, ta, x, tb, y)
                            if (
                                tabu_until.get((r, x, b), 0) > step
                                or tabu_until.get((r, y, a), 0) > step
                            ) and current + delta >= best_cost:
                                continue
                            if not moves or delta < best_delta:
                                best_delta = delta
                                moves = [(r, a, i, b, j)]
                            elif delta == best_delta:
                                moves.append((r, a, i, b, j))
        if not moves:
            break
        r, a, i, b, j = moves[rng.randrange(len(moves))]
        ta, tb = groups[r][a], groups[r][b]
        x, y = ta[i], tb[j]
        _swap(meet, ta, i, tb, j)
        current += best_delta
        tenure = 4 + rng.randrange(40)
        tabu_until[(r, x, a)] = step + tenure
        tabu_until[(r, y, b)] = step + tenure
        if current < best_cost:
            best_cost = current
            best = [[t[:] for t in rnd] for rnd in groups]
    _recount(meet, groups, best)
    return best


def _recount(meet: Meet, groups: list[Round], best: list[Round]) -> None:
    """Make ``meet`` count ``best`` instead of ``groups`` (the pairs met before stay)."""
    for rnd in groups:
        for table in rnd:
            add_meetings(meet, table, -1)
    for rnd in best:
        for table in rnd:
            add_meetings(meet, table, 1)


def cyclic_rounds(
    players: int, rounds: int, table_size: int, rng: random.Random, *, node_limit: int = 50_000
) -> list[Round] | None:
    """Rounds with no pair meeting twice, by developing one round cyclically: players are
    ``(x, level)`` for ``x`` in Z_m (``m`` = the number of tables) and ``table_size`` levels;
    a base round whose pairs all have distinct differences (per pair of levels, never a
    difference whose orbit is short) gives ``m`` rounds by adding 1, 2, ... to every ``x``,
    and one more, the tables of equal ``x``, when no base pair of different levels has
    difference 0. Found by randomised backtracking within ``node_limit`` steps; ``None``
    when there is no such round (or none was found), or ``rounds`` is above ``m + 1``.
    """
    m = players // table_size
    if rounds > m + 1 or m < 2:
        return None
    vertical = rounds == m + 1

    def key(p: tuple[int, int], q: tuple[int, int]) -> tuple[int, ...] | None:
        (x, a), (y, b) = (p, q) if p[1] <= q[1] else (q, p)
        d = (y - x) % m
        if a == b:
            d = min(d, m - d)
            return None if 2 * d == m else (a, a, d)
        return None if vertical and d == 0 else (a, b, d)

    remaining = [(x, a) for a in range(table_size) for x in range(m)]
    rng.shuffle(remaining)
    blocks = base_blocks(remaining, table_size, key, node_limit)
    if blocks is None:
        return None

    def number(x: int, level: int) -> int:
        return level * m + x

    out = [
        [[number((x + shift) % m, level) for x, level in block] for block in blocks]
        for shift in range(min(rounds, m))
    ]
    if vertical:
        out.append([[number(x, level) for level in range(table_size)] for x in range(m)])
    return out
