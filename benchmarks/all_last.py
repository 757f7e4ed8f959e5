"""All-last conditions per table (issue target: at most 20 ms of server CPU a table):
:func:`scoring.entry.all_last.pad_conditions` for tables in play under every shipped ruleset,
drawn from ``scoring.upkeep.sample_games`` (the same tables for the same seed), each timed
in CPU time, median of the tables with its spread after an uncounted warm-up pass
(``benchmarks.timing``). The game of each table is restored before the clock starts, as the
table screen has it from the stored state."""

from __future__ import annotations

import os
import time

from benchmarks.timing import figure, meets
from scoring.engine import Game
from scoring.entry.all_last import pad_conditions
from scoring.upkeep.sample_games import sample_games_in_play

TARGET_MS = 20.0
TABLES_PER_RULESET = 4
SEED = 20261129


def tables(per_ruleset: int = TABLES_PER_RULESET, seed: int = SEED) -> list[Game]:
    """``per_ruleset`` games in play under each shipped ruleset, 3 to 12 hands in."""
    return sample_games_in_play(per_ruleset, seed, first=3)


def table_times_ms(games: list[Game]) -> list[float]:
    """The CPU ms of the conditions of each of ``games``."""
    times = []
    for game in games:
        started = time.process_time()
        pad_conditions(game)
        times.append((time.process_time() - started) * 1000)
    return times


def run_all_last_bench(per_ruleset: int = TABLES_PER_RULESET) -> list[str]:
    """The report lines: the median CPU ms a table, its spread, the verdict on the median.
    Sets Django up if it is not (the pad's values are read with the site's settings; no
    database is touched): the part runs in a process of its own."""
    from django.apps import apps

    if not apps.ready:
        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
        django.setup()
    games = tables(per_ruleset)
    table_times_ms(games)  # warm-up: the pads' value lists, the rulesets' caches
    ms = figure(table_times_ms(games), higher_is_better=False)
    verdict = "ok" if meets(ms, TARGET_MS) else "ABOVE TARGET"
    return [
        f"all-last conditions: {len(games)} tables in play, {per_ruleset} under each of "
        f"{len(games) // per_ruleset} rulesets; CPU ms a table, median of the tables",
        f"{'all-last conditions of a table':<44} {ms.median:>12,.2f} ms CPU      "
        f"target <= {TARGET_MS:g} {verdict} {ms.spread_text(2)}",
    ]
