"""Pairing tables with no repeat meeting, by developing one round over Z_m with fixed points:
the construction behind the tables made in advance (``python -m
tournaments.make_seating_tables``) where the plain cyclic one of
:func:`tournaments.seating_search.cyclic_rounds` finds none (24 players at tables of 4 over
7 rounds, the social golfer problem's 6-4-7). Plain Python, deterministic for a random
generator's seed.
"""

from __future__ import annotations

import random

from tournaments.difference_blocks import base_blocks

Round = list[list[int]]
Point = tuple[int, int]  # (x in Z_m, level); level -1 - k for the fixed point k


def fixed_point_rounds(
    players: int,
    rounds: int,
    table_size: int,
    modulus: int,
    rng: random.Random,
    *,
    node_limit: int = 200_000,
) -> list[Round] | None:
    """``rounds`` rounds (at most ``modulus``) with no pair meeting twice, or ``None``.

    Players are ``(x, level)`` for ``x`` in Z_modulus and ``(players - f) / modulus`` levels,
    and ``f = players mod modulus`` fixed points (or ``modulus`` more, while there are no
    more fixed points than tables) that every round leaves in place. A base round is found by
    randomised backtracking within ``node_limit`` steps such that every pair's orbit under
    adding 1 to every ``x`` is met once: pairs of moving points have distinct differences
    per pair of levels (never half the modulus within a level, whose orbit is short), a
    fixed point sits with at most one player of each level and never with another fixed
    point. Round ``k`` is the base round with ``k`` added to every ``x``. Player numbers:
    ``level * modulus + x``, the fixed points after them.
    """
    tables = players // table_size
    if rounds > modulus or modulus < 2:
        return None
    fixed = players % modulus
    while fixed <= tables and (players - fixed) // modulus < table_size - 1:
        fixed += modulus
    levels = (players - fixed) // modulus
    if fixed > tables or levels < 1 or (fixed and levels < table_size - 1):
        return None

    def key(p: Point, q: Point) -> tuple[int, ...] | None:
        if p[1] < 0 and q[1] < 0:
            return None
        if p[1] < 0 or q[1] < 0:
            point, other = (p, q) if p[1] < 0 else (q, p)
            return (-1, point[1], other[1])
        (x, a), (y, b) = (p, q) if p[1] <= q[1] else (q, p)
        d = (y - x) % modulus
        if a == b:
            d = min(d, modulus - d)
            return None if d == 0 or 2 * d == modulus else (a, a, d)
        return (a, b, d)

    moving = [(x, a) for a in range(levels) for x in range(modulus)]
    rng.shuffle(moving)
    remaining: list[Point] = [(0, -1 - k) for k in range(fixed)] + moving
    blocks = base_blocks(remaining, table_size, key, node_limit)
    if blocks is None:
        return None

    def number(p: Point, shift: int) -> int:
        x, level = p
        if level < 0:
            return levels * modulus + (-1 - level)
        return level * modulus + (x + shift) % modulus

    return [[[number(p, shift) for p in block] for block in blocks] for shift in range(rounds)]
