"""The placement chances' benchmark (benchmarks/placement.py) at a tiny size, so that it
cannot rot: its tables are games in play under every shipped ruleset, the same for the same
seed, and its report judges the median against 5 ms."""

from __future__ import annotations

import re

from benchmarks.placement import TARGET_MS, run_placement_bench, tables
from scoring.engine import available_rulesets


def test_its_tables_are_games_in_play_under_every_ruleset() -> None:
    games = tables(per_ruleset=1)
    assert sorted(g.ruleset.id for g in games) == sorted(available_rulesets())
    assert all(g.ended_by is None for g in games)
    assert [g.state() for g in tables(per_ruleset=1)] == [g.state() for g in games]


def test_its_report_judges_the_median_against_the_target() -> None:
    header, line, whole = run_placement_bench(per_ruleset=1)
    assert header.startswith(f"placement chances: {len(available_rulesets())} tables in play")
    found = re.search(r"([\d,.]+) ms CPU\s+target <= (\d+) (ok|ABOVE TARGET) \(p10-p90", line)
    assert found, line
    median, target, verdict = float(found[1].replace(",", "")), float(found[2]), found[3]
    assert target == TARGET_MS
    assert verdict == ("ok" if median <= TARGET_MS else "ABOVE TARGET")
    assert "40 games of" in whole
