"""All-last conditions (docs/all-last.md): ``manage.py all_last FILE`` and the engine's
:func:`~scoring.engine.all_last_conditions`.

The worked examples' values were worked out by hand from the rulesets (rules-spec §0 payment
formula and honba, §1 tables, docs/tenhou-rules.md), each in its docstring; the property test
checks every printed value against the engine itself, value by value.
"""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from scoring.engine import Game, Hand, RecordError, game_of_record, load_ruleset, parse_hand
from scoring.engine.all_last import PadWin, pad_win, places_of
from scoring.engine.hand_value import check_win, win_basic_points
from scoring.entry.all_last import pad_conditions, record_conditions
from scoring.entry.pad_values import value_choices
from scoring.upkeep.sample_games import sample_hands


def record(ruleset: str, hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    players = ["A", "B", "C", "D"][: load_ruleset(ruleset).players]
    return {
        "format": "club-game/1",
        "ruleset": ruleset,
        "players": players,
        "hands": hands,
        **extra,
    }


def all_last(tmp_path: Path, data: dict[str, Any]) -> dict[str, Any]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = io.StringIO()
    call_command("all_last", str(path), stdout=out)
    return json.loads(out.getvalue())


def refused(tmp_path: Path, text: str) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of ``all_last`` refusing ``text``."""
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("all_last", str(path), stdout=out, stderr=err)
    return int(exited.value.code or 0), out.getvalue(), err.getvalue()


def target(output: dict[str, Any], seat: int, place: int) -> dict[str, Any]:
    [found] = [t for t in output["seats"][seat]["to_reach"] if t["place"] == place]
    return found


def ron(output: dict[str, Any], seat: int, place: int) -> dict[int, str | None]:
    return {r["from"]: r["value"] for r in target(output, seat, place)["ron"]}


# Makura 1.5, East 3 with 1 honba and a riichi stick on the table: B won 3,900 from C in East 1,
# A alone was tenpai (and in riichi) at East 2's draw. Scores A 27,000, B 27,900, C 20,100
# (dealer), D 24,000.
MAKURA_E3 = record(
    "makura-1.5",
    [
        {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]},
        {"result": "draw", "tenpai": [0], "riichi": [0]},
    ],
)


def test_makura_mid_game_conditions_worked_by_hand(tmp_path):
    """Makura 1.5 (rules-spec §0: b = fu x 2^(han+2), a non-dealer ron 4b, a dealer's 6b, a
    tsumo 2b/b, each rounded up to 100; §1D: 300 a honba on a ron, 100 from each payer on a
    tsumo, the deposits to the winner; M-02: equal scores by seat order from the chicha).

    A (2nd) for 1st: 1 han 30 fu (1,000 + 300 + 1,000) lifts A to 29,300 over B's 27,900 or
    less, from anyone, and a 1-30 tsumo (500/300 + 100s + 1,000) to 29,400 over B's 27,500.

    D (3rd, 24,000) for 2nd: from A, 1-30 (D 26,300, A 25,700); from B, 1,300 (1-40: D
    26,600, B 26,300); from C, D must pass A: 2,000 (1-60: 27,300); tsumo 1-40 (700/400: D
    26,800, A 26,500). For 1st: from A or C, more than 27,900 - 25,300 = 2,600: 2,900 (1-90;
    2,600 ties B, who sits first); from B, D must pass A: 2,000 (1-60); tsumo 1-70 (1,200/600:
    27,700 over B's 27,200; 1-60's 1,000/500 ties B at 27,300).

    C (4th, dealer, 20,100) for 3rd: from A or B 2,900 (1-60: 24,300 >= D's 24,000, C sitting
    before D); from D, 1,500 (1-30: C 22,900, D 22,500); tsumo 700 all (1-40: C 23,500, D
    23,200). For 2nd: from A, 2,900 (1-60: A falls to 23,800); from B 3,400 (1-70: B falls to
    24,200); from D 5,800 (2-60, as 3-30: C must pass A); tsumo 1,500 all (1-90: 25,900 over
    A's 25,400). For 1st: from A or D 6,800 (2-70: 28,200 over B's 27,900), from B 5,800
    (2-60: 27,200 over A's 27,000); tsumo 1,800 all (1-110: 26,800 over B's 26,000; 1-100's
    1,600 all leaves C at 26,200 under B's 26,200).
    """
    out = all_last(tmp_path, MAKURA_E3)
    assert {k: out[k] for k in ("round", "honba", "deposits", "dealer", "scores", "places")} == {
        "round": "E3",
        "honba": 1,
        "deposits": 1000,
        "dealer": 2,
        "scores": [27000, 27900, 20100, 24000],
        "places": [2, 1, 4, 3],
    }
    assert [s["seat"] for s in out["seats"]] == [0, 1, 2, 3]
    assert [s["place"] for s in out["seats"]] == [2, 1, 4, 3]
    assert out["seats"][1]["to_reach"] == []
    assert out["seats"][0]["to_reach"] == [
        {
            "place": 1,
            "ron": [
                {"from": 1, "value": "1-30"},
                {"from": 2, "value": "1-30"},
                {"from": 3, "value": "1-30"},
            ],
            "tsumo": "1-30",
        }
    ]
    assert [t["place"] for t in out["seats"][3]["to_reach"]] == [2, 1]
    assert ron(out, 3, 2) == {0: "1-30", 1: "1-40", 2: "1-60"}
    assert target(out, 3, 2)["tsumo"] == "1-40"
    assert ron(out, 3, 1) == {0: "1-90", 1: "1-60", 2: "1-90"}
    assert target(out, 3, 1)["tsumo"] == "1-70"
    assert [t["place"] for t in out["seats"][2]["to_reach"]] == [3, 2, 1]
    assert ron(out, 2, 3) == {0: "1-60", 1: "1-60", 3: "1-30"}
    assert target(out, 2, 3)["tsumo"] == "1-40"
    assert ron(out, 2, 2) == {0: "1-60", 1: "1-70", 3: "2-60"}
    assert target(out, 2, 2)["tsumo"] == "1-90"
    assert ron(out, 2, 1) == {0: "2-70", 1: "2-60", 3: "2-70"}
    assert target(out, 2, 1)["tsumo"] == "1-110"


def test_only_a_direct_hit_reaches_the_top_and_ties_go_by_seat_order(tmp_path):
    """Makura 1.5: A's dealer yakuman tsumo in East 1 (16,000 all) leaves A 73,000 and B, C, D
    9,000 each; East 1 goes on with 1 honba. Equal scores are placed by seat order from the
    chicha (M-02): B 2nd, C 3rd, D 4th.

    D for 1st needs 64,000 on A: a yakuman ron from A (32,000 + 300) moves both scores, D
    41,300 over A's 40,700; a sanbaiman's 24,300 falls short. From B or C, or by tsumo (A pays
    16,100), A stays far ahead: out of reach (null). For 2nd, D passes B and C with any win:
    1-30 (1,300 from anyone; tsumo 500/300 + 100s: 10,400 over their 8,600).
    """
    data = record("makura-1.5", [{"result": "tsumo", "wins": [{"winner": 0, "limit": "yakuman"}]}])
    out = all_last(tmp_path, data)
    assert out["scores"] == [73000, 9000, 9000, 9000]
    assert out["places"] == [1, 2, 3, 4]
    assert (out["round"], out["honba"], out["dealer"]) == ("E1", 1, 0)
    assert ron(out, 3, 1) == {0: "yakuman", 1: None, 2: None}
    assert target(out, 3, 1)["tsumo"] is None
    assert ron(out, 3, 2) == {0: "1-30", 1: "1-30", 2: "1-30"}
    assert target(out, 3, 2)["tsumo"] == "1-30"
    assert ron(out, 1, 1) == {0: "yakuman", 2: None, 3: None}
    assert target(out, 1, 1)["tsumo"] is None


def test_three_player_rounding_to_thousands(tmp_path):
    """sanma-float (seed 002): 3 players from 35,000, every payment rounded up to 1,000 (S-03
    B), a tsumo without North's share (X-01 a, ``tsumo_loss``), kiriage at 4 han 30 fu only.
    East 1: B wins 3-30 from C (3,900 -> 4,000): A 35,000, B 39,000 (dealer next), C 31,000.

    A for 1st: from B, 2,000 ties B at 37,000 and A sits first (X-05): 1-40 (1,280 ->
    2,000), the lowest of the values paying 2,000 (1-50, 2-25, 1-60 and 2-30 pay it too);
    from C, 4,000: 1-100 (3,200 -> 4,000; 1-90's 2,880 -> 3,000 is short); tsumo 2,000/1,000:
    1-70 (38,000 over B's 37,000; 1-60's 1,000/1,000 leaves A 37,000 under B's 38,000).

    C for 2nd: from A, 3,000 (1-70: 34,000 over A's 32,000); from B, more than 4,000: 5,000
    (2-70); tsumo 3,000/2,000 (2-70: C 36,000 over A's 33,000, tying B whom C sits after).
    For 1st: from A, more than 8,000: a haneman (12,000; 6 and 7 han pay the same: the
    limit's name); from B, 5,000 (2-70: 36,000 over A's 35,000 and B's 34,000); tsumo
    4,000/2,000: 2-100 (1,600 -> 2,000 and 3,200 -> 4,000), which pays as much as a mangan:
    the limit's name.
    """
    data = record(
        "sanma-float",
        [{"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]}],
    )
    out = all_last(tmp_path, data)
    assert (out["scores"], out["places"], out["dealer"]) == ([35000, 39000, 31000], [2, 1, 3], 1)
    assert out["seats"][1]["to_reach"] == []
    assert ron(out, 0, 1) == {1: "1-40", 2: "1-100"}
    assert target(out, 0, 1)["tsumo"] == "1-70"
    assert ron(out, 2, 2) == {0: "1-70", 1: "2-70"}
    assert target(out, 2, 2)["tsumo"] == "2-70"
    assert ron(out, 2, 1) == {0: "haneman", 1: "2-70"}
    assert target(out, 2, 1)["tsumo"] == "mangan"


def test_han_only_pad_counts_han(tmp_path):
    """fuji-sanma (seed 004): no fu (fixed 30 fu), payments rounded up to 100, no kiriage.
    East 1: B wins 3 han from C (3,900): A 35,000, B 38,900 (dealer next), C 31,100.

    A for 1st: from B, 1,950 or more: 2 han (2,000; ties go to A); from C, 3,900: 3 han;
    tsumo 2,000/1,000: 3 han (2 han's 1,000/500 leaves A 36,500 under B's 37,900). C for 2nd:
    from A, 2 han (33,100 over 33,000); from B, more than 3,900: 4 han (7,700); tsumo 3 han
    (2,000/1,000: 34,100 over A's 34,000). For 1st: from A, more than 7,800: 8,000 (5 han
    pays the same: the limit's name, mangan); from B, 4 han; tsumo 4 han (3,900/2,000).
    """
    data = record("fuji-sanma", [{"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3}]}])
    out = all_last(tmp_path, data)
    assert (out["scores"], out["places"]) == ([35000, 38900, 31100], [2, 1, 3])
    assert ron(out, 0, 1) == {1: "2", 2: "3"}
    assert target(out, 0, 1)["tsumo"] == "3"
    assert ron(out, 2, 2) == {0: "2", 1: "4"}
    assert target(out, 2, 2)["tsumo"] == "3"
    assert ron(out, 2, 1) == {0: "mangan", 1: "4"}
    assert target(out, 2, 1)["tsumo"] == "4"


@pytest.mark.parametrize(("ruleset", "needed"), [("tenhou-4p", "3-60"), ("makura-1.5", "mangan")])
def test_kiriage_decides_between_3_han_60_fu_and_mangan(tmp_path, ruleset, needed):
    """B wins a mangan from A in East 1 (A 17,000, B 33,000, C and D 25,000); all four are
    tenpai at East 2's draw: East 2, 1 honba, B deals. A for 2nd must pass C and D: 17,000 +
    300 + X >= 25,000 (A sits before both), X >= 7,700 from B, C or D. Under Tenhou's rules (no
    kiriage, docs/tenhou-rules.md) 3 han 60 fu pays 7,700 (1,920 x 4 -> 7,700), the lowest of
    it and 4-30; under Makura 1.5 both are kiriage mangan (§45f), 8,000, and the smallest is
    the mangan's group: "mangan". By tsumo, both: 2-100 (b 1,600: 3,200 + 100 from B, 1,600 +
    100 from C and D; 2-90's 2,900/1,500 falls 200 short).
    """
    data = record(
        ruleset,
        [
            {"result": "ron", "loser": 0, "wins": [{"winner": 1, "limit": "mangan"}]},
            {"result": "draw", "tenpai": [0, 1, 2, 3]},
        ],
    )
    out = all_last(tmp_path, data)
    assert (out["round"], out["honba"], out["scores"]) == ("E2", 1, [17000, 33000, 25000, 25000])
    assert ron(out, 0, 2) == {1: needed, 2: needed, 3: needed}
    assert target(out, 0, 2)["tsumo"] == "2-100"


def test_a_finished_game_is_refused(tmp_path):
    """A dealer's double yakuman ron busts B in East 1 (tobi): no hand is in play."""
    data = record(
        "makura-1.5",
        [{"result": "ron", "loser": 1, "wins": [{"winner": 0, "limit": "yakuman", "yakuman": 2}]}],
    )
    status, out, err = refused(tmp_path, json.dumps(data))
    assert status == 2
    assert out == ""
    assert err.count("\n") <= 1
    assert err.strip() == "hand 1: result: the game already ended (tobi): no hand is in play"


def test_a_game_of_final_scores_is_refused(tmp_path):
    data = record("makura-1.5", [])
    del data["hands"]
    data["final_scores"] = {"scores": [45000, 30000, 20000, 5000]}
    status, out, err = refused(tmp_path, json.dumps(data))
    assert (status, out) == (2, "")
    assert err.strip() == "final_scores: the game already ended (final_scores)"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("{not json", None),
        (json.dumps({"format": "club-game/1", "ruleset": "nope", "players": []}), "ruleset: "),
        (
            json.dumps(record("makura-1.5", [{"result": "ron", "loser": 1, "wins": []}])),
            "hand 0: ",
        ),
    ],
)
def test_a_bad_record_is_refused_in_one_line(tmp_path, text, line):
    status, out, err = refused(tmp_path, text)
    assert (status, out) == (2, "")
    assert err.strip() and "\n" not in err.strip()
    if line is not None:
        assert err.startswith(line)


# -- the property: every printed value reaches, nothing cheaper does --------------------------


def _pays_and_place(game: Game, hand: Hand, seat: int) -> tuple[int, int]:
    trial = Game.restore(game.ruleset, game.snapshot())
    result = trial.play(hand)
    return result.deltas[seat], places_of(game.ruleset, result.scores)[seat]


def _allowed(game: Game, pad: list[PadWin], tsumo: bool) -> list[PadWin]:
    allowed = []
    for value in pad:
        try:
            check_win(game.ruleset, value.win(0), 0, tsumo=tsumo, honba=game.honba)
        except RecordError:
            continue
        allowed.append(value)
    return allowed


def _check_route(game, pad, seat, place, printed, hand_of, tsumo):
    """Every allowed value, played through the engine: the printed one reaches ``place``, no
    value paying the winner strictly less does (and none at all where ``printed`` is null);
    among those paying as much, the printed one is the tie rule's."""
    outcomes = {
        value.text: _pays_and_place(game, hand_of(value.win(seat)), seat)
        for value in _allowed(game, pad, tsumo)
    }
    reaching = {text: gain for text, (gain, got) in outcomes.items() if got <= place}
    if printed is None:
        assert not reaching
        return
    gain, got = outcomes[printed]
    assert got <= place
    assert gain == min(reaching.values())
    same = [pad_win(t) for t, g in reaching.items() if g == gain]
    assert printed == min(same, key=PadWin.tie_key).text


@pytest.mark.parametrize(
    "ruleset", ["makura-1.5", "sanma-float", "fuji-sanma", "tenhou-4p", "home-nashinashi"]
)
def test_every_printed_value_reaches_and_nothing_cheaper_does(ruleset):
    rs = load_ruleset(ruleset)
    pad = [pad_win(v) for v, _label in value_choices(rs, "")]
    rng = random.Random(f"all-last {ruleset}")
    checked = 0
    for after in (2, 5, 7, 9):
        hands = sample_hands(rng, ruleset, in_play_after=after)
        game = game_of_record(record(ruleset, hands))
        conditions = pad_conditions(game)
        assert list(conditions.places) == places_of(rs, game.scores)
        for seat, targets in enumerate(conditions.targets):
            assert [t.place for t in targets] == list(range(conditions.places[seat] - 1, 0, -1))
            for t in targets:
                for loser, value in t.ron:
                    _check_route(
                        game,
                        pad,
                        seat,
                        t.place,
                        value,
                        lambda win, loser=loser: Hand("ron", (win,), loser=loser),
                        False,
                    )
                    checked += 1
                _check_route(
                    game, pad, seat, t.place, t.tsumo, lambda win: Hand("tsumo", (win,)), True
                )
                checked += 1
    assert checked >= 20


def test_the_engine_groups_by_basic_points_only_what_pays_the_same():
    """The search reads :func:`win_basic_points` to order the pad: values of equal basic
    points pay the same (here 1-50 and 2-25, 400 each under Makura 1.5)."""
    rs = load_ruleset("makura-1.5")
    assert win_basic_points(rs, pad_win("1-50").win(0)) == win_basic_points(
        rs, pad_win("2-25").win(0)
    )
    game = Game(rs)
    game.play(parse_hand({"result": "draw", "tenpai": [0, 1, 2, 3]}, 4, 0))
    gains = {
        text: _pays_and_place(game, Hand("ron", (pad_win(text).win(1),), loser=2), 1)[0]
        for text in ("1-50", "2-25")
    }
    assert gains == {"1-50": 1600 + 300, "2-25": 1600 + 300}


def test_record_conditions_reads_a_record_as_the_command_does():
    conditions = record_conditions(MAKURA_E3)
    assert conditions.to_json()["places"] == [2, 1, 4, 3]
    assert conditions.targets[1] == ()


# -- the table screen ---------------------------------------------------------------------


@pytest.fixture
def players(member, other_member, coordinator, staff_member):
    """Aoki (seat 0, the first dealer), Baba, Chiba, Doi."""
    return [member, other_member, coordinator, staff_member]


def _started(players, hands: list[dict[str, Any]]):
    import datetime
    import uuid

    from scoring.ledger import hanchan_start, hand_record

    game = hanchan_start(
        ruleset_id="makura-1.5",
        members=players,
        played_on=datetime.date(2026, 11, 20),
        by=players[0],
    )
    for hand in hands:
        game.refresh_from_db()
        hand_record(
            hanchan_id=game.pk, hand=hand, expected_version=game.version, request_id=uuid.uuid4()
        )
    game.refresh_from_db()
    return game


def _panel(html: str) -> str | None:
    match = re.search(r'<details class="all-last" id="all-last">(.*?)</details>', html, re.DOTALL)
    return None if match is None else re.sub(r"\s+", " ", match.group(1))


def _seat_item(panel: str, seat: int) -> str:
    match = re.search(rf'id="all-last-{seat}">(.*?)</ul>', panel)
    assert match, f"no conditions for seat {seat}"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", match.group(1))).strip()


def test_the_table_shows_what_each_needs_when_a_bust_can_end_the_game(client_for, players):
    """Aoki's dealer yakuman tsumo leaves the others 9,000 each: a dealer's mangan ron (12,300
    with the honba) would bust any of them, so this hand can end the game, and the panel is
    there, closed. The figures are the engine's (test_only_a_direct_hit_... above): Doi needs a
    yakuman off Aoki for the top, any win (1,000; 300/500 by tsumo) for 2nd."""
    game = _started(players, [{"result": "tsumo", "wins": [{"winner": 0, "limit": "yakuman"}]}])
    client = client_for(players[0])
    url = reverse("game_detail", args=[game.pk])

    ja = _panel(client.get(url).text)
    assert ja is not None
    assert "<summary>逆転条件</summary>" in ja
    assert 'id="all-last-0"' not in ja  # on top: nothing to climb to
    doi = _seat_item(ja, 3)
    assert doi.startswith(f"{players[3].display_name} 4位")
    assert "3位へ： 300/500ツモ 1,000 出アガリ" in doi
    assert "1位へ： 役満 " + players[0].display_name + "から直撃" in doi
    assert "届かない" not in doi

    en = _panel(client.get(url, HTTP_ACCEPT_LANGUAGE="en").text)
    assert en is not None
    assert "<summary>What each player needs</summary>" in en
    doi = _seat_item(en, 3)
    assert "To 3rd: 300/500 by tsumo 1,000 ron from anyone" in doi
    assert f"To 1st: Yakuman direct hit on {players[0].display_name}" in doi
    baba = _seat_item(en, 1)
    assert f"To 1st: Yakuman direct hit on {players[0].display_name}" in baba


def test_the_table_shows_no_conditions_while_no_hand_can_end_the_game(client_for, players):
    game = _started(
        players, [{"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]}]
    )
    response = client_for(players[0]).get(reverse("game_detail", args=[game.pk]))
    assert response.status_code == 200
    assert 'class="round-line"' in response.text
    assert _panel(response.text) is None


def test_the_table_shows_the_conditions_at_the_all_last_hand(client_for, players):
    """Seven draws where nobody is tenpai bring South 4 with 7 honba, all at 25,000: Doi
    deals, places by seat order (M-02). Baba (2nd) passes Aoki with any win: 1 han 30 fu
    off anyone pays 1,000 + 2,100 honba; by tsumo 300/500 + 700 each."""
    game = _started(players, [{"result": "draw", "tenpai": []}] * 7)
    assert game.state["table"]["all_last"] is True
    client = client_for(players[1])
    panel = _panel(
        client.get(reverse("game_detail", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en").text
    )
    assert panel is not None
    baba = _seat_item(panel, 1)
    assert baba.startswith(f"{players[1].display_name} 2nd")
    assert "To 1st: 300/500 by tsumo 1,000 ron from anyone" in baba
    doi = _seat_item(panel, 3)
    # Doi deals: a dealer's 1 han 30 fu tsumo is 500 all, its ron 1,500.
    assert "To 3rd: 500 all by tsumo 1,500 ron from anyone" in doi


def test_two_han_from_five_honba_leaves_one_han_out(tmp_path):
    """home-nashinashi (seed 003 L106, H-22): from 5 honba a win needs 2 han. Five draws where
    nobody is tenpai bring South 1 with 5 honba (in the South round a noten dealer stays, H-01),
    all at 27,000: Aoki leads by seat order, and Baba, Chiba and Doi need any win, never of
    1 han. By ron the cheapest is 2 han 25 fu (b 400: 1,600); by tsumo 2 han 30 fu (500/1,000:
    no 20 fu tsumo here, H-10, and 25 fu needs 3 han on a tsumo)."""
    data = record("home-nashinashi", [{"result": "draw", "tenpai": []}] * 5)
    out = all_last(tmp_path, data)
    assert (out["round"], out["honba"], out["scores"]) == ("S1", 5, [27000] * 4)
    assert out["places"] == [1, 2, 3, 4]
    values = [
        value
        for seat in out["seats"]
        for t in seat["to_reach"]
        for value in [t["tsumo"], *(r["value"] for r in t["ron"])]
    ]
    assert values and not any(v is None or v.startswith("1-") for v in values)
    assert ron(out, 1, 1) == {0: "2-25", 2: "2-25", 3: "2-25"}
    assert target(out, 1, 1)["tsumo"] == "2-30"


def test_every_printed_value_reaches_with_the_north_share_split():
    """A 3-player tsumo with North's share split between the payers (X-01 b, the override
    ``sanma_tsumo = "north_split"``): the property above, under that payment."""
    overrides = {"sanma_tsumo": "north_split"}
    rs = load_ruleset("sanma-float", overrides)
    pad = [pad_win(v) for v, _label in value_choices(rs, "")]
    rng = random.Random("all-last north split")
    checked = 0
    for after in (2, 4, 6):
        hands = sample_hands(rng, "sanma-float", in_play_after=after)
        try:
            game = game_of_record(record("sanma-float", hands, overrides=overrides))
        except RecordError:
            continue  # the game went otherwise under the other payments
        if game.ended_by is not None:
            continue
        conditions = pad_conditions(game)
        for seat, targets in enumerate(conditions.targets):
            for t in targets:
                _check_route(
                    game, pad, seat, t.place, t.tsumo, lambda win: Hand("tsumo", (win,)), True
                )
                checked += 1
    assert checked >= 3
