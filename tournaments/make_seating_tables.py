"""``python -m tournaments.make_seating_tables [--seconds S] [SIZE ...]``: search the pairing
tables of :mod:`tournaments.seating_tables` again, each for up to ``S`` seconds, and keep a
new one only where it is better than the stored one: fewer repeat meetings (the figure a
draw is judged by, :func:`tournaments.seating.quality`), then a lower sum over pairs of
``m * (m - 1) / 2`` (fewer pairs meeting a third time). Sizes run in order of rounds, so a
size's table can grow from the one of a round fewer. The candidates, in order:

1. cyclic constructions with no repeat meeting (:func:`tournaments.seating_search.cyclic_rounds`
   over seeds 0-9, :func:`tournaments.seating_designs.fixed_point_rounds` for every modulus
   from the number of rounds to the number of players, seeds 0-2);
2. the table of one round fewer with a round added by simulated annealing
   (:func:`tournaments.seating_anneal.anneal` on the new round alone, seeds 0-4);
3. until ``S`` seconds have passed: simulated annealing of the best so far, and of the
   local search of :func:`tournaments.seating_search.search` (seeds 0, 1, 2, ...).

``SIZE`` as ``28x8x4`` limits the run to those sizes. Not run by the app or the tests: the
file it writes is part of the repository.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from itertools import combinations

from tournaments.seating import _affine, check_size, quality
from tournaments.seating_anneal import anneal
from tournaments.seating_designs import fixed_point_rounds
from tournaments.seating_search import add_meetings, cyclic_rounds, greedy_round, search
from tournaments.seating_tables import TABLES_FILE, _tables, table_key

SIZES = [(n, 4) for n in range(8, 49, 4)] + [(n, 3) for n in range(6, 37, 3)]
ROUNDS = range(2, 11)

Rounds = list[list[list[int]]]


def score(players: int, rounds: Rounds) -> tuple[int, int]:
    """(repeat meetings, sum over pairs of m * (m - 1) / 2): lower is better."""
    meetings: dict[tuple[int, int], int] = {}
    for rnd in rounds:
        for table in rnd:
            for pair in combinations(sorted(table), 2):
                meetings[pair] = meetings.get(pair, 0) + 1
    return (
        sum(m - 1 for m in meetings.values()),
        sum(m * (m - 1) // 2 for m in meetings.values()),
    )


def meet_of(players: int, rounds: Rounds) -> list[list[int]]:
    meet = [[0] * players for _ in range(players)]
    for rnd in rounds:
        for table in rnd:
            add_meetings(meet, table, 1)
    return meet


def constructions(players: int, rounds: int, size: int) -> list[Rounds]:
    """Candidates of step 1 (see the module)."""
    found: list[Rounds] = []
    for seed in range(10):
        built = cyclic_rounds(players, rounds, size, random.Random(seed), node_limit=400_000)
        if built is not None:
            found.append(built)
            break
    for modulus in range(max(rounds, 2), players):
        for seed in range(3):
            built = fixed_point_rounds(players, rounds, size, modulus, random.Random(seed))
            if built is not None:
                found.append(built)
                break
        if found and score(players, found[-1])[0] == 0:
            break
    return found


def one_round_more(players: int, fewer: Rounds, size: int, seed: int) -> Rounds:
    """Candidate of step 2: ``fewer`` and one round annealed against its meetings."""
    rng = random.Random(seed)
    meet = meet_of(players, fewer)
    added = greedy_round(players, size, meet, rng)
    for table in added:
        add_meetings(meet, table, 1)
    return [*fewer, *anneal([added], meet, rng, steps=20_000 + 2_000 * players)]


def annealed(players: int, start: Rounds, seed: int, steps: int, temperature: float) -> Rounds:
    rounds = [[list(table) for table in rnd] for rnd in start]
    meet = meet_of(players, rounds)
    return anneal(rounds, meet, random.Random(seed), steps=steps, start_temperature=temperature)


def improve(
    players: int, rounds: int, size: int, stored: dict[str, Rounds], seconds: float
) -> Rounds:
    """The best table of this size found within ``seconds`` (see the module)."""
    start = time.monotonic()
    candidates: list[Rounds] = []
    best = stored.get(table_key(players, rounds, size))
    if best is not None:
        if score(players, best)[0] == 0:
            return best
        candidates.append(best)
    candidates += constructions(players, rounds, size)
    fewer = stored.get(table_key(players, rounds - 1, size))
    if fewer is not None:
        candidates += [one_round_more(players, fewer, size, seed) for seed in range(5)]
    best = min(candidates, key=lambda c: score(players, c), default=None)
    seed = 0
    while (best is None or score(players, best)[0] > 0) and time.monotonic() - start < seconds:
        steps = 50_000 + 5_000 * players * rounds // size
        tries = [
            annealed(players, search(players, rounds, size, random.Random(seed)), seed, steps, 60.0)
        ]
        if best is not None:
            tries.append(annealed(players, best, seed, steps, 20.0))
        # The stored table first: min keeps it on a tie, so a rerun changes no draw for nothing.
        best = min([*([best] if best else []), *tries], key=lambda c: score(players, c))
        seed += 1
    assert best is not None  # the local search always gives a table
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("sizes", nargs="*", help="e.g. 28x8x4")
    args = parser.parse_args(argv)
    wanted = [tuple(int(x) for x in s.split("x")) for s in args.sizes]
    combos = wanted or [(n, r, t) for n, t in SIZES for r in ROUNDS]
    combos.sort(key=lambda c: (c[2], c[0], c[1]))
    stored = dict(_tables())
    for players, rounds, size in combos:
        check_size(players, rounds, size)
        if _affine(players, rounds, size) is not None:
            continue
        key = table_key(players, rounds, size)
        before = stored.get(key)
        best = improve(players, rounds, size, stored, args.seconds)
        figures = quality(best, players, size)
        was = "none" if before is None else str(score(players, before))
        print(f"{key}: {score(players, best)} (was {was}; bound {figures.lower_bound})", flush=True)
        stored[key] = best
        # Written whole and then renamed: a draw reading the file meanwhile sees the old one.
        partial = TABLES_FILE.with_suffix(".json.part")
        partial.write_text(json.dumps(stored, separators=(",", ":")) + "\n", "utf-8")
        partial.replace(TABLES_FILE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
