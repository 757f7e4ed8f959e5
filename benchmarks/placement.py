"""The chances after a hand (target: at most 5 ms): :func:`scoring.placement.chances` for
tables in play under every shipped ruleset, drawn from ``scoring.upkeep.sample_games`` (the
same tables for the same seed), the state read from the restored game as the table screen
reads it, each timed in CPU time, median of the tables with its spread after an uncounted
warm-up pass (``benchmarks.timing``). Plain Python: no database."""

from __future__ import annotations

import random
import time

from benchmarks.timing import figure, meets
from scoring.engine import Game, available_rulesets, game_of_record, load_ruleset
from scoring.placement import chances, family_of, prior_for, state_of
from scoring.upkeep.sample_games import sample_hands

TARGET_MS = 5.0
TABLES_PER_RULESET = 4
SEED = 20261129


def tables(per_ruleset: int = TABLES_PER_RULESET, seed: int = SEED) -> list[Game]:
    """``per_ruleset`` games in play under each shipped ruleset, 1 to 12 hands in."""
    rng = random.Random(seed)
    games = []
    for ruleset_id in sorted(available_rulesets()):
        players = ["Aoki", "Baba", "Chiba", "Doi"][: load_ruleset(ruleset_id).players]
        for _ in range(per_ruleset):
            hands = sample_hands(rng, ruleset_id, in_play_after=rng.randrange(1, 13))
            record = {"ruleset": ruleset_id, "players": players, "hands": hands}
            games.append(game_of_record(record))
    return games


def table_times_ms(games: list[Game]) -> list[float]:
    """The CPU ms of the chances of each of ``games`` (state and model)."""
    times = []
    for game in games:
        params = prior_for(family_of(game.ruleset))
        started = time.process_time()
        chances(params, state_of(game))
        times.append((time.process_time() - started) * 1000)
    return times


def run_placement_bench(per_ruleset: int = TABLES_PER_RULESET) -> list[str]:
    """The report lines: the median CPU ms a table, its spread, the verdict on the median."""
    games = tables(per_ruleset)
    table_times_ms(games)  # warm-up: the model's fixed draws
    ms = figure(table_times_ms(games), higher_is_better=False)
    verdict = "ok" if meets(ms, TARGET_MS) else "ABOVE TARGET"
    return [
        f"placement chances: {len(games)} tables in play, {per_ruleset} under each of "
        f"{len(games) // per_ruleset} rulesets; CPU ms a table, median of the tables",
        f"{'the chances after a hand':<44} {ms.median:>12,.2f} ms CPU      "
        f"target <= {TARGET_MS:g} {verdict} {ms.spread_text(2)}",
    ]
