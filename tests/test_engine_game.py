"""Game progression and hand payments of the engine, by ruleset (rules-spec §1C-§1F, §3)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from scoring.engine import Game, RecordError, load_ruleset, parse_hand, replay_record
from scoring.engine.ruleset_files import ruleset_from_mapping

NAMES = ["A", "B", "C", "D"]


def replay(ruleset: str, hands: list[dict], overrides: dict | None = None) -> dict:
    rs = load_ruleset(ruleset)
    record = {
        "format": "club-game/1",
        "ruleset": ruleset,
        "overrides": overrides or {},
        "players": NAMES[: rs.players],
        "hands": hands,
    }
    return replay_record(record).to_json()


def ron(loser: int, winner: int, han: int = 1, fu: int | None = 30, **extra) -> dict:
    win = {"winner": winner, "han": han}
    if fu is not None:
        win["fu"] = fu
    return {"result": "ron", "loser": loser, "wins": [win], **extra}


def tsumo(winner: int, **win) -> dict:
    return {"result": "tsumo", "wins": [{"winner": winner, **win}]}


def draw(*tenpai: int, **extra) -> dict:
    return {"result": "draw", "tenpai": list(tenpai), **extra}


def test_it_imports_the_engine_without_django():
    code = (
        "import sys, scoring.engine as e; e.replay_record; "
        "sys.exit(any(m == 'django' or m.startswith('django.') for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_it_plays_a_makura_hanchan_to_the_last_hand():
    # Eight non-dealer rons: E1..S4, the dealer rotates each time (§5), ends after S4 (§2).
    hands = [ron(loser=(d + 2) % 4, winner=(d + 1) % 4) for d in range(4)] * 2
    out = replay("makura-1.5", hands)
    assert [h["round"] for h in out["hands"]] == ["E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4"]
    assert [h["dealer"] for h in out["hands"]] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert out["final"]["ended_by"] == "last_hand"
    assert out["final"]["scores"] == [25000 + 2000 - 2000] * 4


def test_it_counts_honba_and_carries_deposits_over_draws():
    hands = [
        draw(0, riichi=[0]),  # dealer tenpai: renchan, honba 1, 1,000 on the table
        draw(1, 2),  # dealer noten: rotates, honba 2 (any draw +1)
        ron(loser=3, winner=2, han=3, fu=30),  # 3,900 + 600 honba + 1,000 stick
    ]
    out = replay("makura-1.5", hands)
    assert [(h["round"], h["honba"], h["deposits_before"]) for h in out["hands"]] == [
        ("E1", 0, 0),
        ("E1", 1, 1000),
        ("E2", 2, 1000),
    ]
    assert out["hands"][2]["deltas"] == [0, 0, 5500, -4500]
    assert out["hands"][2]["deposits_after"] == 0


def test_it_passes_the_deal_after_a_dealer_win_or_draw_without_renchan():
    # Tenhou's 30,000 tournament lobby (GO type 0x641, 2021061315gm-0641-11000-f25efe24):
    # E1's dealer wins and E2 follows at 0 honba; a dealer tenpai at a draw passes with honba +1.
    hands = [
        ron(loser=1, winner=0, han=2, fu=30),  # dealer's 2,900: the deal passes, honba reset
        draw(1, riichi=[1]),  # dealer tenpai: the deal passes, honba 1, 1,000 on the table
        {"result": "abort", "kind": "kyuushu_kyuuhai"},  # abortive: passes, honba 2
        tsumo(3, han=4, fu=30),  # the dealer's win puts them on top: the last hand still
    ]
    out = replay("tenhou-4p-east", hands, {"renchan": "none"})
    assert [(h["round"], h["dealer"], h["honba"]) for h in out["hands"]] == [
        ("E1", 0, 0),
        ("E2", 1, 0),
        ("E3", 2, 1),
        ("E4", 3, 2),
    ]
    assert out["hands"][0]["deltas"] == [2900, -2900, 0, 0]
    # 3,900 all plus 100 x 2 honba from each, and the riichi stick.
    assert out["hands"][3]["deltas"] == [-4100, -4100, -4100, 13300]
    assert out["final"]["ended_by"] == "last_hand"
    # The default keeps today's renchan: the same dealer win is E1 again, at 1 honba.
    normal = replay("tenhou-4p-east", hands[:2])
    assert [(h["round"], h["honba"]) for h in normal["hands"]] == [("E1", 0), ("E1", 1)]
    assert load_ruleset("tenhou-4p-east").renchan == "normal"
    # A ruleset stored before the parameter existed reads it as today's renchan.
    stored = load_ruleset("makura-1.5").parameters()
    del stored["renchan"]
    assert ruleset_from_mapping(stored).renchan == "normal"


def test_it_lets_no_dealer_stop_and_replays_a_chombo_without_renchan():
    # Makura 1.5's all-last dealer may stop after a win (§2), but without renchan never keeps
    # the deal to stop with.
    ring = [ron(loser=(d + 1) % 4, winner=(d + 2) % 4) for d in range(4)] * 2
    stop = tsumo(3, han=1, fu=30) | {"dealer_stops": True}
    assert replay("makura-1.5", ring[:7] + [stop])["final"]["ended_by"] == "agari_yame"
    with pytest.raises(RecordError) as refused:
        replay("makura-1.5", ring[:7] + [stop], {"renchan": "none"})
    assert (refused.value.hand_index, refused.value.code) == (7, "dealer_stop_needs_renchan")
    out = replay("makura-1.5", [{"result": "chombo", "offender": 0}, draw()], {"renchan": "none"})
    assert [(h["round"], h["honba"]) for h in out["hands"]] == [("E1", 0), ("E1", 0)]


def test_it_refuses_a_hand_after_the_game_ended():
    # Two dealer yakuman tsumos at 16,000 all: the others end at -7,000 (tobi, §3).
    hands = [tsumo(0, limit="yakuman"), tsumo(0, limit="yakuman")]
    with pytest.raises(RecordError) as error:
        replay("makura-1.5", [*hands, draw()])
    assert error.value.hand_index == 2
    assert error.value.key == "result"
    assert str(error.value).startswith("hand 2: result: the game already ended (tobi)")


# B deals in three mangan (25,000 -> 1,000), then pays 1,000 noten: exactly 0 after E4.
TO_ZERO = [
    ron(loser=1, winner=2, han=5, fu=None),
    ron(loser=1, winner=2, han=5, fu=None),
    ron(loser=1, winner=3, han=5, fu=None),
    draw(0),
]


def test_it_plays_on_at_exactly_zero_under_makura():
    out = replay("makura-1.5", TO_ZERO)
    assert out["hands"][3]["scores"][1] == 0
    assert out["final"] is None  # §3 "0点丁度は続行"


def test_it_ends_at_exactly_zero_where_the_ruleset_says_so():
    out = replay("makura-1.5", TO_ZERO, {"tobi_at_zero": True})
    assert out["final"]["ended_by"] == "tobi"
    assert out["final"]["scores"][1] == 0


def test_it_ends_below_zero_after_the_hand():
    # 001-H6 shape (§20): a riichi at 1,000 with no income ends the game at -... below 0.
    out = replay("makura-1.5", [*TO_ZERO[:3], ron(loser=0, winner=2, han=1, fu=30, riichi=[1])])
    assert out["hands"][3]["scores"][1] == 0
    out = replay("makura-1.5", [*TO_ZERO[:3], tsumo(2, han=1, fu=30)])
    assert out["hands"][3]["scores"][1] == 1000 - 300
    assert out["final"] is None
    out = replay("makura-1.5", [*TO_ZERO[:3], tsumo(2, han=1, fu=30, **{}) | {"riichi": [1]}])
    assert out["hands"][3]["scores"][1] == -300
    assert out["final"]["ended_by"] == "tobi"


def test_it_takes_the_noten_split_of_x03():
    out = replay("makura-1.5", [draw(1, 2)])
    assert out["hands"][0]["deltas"] == [-1500, 1500, 1500, -1500]
    out = replay("makura-1.5", [draw(0, 1, 2)])
    assert out["hands"][0]["deltas"] == [1000, 1000, 1000, -3000]
    out = replay("fuji-sanma", [draw(0, 2)])
    assert out["hands"][0]["deltas"] == [1000, -2000, 1000]


def test_it_pays_a_triple_ron_under_makura_and_refuses_it_where_it_is_abortive():
    triple = {
        "result": "ron",
        "loser": 3,
        "wins": [
            {"winner": 0, "han": 2, "fu": 30},
            {"winner": 1, "limit": "mangan"},
            {"winner": 2, "han": 1, "fu": 30},
        ],
    }
    out = replay("makura-1.5", [triple])
    assert out["hands"][0]["deltas"] == [2900, 8000, 1000, -11900]
    with pytest.raises(RecordError, match="abort sancha_ron") as error:
        replay("home-nashinashi", [triple])
    assert (error.value.hand_index, error.value.key) == (0, "wins")
    out = replay("home-nashinashi", [{"result": "abort", "kind": "sancha_ron"}])
    assert out["hands"][0]["deltas"] == [0, 0, 0, 0]


def test_it_gives_honba_and_deposits_to_the_first_winner_under_tenhou():
    hands = [
        draw(0, riichi=[0]),  # E1-1, one stick on the table
        {
            "result": "ron",
            "loser": 2,
            "wins": [{"winner": 1, "han": 1, "fu": 30}, {"winner": 3, "han": 2, "fu": 30}],
        },
    ]
    out = replay("tenhou-4p", hands)
    # Seat 3 is first after the discarder (seat 2): 2,000 + 300 honba + 1,000 stick.
    assert out["hands"][1]["deltas"] == [0, 1000, -3300, 3300]


def test_it_ends_tenhou_west_in_sudden_death():
    # Nobody reaches 30,000 in East-South: 8 small rons in a ring keep everyone near 25,000.
    ring = [ron(loser=(d + 1) % 4, winner=(d + 2) % 4) for d in range(4)] * 2
    hands = ring + [ron(loser=2, winner=1, han=3, fu=60)]  # W1: B +7,700 -> above 30,000
    out = replay("tenhou-4p", hands)
    assert out["hands"][8]["round"] == "W1"
    assert out["final"]["ended_by"] == "last_hand"
    assert max(out["final"]["scores"]) >= 30000


def test_it_enters_the_west_round_of_seed_003_and_checks_at_the_round_end():
    # 003-S2: nobody has 30,000 after S4, so West; B passes 30,000 in W1 but play goes on
    # to the end of West (H-02 b).
    ring = [ron(loser=(d + 1) % 4, winner=(d + 2) % 4) for d in range(4)] * 2
    west = [ron(loser=3, winner=1, han=2, fu=30)] + [
        ron(loser=(d + 1) % 4, winner=(d + 2) % 4) for d in (1, 2, 3)
    ]
    out = replay("home-nashinashi", ring + west)
    assert [h["round"] for h in out["hands"][8:]] == ["W1", "W2", "W3", "W4"]
    assert out["final"]["ended_by"] == "last_hand"


def test_it_keeps_the_seed_003_dealer_on_south_draws():
    east = [ron(loser=(d + 1) % 4, winner=(d + 2) % 4) for d in range(4)]
    out = replay("home-nashinashi", [*east, draw(), draw(1)])
    assert [(h["round"], h["honba"]) for h in out["hands"][4:]] == [("S1", 0), ("S1", 1)]
    out = replay("home-nashinashi", [draw(1)])
    assert replay("home-nashinashi", [draw(1), draw()])["hands"][1]["round"] == "E2"
    assert out["hands"][0]["deltas"] == [-1000, 3000, -1000, -1000]


def test_it_ends_fuji_all_last_when_the_dealer_keeps_the_deal_on_top():
    ring = [ron(loser=(d + 1) % 3, winner=(d + 2) % 3) for d in range(3)] * 2
    hands = ring[:5] + [tsumo(2, han=3)]
    out = replay("fuji-sanma", hands)
    assert out["hands"][5]["round"] == "S3"
    assert out["final"]["ended_by"] == "dealer_top"


def test_it_gives_the_fuji_double_ron_dealership_to_the_first_winner():
    # 004-H3: S discards, W (first after S) and E (dealer) ron; E does not renchan (F-10).
    hands = [
        {
            "result": "ron",
            "loser": 1,
            "wins": [{"winner": 2, "limit": "haneman"}, {"winner": 0, "limit": "mangan"}],
        },
        draw(),
    ]
    out = replay("fuji-sanma", hands)
    assert out["hands"][0]["deltas"] == [12000, -24000, 12000]
    assert out["hands"][1]["round"] == "E2"


def test_it_rotates_a_sanma_float_dealer_chombo_without_honba():
    # 002 C(3) / S-09: a dealer's chombo rotates the deal, honba unchanged.
    out = replay("sanma-float", [draw(0), {"result": "chombo", "offender": 0}, draw()])
    assert [(h["round"], h["honba"]) for h in out["hands"]] == [("E1", 0), ("E1", 1), ("E2", 1)]
    assert out["hands"][1]["deltas"] == [-12000, 6000, 6000]


def test_it_replays_a_makura_chombo_returning_other_riichi_sticks():
    # 000-H5: W (seat 2) false ron; S (seat 1) had declared riichi and gets the stick back.
    out = replay("makura-1.3", [{"result": "chombo", "offender": 2, "riichi": [1]}, draw()])
    assert out["hands"][0]["deltas"] == [4000, 4000, -12000, 4000]
    assert out["hands"][0]["deposits_after"] == 0
    assert (out["hands"][1]["round"], out["hands"][1]["honba"]) == ("E1", 0)


def test_it_allows_agari_yame_only_for_the_all_last_dealer():
    with pytest.raises(RecordError) as error:
        replay("makura-1.5", [tsumo(0, han=2, fu=30) | {"dealer_stops": True}])
    assert (error.value.hand_index, error.value.key) == (0, "dealer_stops")
    ring = [ron(loser=(d + 1) % 4, winner=(d + 2) % 4) for d in range(4)] * 2
    stop = tsumo(3, han=1, fu=30) | {"dealer_stops": True}
    out = replay("makura-1.5", ring[:7] + [stop])
    assert out["final"]["ended_by"] == "agari_yame"
    with pytest.raises(RecordError, match="no agari_yame"):
        replay("tenhou-4p", ring[:7] + [stop])


def test_it_refuses_riichi_below_the_ruleset_minimum():
    # Seed 003 L480 (H-25): riichi needs 1,100 points. B: 27,000 - 3 x 8,000 - 2 x 1,000.
    hands = [
        ron(loser=1, winner=2, han=5, fu=None),
        ron(loser=1, winner=2, han=5, fu=None),
        ron(loser=1, winner=3, han=5, fu=None),
        draw(0),  # E4: B pays 1,000 -> 2,000; dealer noten rotates (East round)
        draw(0),  # S1: B pays 1,000 -> 1,000
    ]
    assert replay("home-nashinashi", hands)["hands"][4]["scores"][1] == 1000
    with pytest.raises(RecordError) as error:
        replay("home-nashinashi", [*hands, draw(0, riichi=[1])])
    assert (error.value.hand_index, error.value.key) == (5, "riichi")
    # Makura allows it (§20, M-10).
    assert replay("makura-1.5", [*hands[:3], draw(1, riichi=[1])])["final"] is None


def test_it_names_the_win_key_at_fault():
    with pytest.raises(RecordError) as error:
        replay("makura-1.5", [ron(loser=1, winner=0, han=1, fu=25)])
    assert (error.value.hand_index, error.value.key) == (0, "wins[0].fu")
    with pytest.raises(RecordError) as error:
        replay("fuji-sanma", [ron(loser=1, winner=0, han=2, fu=40)])
    assert error.value.key == "wins[0].fu"
    with pytest.raises(RecordError) as error:
        replay("fuji-sanma", [tsumo(0, limit="yakuman", pao=1)])
    assert error.value.key == "wins[0].pao"


def test_it_leaves_a_game_unchanged_when_a_hand_is_refused():
    game = Game(load_ruleset("makura-1.5"))
    game.play(parse_hand(draw(0, riichi=[0]), 4, 0))
    before = (game.state(), list(game.scores), len(game.results))
    bad = parse_hand(ron(loser=1, winner=2, han=1, fu=20, riichi=[3]), 4, 1)
    with pytest.raises(RecordError):
        game.play(bad)
    assert (game.state(), list(game.scores), len(game.results)) == before


def test_it_applies_an_override_and_refuses_unknown_ones():
    deep = [tsumo(0, limit="yakuman"), tsumo(0, limit="yakuman")]
    out = replay("makura-1.5", deep, {"tobi": False})
    assert out["final"] is None
    with pytest.raises(RecordError) as error:
        replay("makura-1.5", deep, {"no_tobi": True})
    assert error.value.key == "overrides.no_tobi"
    with pytest.raises(RecordError) as error:
        replay("makura-1.5", deep, {"tobi": "no"})
    assert error.value.key == "overrides.tobi"


def test_it_pays_tenhou_nagashi_instead_of_noten_and_keeps_the_sticks():
    # tenhou-rules.md §3: mangan tsumo payment replaces the noten payments; sticks stay,
    # honba +1, the dealer stays only if tenpai.
    hands = [
        draw(0, riichi=[0]),  # E1-0: 1,000 on the table, honba 1
        {"result": "draw", "nagashi": [2], "tenpai": [1]},
    ]
    out = replay("tenhou-4p", hands)
    assert out["hands"][1]["deltas"] == [-4000, -2000, 8000, -2000]
    assert out["hands"][1]["deposits_after"] == 1000
    assert replay("tenhou-4p", [*hands, draw()])["hands"][2]["round"] == "E2"


def test_it_pays_tenhou_3p_honba_200_on_a_ron_and_100_per_tsumo_payer():
    hands = [draw(0), ron(loser=1, winner=0, han=1, fu=30), tsumo(0, han=1, fu=30)]
    out = replay("tenhou-3p", hands)
    assert out["hands"][1]["deltas"] == [1500 + 200, -1700, 0]
    # Dealer tsumo 500 all at 2 honba, tsumo-loss: two payers of 500 + 200.
    assert out["hands"][2]["deltas"] == [1400, -700, -700]


def test_it_stops_tenhou_when_the_all_last_dealer_wins_on_top_with_30000():
    ring = [ron(loser=(d + 1) % 4, winner=(d + 2) % 4) for d in range(4)] * 2
    hands = ring[:7] + [tsumo(3, limit="mangan")]  # S4 dealer D: 4,000 all -> 37,000
    out = replay("tenhou-4p", hands)
    assert out["final"]["ended_by"] == "dealer_top"
    assert out["final"]["ranks"][3] == 1


def test_it_splits_a_pao_ron_and_charges_a_pao_tsumo_to_the_liable_player():
    # 000-H6 (M-05): S (seat 1) daisangen, N (seat 3) fed the third dragon.
    pao_ron = {
        "result": "ron",
        "loser": 2,
        "wins": [{"winner": 1, "limit": "yakuman", "pao": 3}],
    }
    assert replay("makura-1.3", [pao_ron])["hands"][0]["deltas"] == [0, 32000, -16000, -16000]
    pao_tsumo = tsumo(1, limit="yakuman", pao=3)
    assert replay("makura-1.3", [pao_tsumo])["hands"][0]["deltas"] == [0, 32000, 0, -32000]


def test_it_charges_the_daiminkan_feeder_under_seeds_002_and_003():
    # 002-H7 (K(8), S-11 a): W (seat 2) wins on the rinshan after S (seat 1) fed the kan:
    # 40 fu 2 han ron-equivalent 2,560 -> 3,000 with 1,000 rounding.
    feed = tsumo(2, han=2, fu=40, rinshan_from=1)
    assert replay("sanma-float", [feed])["hands"][0]["deltas"] == [0, -3000, 3000]
    # 003 (H-24): the tsumo total, 700 + 700 + 1,300 for a non-dealer 40 fu 2 han.
    out = replay("home-nashinashi", [tsumo(2, han=2, fu=40, rinshan_from=1)])
    assert out["hands"][0]["deltas"] == [0, -2700, 2700, 0]
    # Makura: an ordinary tsumo (§45d).
    out = replay("makura-1.5", [tsumo(2, han=2, fu=40, rinshan_from=1)])
    assert out["hands"][0]["deltas"] == [-1300, -700, 2700, -700]


def test_it_continues_a_restored_game_exactly_like_the_original():
    hands = [
        draw(0, riichi=[0]),
        ron(loser=2, winner=1, han=2, fu=40),
        tsumo(1, han=3, fu=30),
        draw(1, 2),
        ron(loser=3, winner=0, han=1, fu=30),
    ]
    whole = Game(load_ruleset("makura-1.5"))
    for i, hand in enumerate(hands):
        whole.play(parse_hand(hand, 4, i))
    part = Game(load_ruleset("makura-1.5"))
    for i, hand in enumerate(hands[:3]):
        part.play(parse_hand(hand, 4, i))
    restored = Game.restore(load_ruleset("makura-1.5"), part.snapshot())
    assert restored.state() == part.state()
    for i, hand in enumerate(hands[3:], start=3):
        assert restored.play(parse_hand(hand, 4, i)) == whole.results[i]
    assert restored.state() == whole.state()
