"""``make bench``: engine speed against the scoring engine's targets.

- han/fu payments per second through ``hand_payment`` (target >= 200,000/s), and the same
  grid through the ``mahjong`` package's ``ScoresCalculator`` in the same run (the engine must
  be no slower: ratio >= 1.0);
- complete-hanchan replays per second through ``replay_record`` (target >= 5,000/s);
- hand entry over HTTP on PostgreSQL with 20 concurrent phones, and SQL queries per hand entry
  and per table render (:mod:`benchmarks.hand_entry`, in a process of its own);
- capacity: a 50-table tournament, 200 phones at 20 times a club's pace, against the
  ``Procfile``'s gunicorn and PostgreSQL, about 3 minutes (target p95 < 150 ms, 0 errors,
  nothing lost or doubled) (:mod:`benchmarks.capacity`, in a process of its own);
- one member's worst requests (a 400 MB upload, 20 gzip bombs, 3 MB form bodies, a
  10,000-line paste) against the same server: none holds a worker past 5 s, no worker killed;
  a password reset's median time for known and unknown addresses within 10 ms
  (:mod:`benchmarks.request_limits`, in a process of its own);
- standings for one month and for all time on a 1-year and a 10-year history on PostgreSQL
  (:mod:`benchmarks.standings`; seeding the 10-year history takes a minute or two);
- a club's standings, player and game pages with the club alone on the site and with 200
  clubs of history, on PostgreSQL (target: 200 / 1 <= 1.2 by the medians, queries equal)
  (:mod:`benchmarks.clubs`, ``clubs_pages``; building the 200 clubs takes a few minutes);
- pairing tables by lot against the best published ones (:mod:`benchmarks.seating`);
- hands valued from their tiles per second against the ``mahjong`` package alone
  (:mod:`benchmarks.hand_tiles`);
- the all-last conditions of a table in play (target <= 20 ms CPU), tables of every shipped
  ruleset (:mod:`benchmarks.all_last`);
- online game logs read and re-scored per second, by format, and read, re-scored and stored
  per second on PostgreSQL (target >= 100 logs/s in a batch) (:mod:`benchmarks.online_import`);
- the rating's targets on the simulated club (:mod:`benchmarks.ratings`);
- a season of about 1,300 hanchans re-scored under another ruleset, the what-if page in at
  most 5 s (:mod:`benchmarks.whatif`).

Every timed figure is the median of its rounds, after a warm-up round that does not count,
with its spread (the 10th to 90th percentile) and the best round beside it; a target is judged
on the median (:mod:`benchmarks.timing`). Figures compared with each other take their rounds in
turns. The machine's load average is printed at the start and the end of each part, and each
part that sets up Django runs in a process of its own.

``python -m benchmarks --only capacity_clubs,clubs_pages`` (``make bench ARGS="--only ..."``)
runs only the parts named (:data:`PARTS`).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Callable

from mahjong.constants import EAST, SOUTH
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.scores import ScoresCalculator

from benchmarks.all_last import run_all_last_bench
from benchmarks.clubs import run_clubs_bench
from benchmarks.hand_tiles import run_hand_tiles_bench
from benchmarks.online_import import run_online_import_bench, run_online_store_bench
from benchmarks.placement import run_placement_bench
from benchmarks.ratings import run_ratings_bench
from benchmarks.seating import run_seating_bench
from benchmarks.standings import run_standings_bench
from benchmarks.timing import Figure, load_line, median_rate, median_rates, meets, ratio
from benchmarks.whatif import run_whatif_bench
from scoring.engine import hand_payment, legal_fu, load_ruleset, replay_record
from scoring.upkeep.sample_games import sample_records

PAYMENT_TARGET = 200_000
REPLAY_TARGET = 5_000


# The clubs the capacity run's second variant spreads its tables over.
CAPACITY_CLUBS = 20


def payment_grid() -> list[tuple[int, int, bool, bool]]:
    rs = load_ruleset("makura-1.5")
    return [
        (han, fu, dealer, tsumo)
        for han in range(1, 14)
        for tsumo in (False, True)
        for fu in (legal_fu(rs, han, tsumo) if han < 5 else [30])
        for dealer in (False, True)
    ]


def engine_bench() -> int:
    """The engine's payments and replays against their targets; the lines missed."""
    rs = load_ruleset("makura-1.5")
    grid = payment_grid()
    repeat = 200

    def engine() -> int:
        for _ in range(repeat):
            for han, fu, dealer, tsumo in grid:
                hand_payment(rs, han=han, fu=fu, dealer=dealer, tsumo=tsumo)
        return repeat * len(grid)

    options = OptionalRules(kiriage=True)
    configs = {
        (dealer, tsumo): HandConfig(
            is_tsumo=tsumo, player_wind=EAST if dealer else SOUTH, options=options
        )
        for dealer in (False, True)
        for tsumo in (False, True)
    }
    calculate = ScoresCalculator.calculate_scores

    def reference() -> int:
        for _ in range(repeat):
            for han, fu, dealer, tsumo in grid:
                calculate(han, fu, configs[(dealer, tsumo)])
        return repeat * len(grid)

    ours, theirs = median_rates(engine, reference)

    records = [r for ruleset in ("makura-1.5", "tenhou-4p") for r in sample_records(ruleset, 100)]
    hands = sum(len(r["hands"]) for r in records)

    def replays() -> int:
        for record in records:
            replay_record(record)
        return len(records)

    replay_rate = median_rate(replays)

    failures = 0

    def line(label: str, value: Figure, target: float, unit: str) -> None:
        nonlocal failures
        ok = meets(value, target)
        failures += not ok
        verdict = "ok" if ok else "BELOW TARGET"
        print(
            f"{label:<44} {value.median:>12,.1f} {unit:<12} target >= {target:,} {verdict} "
            f"{value.spread_text()}"
        )

    print(
        f"payment grid: {len(grid)} han/fu/dealer/tsumo cells x {repeat}; "
        "median of the rounds, taken in turns after a warm-up"
    )
    line("engine hand_payment", ours, PAYMENT_TARGET, "payments/s")
    print(
        f"{'mahjong ScoresCalculator.calculate_scores':<44} {theirs.median:>12,.1f} payments/s "
        f"{theirs.spread_text()}"
    )
    engine_ratio = ratio(ours, theirs)
    ok = engine_ratio >= 1.0
    failures += not ok
    print(
        f"{'ratio engine / ScoresCalculator':<44} {engine_ratio:>12,.2f} {'x':<12} "
        f"target >= 1.0 {'ok' if ok else 'BELOW TARGET'} (of the medians)"
    )
    print(f"replays: {len(records)} complete hanchans, {hands / len(records):.1f} hands each")
    line("replay_record (complete hanchan)", replay_rate, REPLAY_TARGET, "replays/s")
    return failures


# The parts of the run, in order, as ``--only`` names them.
PARTS = (
    "engine",
    "hand_entry",
    "capacity",
    "capacity_clubs",
    "request_limits",
    "hand_tiles",
    "all_last",
    "placement",
    "online_import",
    "seating",
    "standings",
    "clubs_pages",
    "ratings",
    "whatif",
)


def parse_only(argv: list[str]) -> list[str]:
    """The parts to run: all of :data:`PARTS`, or those of ``--only NAME[,NAME...]``, in the
    run's order.

    Raises:
        SystemExit: another argument, or an unknown part (status 2, the parts named).
    """
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument(
        "--only",
        help="run only these parts, comma-separated: " + ", ".join(PARTS),
    )
    options = parser.parse_args(argv)
    if options.only is None:
        return list(PARTS)
    wanted = {name.strip() for name in options.only.split(",") if name.strip()}
    unknown = sorted(wanted - set(PARTS))
    if unknown or not wanted:
        parser.error(
            f"unknown part {', '.join(unknown) or '(none)'}; the parts: {', '.join(PARTS)}"
        )
    return [part for part in PARTS if part in wanted]


def main(argv: list[str] | None = None) -> int:
    """Run the parts of ``argv`` (else the command line's; :func:`parse_only`), each in a
    process of its own (``python -m benchmarks --part NAME``) between two lines of the load
    average; 1 if a part missed a target or failed, else 0."""
    arguments = sys.argv[1:] if argv is None else argv
    alone = arguments[1] if arguments[:1] == ["--part"] and len(arguments) == 2 else None
    parts = [alone] if alone in PARTS else parse_only(arguments)
    failures = 0

    def child(*command: str) -> None:
        nonlocal failures
        done = subprocess.run([sys.executable, "-m", *command], check=False)
        failures += done.returncode != 0

    def lines(found: list[str], *bad: str) -> None:
        nonlocal failures
        print("\n".join(found))
        sys.stdout.flush()
        failures += any(word in line for line in found for word in bad)

    def engine() -> None:
        nonlocal failures
        failures += engine_bench()

    runs: dict[str, Callable[[], None]] = {
        "engine": engine,
        "hand_entry": lambda: child("benchmarks.hand_entry"),
        "capacity": lambda: child("benchmarks.capacity"),
        # The same run with the phones spread over 20 clubs, printed the same way.
        "capacity_clubs": lambda: child("benchmarks.capacity", "--clubs", str(CAPACITY_CLUBS)),
        # One member's worst requests, and the password reset's timing.
        "request_limits": lambda: child("benchmarks.request_limits"),
        "hand_tiles": lambda: lines(run_hand_tiles_bench(), "BELOW"),
        "all_last": lambda: lines(run_all_last_bench(), "ABOVE"),
        "placement": lambda: lines(run_placement_bench(), "ABOVE"),
        "online_import": lambda: lines(
            [*run_online_import_bench(), *run_online_store_bench()], "BELOW"
        ),
        "seating": lambda: lines(run_seating_bench(), "ABOVE"),
        "standings": lambda: lines(run_standings_bench(), "BELOW", "ABOVE"),
        "clubs_pages": lambda: lines(run_clubs_bench(), "ABOVE"),
        "ratings": lambda: lines(run_ratings_bench(), "BELOW"),
        "whatif": lambda: lines(run_whatif_bench(), "ABOVE"),
    }
    if alone is not None:
        # In the process of its own that the loop below started for this part.
        runs[alone]()
        return 1 if failures else 0
    for name in parts:
        # What else ran beside a part is the first thing to read its figures against.
        print(f"== {name}: {load_line('at the start')}", flush=True)
        # A fresh process a part: no part's imports, caches or garbage in another's figures.
        child("benchmarks", "--part", name)
        print(f"== {name}: {load_line('at the end')}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
