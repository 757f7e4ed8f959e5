"""Engine refusals carry a stable ``code`` and ``params`` (scoring/engine/error_codes.py), and
the UI translates them by code (``scoring.ledger.refusals.refusal_message``), never by wording."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from scoring.engine import (
    ERROR_CODES,
    Game,
    RecordError,
    Ruleset,
    apply_overrides,
    load_ruleset,
    parse_hand,
    replay_record,
)
from scoring.engine.errors import UNCLASSIFIED
from scoring.ledger.refusals import refusal_message

ENGINE = Path(__file__).resolve().parent.parent / "scoring" / "engine"


# -- every raise site names its code ------------------------------------------------------------


def _callee(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def _code_keyword(call: ast.Call) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == "code"), None)


def _scan(path: Path) -> tuple[dict[str, list[str]], list[str]]:
    """The codes raised in one engine module (code -> "file:line" sites) and its faults.

    A ``RecordError(...)`` call names its code as a string, copies another error's
    (``code=self.code`` in ``with_hand``), or forwards a ``code`` parameter of the helper it
    sits in (``fail(name, message, *, code)`` in ruleset_files.py); every call of such a helper
    in the scope that defines it then names its code as a string.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    codes: dict[str, list[str]] = {}
    faults: list[str] = []

    def check(call: ast.Call, what: str, value: ast.expr | None) -> None:
        site = f"{path.name}:{call.lineno}"
        if value is None:
            faults.append(f"{site}: {what} without code=")
        elif isinstance(value, ast.Constant) and isinstance(value.value, str):
            codes.setdefault(value.value, []).append(site)
        else:
            faults.append(f"{site}: {what} with a code= that is not a string")

    def forwarded_code(function: ast.FunctionDef) -> tuple[str, int | None] | None:
        """The parameter ``function`` passes on as a RecordError's code, and its position."""
        arguments = function.args
        positional = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
        names = {*positional, *(a.arg for a in arguments.kwonlyargs)}
        for node in ast.walk(function):
            if (
                isinstance(node, ast.Call)
                and _callee(node) == "RecordError"
                and isinstance(value := _code_keyword(node), ast.Name)
                and value.id in names
            ):
                index = positional.index(value.id) if value.id in positional else None
                return value.id, index
        return None

    forwarded: set[int] = set()  # the RecordError calls inside forwarding helpers
    copied: set[int] = set()  # RecordError(..., code=self.code)
    for scope in ast.walk(tree):
        if not isinstance(scope, ast.Module | ast.FunctionDef):
            continue
        helpers = {}
        for node in scope.body:
            if isinstance(node, ast.FunctionDef) and (found := forwarded_code(node)):
                helpers[node.name] = found
                forwarded |= {id(n) for n in ast.walk(node) if isinstance(n, ast.Call)}
        for node in ast.walk(scope):
            if isinstance(node, ast.Call) and (name := _callee(node)) in helpers:
                parameter, index = helpers[name]
                value = next((k.value for k in node.keywords if k.arg == parameter), None)
                if value is None and index is not None and index < len(node.args):
                    value = node.args[index]
                check(node, f"{name}(...)", value)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _callee(node) == "RecordError":
            value = _code_keyword(node)
            if (
                isinstance(value, ast.Attribute)
                and isinstance(value.value, ast.Name)
                and (value.value.id, value.attr) == ("self", "code")
            ):
                copied.add(id(node))
            if id(node) not in forwarded and id(node) not in copied:
                check(node, "RecordError(...)", value)
    return codes, faults


def raised_codes() -> dict[str, list[str]]:
    codes: dict[str, list[str]] = {}
    faults: list[str] = []
    for path in sorted(ENGINE.glob("*.py")):
        found, wrong = _scan(path)
        faults += wrong
        for code, sites in found.items():
            codes.setdefault(code, []).extend(sites)
    assert not faults, "engine raise sites without a code:\n" + "\n".join(faults)
    return codes


def test_every_engine_raise_site_names_its_code():
    codes = raised_codes()
    # The scan reaches every RecordError call there is: one per raise site or helper.
    sites = sum(
        1
        for path in ENGINE.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and _callee(node) == "RecordError"
    )
    assert sites >= 60
    assert len(codes) >= 60


def test_the_scan_catches_a_raise_without_a_code(tmp_path):
    module = tmp_path / "bad.py"
    module.write_text(
        "def f(x):\n"
        "    raise RecordError(None, 'k', 'no code')\n"
        "def g(name, *, code):\n"
        "    return RecordError(None, name, 'm', code=code)\n"
        "def h():\n"
        "    raise g('k')\n"
        "    raise g('k', code='fine')\n"
        "def _fail(key, message, code):\n"
        "    return RecordError(None, key, message, code=code)\n"
        "def i(what):\n"
        "    raise _fail('k', 'm', 'positional')\n"
        "    raise _fail('k', 'm', what)\n"
    )
    codes, faults = _scan(module)
    assert codes == {"fine": ["bad.py:7"], "positional": ["bad.py:11"]}
    assert sorted(f.split(": ", 1)[0] for f in faults) == ["bad.py:12", "bad.py:2", "bad.py:6"]


def test_every_code_raised_is_listed_and_every_listed_code_is_raised():
    raised = set(raised_codes())
    assert raised - set(ERROR_CODES) == set(), "raised but missing from ERROR_CODES"
    assert set(ERROR_CODES) - raised == set(), "listed in ERROR_CODES but never raised"
    assert UNCLASSIFIED not in ERROR_CODES
    for code, meaning in ERROR_CODES.items():
        assert re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", code), code
        assert meaning and "\n" not in meaning, code


# -- the error keeps its public shape -------------------------------------------------------------


def test_code_and_params_leave_the_one_line_form_alone():
    error = RecordError(3, "loser", "the discarder cannot also be a winner")
    assert (error.code, dict(error.params)) == (UNCLASSIFIED, {})
    coded = RecordError(
        3, "loser", "the discarder cannot also be a winner", code="loser_is_winner",
        params={"seat": 1},
    )  # fmt: skip
    for e in (error, coded):
        assert str(e) == e.line() == "hand 3: loser: the discarder cannot also be a winner"
        assert e.args == ("hand 3: loser: the discarder cannot also be a winner",)
        assert (e.hand_index, e.key, e.message) == (
            3, "loser", "the discarder cannot also be a winner"
        )  # fmt: skip
    outside = RecordError(None, "players", "the same name sits twice", code="player_twice")
    assert str(outside) == "players: the same name sits twice"

    moved = RecordError(None, "wins", "too many", code="too_many_ron_winners", params={"max": 2})
    moved = moved.with_hand(7)
    assert (moved.hand_index, moved.code, dict(moved.params)) == (
        7, "too_many_ron_winners", {"max": 2}
    )  # fmt: skip
    assert str(moved) == "hand 7: wins: too many"
    with pytest.raises(TypeError):
        moved.params["max"] = 3  # type: ignore[index]


# -- refusals through real hands ------------------------------------------------------------------


def ruleset_of(ruleset_id: str, overrides: dict[str, Any] | None = None) -> Ruleset:
    return apply_overrides(load_ruleset(ruleset_id), overrides or {})


def refusal(ruleset: Ruleset, before: list[dict[str, Any]], hand: dict[str, Any]) -> RecordError:
    """What the engine says to ``hand`` after the hands ``before`` (parsing included)."""
    played = Game(ruleset)
    for index, earlier in enumerate(before):
        played.play(parse_hand(earlier, ruleset.players, index))
    with pytest.raises(RecordError) as error:
        played.play(parse_hand(hand, ruleset.players, len(before)))
    return error.value


def ron(**win: Any) -> dict[str, Any]:
    return {"result": "ron", "loser": 2, "wins": [{"winner": 1, **win}]}


TOBI = ron(limit="yakuman", yakuman=3)
TRIPLE_RON = {
    "result": "ron",
    "loser": 0,
    "wins": [{"winner": s, "limit": "mangan"} for s in (1, 2, 3)],
}
DOUBLE_RON = {
    "result": "ron",
    "loser": 0,
    "wins": [{"winner": 1, "limit": "mangan"}, {"winner": 2, "limit": "mangan"}],
}
FIVE_HONBA = [{"result": "draw", "tenpai": [0]}] * 5
TO_SOUTH_4 = [{"result": "draw", "tenpai": []}] * 7  # the dealer noten each time
# Seven draws do not reach South 4 under home-nashinashi; seven small rons by the next seat do.
SMALL_RONS_TO_SOUTH_4 = [
    {"result": "ron", "loser": (d + 2) % 4, "wins": [{"winner": (d + 1) % 4, "han": 2, "fu": 30}]}
    for d in (0, 1, 2, 3, 0, 1, 2)
]

# (ruleset, overrides, hands before, the hand, key, code, params, English, Japanese): every
# refusal a hand form can bring about. Japanese None: no sentence of its own (the engine's
# English, introduced).
FORM_REFUSALS = [
    ("makura-1.5", {}, [TOBI], ron(han=1, fu=30), "result", "game_over", {"ended_by": "tobi"},
     "This game is over: no more hands can be entered.",
     "この対局は終了しています。これ以上局を入力できません。"),
    ("makura-1.5", {"riichi_min_score": 30000}, [], {**ron(limit="mangan"), "riichi": [0]},
     "riichi", "riichi_below_minimum", {"seat": 0, "score": 25000, "min_score": 30000},
     "Not enough points to declare riichi: it takes at least 30,000.",
     "持ち点が足りずリーチできません（30,000点以上必要です）。"),
    ("tenhou-4p", {}, [], {"result": "draw", "riichi": [0], "open_riichi": [0]},
     "open_riichi", "no_open_riichi", {},
     "These rules have no open riichi.", "このルールにはオープンリーチはありません。"),
    ("makura-1.5", {}, [], ron(han=1, fu=25), "wins[0].fu", "fu_not_allowed",
     {"han": 1, "fu": 25, "win": "ron"},
     "This fu is not possible under these rules.", "この符はこのルールでは使えません。"),
    ("makura-1.5", {}, [], ron(han=2, fu=20), "wins[0].fu", "fu_not_allowed",
     {"han": 2, "fu": 20, "win": "ron"},
     "This fu is not possible under these rules.", "この符はこのルールでは使えません。"),
    ("fuji-sanma", {}, [], ron(han=2, fu=40), "wins[0].fu", "fu_not_scored",
     {"fu": 40, "fixed_fu": 30},
     "This fu is not possible under these rules.", "この符はこのルールでは使えません。"),
    ("makura-1.5", {}, [], ron(han=3), "wins[0].fu", "fu_needed", {"han": 3},
     "This fu is not possible under these rules.", "この符はこのルールでは使えません。"),
    ("makura-1.5", {}, [], ron(han=3, fu=35), "wins[0].fu", "fu_out_of_range", {"fu": 35},
     "This fu is not possible under these rules.", "この符はこのルールでは使えません。"),
    ("home-nashinashi", {}, FIVE_HONBA, ron(han=1, fu=30), "wins[0].han", "two_han_minimum",
     {"from_honba": 5, "honba": 5, "han": 1},
     "From 5 honba a win needs at least 2 han.", "5本場からは2飜縛りです。"),
    ("fuji-sanma", {}, [], ron(limit="yakuman", pao=0), "wins[0].pao", "no_pao", {},
     "These rules have no pao (liability for a yakuman).",
     "このルールには包（役満の責任払い）はありません。"),
    ("makura-1.5", {}, [], ron(limit="mangan", chips=1), "wins[0].chips", "no_chips", {},
     "These rules have no chips.", "このルールにはチップはありません。"),
    ("makura-1.5", {"multi_ron_max": 1}, [], DOUBLE_RON, "wins", "too_many_ron_winners",
     {"max": 1, "winners": 2},
     "At most 1 players can win on one discard under these rules.",
     "このルールでは、1枚の捨て牌で和了できるのは1人までです。"),
    ("makura-1.5", {"multi_ron_max": 2, "abortive_draws": []}, [], TRIPLE_RON, "wins",
     "too_many_ron_winners", {"max": 2, "winners": 3},
     "At most 2 players can win on one discard under these rules.",
     "このルールでは、1枚の捨て牌で和了できるのは2人までです。"),
    ("tenhou-4p", {}, [], TRIPLE_RON, "wins", "sancha_ron_is_abort", {"max": 2},
     "Three players winning on one discard is an abortive draw under these rules.",
     "このルールではトリプルロンは途中流局（三家和）です。"),
    ("makura-1.5", {}, [], {"result": "abort", "kind": "sancha_ron"}, "kind",
     "no_such_abortive_draw", {"kind": "sancha_ron"},
     "These rules have no such abortive draw.", "このルールにはその途中流局はありません。"),
    ("tenhou-4p", {}, [], {"result": "draw", "penalties": [{"seat": 1, "kind": "kara"}]},
     "penalties[0].kind", "no_such_penalty", {"kind": "kara"},
     "These rules have no such penalty.", "このルールにはその罰符はありません。"),
    ("makura-1.5", {"nagashi": "none"}, [], {"result": "draw", "nagashi": [1]}, "nagashi",
     "no_nagashi", {},
     "These rules have no nagashi mangan.", "このルールには流し満貫はありません。"),
    ("makura-1.5", {}, [], {"result": "draw", "tenpai": [0], "dealer_stops": True},
     "dealer_stops", "dealer_stop_not_all_last", {},
     "Only the dealer of the last hand (all-last) can end the game.",
     "対局を終了できるのはオーラスの親だけです。"),
    ("makura-1.5", {}, TO_SOUTH_4, {"result": "draw", "tenpai": [], "dealer_stops": True},
     "dealer_stops", "dealer_stop_needs_renchan", {},
     "The dealer can end the game only after keeping the deal by a win or tenpai.",
     "親が対局を終了できるのは、アガリかテンパイで連荘するときだけです。"),
    ("tenhou-4p", {}, TO_SOUTH_4,
     {"result": "tsumo", "wins": [{"winner": 3, "limit": "mangan"}], "dealer_stops": True},
     "dealer_stops", "no_agari_yame", {},
     "These rules have no agari-yame.", "このルールにはアガリやめはありません。"),
    ("makura-1.5", {}, TO_SOUTH_4, {"result": "draw", "tenpai": [3], "dealer_stops": True},
     "dealer_stops", "no_tenpai_yame", {},
     "These rules have no tenpai-yame.", "このルールにはテンパイやめはありません。"),
    ("home-nashinashi", {}, SMALL_RONS_TO_SOUTH_4,
     {"result": "tsumo", "wins": [{"winner": 3, "han": 1, "fu": 30}], "dealer_stops": True},
     "dealer_stops", "yame_needs_target", {"target": 30000},
     "Nobody has 30,000 points yet: the game goes on.",
     "まだ誰も30,000点に届いていないため、対局は続きます。"),
    ("makura-1.5", {}, [], ron(han=2, fu=30, rinshan_from=3), "wins[0].rinshan_from",
     "rinshan_on_ron", {}, None, None),
    ("makura-1.5", {}, [], {"result": "ron", "loser": 1, "wins": [{"winner": 1, "han": 1}]},
     "loser", "loser_is_winner", {"seat": 1}, None, None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("ruleset_id", "overrides", "before", "hand", "key", "code", "params", "english", "japanese"),
    FORM_REFUSALS,
)
def test_a_refused_hand_carries_its_code_and_params(
    ruleset_id, overrides, before, hand, key, code, params, english, japanese
):
    error = refusal(ruleset_of(ruleset_id, overrides), before, hand)
    assert (error.hand_index, error.key, error.code) == (len(before), key, code)
    assert code in ERROR_CODES
    if code == "yame_needs_target":
        assert error.params["target"] == params["target"]
        top = error.params["top_score"]
        assert isinstance(top, int) and top < params["target"]
    else:
        assert dict(error.params) == params


@pytest.mark.parametrize(
    ("ruleset_id", "overrides", "before", "hand", "key", "code", "params", "english", "japanese"),
    FORM_REFUSALS,
)
def test_refusal_message_translates_by_code(
    ruleset_id, overrides, before, hand, key, code, params, english, japanese
):
    ruleset = ruleset_of(ruleset_id, overrides)
    error = refusal(ruleset, before, hand)
    with translation.override("en"):
        text_en = refusal_message(error, ruleset)
    with translation.override("ja"):
        text_ja = refusal_message(error, ruleset)
    if english is None:
        assert text_en == f"Not possible under these rules: {error.message}"
        assert text_ja == f"このルールではできません: {error.message}"
    else:
        assert text_en == english
        assert text_ja == japanese
        assert not re.search(r"[A-Za-z]", text_ja)


def test_refusal_message_knows_only_listed_codes():
    from scoring.ledger import refusals

    assert set(refusals._REFUSALS) <= set(ERROR_CODES)
    # A kind of abortive draw no rules have reads like one these rules lack.
    error = parse_refusal({"result": "abort", "kind": "nine_terminals"})
    with translation.override("ja"):
        text = refusal_message(error, ruleset_of("makura-1.5"))
    assert text == "このルールにはその途中流局はありません。"


def test_refusal_message_reads_the_code_not_the_wording():
    ruleset = ruleset_of("tenhou-4p")
    reworded = RecordError(
        0, "wins", "reworded someday", code="too_many_ron_winners", params={"max": 2}
    )
    with translation.override("ja"):
        assert refusal_message(reworded, ruleset) == (
            "このルールでは、1枚の捨て牌で和了できるのは2人までです。"
        )
    # A number the error does not carry comes from the game's ruleset.
    bare = RecordError(0, "dealer_stops", "reworded", code="yame_needs_target")
    with translation.override("en"):
        assert refusal_message(bare, ruleset) == "Nobody has 30,000 points yet: the game goes on."
        # Old wording without its code is no longer recognised.
        uncoded = RecordError(0, "dealer_stops", "only the all-last dealer can stop")
        assert refusal_message(uncoded, ruleset) == (
            "Not possible under these rules: only the all-last dealer can stop"
        )


# -- refusals of records, hands and overrides -----------------------------------------------------


def parse_refusal(data: Any, players: int = 4) -> RecordError:
    with pytest.raises(RecordError) as error:
        parse_hand(data, players, 2)
    return error.value


@pytest.mark.parametrize(
    ("data", "key", "code", "params"),
    [
        ("ron", "result", "hand_not_an_object", {}),
        ({"result": "win"}, "result", "unknown_result", {}),
        ({"result": "draw", "wat": 1}, "wat", "unknown_key", {}),
        ({"result": "tsumo", "loser": 1, "wins": [{"winner": 0, "limit": "mangan"}]}, "loser",
         "key_not_for_result", {"result": "tsumo"}),
        ({"result": "chombo", "offender": 5}, "offender", "seat_out_of_range",
         {"seat": 5, "players": 4}),
        ({"result": "chombo", "offender": "east"}, "offender", "not_a_seat", {}),
        ({"result": "draw", "tenpai": [1, 1]}, "tenpai", "seat_listed_twice", {}),
        ({"result": "draw", "riichi": [0], "open_riichi": [1]}, "open_riichi",
         "open_riichi_without_riichi", {}),
        ({"result": "ron", "wins": [{"winner": 0, "han": 1, "fu": 30}]}, "loser",
         "ron_needs_loser", {}),
        ({"result": "tsumo", "wins": [{"winner": 0, "limit": "yakuman", "yakuman": 7}]},
         "wins[0].yakuman", "yakuman_multiple_out_of_range", {"yakuman": 7}),
        ({"result": "tsumo", "wins": [{"winner": 0, "limit": "mangan", "chips": -1}]},
         "wins[0].chips", "negative_chips", {"chips": -1}),
        ({"result": "tsumo", "wins": [{"winner": 0, "han": 1, "fu": 30.0}]}, "wins[0].fu",
         "not_an_integer", {}),
        ({"result": "abort", "kind": "nine_terminals"}, "kind", "unknown_abortive_draw", {}),
        ({"result": "chombo"}, "offender", "chombo_needs_offender", {}),
        ({"result": "draw", "chombo": 2}, "chombo", "chombo_not_an_object", {}),
        ({"result": "tsumo", "wins": [{"winner": 0, "limit": "mangan"}],
          "chombo": {"offender": 0}}, "chombo.offender", "chombo_offender_is_winner",
         {"seat": 0}),
        ({"result": "abort", "kind": "suucha_riichi", "chombo": {"offender": 1}}, "chombo",
         "key_not_for_result", {"result": "abort"}),
    ],
)  # fmt: skip
def test_a_malformed_hand_carries_its_code(data, key, code, params):
    error = parse_refusal(data)
    assert (error.hand_index, error.key, error.code, dict(error.params)) == (2, key, code, params)


def record(**fields: Any) -> dict[str, Any]:
    return {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": ["A", "B", "C", "D"],
        "hands": [],
        **fields,
    }


@pytest.mark.parametrize(
    ("data", "line", "code", "params"),
    [
        (record(ruleset="no-such-rules"), "ruleset: unknown ruleset 'no-such-rules'",
         "unknown_ruleset", {"ruleset": "no-such-rules"}),
        (record(format="club-game/2"), "format: must be 'club-game/1'", "unknown_format",
         {"format": "club-game/1"}),
        (record(players=["A", "B", "C"]), "players: must be 4 names for ruleset 'makura-1.5'",
         "players_wrong_count", {"players": 4, "ruleset": "makura-1.5"}),
        (record(players=["A", "B", "C", "A"]), "players: the same name sits twice",
         "player_twice", {}),
        (record(hands={}), "hands: must be a list of hands", "hands_not_a_list", {}),
        (record(overrides={"multi_ron_max": 4}),
         "overrides.multi_ron_max: must be between 1 and 3", "multi_ron_max_out_of_range",
         {"max": 3}),
        # Raised below the game loop, attributed to its hand on the way out: code kept.
        (record(hands=[TOBI, ron(han=1, fu=30)]), "hand 1: result: the game already ended (tobi)",
         "game_over", {"ended_by": "tobi"}),
        (record(hands=[{"result": "draw", "tenpai": [0], "dealer_stops": True}]),
         "hand 0: dealer_stops: only the all-last dealer can stop", "dealer_stop_not_all_last",
         {}),
    ],
)  # fmt: skip
def test_a_refused_record_carries_its_code(data, line, code, params):
    with pytest.raises(RecordError) as caught:
        replay_record(data)
    error = caught.value
    assert str(error) == line
    assert (error.code, dict(error.params)) == (code, params)


@pytest.mark.parametrize(
    ("overrides", "key", "code", "params"),
    [
        ({"no_such_rule": 1}, "overrides.no_such_rule", "unknown_parameter", {}),
        ({"players": 3}, "overrides.players", "parameter_not_overridable", {}),
        ({"multi_ron_max": "2"}, "overrides.multi_ron_max", "parameter_wrong_type",
         {"type": "int"}),
        ({"nagashi": "double"}, "overrides.nagashi", "parameter_not_a_choice", {}),
        ({"start_points": 25050}, "overrides.start_points", "not_a_multiple_of_100", {}),
        ({"uma": [10, -10]}, "overrides.uma", "uma_wrong_length", {"players": 4}),
        ({"extension_winds": ["X"]}, "overrides.extension_winds", "unknown_wind",
         {"wind": "X"}),
    ],
)  # fmt: skip
def test_a_refused_override_carries_its_code(overrides, key, code, params):
    with pytest.raises(RecordError) as caught:
        apply_overrides(load_ruleset("makura-1.5"), overrides)
    error = caught.value
    assert (error.hand_index, error.key, error.code, dict(error.params)) == (
        None, key, code, params
    )  # fmt: skip
    with pytest.raises(RecordError) as caught:
        apply_overrides(load_ruleset("makura-1.5"), [])
    assert caught.value.code == "overrides_not_an_object"
