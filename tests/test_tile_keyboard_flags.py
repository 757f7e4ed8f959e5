"""The tile keyboard's situational yaku keys include tenhou, chiihou and renhou (the
yakuman that never combine, Makura 1.3 §43 L360, 1.5 L291-295, are reachable from the
keyboard), renhou only where the ruleset has it. Their valuation: tests/test_tiles_seeds.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.utils import translation

from scoring.engine import load_ruleset
from scoring.views.table_labels import tile_flags, tile_labels

ROOT = Path(__file__).resolve().parent.parent


def test_the_keys_are_named_in_the_readers_language():
    with translation.override("ja"):
        labels = json.loads(tile_labels())
    assert (labels["tenhou"], labels["chiihou"], labels["renhou"]) == ("天和", "地和", "人和")
    with translation.override("en"):
        assert json.loads(tile_labels())["tenhou"] == "Tenhou"


def test_the_script_offers_the_keys_and_renhou_by_ruleset():
    # The keys are the engine's list, which the page renders for the script (data-flags).
    flags = re.fullmatch(r"\[(.*?)\]", tile_flags()).group(1)
    assert '"tenhou", "chiihou", "renhou"' in flags
    partial = (ROOT / "templates/scoring/_tile_keyboard.html").read_text(encoding="utf-8")
    assert "data-renhou=\"{% if ruleset.renhou != 'none' %}1{% endif %}\"" in partial
    assert load_ruleset("makura-1.5").renhou != "none"
    assert load_ruleset("tenhou-4p").renhou == "none"
