"""The limit table is declared once (scoring/engine/limits.py) and read by the engine's payment,
the record's limits, the tiles' limit of a valued hand, nagashi and chombo, the pad's labels
and the online logs' candidate values (rules-spec §0 [SK])."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from scoring.engine import basic_points, load_ruleset
from scoring.engine import limits as limit_table
from scoring.engine.hand_outcomes import NAGASHI_BASIC_POINTS
from scoring.engine.limits import LIMIT_TABLE, LIMITS, Limit
from scoring.online.mjai import VALUE_CANDIDATES
from scoring.rulebook.hand_labels import LIMIT_LABELS

ROOT = Path(__file__).resolve().parent.parent


def test_it_is_the_standard_table():
    assert [(x.name, x.basic_points, x.han) for x in LIMIT_TABLE] == [
        ("mangan", 2000, 5),
        ("haneman", 3000, 6),
        ("baiman", 4000, 8),
        ("sanbaiman", 6000, 11),
        ("yakuman", 8000, 13),
    ]


def test_every_limit_has_a_label_and_an_online_candidate():
    assert list(LIMIT_LABELS) == list(LIMITS)
    candidates = [v["limit"] for v in VALUE_CANDIDATES if "limit" in v]
    assert list(dict.fromkeys(candidates)) == list(LIMITS)
    assert set(NAGASHI_BASIC_POINTS.items()) <= {(x.name, x.basic_points) for x in LIMIT_TABLE}


def test_the_payment_follows_the_table(monkeypatch: pytest.MonkeyPatch):
    """A changed figure reaches the engine's payment, which the tiles and the pads read."""
    rs = dataclasses.replace(load_ruleset("tenhou-4p"), kiriage="none")
    changed = tuple(
        Limit(x.name, x.basic_points + 500, x.han) if x.name == "haneman" else x
        for x in LIMIT_TABLE
    )
    monkeypatch.setattr(limit_table, "LIMIT_TABLE", changed)
    assert basic_points(rs, 6, 30) == 3500
    assert basic_points(rs, 5, 30) == 2000


def test_the_modules_that_once_restated_it_read_it():
    """The basic points 2,000 ... 8,000 appeared in these modules beside the table."""
    figures = re.compile(r"\b(2000|3000|4000|6000|8000)\b")
    modules = (
        "scoring/engine/hand_value.py",
        "scoring/engine/hand_outcomes.py",
        "scoring/tiles/evaluate.py",
        "scoring/online/mjai.py",
        "scoring/online/majsoul.py",
    )
    found = [
        f"{module}: {line.strip()}"
        for module in modules
        for line in (ROOT / module).read_text(encoding="utf-8").splitlines()
        if figures.search(line)
    ]
    assert found == []
