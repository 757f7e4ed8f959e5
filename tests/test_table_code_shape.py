"""The table screen's code in the shape of the screen: the hand form only
parses taps, the tiles are valued before it by the hand-value contract
(:mod:`scoring.entry.tile_entry`, the valuation of ``POST /api/hand-value/``), each region of the
screen has its view-model (:mod:`scoring.views.table_regions`), and the table's confirm and
the offline outbox record through one path (:func:`scoring.views.hands._record`)."""

from __future__ import annotations

import ast
import json
import re
import uuid
from pathlib import Path

import pytest
from django.http import QueryDict
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.engine import load_ruleset
from scoring.entry.hand_form import HandForm
from scoring.entry.tile_entry import read_tiles
from scoring.models import Hanchan, HandEntry
from scoring.tiles.contract import answer, hand_value

ROOT = Path(__file__).resolve().parent.parent

# Baba (seat 1, South in East 1) rons Chiba with riichi, pinfu, tanyao and a dora (2m shown
# by 1m): 4 han 30 fu, a mangan under Makura 1.5's kiriage (§45f).
TILES = {"hand": "234567m234p67s88p5s", "win_tile": "5s", "dora_indicators": ["1m"]}


def taps(**fields: str | list[str]) -> QueryDict:
    data = QueryDict(mutable=True)
    for name, value in fields.items():
        data.setlist(name, value if isinstance(value, list) else [value])
    return data


def baba_rons_chiba(**extra: str) -> QueryDict:
    """Baba's ron from Chiba with riichi, entered by ``TILES``; ``extra`` taps added."""
    return taps(
        result="ron", loser="2", winners="1", riichi="1", tiles_1=json.dumps(TILES), **extra
    )


def test_the_tiles_are_valued_before_the_form_and_fill_the_value() -> None:
    rs = load_ruleset("makura-1.5")
    data = baba_rons_chiba(version="0")
    filled, tiles = read_tiles(data, ruleset=rs, dealer=0, round_wind="E", honba=0)
    assert filled["value_1"] == "4-30"
    assert "value_1" not in data  # the posted taps are not changed
    assert (tiles.values[1].han, tiles.values[1].fu) == (4, 30)
    assert {y["name"] for y in tiles.record[1]["yaku"]} == {"riichi", "pinfu", "tanyao", "dora"}
    assert tiles.record[1]["tiles"] == TILES
    assert tiles.warnings == {} and tiles.errors == {}
    # The same valuation as the endpoint's.
    contract = {
        **TILES,
        "ruleset": "makura-1.5",
        "riichi": True,
        "seat_wind": "S",
        "round_wind": "E",
    }
    assert hand_value(contract, rs).to_json() == answer(contract)


def test_a_tapped_value_the_tiles_do_not_make_is_kept_and_flagged() -> None:
    rs = load_ruleset("makura-1.5")
    data = baba_rons_chiba(value_1="2-30")
    with translation.override("en"):
        filled, tiles = read_tiles(data, ruleset=rs, dealer=0, round_wind="E", honba=0)
    assert filled["value_1"] == "2-30"
    assert tiles.warnings[1] == "The tiles make 4 han 30 fu; the value tapped is 2 han 30 fu."


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("{not json", "The tiles could not be read."),
        ("[1, 2]", "The tiles could not be read."),
        (json.dumps({**TILES, "hand": "234567m234p67s89p5s"}), "The tiles: "),
        (json.dumps({**TILES, "hand": "\x00"}), "The tiles: "),
    ],
)
def test_tiles_that_are_no_hand_are_an_error_for_the_value_and_nothing_else(
    raw: str, why: str
) -> None:
    rs = load_ruleset("makura-1.5")
    data = taps(result="tsumo", winner="1", tiles_1=raw)
    with translation.override("en"):
        filled, tiles = read_tiles(data, ruleset=rs, dealer=0, round_wind="E", honba=0)
    assert tiles.errors[1].startswith(why)
    assert "value_1" not in filled and tiles.values == {} and tiles.record == {}


def test_only_the_winners_tiles_are_valued() -> None:
    rs = load_ruleset("makura-1.5")
    # Seat 3's tiles were entered, then seat 1 was tapped as the winner instead.
    data = taps(result="tsumo", winner="1", tiles_3=json.dumps(TILES))
    filled, tiles = read_tiles(data, ruleset=rs, dealer=0, round_wind="E", honba=0)
    assert filled is data and tiles.values == {} and tiles.errors == {}


def test_the_form_reads_the_valued_tiles_into_the_win_without_valuing_them(db: None) -> None:
    rs = load_ruleset("makura-1.5")
    data = baba_rons_chiba(version="0")
    filled, tiles = read_tiles(data, ruleset=rs, dealer=0, round_wind="E", honba=0)
    form = HandForm(
        filled, ruleset=rs, names=["A", "B", "C", "D"], dealer=0, all_last=False, tiles=tiles
    )
    assert form.is_valid()
    assert form.hand == {
        "result": "ron",
        "loser": 2,
        "wins": [{"winner": 1, **tiles.record[1], "han": 4, "fu": 30}],
        "riichi": [1],
    }
    # Without the tile entry the same taps are a win whose value is still missing.
    bare = HandForm(data, ruleset=rs, names=["A", "B", "C", "D"], dealer=0, all_last=False)
    assert bare.is_valid() and bare.hand is None and bare.missing == ["value"]


def test_the_hand_form_module_values_no_tiles_and_draws_nothing() -> None:
    """The form imports neither the tile evaluation nor the pads' view-model."""
    tree = ast.parse((ROOT / "scoring" / "entry" / "hand_form.py").read_text())
    imported = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module is not None
    }
    assert not any(name.startswith("scoring.tiles") for name in imported)
    assert "scoring.entry.value_pad" not in imported
    assert not any(name.startswith("scoring.views") for name in imported)


def test_the_confirm_and_the_outbox_record_through_one_path(
    table_game: Hanchan, client_for, member
) -> None:
    """A hand sent by the outbox (JSON) and the same hand confirmed on the page (a resend
    with the same request id) is recorded once; both answer from the same attempt."""
    phone: Client = client_for(member)
    page_html = phone.get(reverse("game_detail", args=[table_game.pk])).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page_html)
    assert token is not None
    request_id = str(uuid.uuid4())
    hand = {
        "csrfmiddlewaretoken": token.group(1),
        "result": "ron",
        "loser": "2",
        "winners": "1",
        "value_1": "3-30",
        "version": "0",
        "request_id": request_id,
    }
    url = reverse("hand_create", args=[table_game.pk])
    sent = phone.post(url, hand, HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert sent.status_code == 200
    assert sent.json() == {
        "status": "recorded",
        "version": 1,
        "hand": "Ron Baba←Chiba 3 han 30 fu 3,900",
    }
    again = phone.post(url, {**hand, "confirm": "1"}, HTTP_HX_REQUEST="true")
    assert again.status_code == 200
    assert HandEntry.objects.filter(hanchan=table_game).count() == 1
    [entry] = HandEntry.objects.filter(hanchan=table_game)
    assert entry.result["deltas"] == [0, 3900, -3900, 0]
    # A refused hand: the outbox gets the form's own error, the page shows it by the field.
    bad = {**hand, "request_id": str(uuid.uuid4()), "version": "1", "loser": "1"}
    refused = phone.post(url, bad, HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 422
    assert refused.json()["errors"] == ["The player who dealt in cannot also win."]
    page = phone.post(url, {**bad, "confirm": "1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "The player who dealt in cannot also win." in page.content.decode()
    assert HandEntry.objects.filter(hanchan=table_game).count() == 1
