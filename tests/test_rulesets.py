"""Built-in rulesets load, cite their sources, match rules-spec Appendix A, and bad data fails."""

from __future__ import annotations

import dataclasses

import pytest

from scoring.engine import RecordError, Ruleset, available_rulesets, load_ruleset
from scoring.engine.ruleset_files import ruleset_from_mapping

CLUB_RULESETS = ["makura-1.3", "makura-1.5", "sanma-float", "home-nashinashi", "fuji-sanma"]


def test_it_ships_the_club_rulesets_and_the_tenhou_presets():
    tenhou = ["tenhou-3p", "tenhou-4p", "tenhou-3p-east", "tenhou-4p-east"]
    majsoul = ["majsoul", "majsoul-east", "majsoul-3p", "majsoul-3p-east"]
    assert available_rulesets() == sorted([*CLUB_RULESETS, *tenhou, *majsoul])


def test_the_east_only_presets_differ_from_tenhou_only_in_length():
    """The presets online East-only games replay under (東風戦, South sudden death)."""
    for players in ("3p", "4p"):
        east_south = load_ruleset(f"tenhou-{players}").parameters()
        east = load_ruleset(f"tenhou-{players}-east").parameters()
        differing = {k for k in east if east[k] != east_south[k]}
        assert differing == {"id", "name", "rounds", "extension_winds"}
        assert east["rounds"] == 1 and list(east["extension_winds"]) == ["S"]


@pytest.mark.parametrize("ruleset_id", available_rulesets())
def test_it_loads_each_builtin_with_sources(ruleset_id):
    rs = load_ruleset(ruleset_id)
    assert rs.id == ruleset_id
    assert rs.sources and all(source.strip() for source in rs.sources)
    assert rs.players in (3, 4)


def test_it_documents_every_parameter():
    for f in dataclasses.fields(Ruleset):
        assert f.metadata.get("doc"), f.name


@pytest.mark.parametrize(
    ("ruleset_id", "expected"),
    [
        # Appendix A, column 000/001.
        (
            "makura-1.5",
            {
                "players": 4,
                "start_points": 25000,
                "return_points": 30000,
                "oka": 20000,
                "uma": (20000, 10000, -10000, -20000),
                "final_rounding": "floor",
                "top_takes_remainder": True,
                "tobi_at_zero": False,
                "honba_ron": 300,
                "multi_ron_max": 3,
                "chombo_each": 4000,
                "kiriage": "both",
                "noten_total": 3000,
            },
        ),
        # Column 002.
        (
            "sanma-float",
            {
                "players": 3,
                "oka": 15000,
                "uma_floating": ((600, -200, -400), (300, 0, -300), (600, -200, -400)),
                "float_threshold": 35000,
                "tobi_at_zero": True,
                "honba_ron": 1000,
                "honba_tsumo_each": 500,
                "payment_rounding": 1000,
                "chombo_each": 6000,
                "chombo_effect": "rotate_if_dealer",
                "abortive_draws": ("suukaikan",),
                "nagashi": "baiman",
                "rinshan_liability": "ron_value",
            },
        ),
        # Column 003.
        (
            "home-nashinashi",
            {
                "start_points": 27000,
                "oka": 12000,
                "uma": (10000, 5000, -5000, -10000),
                "extension_winds": ("W", "N", "E"),
                "draws_keep_dealer_from_round": 1,
                "multi_ron_deposits": "split",
                "chombo_payment": "mangan",
                "chombo_effect": "replay_honba_plus",
                "two_han_minimum_from_honba": 5,
                "tobi_payment": 5000,
                "chips": True,
                "riichi_min_score": 1100,
            },
        ),
        # Column 004.
        (
            "fuji-sanma",
            {
                "uma": (),
                "box_under": "zero",
                "fu_scoring": False,
                "fixed_fu": 30,
                "counted_yakuman_han": 14,
                "open_riichi_stick": 2000,
                "chombo_each": 5000,
                "multi_ron_honba": "first",
                "dealer_top_ends": "after_any_hand",
                "abortive_draws": (),
                "pao": False,
                "nagashi": "yakuman",
            },
        ),
        # tenhou-rules.md.
        (
            "tenhou-3p",
            {
                "start_points": 35000,
                "uma": (20000, 0, -20000),
                "honba_ron": 200,
                "honba_tsumo_each": 100,
                "noten_total": 2000,
                "final_rounding": "none",
                "kiriage": "none",
            },
        ),
    ],
)
def test_it_matches_appendix_a(ruleset_id, expected):
    rs = load_ruleset(ruleset_id)
    assert {name: getattr(rs, name) for name in expected} == expected


def test_it_differs_between_makura_versions_only_by_the_withdrawn_win():
    old, new = load_ruleset("makura-1.3").parameters(), load_ruleset("makura-1.5").parameters()
    differing = {name for name in old if old[name] != new[name]}
    # And by §44d: v1.3's riichi kinds never combine, v1.5's §23 gives an open
    # double riichi 3 han (rules-spec M-08); by §18 (M-13): v1.3's open riichi is a yakuman
    # for any deal-in by a player not in riichi, v1.5's only for a stuck one.
    assert differing == {
        "id",
        "name",
        "sources",
        "penalty_kinds",
        "penalty_amounts",
        "riichi_kinds_combine",
        "open_riichi_deal_in",
    }
    assert load_ruleset("makura-1.5").penalty_amount("withdrawn_win") == 1000
    assert load_ruleset("makura-1.3").penalty_amount("withdrawn_win") is None


def test_it_raises_key_error_for_an_unknown_id():
    with pytest.raises(KeyError):
        load_ruleset("makura-9.9")
    with pytest.raises(KeyError):
        load_ruleset("../pyproject")


@pytest.mark.parametrize(
    ("change", "key", "message"),
    [
        ({"tobi": None}, "tobi", "missing ruleset parameter"),
        ({"colour": "red"}, "colour", "unknown ruleset parameter"),
        ({"players": "4"}, "players", "must be an integer"),
        ({"tobi": 1}, "tobi", "must be true or false"),
        ({"final_rounding": "up"}, "final_rounding", "must be one of"),
        ({"uma": [20000, -20000]}, "uma", "needs one value per rank"),
        ({"players": 5}, "players", "must be 3 or 4"),
        ({"riichi_stick": 1050}, "riichi_stick", "multiple of 100"),
        ({"abortive_draws": ["nagashi"]}, "abortive_draws", "unknown abortive draw"),
        ({"penalty_amounts": []}, "penalty_amounts", "one amount per penalty kind"),
        ({"multi_ron_max": 4}, "multi_ron_max", "between 1 and 3"),
    ],
)
def test_it_refuses_bad_ruleset_data_with_the_parameter_named(change, key, message):
    data = load_ruleset("makura-1.5").parameters()
    for name, value in change.items():
        if value is None:
            del data[name]
        else:
            data[name] = value
    with pytest.raises(RecordError) as error:
        ruleset_from_mapping(data, key_prefix="test.toml: ")
    assert error.value.key == f"test.toml: {key}"
    assert message in error.value.message
    assert error.value.hand_index is None


def test_it_applies_overrides_for_one_game_only():
    gp = load_ruleset("makura-1.5", {"tobi": False})
    assert gp.tobi is False
    assert load_ruleset("makura-1.5").tobi is True
    with pytest.raises(RecordError) as error:
        load_ruleset("makura-1.5", {"players": 3})
    assert error.value.key == "overrides.players"


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"start_points": 10**12}, "overrides.start_points"),
        ({"return_points": -(10**8)}, "overrides.return_points"),
        ({"uma": [10**9, 0, 0, -(10**9)]}, "overrides.uma"),
    ],
)
def test_overrides_are_bounded(overrides, key):
    """A record's overrides cannot push scores past the ledger's integer columns."""
    with pytest.raises(RecordError) as raised:
        load_ruleset("makura-1.5", overrides)
    assert (raised.value.key, raised.value.code) == (key, "parameter_out_of_range")
