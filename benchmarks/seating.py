"""Pairing tables by lot against the published tables (issue 11): for N = 8 ... 40 players at
tables of 4 over R = 4, 6 and 8 rounds, what ``manage.py tournament_seating`` gives (seed 0):
repeat meetings (the sum over pairs of meetings - 1), the lower bound
``max(0, (t-1)R - (N-1)) * N / 2``, the most times a pair meets, the wind spread, and the time
to make it; beside them the repeat meetings of the best published tables.

Published: ApplySci/aim, ``server/seating/seats_{4,6,8}.py`` at commit
9af61f9feef860cde7d4999093f6ce84df77c80b (tables from 16 players up, built on Alice Miller's
social golfer solutions); the figures below were counted from those files with
:func:`tournaments.seating.quality` (their files are not part of this repository).
MahjongRepository/mahjong-portal publishes no seating tables (its seating is Pantheon's,
drawn at random when a tournament starts).

A line is ABOVE TARGET when our repeats exceed the published ones, when the wind spread is
above 1, or when 16 or more players meet someone twice within 4 rounds.
"""

from __future__ import annotations

import sys
import time

from tournaments.seating import lot_rounds, quality

# (players, rounds) -> (repeat meetings, wind spread) of ApplySci/aim's table.
AIM: dict[tuple[int, int], tuple[int, int]] = {
    (16, 4): (0, 0), (20, 4): (0, 0), (24, 4): (0, 0), (28, 4): (0, 2), (32, 4): (0, 2),
    (36, 4): (0, 0), (40, 4): (0, 0),
    (16, 6): (24, 1), (20, 6): (22, 1), (24, 6): (0, 1), (28, 6): (0, 1), (32, 6): (0, 1),
    (36, 6): (0, 1), (40, 6): (0, 1),
    (16, 8): (72, 0), (20, 8): (67, 0), (24, 8): (33, 0), (28, 8): (0, 0), (32, 8): (0, 0),
    (36, 8): (0, 0), (40, 8): (0, 0),
}  # fmt: skip


def run_seating_bench() -> list[str]:
    """The table as lines of text (see the module)."""
    lines = [
        "pairing tables by lot (seed 0), tables of 4: repeat meetings vs the lower bound and "
        "the best published (ApplySci/aim)",
        f"{'N':>3} {'R':>2} {'repeats':>8} {'bound':>6} {'most':>5} {'winds':>6} "
        f"{'ms':>7} {'aim':>5}  verdict",
    ]
    for rounds in (4, 6, 8):
        for players in range(8, 41, 4):
            best_ms = None
            for _ in range(3):
                start = time.perf_counter()
                seating = lot_rounds(players, rounds, seed=0)
                ms = (time.perf_counter() - start) * 1000
                best_ms = ms if best_ms is None else min(best_ms, ms)
            figures = quality(seating, players, 4)
            published = AIM.get((players, rounds))
            ok = figures.wind_spread <= 1
            ok &= not (players >= 16 and rounds == 4 and figures.repeats > 0)
            if published is not None:
                ok &= figures.repeats <= published[0]
            aim = "–" if published is None else str(published[0])
            lines.append(
                f"{players:>3} {rounds:>2} {figures.repeats:>8} {figures.lower_bound:>6} "
                f"{figures.most_meetings:>5} {figures.wind_spread:>6} {best_ms:>7.1f} "
                f"{aim:>5}  {'ok' if ok else 'ABOVE TARGET'}"
            )
    return lines


if __name__ == "__main__":
    report = run_seating_bench()
    print("\n".join(report))
    sys.exit(1 if any("ABOVE" in line for line in report) else 0)
