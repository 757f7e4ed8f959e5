"""The all-last conditions' benchmark (benchmarks/all_last.py) at a tiny size, so that it
cannot rot: its tables are games in play under every shipped ruleset, the same for the same
seed, and its report judges the median against 20 ms."""

from __future__ import annotations

import re

from benchmarks.all_last import TARGET_MS, run_all_last_bench, tables
from scoring.engine import available_rulesets


def test_its_tables_are_games_in_play_under_every_ruleset() -> None:
    games = tables(per_ruleset=1)
    assert sorted(g.ruleset.id for g in games) == sorted(available_rulesets())
    assert all(g.ended_by is None for g in games)
    again = tables(per_ruleset=1)
    assert [g.state() for g in again] == [g.state() for g in games]


def test_its_report_judges_the_median_against_the_target() -> None:
    header, line = run_all_last_bench(per_ruleset=1)
    assert header.startswith(f"all-last conditions: {len(available_rulesets())} tables in play")
    found = re.search(r"([\d,.]+) ms CPU\s+target <= (\d+) (ok|ABOVE TARGET) \(p10-p90", line)
    assert found, line
    median, target, verdict = float(found[1].replace(",", "")), float(found[2]), found[3]
    assert target == TARGET_MS
    assert verdict == ("ok" if median <= TARGET_MS else "ABOVE TARGET")
