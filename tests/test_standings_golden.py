"""The standings, champions and player figures over a seeded two-year history are exactly
those the standings gave before they read the ledger's stored facts (issue 8, item 2): the
golden file was written by the old code (reading seats and hand JSON) on the same history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.history_seeding import seed_history
from tests.standings_snapshot import SEED, snapshot

GOLDEN = Path(__file__).parent / "data" / "standings_golden.json"


@pytest.mark.slow
def test_the_figures_are_the_same_as_before(db):
    seed_history(**SEED)
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    actual = json.loads(json.dumps(snapshot()))
    for section in ("standings", "champions", "players"):
        assert actual[section] == expected[section], section
