"""``python -m tournaments.make_seating_tables [--seconds S] [SIZE ...]``: search the pairing
tables of :mod:`tournaments.seating_tables` again, each for up to ``S`` seconds over seeds
0, 1, 2, ... (first a cyclic construction with no repeat meeting, then the local search),
and keep a new one only where it has fewer repeat meetings (lower cost) than the stored one.
``SIZE`` as ``28x8x4`` limits the run to those sizes. Not run by the app or the tests: the
file it writes is part of the repository."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from tournaments.seating import _affine, check_size, quality
from tournaments.seating_search import add_meetings, cost_of, cyclic_rounds, search
from tournaments.seating_tables import TABLES_FILE, _tables, table_key

SIZES = [(n, 4) for n in range(8, 49, 4)] + [(n, 3) for n in range(6, 37, 3)]
ROUNDS = range(2, 11)


def cost(players: int, rounds: list[list[list[int]]]) -> int:
    meet = [[0] * players for _ in range(players)]
    for rnd in rounds:
        for table in rnd:
            add_meetings(meet, table, 1)
    return cost_of(meet)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("sizes", nargs="*", help="e.g. 28x8x4")
    args = parser.parse_args(argv)
    wanted = [tuple(int(x) for x in s.split("x")) for s in args.sizes]
    combos = wanted or [(n, r, t) for n, t in SIZES for r in ROUNDS]
    stored = dict(_tables())
    for players, rounds, size in combos:
        check_size(players, rounds, size)
        if _affine(players, rounds, size) is not None:
            continue
        key = table_key(players, rounds, size)
        best = stored.get(key)
        best_cost = cost(players, best) if best is not None else None
        start = time.monotonic()
        seed = 0
        while best_cost != 0 and time.monotonic() - start < args.seconds:
            built = cyclic_rounds(players, rounds, size, random.Random(seed), node_limit=400_000)
            if built is not None:
                best, best_cost = built, cost(players, built)
            seed += 1
            if seed >= 10:
                break
        seed = 0
        while best_cost != 0 and time.monotonic() - start < args.seconds:
            found = search(players, rounds, size, random.Random(seed), effort=4)
            found_cost = cost(players, found)
            if best_cost is None or found_cost < best_cost:
                best, best_cost = found, found_cost
            seed += 1
        if best is None:
            print(f"{key}: nothing found in {args.seconds} s", flush=True)
            continue
        stored[key] = best
        figures = quality(best, players, size)
        print(f"{key}: {figures.repeats} repeats (bound {figures.lower_bound})", flush=True)
        TABLES_FILE.write_text(json.dumps(stored, separators=(",", ":")) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
