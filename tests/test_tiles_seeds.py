"""Hands from tiles as each seed values them: every clause a ruleset
parameter, checked here against the seed line it comes from (/work/shared/seeds/: 000 =
Makura 1.3, 001 = Makura 1.5, 002 = the 3-player club, 003 = the home game, 004 = Shinbashi
FUJI 3-player). Tenhou's presets keep the package's reading (test_hand_tiles.py replays 300+
real Tenhou hands)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from clubsite.models import Member
from scoring.engine import load_ruleset, ruleset_from_mapping
from scoring.models import Hanchan, HandEntry
from scoring.tiles.contract import answer, read_hand
from scoring.tiles.evaluate import evaluate
from tests.test_tile_entry import fields


def value(ruleset: str, **hand: Any) -> dict[str, Any]:
    return answer({"ruleset": ruleset, **hand})


def yaku(result: dict[str, Any]) -> dict[str, int]:
    return {y["name"]: y["han"] for y in result["yaku"]}


# -- double yakuman: 000 §43 L352-356, 001 L285-289, 003 L559-560 -----------------------------

DOUBLE_HANDS: dict[str, dict[str, Any]] = {
    # The 13-sided wait: the winning tile is the pair's.
    "kokushi_13_sided": {"hand": "19m19p19s12345677z", "win_tile": "7z"},
    "suuankou_tanki": {"hand": "111222333m444p55s", "win_tile": "5s", "tsumo": True},
    "junsei_chuuren": {"hand": "11123455678999m", "win_tile": "5m"},
    "daisuushii": {
        "hand": "222333444z55m",
        "melds": [{"type": "pon", "tiles": "111z"}],
        "win_tile": "5m",
    },
}


@pytest.mark.parametrize("name", DOUBLE_HANDS)
def test_the_double_yakuman_of_makura_and_the_home_game(name: str) -> None:
    """000_612e26189f2c95c2.txt L352-356 / 001_712350b3e63b476c.txt L285-289 "ダブル役満
    (八倍満)": 国士無双十三面待ち 四暗刻単騎 純正九連宝燈, 大四喜; 003_cabcd9e0d50d2a17.txt
    L559-560: 四暗刻単騎、大喜和、国士無双13面待ち、九連宝燈9面待ち. Tenhou: single."""
    hand = DOUBLE_HANDS[name]
    for ruleset in ("makura-1.3", "makura-1.5", "home-nashinashi"):
        result = value(ruleset, **hand)
        assert (result["yakuman"], result["han"]) == (2, 26), ruleset
    assert value("tenhou-4p", **hand)["yakuman"] == 1


def test_a_single_wait_kokushi_and_a_ron_on_four_pungs_stay_single() -> None:
    """000 L354 names only the 13-sided kokushi and suuankou tanki as double."""
    kokushi = value("makura-1.5", hand="19m19p19s12345677z", win_tile="1m")
    assert (kokushi["yakuman"], yaku(kokushi)) == (1, {"kokushi": 13})
    chuuren = value("home-nashinashi", hand="11123456789995m", win_tile="9m")
    assert (chuuren["yakuman"], yaku(chuuren)) == (1, {"chuuren_poutou": 13})


# -- tenhou, chiihou, renhou, 13-futou never combine: 000 L360, 001 L295 ----------------------


def test_tenhou_chiihou_and_renhou_never_combine_with_another_yakuman_under_makura() -> None:
    """000 L360 / 001 L295 "但し、天和 地和 人和 十三不塔との複合はなし" (M-21): tenhou +
    daisangen, chiihou + suuankou and renhou + daisangen are one yakuman, the better of two
    equal values (the lone one kept); Tenhou adds them."""
    tenhou = {"hand": "123m555666777z11p", "win_tile": "1p", "tsumo": True, "tenhou": True}
    chiihou = {
        "hand": "111222333m444p55s",
        "win_tile": "4p",
        "tsumo": True,
        "chiihou": True,
        "seat_wind": "S",
    }
    renhou = {"hand": "123m555666777z11p", "win_tile": "1p", "renhou": True, "seat_wind": "S"}
    for ruleset in ("makura-1.3", "makura-1.5"):
        assert value(ruleset, **tenhou)["yakuman"] == 1
        assert value(ruleset, **chiihou)["yakuman"] == 1
        assert value(ruleset, **renhou)["yakuman"] == 1
    assert yaku(value("makura-1.5", **tenhou)) == {"tenhou": 13}
    assert value("tenhou-4p", **tenhou)["yakuman"] == 2
    assert value("tenhou-4p", **chiihou)["yakuman"] == 2
    # The home game (003 L555-557) states no such rule: its yakuman add up.
    assert value("home-nashinashi", **tenhou)["yakuman"] == 2


# Each a chiihou, renhou or tenhou whose tiles also make a double yakuman (000 L354, 001 L287).
LONE_WITH_DOUBLE: dict[str, dict[str, Any]] = {
    "chiihou + suuankou tanki": {
        "hand": "111222333m444p55s",
        "win_tile": "5s",
        "tsumo": True,
        "chiihou": True,
        "seat_wind": "S",
    },
    "renhou + kokushi 13-sided": {
        "hand": "19m19p19s12345677z",
        "win_tile": "7z",
        "renhou": True,
        "seat_wind": "S",
    },
    "chiihou + junsei chuuren": {
        "hand": "11123455678999m",
        "win_tile": "5m",
        "tsumo": True,
        "chiihou": True,
        "seat_wind": "W",
    },
    "tenhou + suuankou tanki": {
        "hand": "111222333m555z66z",
        "win_tile": "6z",
        "tsumo": True,
        "tenhou": True,
    },
}
DOUBLE_OF = {
    "chiihou + suuankou tanki": "suuankou_tanki",
    "renhou + kokushi 13-sided": "daburu_kokushi",
    "chiihou + junsei chuuren": "daburu_chuuren_poutou",
    "tenhou + suuankou tanki": "suuankou_tanki",
}


@pytest.mark.parametrize("name", LONE_WITH_DOUBLE)
def test_a_lone_yakuman_with_a_double_one_keeps_the_double(name: str) -> None:
    """000 L360 / 001 L291-295 "但し、天和 地和 人和 十三不塔との複合はなし": never added, and,
    as 複合しない everywhere in these documents (七対子/二盃口 §44c), the hand keeps the better
    of the two values (rules-spec M-21, corrected 2026-11-29: "keep the larger value, never
    add"): chiihou with suuankou tanki is the double yakuman of suuankou tanki, ×2, not 1 (the
    earlier "always ×1") nor 3. The home game adds them (003 states no such rule)."""
    hand = LONE_WITH_DOUBLE[name]
    for ruleset in ("makura-1.3", "makura-1.5"):
        result = value(ruleset, **hand)
        assert (result["yakuman"], result["han"], result["limit"]) == (2, 26, "yakuman"), ruleset
        assert yaku(result) == {DOUBLE_OF[name]: 26}, ruleset
    assert value("home-nashinashi", **hand)["yakuman"] == 3


def test_a_lone_yakuman_with_two_yakuman_keeps_the_two() -> None:
    """M-21: the lone yakuman (×1) against the others together (suuankou tanki ×2, daisuushii
    ×2, tsuuiisou, capped at ×3, 000 §45h L436): the others, ×3; never 4."""
    hand = {
        "hand": "111222333444z55z",
        "win_tile": "5z",
        "tsumo": True,
        "chiihou": True,
        "seat_wind": "S",
    }
    result = value("makura-1.5", **hand)
    assert result["yakuman"] == 3
    assert "chiihou" not in yaku(result)


def test_the_other_clubs_add_tenhou_to_the_yakuman_of_the_tiles() -> None:
    """004 L52 "純粋な役満の場合は複合を認めます": tenhou and daisangen are two yakuman in FUJI;
    002 and 003 state no "複合はなし" either, and add them as today (M-21 is Makura's)."""
    hand = {"hand": "123p555666777z11s", "win_tile": "1s", "tsumo": True, "tenhou": True}
    for ruleset in ("fuji-sanma", "sanma-float", "home-nashinashi"):
        result = value(ruleset, **hand)
        assert (result["yakuman"], yaku(result)) == (2, {"daisangen": 13, "tenhou": 13}), ruleset
    assert value("makura-1.5", **hand)["yakuman"] == 1


def test_13_futou_on_the_first_draw_under_makura() -> None:
    """000 L350 / 001 L283 十三不塔: one pair, no set and no two tiles of a suit within two
    of each other, on the first draw; a yakuman that never combines (L360). Tenhou has none."""
    hand = {"hand": "147m258p369s12344z", "win_tile": "4z", "tsumo": True, "tenhou": True}
    result = value("makura-1.5", **hand)
    assert (result["yakuman"], yaku(result)) == (1, {"shiisanputa": 13})
    assert (
        value("makura-1.3", **{**hand, "tenhou": False, "chiihou": True, "seat_wind": "W"})[
            "yakuman"
        ]
        == 1
    )
    assert value("makura-1.5", **{**hand, "tenhou": False}) == {
        "error": "the tiles are not a winning hand"
    }
    # 4m and 7m are three apart, 4m and 6m would be two: no 13-futou.
    assert "error" in value("makura-1.5", **{**hand, "hand": "146m258p369s12344z"})
    assert value("tenhou-4p", **hand) == {"error": "the tiles are not a winning hand"}


# -- rinshan on the last tile: 002 K(7) L72, 004 L108 ------------------------------------------


def test_rinshan_on_the_last_tile_is_rinshan_alone_where_the_two_do_not_stack() -> None:
    """002_3cf8a5773b79812c.txt L72 "嶺上開花の1翻と、海底摸月の1翻とは重複しない";
    004_d9d22b81f588f31d.txt L108 "嶺上と海底は複合しません": 1 han, not refused. Tenhou and
    Makura (whose dead wall keeps 14 tiles, 000 L105) refuse the pair as a contradiction."""
    hand = {
        "hand": "234p345p456s99s",
        "melds": [{"type": "kan", "tiles": "7777s"}],
        "win_tile": "9s",
        "tsumo": True,
        "rinshan": True,
        "haitei": True,
    }
    assert yaku(value("sanma-float", **hand)) == {"rinshan": 1}
    assert yaku(value("fuji-sanma", **hand)) == {"rinshan": 1, "dora": 2}  # 5p, 5s (L22)
    assert value("tenhou-3p", **hand) == {"error": "haitei and rinshan together"}
    assert value("makura-1.5", **hand) == {"error": "haitei and rinshan together"}


# -- no tsumo fu on a rinshan win: 002 K(3) L66 -------------------------------------------------


def test_no_tsumo_fu_on_a_rinshan_win_in_the_3_player_club() -> None:
    """002 L66 "嶺上開花によるあがりにはツモ符の加符はつかない": an open kan of 7s (8 fu) and
    an open hand: 20 + 8 = 28 -> 30 fu (Tenhou adds the tsumo's 2: 30 -> 40). Makura §45d
    (000 L420 "ツモの2符も付く") adds them too."""
    hand = {
        "hand": "234p345p456s99s",
        "melds": [{"type": "kan", "tiles": "7777s"}],
        "win_tile": "9s",
        "tsumo": True,
        "rinshan": True,
    }
    assert value("sanma-float", **hand)["fu"] == 30
    assert value("tenhou-3p", **hand)["fu"] == 40
    assert value("makura-1.5", **hand)["fu"] == 40


# -- pinfu on a tsumo: 004 L24, 003 L608 --------------------------------------------------------


def test_pinfu_counts_on_a_tsumo_in_fuji_and_the_home_game() -> None:
    """004 L24 "喰いタン・後付け・ツモ平和あり"; 003 L608 "ツモは面前、鳴きにもかかわらず2府
    つく" (H-10): pinfu and menzen tsumo, 30 fu. Tenhou: 20 fu."""
    hand = {"hand": "234p345p678s23499s", "win_tile": "4s", "tsumo": True}
    home = value("home-nashinashi", **hand)
    assert (home["han"], home["fu"], yaku(home)) == (2, 30, {"tsumo": 1, "pinfu": 1})
    fuji = value("fuji-sanma", **hand)
    assert yaku(fuji) == {"tsumo": 1, "pinfu": 1, "dora": 1}  # the 5p (L22)
    tenhou = value("tenhou-4p", **hand)
    assert (tenhou["han"], tenhou["fu"]) == (2, 20)


# -- 004's north, local yaku and fives ----------------------------------------------------------


def test_an_open_hand_whose_only_yaku_is_a_north_pung_wins_in_fuji() -> None:
    """004 L26 "北は共通の役牌です": an open hand with a north pung and no other yaku wins with
    it; the same hand with a west pung (no yakuhai for a South seat in the East round) does
    not."""
    north = {
        "hand": "234p678p99s",
        "melds": [{"type": "pon", "tiles": "444z"}, {"type": "pon", "tiles": "777s"}],
        "win_tile": "9s",
        "seat_wind": "S",
    }
    result = value("fuji-sanma", **north)
    assert (result["han"], yaku(result)) == (1, {"north_yakuhai": 1})
    west = {**north, "melds": [{"type": "pon", "tiles": "333z"}, {"type": "pon", "tiles": "777s"}]}
    assert value("fuji-sanma", **west) == {"error": "the hand has no yaku"}
    assert value("sanma-float", **north) == {"error": "the hand has no yaku"}


def test_the_local_yaku_of_fuji() -> None:
    """004 L54 マンズのホインツ(役満), L57 スーレンコウ(役満), L61 サンレンコウ(2ハン) (F-15:
    the same open or closed). None of them under the 3-player club."""
    manzu = value(
        "fuji-sanma",
        hand="111999m11z222z",
        melds=[{"type": "pon", "tiles": "777z"}],
        win_tile="1z",
        seat_wind="S",
    )
    assert (manzu["yakuman"], yaku(manzu)) == (1, {"manzu_honitsu": 13})
    suurenkou = value("fuji-sanma", hand="222333444666p99s", win_tile="9s", tsumo=True)
    assert "suurenkou" not in yaku(suurenkou)  # 2-3-4-6: not four in a row
    suurenkou = value(
        "fuji-sanma",
        hand="666777888p99s",
        melds=[{"type": "pon", "tiles": "999p"}],
        win_tile="9s",
    )
    assert (suurenkou["yakuman"], yaku(suurenkou)) == (1, {"suurenkou": 13})
    # Sanrenkou as the only yaku of an open hand.
    open_hand = {
        "hand": "888p789s11s",
        "melds": [{"type": "pon", "tiles": "666p"}, {"type": "pon", "tiles": "777p"}],
        "win_tile": "1s",
    }
    sanrenkou = value("fuji-sanma", **open_hand)
    assert (sanrenkou["han"], yaku(sanrenkou)) == (2, {"sanrenkou": 2})
    assert value("sanma-float", **open_hand) == {"error": "the hand has no yaku"}
    # Closed, read as pungs where that pays more than three sequences: sanankou + sanrenkou.
    closed = value("fuji-sanma", hand="666777888p789s11s", win_tile="1s")
    assert yaku(closed) == {"sanankou": 2, "sanrenkou": 2}


def test_every_5p_and_5s_is_a_dora_in_fuji_and_no_five_is_red_twice() -> None:
    """004 L22 "ピンズ・ソーズの5は、赤3・金1で全てドラ扱いです", L23 (a gold five each):
    each 5p and 5s is one dora (F-06), a red one no more (its red five counted once; the red
    and gold fives themselves: tests/test_tiles_fuji_set.py)."""
    closed = value("fuji-sanma", hand="345p789p555s678s22s", win_tile="2s", tsumo=True)
    assert yaku(closed)["dora"] == 4  # one 5p + three 5s
    assert "aka_dora" not in yaku(closed)
    red = value("fuji-sanma", hand="340p789p505s678s22s", win_tile="2s", tsumo=True)
    assert red == closed
    assert (
        yaku(value("tenhou-3p", hand="345p789p555s678s22s", win_tile="2s", tsumo=True)).get("dora")
        is None
    )


def test_flowers_are_nuki_dora_in_fuji_and_a_north_is_set_aside_only_where_it_can_be() -> None:
    """004 L27 "花牌は抜きドラです" (F-23: one dora each), L26 north a yakuhai there, not set
    aside; 002 L76 and Tenhou's 3-player set a north aside; no 4-player set does."""
    hand = {"hand": "234p678p678s23499s", "win_tile": "4s", "tsumo": True}
    assert yaku(value("fuji-sanma", **hand, flowers=3))["dora"] == 3
    assert value("fuji-sanma", **hand, flowers=5) == {
        "error": "the ruleset's set has 4 flower tiles"
    }
    assert value("fuji-sanma", **hand, kita=1) == {
        "error": "the ruleset sets no north aside as a nuki dora"
    }
    assert yaku(value("sanma-float", **hand, kita=2))["dora"] == 2
    assert value("tenhou-4p", hand="234m678p678s23499s", win_tile="4s", tsumo=True, kita=1) == {
        "error": "the ruleset sets no north aside as a nuki dora"
    }


def test_the_home_games_yellow_set_has_two_red_5p() -> None:
    """003 L91-94 "赤ドラは、黄色牌のときのみ4枚 / ピンズの5が2枚 / ソウズの5が1枚 / マンズの
    5が1枚": two red 5p count 2 aka dora; a third does not exist; Makura's set has one."""
    hand = {"hand": "234m005p678s23499s", "win_tile": "4s", "tsumo": True, "riichi": True}
    result = value("home-nashinashi", **hand)
    assert yaku(result)["aka_dora"] == 2
    assert value("home-nashinashi", **{**hand, "hand": "234m000p678s23499s"}) == {
        "error": "0p: this set has 2 red fives of that suit"
    }
    assert value("makura-1.5", **hand) == {"error": "0p: a hand has one red five of each suit"}


# -- ryuuiisou: 003 L557 ------------------------------------------------------------------------


def test_ryuuiisou_needs_hatsu_in_the_home_game_only() -> None:
    """003 L557 "緑一色(発必須)"; Makura §44g (000 L390 "緑一色は発を使用しなくてもよい")."""
    no_hatsu = {"hand": "22334446668884s", "win_tile": "4s", "tsumo": True}
    home = value("home-nashinashi", **no_hatsu)
    assert (home["yakuman"], "chinitsu" in yaku(home)) == (0, True)
    assert yaku(value("makura-1.5", **no_hatsu)) == {"ryuisou": 13}
    with_hatsu = {"hand": "22334466888s666z", "win_tile": "6z"}
    assert yaku(value("home-nashinashi", **with_hatsu)) == {"ryuisou": 13}


# -- riichi kinds: 000 §44d L380 vs 001 §23 L142 ------------------------------------------------


def test_an_open_double_riichi_is_2_han_under_makura_1_3_and_3_under_1_5() -> None:
    """000 L380 "リーチ、ダブルリーチ、オープンリーチはそれぞれ複合しない"; 001 L142 "オープン
    リーチとの複合を認める。合計で３翻役" (rules-spec M-08); the home game's L354 too."""
    hand = {
        "hand": "234m345p456s67899s",
        "win_tile": "9s",
        "double_riichi": True,
        "open_riichi": True,
    }
    assert yaku(value("makura-1.3", **hand)) == {"daburu_riichi": 2}
    assert yaku(value("makura-1.5", **hand)) == {"daburu_open_riichi": 3}
    assert yaku(value("home-nashinashi", **hand)) == {"daburu_open_riichi": 3}


# -- stored rulesets ----------------------------------------------------------------------------


def test_a_ruleset_stored_before_issue_20_reads_its_tiles_as_tenhou_does() -> None:
    """A RulesetVersion stored without the new parameters reads them as Tenhou's presets
    (single yakuman, one red five a suit), so its games' tiles value as they did."""
    data = load_ruleset("makura-1.5").parameters()
    for name in ("double_yakuman", "lone_yakuman", "red_fives", "nuki_north", "flowers"):
        del data[name]
    old = ruleset_from_mapping(data)
    assert (old.double_yakuman, old.red_fives, old.nuki_north) == ((), ("m", "p", "s"), False)
    _id, tiles, situation, honba = read_hand(
        {"ruleset": "makura-1.5", **DOUBLE_HANDS["suuankou_tanki"]}, old
    )
    assert evaluate(old, tiles, situation, honba=honba).yakuman == 1


# -- the keyboard and the pad never disagree silently ------------------------------------------


def test_the_table_says_when_the_tiles_make_a_double_yakuman_the_pad_does_not(
    table_game: Hanchan, client_for: Callable[[Member], Client], member: Member
) -> None:
    """Makura 1.5 L287: suuankou tanki is a double yakuman; Baba rons Chiba with it. The pad
    keeps its own multiple (1 until tapped): the tile result says the two differ, and stops
    saying so once 2× is tapped."""
    phone = client_for(member)
    base = fields(phone, table_game)
    tiles = {"hand": "111222333m444p55s", "win_tile": "5s"}
    post = {
        "result": "ron",
        "loser": "2",
        "winners": "1",
        "tiles_1": json.dumps(tiles),
        "request_id": str(uuid.uuid4()),
        **base,
    }
    url = reverse("hand_preview", args=[table_game.pk])
    preview = phone.post(url, post, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    html = preview.content.decode()
    assert "The tiles make a 2× yakuman; the pad's multiple is 1×." in html
    tapped = phone.post(
        url,
        {**post, "value_1": "yakuman", "yakuman_1": "2"},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert "tile-yakuman-warning" not in tapped
    assert 'id="tile-result-1"' in tapped


def test_the_table_values_a_chiihou_with_suuankou_tanki_as_a_double_yakuman(
    table_game: Hanchan, client_for: Callable[[Member], Client], member: Member
) -> None:
    """M-21: Baba's chiihou with suuankou tanki (001 L287, L295) is ×2 at the
    table too: the pad, left at its 1×, is told the tiles make 2×, and the win is stored so."""
    phone = client_for(member)
    tiles = {**LONE_WITH_DOUBLE["chiihou + suuankou tanki"]}
    del tiles["tsumo"], tiles["seat_wind"]
    post = {
        "result": "tsumo",
        "winner": "1",
        "tiles_1": json.dumps(tiles),
        "request_id": str(uuid.uuid4()),
        **fields(phone, table_game),
    }
    url = reverse("hand_preview", args=[table_game.pk])
    html = phone.post(url, post, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en").content
    assert "The tiles make a 2× yakuman; the pad's multiple is 1×." in html.decode()
    create = reverse("hand_create", args=[table_game.pk])
    phone.post(create, {**post, "value_1": "yakuman", "yakuman_1": "2", "confirm": "1"})
    [win] = HandEntry.objects.get(hanchan=table_game).data["wins"]
    assert (win["limit"], win["yakuman"]) == ("yakuman", 2)
    assert win["yaku"] == [{"name": "suuankou_tanki", "han": 26}]
