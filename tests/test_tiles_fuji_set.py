"""The Shinbashi FUJI Club's set of tiles (seed 004_d9d22b81f588f31d.txt):
three red and one gold five in each of pinzu and souzu, every one a dora (L22 "ピンズ・ソーズの
5は、赤3・金1で全てドラ扱いです", L23 "5筒・5索に、各1枚ずつ金牌のドラが入っております"; rules-spec
F-06: a gold five one dora, configurable), and the 白ポッチ, wild after riichi (L39 "白ポッチは、
リーチ後、オールマイティ牌です"). Before, a red five in a FUJI hand was refused ("this set has no
red five of that suit") and the 白ポッチ could not be entered."""

from __future__ import annotations

import importlib
import json
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from clubsite.dates import club_today
from clubsite.models import Member
from scoring.engine import RecordError, load_ruleset, parse_hand, ruleset_from_mapping
from scoring.ledger import hanchan_start
from scoring.models import HandEntry, RulesetVersion
from scoring.tiles.contract import ContractError, answer, hand_value
from scoring.tiles.notation import TileError, TileSet
from tests.test_tile_entry import fields


def value(ruleset: str, **hand: Any) -> dict[str, Any]:
    return answer({"ruleset": ruleset, **hand})


def yaku(result: dict[str, Any]) -> dict[str, int]:
    return {y["name"]: y["han"] for y in result["yaku"]}


# -- red and gold fives: 004 L22-23, F-06 --------------------------------------------------------


def test_fujis_red_fives_are_entered_and_each_is_one_dora() -> None:
    """004 L22: three red 5p and three red 5s, all dora. 340p 789p 505s 678s 22s tsumo: a red
    5p, and a red 5s with two more (the gold one and a red one), 4 dora (was refused: "0p: this
    set has no red five of that suit")."""
    result = value("fuji-sanma", hand="340p789p505s678s22s", win_tile="2s", tsumo=True)
    assert yaku(result) == {"tsumo": 1, "dora": 4}
    assert (result["han"], result["limit"]) == (5, "mangan")
    # Three red 5p, and 555s: the gold 5s and two red ones (every five of the suit is red or
    # gold): six dora, haneman.
    six = value("fuji-sanma", hand="000p789p555s678s22s", win_tile="2s", tsumo=True)
    assert (yaku(six), six["limit"]) == ({"tsumo": 1, "dora": 6}, "haneman")
    # Entered with or without their colour, the same fives are the same dora.
    plain = value("fuji-sanma", hand="555p789p555s678s22s", win_tile="2s", tsumo=True)
    assert plain == six


def test_fujis_set_has_three_red_fives_of_a_suit_and_four_fives_in_all() -> None:
    """004 L22 "赤3・金1": a fourth red 5p does not exist; three red and the gold are the four."""
    assert value("fuji-sanma", hand="0000p789p55s678s22s", win_tile="2s", tsumo=True) == {
        "error": "0p: this set has 3 red fives of that suit"
    }
    kan = {"melds": [{"type": "ankan", "tiles": "0005p"}], "win_tile": "2s", "tsumo": True}
    # The kan's four fives and 555s: seven dora.
    assert yaku(value("fuji-sanma", hand="789p555s678s22s", **kan)) == {"tsumo": 1, "dora": 7}
    assert value("fuji-sanma", hand="789p555s678s5p2s", **kan) == {
        "error": "5p: more than four of the same tile"
    }
    # Tenhou's 3-player set keeps one red five a suit.
    assert value("tenhou-3p", hand="340p789p000s678s22s", win_tile="2s", tsumo=True) == {
        "error": "0s: a hand has one red five of each suit"
    }


def test_the_plain_five_of_fujis_set_is_the_gold_one_and_its_worth_is_configurable() -> None:
    """004 L23: one gold 5p and 5s; a five not red is the gold one (copy 55 and 91). F-06: one
    dora by default; a club counting it 2 sets ``gold_five_dora = 2`` (the red ones stay 1)."""
    tiles = TileSet(("p", "p", "p"), ("p",))
    assert tiles.take_all("5p0p5p") == [55, 52, 53]
    hand = {"ruleset": "fuji-sanma", "hand": "345p789p340s678s22s", "win_tile": "2s"}
    assert yaku(value(**hand, tsumo=True))["dora"] == 2
    data = load_ruleset("fuji-sanma").parameters()
    two = ruleset_from_mapping({**data, "gold_five_dora": 2})
    valued = hand_value({**hand, "tsumo": True}, two)
    assert {y.name: y.han for y in valued.yaku}["dora"] == 3  # gold 5p 2 + red 5s 1


def test_a_set_with_more_than_four_fives_of_a_suit_is_refused() -> None:
    data = load_ruleset("fuji-sanma").parameters()
    with pytest.raises(RecordError) as error:
        ruleset_from_mapping({**data, "gold_fives": ["p", "p", "s"]})
    assert error.value.key == "gold_fives"
    with pytest.raises(RecordError):
        ruleset_from_mapping({**data, "gold_five_dora": 0})
    with pytest.raises(TileError):
        TileSet(("p", "p", "p", "p"), ("p",))


# -- 白ポッチ: 004 L39 -------------------------------------------------------------------------


def test_the_white_pocchi_drawn_in_riichi_is_the_tile_that_pays_most() -> None:
    """004 L39: drawn after riichi, the 白ポッチ (0z) is any tile. 11p 234p 789p 678s 11z: as
    1z it makes a pung of the round wind East (1 han more than as 1p): riichi, tsumo, east."""
    hand = {"hand": "11p234p789p678s11z0z", "win_tile": "0z", "seat_wind": "S"}
    result = value("fuji-sanma", **hand, tsumo=True, riichi=True)
    assert yaku(result) == {"tsumo": 1, "riichi": 1, "round_wind_east": 1}
    # Open riichi (L40) is riichi too.
    assert value("fuji-sanma", **hand, tsumo=True, open_riichi=True)["han"] == 4
    # Without riichi, or on a ron, it is a haku: no winning hand.
    not_winning = {"error": "the tiles are not a winning hand"}
    assert value("fuji-sanma", **hand, tsumo=True) == not_winning
    assert value("fuji-sanma", **hand, riichi=True) == not_winning
    # Only FUJI's set has it.
    assert value("tenhou-3p", **hand, tsumo=True, riichi=True) == {
        "error": "0z: this set has no 白ポッチ (a white dragon with a dot)"
    }


def test_the_white_pocchi_is_no_five_dora_and_held_it_is_a_haku() -> None:
    """F-06/L22 count the red and gold fives; the 白ポッチ standing for a 5p is neither (rules-
    spec §2.5: "白ポッチ is wild after riichi (not a dora)"): 46p kanchan, riichi tsumo double
    east, 4 han (a 5p would be 5). Held in a haku pung it is a haku (yakuhai)."""
    kanchan = value(
        "fuji-sanma", hand="46p789p11s678s111z0z", win_tile="0z", tsumo=True, riichi=True
    )
    assert yaku(kanchan) == {
        "tsumo": 1,
        "riichi": 1,
        "seat_wind_east": 1,
        "round_wind_east": 1,
    }
    real_five = value(
        "fuji-sanma", hand="46p789p11s678s111z5p", win_tile="5p", tsumo=True, riichi=True
    )
    assert yaku(real_five)["dora"] == 1
    held = value("fuji-sanma", hand="234p789p1s678s55z0z1s", win_tile="1s", seat_wind="S")
    assert yaku(held) == {"haku": 1}
    assert value("fuji-sanma", hand="234p789p1s678s0z0z1s", win_tile="1s") == {
        "error": "0z: a set has one 白ポッチ"
    }


# -- at the table -------------------------------------------------------------------------------


def test_a_fuji_hand_with_red_fives_and_the_pocchi_is_valued_and_stored_at_the_table(
    client_for: Callable[[Member], Client],
    member: Member,
    other_member: Member,
    coordinator: Member,
) -> None:
    """Baba (South) draws the 白ポッチ in riichi: 11p 340p 789p 678s 11z, the pocchi as East,
    riichi, tsumo, east and a red 5p, 4 han; the win keeps its tiles as entered."""
    game = hanchan_start(
        ruleset_id="fuji-sanma",
        members=[member, other_member, coordinator],
        played_on=club_today(),
        by=member,
    )
    phone = client_for(member)
    tiles = {"hand": "11p340p789p678s11z0z", "win_tile": "0z"}
    post = {
        "result": "tsumo",
        "winner": "1",
        "riichi": "1",
        "tiles_1": json.dumps(tiles),
        "request_id": str(uuid.uuid4()),
        **fields(phone, game),
    }
    preview = phone.post(
        reverse("hand_preview", args=[game.pk]), post, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "this set has no red five" not in preview
    phone.post(reverse("hand_create", args=[game.pk]), {**post, "confirm": "1"})
    [win] = HandEntry.objects.get(hanchan=game).data["wins"]
    assert win["han"] == 4
    assert win["tiles"] == tiles
    assert {y["name"]: y["han"] for y in win["yaku"]} == {
        "tsumo": 1,
        "riichi": 1,
        "round_wind_east": 1,
        "dora": 1,
    }


# -- stored versions -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_stored_fuji_version_gets_the_seeds_set_and_others_none() -> None:
    """Migration scoring 0022: a fuji-sanma version stored with the earlier reading (no red
    five) takes the set of 004 L22-23 and L39 and is then the built-in ruleset again (no new
    version for the next game); a version of another ruleset gets no gold five nor 白ポッチ. The
    game's own set is the one its tiles are read with (a stored version's, not the built-in's)."""
    from django.apps import apps

    migration = importlib.import_module("scoring.migrations.0022_fuji_tile_set")
    fuji = load_ruleset("fuji-sanma").parameters()
    earlier = {k: v for k, v in fuji.items() if k not in migration.ADDED}
    stored = RulesetVersion.objects.create(
        ruleset_id="fuji-sanma", version=1, name="FUJI", parameters={**earlier, "red_fives": []}
    )
    makura = load_ruleset("makura-1.5").parameters()
    other = RulesetVersion.objects.create(
        ruleset_id="makura-1.5",
        version=1,
        name="Makura",
        parameters={k: v for k, v in makura.items() if k not in migration.ADDED},
    )
    hand = {"ruleset": "fuji-sanma", "hand": "340p789p505s678s22s", "win_tile": "2s"}
    with pytest.raises(ContractError, match="no red five"):
        hand_value({**hand, "tsumo": True}, stored.ruleset())
    migration.add(apps, None)
    stored.refresh_from_db()
    other.refresh_from_db()
    assert stored.parameters == fuji
    assert RulesetVersion.current("fuji-sanma") == stored
    assert other.parameters == makura
    assert hand_value({**hand, "tsumo": True}, stored.ruleset()).han == 5


def test_a_win_keeps_its_flowers_in_the_record() -> None:
    """004 L27: a FUJI win entered by its tiles with a flower set aside was refused when stored
    ("tiles: must be {...}", the record knew ``kita`` only); its ``flowers`` (0-8) are kept, as
    the hand-value contract takes them, and a ninth is refused."""
    tiles = {"hand": "000456p789234s11z", "win_tile": "1z", "flowers": 1}
    hand = {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 6, "tiles": tiles}]}
    parsed = parse_hand(hand, 3, 0)
    assert parsed.to_json()["wins"][0]["tiles"] == tiles
    with pytest.raises(RecordError) as error:
        parse_hand(
            {**hand, "wins": [{"winner": 1, "han": 6, "tiles": {**tiles, "flowers": 9}}]}, 3, 0
        )
    assert error.value.code == "tiles_malformed"


def test_the_yakuman_hall_of_fame_draws_the_pocchi_with_its_dot() -> None:
    """004 L39: a stored 0z is drawn 白 with a dot (the hall of fame's tile chips)."""
    from scoring.views.yaku import tile_chips

    assert [chip.face for chip in tile_chips("55z0z")] == ["白", "白", "白•"]
