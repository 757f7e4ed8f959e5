"""The chances after a hand (target: at most 5 ms): :func:`scoring.placement.chances` for
tables in play under every shipped ruleset, drawn from ``scoring.upkeep.sample_games`` (the
same tables for the same seed), the state read from the restored game as the table screen
reads it, each timed in CPU time, median of the tables with its spread after an uncounted
warm-up pass (``benchmarks.timing``); beside it, for the chart, the chances after every hand
of a whole game (the game replayed from its hands, as
:func:`scoring.placement_chances.game_chances` does). Plain Python: no database."""

from __future__ import annotations

import time
from typing import Any

from benchmarks.timing import figure, meets
from scoring.engine import Game, load_ruleset
from scoring.placement import (
    chances,
    chances_many,
    family_of,
    prior_for,
    state_of,
    states_of_hands,
)
from scoring.upkeep.sample_games import sample_games_in_play, sample_records

TARGET_MS = 5.0
TABLES_PER_RULESET = 4
SEED = 20261129


def tables(per_ruleset: int = TABLES_PER_RULESET, seed: int = SEED) -> list[Game]:
    """``per_ruleset`` games in play under each shipped ruleset, 1 to 12 hands in."""
    return sample_games_in_play(per_ruleset, seed, first=1)


def table_times_ms(games: list[Game]) -> list[float]:
    """The CPU ms of the chances of each of ``games`` (state and model)."""
    times = []
    for game in games:
        params = prior_for(family_of(game.ruleset))
        started = time.process_time()
        chances(params, state_of(game))
        times.append((time.process_time() - started) * 1000)
    return times


def game_times_ms(records: list[dict[str, Any]]) -> list[float]:
    """The CPU ms of the chances after every hand of each of ``records`` (whole games)."""
    times = []
    for record in records:
        ruleset = load_ruleset(record["ruleset"])
        params = prior_for(family_of(ruleset))
        started = time.process_time()
        chances_many(params, states_of_hands(ruleset, record["hands"]))
        times.append((time.process_time() - started) * 1000)
    return times


def run_placement_bench(per_ruleset: int = TABLES_PER_RULESET) -> list[str]:
    """The report lines: the median CPU ms a table, its spread, the verdict on the median."""
    games = tables(per_ruleset)
    table_times_ms(games)  # warm-up: the model's fixed draws
    ms = figure(table_times_ms(games), higher_is_better=False)
    verdict = "ok" if meets(ms, TARGET_MS) else "ABOVE TARGET"
    records = [r for rid in ("makura-1.5", "sanma-float") for r in sample_records(rid, 20)]
    game_times_ms(records)
    whole = figure(game_times_ms(records), higher_is_better=False)
    hands = sum(len(r["hands"]) for r in records) / len(records)
    return [
        f"placement chances: {len(games)} tables in play, {per_ruleset} under each of "
        f"{len(games) // per_ruleset} rulesets; CPU ms a table, median of the tables",
        f"{'the chances after a hand':<44} {ms.median:>12,.2f} ms CPU      "
        f"target <= {TARGET_MS:g} {verdict} {ms.spread_text(2)}",
        f"{'the chances after every hand of a game':<44} {whole.median:>12,.2f} ms CPU      "
        f"{len(records)} games of {hands:.1f} hands {whole.spread_text(2)}",
    ]
