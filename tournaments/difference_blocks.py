"""One round's tables by randomised backtracking, such that no two pairs of players seated
together share a "key" (the difference of the pair under a cyclic development): the base round
of the cyclic seatings (``tournaments.seating_search.cyclic_rounds``,
``tournaments.seating_designs``), developed into rounds where every pair meets at most once."""

from __future__ import annotations

from collections.abc import Callable, Sequence

Point = tuple[int, int]
Key = Callable[[Point, Point], tuple[int, ...] | None]


def base_blocks(
    points: Sequence[Point], table_size: int, key: Key, node_limit: int
) -> list[list[Point]] | None:
    """``points`` in blocks of ``table_size`` (tried in the given order) whose pairs' keys are
    all different; a pair whose key is ``None`` never sits together. ``None`` when no such
    blocks were found within ``node_limit`` backtracking steps."""
    remaining = list(points)
    used: set[tuple[int, ...]] = set()
    blocks: list[list[Point]] = []
    nodes = 0

    def place() -> bool:
        if not remaining:
            return True
        first, rest = remaining[0], remaining[1:]

        def extend(block: list[Point], start: int) -> bool:
            nonlocal nodes
            nodes += 1
            if nodes > node_limit:
                return False
            if len(block) == table_size:
                for p in block:
                    remaining.remove(p)
                blocks.append(block)
                if place():
                    return True
                blocks.pop()
                remaining[:0] = block
                return False
            for index in range(start, len(rest)):
                q = rest[index]
                keys: list[tuple[int, ...]] = []
                for p in block:
                    k = key(p, q)
                    if k is None or k in used or k in keys:
                        break
                    keys.append(k)
                else:
                    used.update(keys)
                    if extend([*block, q], index + 1):
                        return True
                    used.difference_update(keys)
                    if nodes > node_limit:
                        return False
            return False

        return extend([first], 0)

    return blocks if place() else None
