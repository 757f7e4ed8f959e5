"""Seating for tournaments: pairing tables by lot, tables by standing, and their quality.

Plain Python, no Django (a test checks it), deterministic for a seed. Players are indices
``0 .. N-1``; a round is a list of tables; a table lists player indices in seat order East,
South, West, North (3 seats at a 3-player table). Sources: docs/rules-spec.md §4.1 (the GP's
pairing table "drawn up in advance by lot"), §4.2 (every pairing by lot), §4.3 and T-03 (the
Meijin's upper and lower tables by standing).

By lot (:func:`lot_rounds`): as few repeat meetings as possible (the sum over pairs of
``meetings - 1``), then balanced seat winds (each player's count of each wind as even as the
number of rounds allows). Where an affine plane gives a resolvable design (16 players at
tables of 4 over up to 5 rounds, 9 players at tables of 3 over up to 4) it is used: no pair
ever meets twice. Otherwise a table made in advance by a long search of this project's own
(:mod:`tournaments.seating_tables`: 8-48 players at tables of 4, 6-36 at tables of 3, 2-10
rounds; cyclic constructions, :mod:`tournaments.seating_designs`, the search of
:mod:`tournaments.seating_search` and the simulated annealing of
:mod:`tournaments.seating_anneal`), relabelled by the seed's lot. For other sizes a short
annealing run searches on the spot (under 2 s of one core), then, if some pair meets twice, a
cyclic construction is tried briefly.
``make bench`` compares the result with the best known tables (``benchmarks/seating.py``).
Winds are then chosen table by table, and improved until no table's choice of seats lowers
the spread.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.seating_anneal import anneal_draw
from tournaments.seating_search import cyclic_rounds, search
from tournaments.seating_tables import stored_table

Table = list[int]
Round = list[Table]


@dataclass(frozen=True, slots=True)
class Quality:
    """How good a seating is: ``repeats`` (sum over pairs of meetings beyond the first),
    ``lower_bound`` (no seating of this size can have fewer), ``most_meetings`` (the most
    times any pair meets), ``wind_spread`` (over players, the most a player's count of one
    seat wind exceeds their count of another)."""

    repeats: int
    lower_bound: int
    most_meetings: int
    wind_spread: int


def check_size(players: int, rounds: int, table_size: int) -> None:
    """Raises ``ValueError`` (one sentence) unless ``players`` fill whole tables of
    ``table_size`` (3 or 4) and there is at least one round."""
    if table_size not in (3, 4):
        raise ValueError(f"tables seat 3 or 4 players, not {table_size}")
    if rounds < 1:
        raise ValueError("a seating has at least one round")
    if players < table_size or players % table_size:
        raise ValueError(
            f"{players} players cannot sit at tables of {table_size}: "
            f"the number of players must be a multiple of {table_size}"
        )


# The fewest repeat meetings of every seating of these sizes (players, rounds, table size),
# found by exhaustive search (tests/test_tournament_seating.py searches them again): where the
# counting bounds below fall short of it (6 players at tables of 3 over 3 rounds: 4 < 5).
EXHAUSTIVE_MINIMA: dict[tuple[int, int, int], int] = {
    (6, 2, 3): 2,
    (6, 3, 3): 5,
    (6, 4, 3): 9,
    (6, 5, 3): 15,
    (8, 2, 4): 4,
    (8, 3, 4): 8,
    (8, 4, 4): 20,
    (12, 2, 4): 3,
}


def repeat_lower_bound(players: int, rounds: int, table_size: int) -> int:
    """The fewest repeat meetings any seating of this size can have, a proven bound (exact for
    the sizes searched exhaustively, :data:`EXHAUSTIVE_MINIMA`). The larger of two counts:

    - each player meets ``(table_size - 1) * rounds`` opponents among ``players - 1`` others,
      so at least the excess are repeats, each shared by two players;
    - against the first round's tables: every later round seats ``table_size`` players at a
      table out of ``players // table_size`` first-round tables; where there are fewer of
      those than seats, some players at the table sat together in the first round (at best
      spread evenly), and every such pair is a repeat of its own (8 players over 2 rounds:
      each table holds two pairs from the first round, 4 repeats).
    """
    excess = max(0, (table_size - 1) * rounds - (players - 1))
    by_opponents = math.ceil(players * excess / 2)
    tables = players // table_size
    share, extra = divmod(table_size, tables)
    per_table = extra * math.comb(share + 1, 2) + (tables - extra) * math.comb(share, 2)
    by_first_round = (rounds - 1) * tables * per_table
    known = EXHAUSTIVE_MINIMA.get((players, rounds, table_size), 0)
    return max(by_opponents, by_first_round, known)


def lot_rounds(players: int, rounds: int, *, table_size: int = 4, seed: int = 0) -> list[Round]:
    """A pairing table by lot: ``rounds`` rounds of ``players // table_size`` tables.

    Players are shuffled by ``seed`` first, so the same seed gives the same table and
    different seeds (usually) different ones.

    Raises:
        ValueError: see :func:`check_size`.
    """
    check_size(players, rounds, table_size)
    rng = random.Random(seed)
    label = list(range(players))
    rng.shuffle(label)
    groups = _affine(players, rounds, table_size)
    if groups is None:
        groups = stored_table(players, rounds, table_size)
    if groups is None:
        groups = anneal_draw(players, rounds, table_size, rng)
        if quality(groups, players, table_size).repeats:
            # Where a cyclic design exists it has none; a short try, to keep the draw quick.
            groups = cyclic_rounds(players, rounds, table_size, rng, node_limit=20_000) or groups
    relabelled = [[[label[p] for p in table] for table in rnd] for rnd in groups]
    return _equitable_winds(relabelled, table_size)


def by_standing(
    order: Sequence[int],
    rounds: int,
    *,
    table_size: int = 4,
    winds: Mapping[int, Sequence[int]] | None = None,
) -> list[Round]:
    """Tables by standing for ``rounds`` rounds: ``order`` (best first) sits 1st-4th at table
    1, 5th-8th at table 2, ... (§4.1 [INF], T-03), the same tables each round, seat winds
    balanced against ``winds`` (each player's count per wind so far, e.g. from earlier
    rounds) and rotated from round to round.

    Raises:
        ValueError: see :func:`check_size`, or a player twice in ``order``.
    """
    players = list(order)
    check_size(len(players), rounds, table_size)
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    tables = [players[i : i + table_size] for i in range(0, len(players), table_size)]
    repeated = [[list(table) for table in tables] for _ in range(rounds)]
    return _assign_winds(repeated, table_size, dict(winds or {}))


def reseat_after_withdrawal(
    seating: Sequence[Round],
    played: int,
    remaining: Sequence[int],
    *,
    table_size: int = 4,
    seed: int = 0,
) -> list[Round]:
    """The rounds after ``played`` re-drawn by lot for the ``remaining`` players (a late
    withdrawal), keeping the rounds already played and avoiding pairs that already met.

    Raises:
        ValueError: the remaining players do not fill whole tables (see :func:`check_size`).
    """
    left = len(seating) - played
    players = list(remaining)
    check_size(len(players), max(left, 1), table_size)
    if left <= 0:
        return [list(map(list, rnd)) for rnd in seating]
    index = {p: i for i, p in enumerate(players)}
    rng = random.Random(seed)
    met = [[0] * len(players) for _ in players]
    winds: dict[int, list[int]] = {}
    for rnd in seating[:played]:
        for table in rnd:
            for wind, p in enumerate(table):
                winds.setdefault(p, [0] * table_size)[wind] += 1
            here = [index[p] for p in table if p in index]
            for a, b in itertools.combinations(here, 2):
                met[a][b] += 1
                met[b][a] += 1
    groups = search(len(players), left, table_size, rng, met)
    fresh = [[[players[p] for p in table] for table in rnd] for rnd in groups]
    fresh = _assign_winds(fresh, table_size, winds)
    return [list(map(list, rnd)) for rnd in seating[:played]] + fresh


def quality(seating: Sequence[Round], players: int, table_size: int = 4) -> Quality:
    """The quality figures of ``seating`` for ``players`` players (see :class:`Quality`)."""
    meetings: dict[tuple[int, int], int] = {}
    winds = [[0] * table_size for _ in range(players)]
    for rnd in seating:
        for table in rnd:
            for wind, p in enumerate(table):
                winds[p][wind] += 1
            for a, b in itertools.combinations(sorted(table), 2):
                meetings[(a, b)] = meetings.get((a, b), 0) + 1
    repeats = sum(m - 1 for m in meetings.values() if m > 1)
    played = [w for w in winds if sum(w)]
    return Quality(
        repeats=repeats,
        lower_bound=repeat_lower_bound(players, len(seating), table_size),
        most_meetings=max(meetings.values(), default=0),
        wind_spread=max((max(w) - min(w) for w in played), default=0),
    )


# -- by lot ---------------------------------------------------------------------------------


def _affine(players: int, rounds: int, table_size: int) -> list[Round] | None:
    """The parallel classes of the affine plane of prime order ``q = table_size`` (3) or of
    order 4 (over GF(4)), when ``players == q * q`` and ``rounds <= q + 1``: every pair meets
    at most once."""
    q = table_size
    if players != q * q or rounds > q + 1:
        return None
    add, mul = _field(q)
    point = {(x, y): x * q + y for x in range(q) for y in range(q)}
    classes: list[Round] = []
    for slope in range(q):  # lines y = slope * x + c
        classes.append([[point[(x, add[mul[slope][x]][c])] for x in range(q)] for c in range(q)])
    classes.append([[point[(c, y)] for y in range(q)] for c in range(q)])  # x = c
    return classes[:rounds]


def _field(q: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of GF(q) for q = 3 or 4."""
    if q == 3:
        return (
            [[(a + b) % 3 for b in range(3)] for a in range(3)],
            [[(a * b) % 3 for b in range(3)] for a in range(3)],
        )
    # GF(4) = {0, 1, w, w + 1} as 0, 1, 2, 3 with w * w = w + 1; addition is XOR.
    log = {1: 0, 2: 1, 3: 2}
    exp = [1, 2, 3]
    mul = [[0 if a == 0 or b == 0 else exp[(log[a] + log[b]) % 3] for b in range(4)]
           for a in range(4)]  # fmt: skip
    return [[a ^ b for b in range(4)] for a in range(4)], mul


# -- seat winds -----------------------------------------------------------------------------


def _equitable_winds(seating: list[Round], table_size: int) -> list[Round]:
    """Seat winds with every player's counts within one of each other (spread <= 1).

    Players and tables form a bipartite graph, an edge per seat; winds are colours, and a
    proper colouring with ``table_size`` colours gives each table one player per wind. Split
    each player into nodes of at most ``table_size`` consecutive rounds first, and each node
    gets distinct winds, so a player's count of each wind is ``rounds // table_size`` or one
    more (an equitable edge colouring, de Werra; each edge placed by Kempe-chain swaps).
    """
    colour_at: dict[tuple[str, int, int], dict[int, tuple[str, int, int]]] = {}
    seen: dict[int, int] = {}
    edges: list[tuple[tuple[str, int, int], tuple[str, int, int]]] = []
    for r, rnd in enumerate(seating):
        for t, table in enumerate(rnd):
            for p in table:
                k = seen.get(p, 0)
                seen[p] = k + 1
                edges.append((("p", p, k // table_size), ("t", r, t)))
    for u, v in edges:
        colour_at.setdefault(u, {})
        colour_at.setdefault(v, {})
    for u, v in edges:
        a = next(c for c in range(table_size) if c not in colour_at[u])
        if a in colour_at[v]:
            b = next(c for c in range(table_size) if c not in colour_at[v])
            _kempe_swap(colour_at, v, a, b)
        colour_at[u][a] = v
        colour_at[v][a] = u
    placed: list[Round] = []
    for r, rnd in enumerate(seating):
        seats: Round = []
        for t in range(len(rnd)):
            node = colour_at[("t", r, t)]
            seats.append([node[wind][1] for wind in range(table_size)])
        placed.append(seats)
    return placed


def _kempe_swap(
    colour_at: dict[tuple[str, int, int], dict[int, tuple[str, int, int]]],
    start: tuple[str, int, int],
    a: int,
    b: int,
) -> None:
    """Swap colours ``a`` and ``b`` along the path from ``start`` that alternates them
    (beginning with ``a``); afterwards ``a`` is free at ``start``."""
    path = []
    node, colour = start, a
    while colour in colour_at[node]:
        following = colour_at[node][colour]
        path.append((node, following, colour))
        node, colour = following, (b if colour == a else a)
    for x, y, colour in path:
        del colour_at[x][colour]
        del colour_at[y][colour]
    for x, y, colour in path:
        other = b if colour == a else a
        colour_at[x][other] = y
        colour_at[y][other] = x


def _assign_winds(
    seating: list[Round], table_size: int, history: Mapping[int, Sequence[int]]
) -> list[Round]:
    """Order each table's players East, South, West, North so that every player's wind counts
    (over ``history`` and the rounds here) are as even as they can be: first table by table
    in round order, then again for every table while any change lowers the spread."""
    counts: dict[int, list[int]] = {p: list(w) for p, w in history.items()}
    for rnd in seating:
        for table in rnd:
            for p in table:
                counts.setdefault(p, [0] * table_size)
    perms = list(itertools.permutations(range(table_size)))
    placed: list[list[Table]] = [[[] for _ in rnd] for rnd in seating]

    def best_order(table: Table) -> Table:
        def score(perm: tuple[int, ...]) -> tuple[int, int]:
            after = [counts[table[k]][w] + 1 for k, w in enumerate(perm)]
            return (max(after), sum(a * a for a in after))

        perm = min(perms, key=score)
        ordered = [0] * table_size
        for k, wind in enumerate(perm):
            ordered[wind] = table[k]
        return ordered

    for r, rnd in enumerate(seating):
        for t, table in enumerate(rnd):
            ordered = best_order(sorted(table))
            for wind, p in enumerate(ordered):
                counts[p][wind] += 1
            placed[r][t] = ordered
    for _sweep in range(10):
        improved = False
        for r, rnd in enumerate(placed):
            for t, table in enumerate(rnd):
                before = _spread_of(counts, table)
                for wind, p in enumerate(table):
                    counts[p][wind] -= 1
                ordered = best_order(table)
                for wind, p in enumerate(ordered):
                    counts[p][wind] += 1
                if _spread_of(counts, ordered) < before:
                    improved = True
                placed[r][t] = ordered
        if not improved:
            break
    return placed


def _spread_of(counts: Mapping[int, Sequence[int]], table: Table) -> tuple[int, int]:
    spreads = [max(counts[p]) - min(counts[p]) for p in table]
    return (max(spreads), sum(spreads))
