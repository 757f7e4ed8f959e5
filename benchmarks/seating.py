"""Pairing tables by lot against the best known: for N = 8 ... 48 players at tables of 4 and
N = 6 ... 36 at tables of 3, over R = 4, 6 and 8 rounds, what ``manage.py tournament_seating``
gives (seed 0): repeat meetings (the sum over pairs of meetings - 1), the proven lower bound
(:func:`tournaments.seating.repeat_lower_bound`), the most times a pair meets, the wind spread,
the time to make a draw (the median of 3 draws, after one untimed draw that warms the process;
the spread and the best beside it), and beside them the best known figure and where it comes
from:

- ``aim``: ApplySci/aim, ``server/seating/seats_{4,6,8}.py`` at commit
  9af61f9feef860cde7d4999093f6ce84df77c80b (tables of 4 from 16 players up, built on Alice
  Miller's social golfer solutions), counted with :func:`tournaments.seating.quality` (their
  files are not part of this repository);
- ``given``: the best known figures we were given for the sizes where this project's
  tables were short of them (12x4 13, 12x6 42, 24x8 24; 6x4 at tables of 3: 9);
- ``bound``: no published figure, and the proven lower bound (a table that reaches it is
  optimal);

the lowest of those that apply. MahjongRepository/mahjong-portal publishes no seating tables
(its seating is Pantheon's, drawn at random when a tournament starts).

A line is ABOVE TARGET when our repeats exceed a published or quoted figure, when the wind
spread is above 1, when 16 or more players at tables of 4 (9 or more at tables of 3) meet
someone twice within 4 rounds, or when a draw's median time is more than 2 s. Where the only
figure is the bound, a line above it says "above bound" (no one is known to do better).
"""

from __future__ import annotations

import sys

from benchmarks.timing import Figure, figure, time_in_turns
from tournaments.seating import Round, lot_rounds, quality

# (players, rounds) -> (repeat meetings, wind spread) of ApplySci/aim's table (tables of 4).
AIM: dict[tuple[int, int], tuple[int, int]] = {
    (16, 4): (0, 0), (20, 4): (0, 0), (24, 4): (0, 0), (28, 4): (0, 2), (32, 4): (0, 2),
    (36, 4): (0, 0), (40, 4): (0, 0),
    (16, 6): (24, 1), (20, 6): (22, 1), (24, 6): (0, 1), (28, 6): (0, 1), (32, 6): (0, 1),
    (36, 6): (0, 1), (40, 6): (0, 1),
    (16, 8): (72, 0), (20, 8): (67, 0), (24, 8): (33, 0), (28, 8): (0, 0), (32, 8): (0, 0),
    (36, 8): (0, 0), (40, 8): (0, 0),
}  # fmt: skip

# (players, rounds, table size) -> repeat meetings: the best known figures we were given.
GIVEN_BEST_KNOWN: dict[tuple[int, int, int], int] = {
    (12, 4, 4): 13, (12, 6, 4): 42, (24, 8, 4): 24, (6, 4, 3): 9,
}  # fmt: skip

SIZES: list[tuple[int, int]] = [(n, 4) for n in range(8, 49, 4)] + [(n, 3) for n in range(6, 37, 3)]
ROUNDS = (4, 6, 8)
DRAW_SECONDS = 2.0
# Timed draws of a size (after one untimed).
DRAWS = 3


def best_known(players: int, rounds: int, table_size: int, bound: int) -> tuple[int, str]:
    """The best known repeat meetings of a size and the source (see the module)."""
    known: list[tuple[int, str]] = [(bound, "bound")]
    if table_size == 4 and (players, rounds) in AIM:
        known.append((AIM[(players, rounds)][0], "aim"))
    if (players, rounds, table_size) in GIVEN_BEST_KNOWN:
        known.append((GIVEN_BEST_KNOWN[(players, rounds, table_size)], "given"))
    published = [k for k in known if k[1] != "bound"]
    return min(published) if published else known[0]


def seating_line(players: int, rounds: int, table_size: int) -> str:
    drawn: list[list[Round]] = []

    def draw() -> None:
        drawn.append(lot_rounds(players, rounds, table_size=table_size, seed=0))

    (seconds,) = time_in_turns([draw], DRAWS)
    draw_ms = figure([s * 1000 for s in seconds], higher_is_better=False)
    # Seed 0 each time: every draw is the same table.
    figures = quality(drawn[-1], players, table_size)
    known, source = best_known(players, rounds, table_size, figures.lower_bound)
    ok = figures.wind_spread <= 1 and draw_ms.median <= DRAW_SECONDS * 1000
    ok &= not (players >= table_size**2 and rounds == 4 and figures.repeats > 0)
    if source != "bound":
        ok &= figures.repeats <= known
    if not ok:
        verdict = "ABOVE TARGET"
    elif source == "bound" and figures.repeats > known:
        verdict = "ok (above bound)"
    else:
        verdict = "ok"
    return (
        f"{table_size:>2} {players:>3} {rounds:>2} {figures.repeats:>8} "
        f"{figures.lower_bound:>6} {figures.most_meetings:>5} {figures.wind_spread:>6} "
        f"{draw_ms.median:>7.1f} {_spread(draw_ms):>21} {known:>6} {source:<9} {verdict}"
    )


def _spread(draw_ms: Figure) -> str:
    return f"{draw_ms.p10:.1f}-{draw_ms.p90:.1f}; {draw_ms.best:.1f}"


def run_seating_bench() -> list[str]:
    """The table as lines of text (see the module)."""
    lines = [
        "pairing tables by lot (seed 0): repeat meetings vs the proven lower bound and the best "
        "known (aim: ApplySci/aim; given: the best known figures we were given; "
        "bound: none published)",
        f"{'t':>2} {'N':>3} {'R':>2} {'repeats':>8} {'bound':>6} {'most':>5} {'winds':>6} "
        f"{'ms':>7} {'p10-p90; best':>21} {'known':>6} {'source':<9} verdict",
    ]
    for table_size in (4, 3):
        for rounds in ROUNDS:
            for players, size in SIZES:
                if size == table_size:
                    lines.append(seating_line(players, rounds, table_size))
    return lines


if __name__ == "__main__":
    report = run_seating_bench()
    print("\n".join(report))
    sys.exit(1 if any("ABOVE" in line for line in report) else 0)
