"""Hands from tiles: every winning hand of the real Tenhou games in
tests/data/online (their sources in that folder's README) valued from its tiles under
tenhou-4p/tenhou-3p equals Tenhou's own han, fu and yaku; mpsz notation; the hand-value
contract through the command and the endpoint."""

from __future__ import annotations

import dataclasses
import gzip
import io
import json
from pathlib import Path
from xml.etree import ElementTree

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from scoring.engine import load_ruleset
from scoring.online.mjlog_hands import TenhouWin, decode_meld, winning_hands
from scoring.tiles.contract import answer
from scoring.tiles.evaluate import HandRefused, evaluate
from scoring.tiles.notation import TileError, TileSet, tile_types

DATA = Path(__file__).parent / "data" / "online"
LOGS = sorted([*DATA.glob("mjlog/*"), *DATA.glob("mjlog-gz/*")])


def wins_of(path: Path) -> list[TenhouWin]:
    raw = path.read_bytes()
    text = gzip.decompress(raw).decode() if raw[:2] == b"\x1f\x8b" else raw.decode()
    return winning_hands(ElementTree.fromstring(text))


WINS = [(path.name, index, win) for path in LOGS for index, win in enumerate(wins_of(path))]


def test_there_are_at_least_300_real_winning_hands():
    assert len(WINS) >= 300
    assert any(win.tiles.kita for _, _, win in WINS)  # 3-player nuki dora
    assert any(win.yakuman for _, _, win in WINS)
    assert any(m.kind == "ankan" for _, _, win in WINS for m in win.tiles.melds)


@pytest.mark.parametrize(("name", "index", "win"), WINS, ids=[f"{n}#{i}" for n, i, _ in WINS])
def test_each_real_hand_is_valued_as_tenhou_valued_it(name, index, win):
    ruleset = load_ruleset("tenhou-3p" if win.players == 3 else "tenhou-4p")
    value = evaluate(ruleset, win.tiles, win.situation)
    ours = sorted((y.name, y.han) for y in value.yaku if y.han)
    theirs = sorted((n, h) for n, h in win.yaku if h)
    if win.yakuman:
        assert value.yakuman == win.yakuman
        assert {n for n, _ in ours} == {n for n, _ in theirs}
        assert value.limit == "yakuman"
    else:
        assert (value.han, value.fu, ours) == (win.han, win.fu, theirs)


def test_tenhou_meld_codes_decode_as_mjai_reads_them():
    # gimite/mjai test/test_tenhou_archive.rb (commit 312c0c6f): 17463 is a chi of 8m with
    # 6m 7m, 26633 a pon of 9p, 45674 a pon of West, 33795 a called kan of chun.
    chi = decode_meld(17463)
    assert chi is not None and chi.kind == "chi"
    assert sorted(t // 4 for t in chi.tiles) == [5, 6, 7]
    pon = decode_meld(26633)
    assert pon is not None and (pon.kind, {t // 4 for t in pon.tiles}) == ("pon", {17})
    west = decode_meld(45674)
    assert west is not None and (west.kind, {t // 4 for t in west.tiles}) == ("pon", {29})
    kan = decode_meld(33795)
    assert kan is not None and (kan.kind, {t // 4 for t in kan.tiles}) == ("kan", {33})
    assert len(kan.tiles) == 4


def test_mpsz_notation():
    assert tile_types("05m7z") == [(4, True), (4, False), (33, False)]
    tiles = TileSet()
    assert tiles.take_all("0m555m") == [16, 17, 18, 19]
    with pytest.raises(TileError, match="more than four"):
        tiles.take_all("5m")
    with pytest.raises(TileError, match="one red five"):
        TileSet().take_all("00p")
    for bad in ("8z", "12", "m12", "1x"):
        with pytest.raises(TileError):
            tile_types(bad)
    # Without red fives in the hand, a fourth plain five takes the red copy last.
    assert TileSet().take_all("5555s") == [89, 90, 91, 88]


RIICHI_PINFU = {
    "ruleset": "tenhou-4p",
    "hand": "234567m234p67s88p5s",
    "win_tile": "5s",
    "riichi": True,
    "seat_wind": "S",
    "dora_indicators": ["1m"],
    "ura_indicators": ["9p"],
}


def test_the_contract_values_a_riichi_pinfu_ron():
    """30 fu (pinfu ron), riichi, pinfu, tanyao, dora 2m: 4 han 30 fu, no kiriage in
    tenhou-4p (docs/tenhou-rules.md §5), so no limit; ura 9p -> 1p is not in the hand."""
    assert answer(RIICHI_PINFU) == {
        "han": 4,
        "fu": 30,
        "yaku": [
            {"name": "riichi", "han": 1},
            {"name": "pinfu", "han": 1},
            {"name": "tanyao", "han": 1},
            {"name": "dora", "han": 1},
        ],
        "yakuman": 0,
        "limit": None,
    }


def test_the_contract_refuses_with_a_reason():
    assert answer({**RIICHI_PINFU, "riichi": False, "hand": "234567m234p67s88p5s",
                   "seat_wind": "S", "dora_indicators": []}) == {
        "han": 2, "fu": 30, "yaku": [{"name": "pinfu", "han": 1}, {"name": "tanyao", "han": 1}],
        "yakuman": 0, "limit": None,
    }  # fmt: skip
    assert answer({**RIICHI_PINFU, "hand": "123m456p789s1122z", "win_tile": "2z"}) == {
        "error": "the tiles are not a winning hand"
    }
    assert answer({"ruleset": "tenhou-4p", "hand": "123m456p789s11z", "win_tile": "1z",
                   "melds": [{"type": "chi", "tiles": "678s"}]}) == {
        "error": "the hand has no yaku"
    }  # fmt: skip
    assert answer({**RIICHI_PINFU, "win_tile": "9s"}) == {
        "error": "win_tile: 9s is not in the hand"
    }
    assert answer({**RIICHI_PINFU, "ruleset": "nope"}) == {
        "error": "ruleset: unknown ruleset 'nope'"
    }
    assert answer({**RIICHI_PINFU, "dealer": True}) == {"error": "dealer: unknown key"}
    assert answer({**RIICHI_PINFU, "melds": [{"type": "chi", "tiles": "135m"}]}) == {
        "error": "melds[0].tiles: a chi is three tiles in a row of one suit"
    }


def test_a_yakuman_and_kita():
    daisangen = {
        "ruleset": "tenhou-4p",
        "hand": "555666777z11m",
        "melds": [{"type": "pon", "tiles": "999p"}],
        "win_tile": "7z",
    }
    result = answer(daisangen)
    assert (result["yakuman"], result["limit"]) == (1, "yakuman")
    assert [y["name"] for y in result["yaku"]] == ["daisangen"]
    sanma = {
        "ruleset": "tenhou-3p",
        "hand": "111999m11p234567s",
        "win_tile": "7s",
        "tsumo": True,
        "kita": 2,
    }
    result = answer(sanma)
    assert result["han"] == 3  # menzen tsumo 1 + two kita
    assert {"name": "tsumo", "han": 1} in result["yaku"]


def test_the_command_answers_each_line_and_exits_2_on_errors(tmp_path):
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(RIICHI_PINFU) + "\n\n" + "not json\n", encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("hand_value", str(path), stdout=out)
    assert failed.value.returncode == 2
    first, second = out.getvalue().splitlines()
    assert json.loads(first)["han"] == 4
    assert json.loads(second)["error"].startswith("line 3: not JSON")


def test_the_endpoint(client, member):
    client.force_login(member.user)
    url = reverse("hand_value")
    response = client.post(url, json.dumps(RIICHI_PINFU), content_type="application/json")
    assert response.status_code == 200
    assert response.json()["fu"] == 30
    bad = client.post(url, "{", content_type="application/json")
    assert bad.status_code == 400 and bad.json()["error"].startswith("not JSON")
    assert client.get(url).status_code == 405


def test_a_winning_tile_not_in_the_hand_is_refused():
    win = WINS[0][2]
    outside = next(t for t in range(136) if t not in win.tiles.concealed)
    tiles = dataclasses.replace(win.tiles, win_tile=outside)
    with pytest.raises(HandRefused) as refused:
        evaluate(load_ruleset("tenhou-4p"), tiles, win.situation)
    assert refused.value.reason == "winning_tile_not_in_hand"
