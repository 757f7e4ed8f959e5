"""The situational flags are declared once (scoring/engine/situations.py): the hand-value
contract, the tiles' Situation, the record's win tiles, the table's tile entry, the tile
keyboard's keys (rendered into the page for static/js/tiles.js) and their labels read it."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from django.utils import translation

from scoring.engine import RecordError, parse_hand
from scoring.engine.situations import FLAGS, KEYBOARD_FLAGS, RECORD_FLAGS, SITUATION_FLAGS
from scoring.entry.tile_entry import TILE_SPEC_KEYS
from scoring.rulebook.yaku_labels import YAKU_LABELS, yaku_label
from scoring.tiles.contract import KEYS, TILE_KEYS
from scoring.tiles.hand import Situation
from scoring.views.table_labels import tile_flags, tile_labels

ROOT = Path(__file__).resolve().parent.parent


def test_it_is_the_contracts_and_the_situations():
    assert [f.name for f in dataclasses.fields(Situation)] == [
        *FLAGS,
        "seat_wind",
        "round_wind",
    ]
    assert set(FLAGS) <= KEYS
    assert TILE_KEYS + tuple(f for f in FLAGS if f in RECORD_FLAGS) == TILE_SPEC_KEYS
    assert set(FLAGS) - {"tsumo", "riichi"} == RECORD_FLAGS


def test_a_record_carries_the_flags_it_declares():
    for flag in SITUATION_FLAGS:
        tiles = {"hand": "234567m234p67s88p5s", "win_tile": "5s", flag.name: True}
        win = {"winner": 1, "han": 3, "fu": 30, "tiles": tiles}
        hand = {"result": "ron", "loser": 2, "wins": [win]}
        try:
            parse_hand(hand, 4, 0)
        except RecordError as error:
            assert not flag.in_record, (flag.name, error)
        else:
            assert flag.in_record, flag.name


def test_the_keyboard_gets_the_list_and_the_labels_of_its_yaku():
    names = [f.name for f in KEYBOARD_FLAGS]
    assert json.loads(tile_flags()) == names
    assert names == [f for f in FLAGS if f not in {"tsumo", "riichi", "open_riichi"}]
    for language in ("en", "ja"):
        with translation.override(language):
            labels = json.loads(tile_labels())
            for flag in KEYBOARD_FLAGS:
                assert flag.yaku in YAKU_LABELS, flag.yaku
                assert labels[flag.name] == yaku_label(flag.yaku) != flag.yaku


def test_the_script_reads_the_pages_list_and_writes_none_of_its_own():
    script = (ROOT / "static/js/tiles.js").read_text(encoding="utf-8")
    assert "JSON.parse(root.dataset.flags" in script
    # Renhou is named once more: its key shows only where the ruleset has renhou.
    written = [f.name for f in KEYBOARD_FLAGS if f'"{f.name}"' in script]
    assert written == ["renhou"]
    partial = (ROOT / "templates/scoring/_tile_keyboard.html").read_text(encoding="utf-8")
    assert 'data-flags="{{ tile_flags }}"' in partial
