"""The clubs' own rules on a hand's tiles, each a hand valued by hand and the seed
clause it follows (docs/rules-spec.md Appendix A rows "Double-wind pair", "Chiitoitsu",
"Kuitan / atozuke", "Minimum han", "Renhou", and 004's local yaku)."""

from __future__ import annotations

from typing import Any

from scoring.engine import load_ruleset
from scoring.tiles.contract import answer, read_hand
from scoring.tiles.evaluate import evaluate


def value(ruleset: str, **hand: Any) -> dict[str, Any]:
    return answer({"ruleset": ruleset, **hand})


def test_a_double_wind_pair_is_2_fu_under_makura_and_4_under_tenhou():
    """Makura 1.5 §45e "連風牌…も2符"; Tenhou (and the home game, H-11 a) 4 fu. East seat in
    East round, EE pair, a closed 111m pung (8 fu), closed ron (30): Tenhou 42 -> 50 fu,
    Makura 40 fu."""
    hand = {"hand": "111m234567p345s11z", "win_tile": "5s", "riichi": True}
    assert (value("tenhou-4p", **hand)["fu"], value("makura-1.5", **hand)["fu"]) == (50, 40)
    assert value("home-nashinashi", **hand)["fu"] == 50


def test_chiitoitsu_with_four_of_a_kind_where_the_club_allows_it():
    """002 S(2) L112 and 004 L33 allow it; Makura 1.5 §44b does not. 1111m 99m 22p 66p 77s
    99s tsumo: chiitoitsu 2 + menzen tsumo 1 = 3 han 25 fu (no five: every 5p is a dora in
    004, L22-23)."""
    hand = {"hand": "1111m99m22p66p77s99s", "win_tile": "9s", "tsumo": True, "seat_wind": "S"}
    assert value("makura-1.5", **hand) == {"error": "the tiles are not a winning hand"}
    for ruleset in ("sanma-float", "fuji-sanma"):
        assert value(ruleset, **hand) == {
            "han": 3,
            "fu": 25,
            "yaku": [{"name": "tsumo", "han": 1}, {"name": "chiitoitsu", "han": 2}],
            "yakuman": 0,
            "limit": None,
        }
    # FUJI counts no fu (F-01): its record takes the han alone.
    ruleset_id, tiles, situation, honba = read_hand({"ruleset": "fuji-sanma", **hand})
    fuji = load_ruleset(ruleset_id)
    assert evaluate(fuji, tiles, situation, honba=honba).record_value(fuji) == {"han": 3}


def test_atozuke_is_refused_in_the_home_game():
    """003 L264-292 (nashi-nashi): the first call must be part of the yaku. Chi 234m first,
    then pon of haku, win on 9s: haku is the only yaku, so the first call is not part of
    it. Makura 1.5 (§2 L26, ari-ari) takes it as haku 1 han 30 fu."""
    hand = {
        "hand": "678p345s99s",
        "win_tile": "9s",
        "melds": [{"type": "chi", "tiles": "234m"}, {"type": "pon", "tiles": "555z"}],
        "seat_wind": "S",
    }
    assert value("home-nashinashi", **hand) == {
        "error": "atozuke: the first call is not part of the yaku"
    }
    assert value("makura-1.5", **hand)["han"] == 1
    haku_first = {**hand, "melds": list(reversed(hand["melds"]))}
    assert value("home-nashinashi", **haku_first)["yaku"] == [{"name": "haku", "han": 1}]


def test_the_home_game_has_no_open_tanyao():
    """003 L77-79: no kuitan. An open all-simples hand has no yaku there."""
    hand = {
        "hand": "234m567p34588s",
        "win_tile": "8s",
        "melds": [{"type": "chi", "tiles": "678s"}],
        "seat_wind": "S",
    }
    assert value("makura-1.5", **hand)["yaku"] == [{"name": "tanyao", "han": 1}]
    assert value("home-nashinashi", **hand) == {"error": "the hand has no yaku"}


def test_from_5_honba_the_home_game_needs_2_han_without_dora():
    """003 L106 "二飜縛りは5本場から", dora not counted: riichi + two dora (9p, indicator
    8p) is 3 han, but 1 without dora."""
    hand = {
        "hand": "234567m345p678s99p",
        "win_tile": "9p",
        "riichi": True,
        "seat_wind": "S",
        "dora_indicators": ["8p"],
    }
    assert value("home-nashinashi", honba=4, **hand)["han"] == 3
    assert value("home-nashinashi", honba=5, **hand) == {
        "error": "from 5 honba a win needs 2 han without dora"
    }
    assert value("makura-1.5", honba=5, **hand)["han"] == 3  # §2 L24: no 2-han minimum


def test_renhou_is_6_han_in_002_a_yakuman_in_makura_and_none_on_tenhou():
    """002 Y L143 / S-20: 6 han plus the shape's yaku (pinfu, tanyao): 8 han, baiman.
    Makura 1.5 §44m-n: yakuman. Tenhou has no renhou."""
    hand = {"hand": "234567p234s55s67s8s", "win_tile": "8s", "renhou": True, "seat_wind": "S"}
    assert value("sanma-float", **hand) == {
        "han": 8,
        "fu": 30,
        "yaku": [
            {"name": "renhou", "han": 6},
            {"name": "pinfu", "han": 1},
            {"name": "tanyao", "han": 1},
        ],
        "yakuman": 0,
        "limit": "baiman",
    }
    makura = value("makura-1.5", **hand)
    assert (makura["yakuman"], makura["limit"]) == (1, "yakuman")
    assert value("tenhou-3p", **hand) == {"error": "the ruleset has no renhou"}


def test_fuji_counts_north_as_yakuhai_and_sanpuu():
    """004 L26 "北は共通の役牌" and L60 三風 2 han (F-15). Pons of East, South and North, 111p
    and a 9m pair, West seat in East round: round wind 1, honroutou 2, toitoi 2, north 1,
    sanpuu 2 = 8 han (baiman). Tenhou's 3-player rules have neither: 5 han."""
    hand = {
        "hand": "111p99m",
        "win_tile": "9m",
        "melds": [
            {"type": "pon", "tiles": "111z"},
            {"type": "pon", "tiles": "222z"},
            {"type": "pon", "tiles": "444z"},
        ],
        "seat_wind": "W",
    }
    fuji = value("fuji-sanma", **hand)
    assert (fuji["han"], fuji["limit"]) == (8, "baiman")
    assert {"name": "north_yakuhai", "han": 1} in fuji["yaku"]
    assert {"name": "sanpuu", "han": 2} in fuji["yaku"]
    assert value("tenhou-3p", **hand)["han"] == 5


def test_fuji_daisharin_and_shousharin():
    """004 L56 daisharin: any chinitsu chiitoitsu is a yakuman; L59 shousharin: any honitsu
    chiitoitsu is 6 han (in place of chiitoitsu and honitsu)."""
    daisharin = value("fuji-sanma", hand="11223344556677p", win_tile="7p", seat_wind="S")
    assert (daisharin["yakuman"], daisharin["yaku"]) == (1, [{"name": "daisharin", "han": 13}])
    shousharin = value("fuji-sanma", hand="1133557799s1122z", win_tile="2z", seat_wind="S")
    assert shousharin["yaku"][0] == {"name": "shousharin", "han": 6}
    assert "honitsu" not in {y["name"] for y in shousharin["yaku"]}
    assert value("tenhou-3p", hand="1133557799s1122z", win_tile="2z", seat_wind="S")["han"] == 5
