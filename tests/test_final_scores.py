"""Games entered as final scores only: checked, settled by the engine under
the game's ruleset, stored through the ledger's pipeline, undone, exported and replayed."""

from __future__ import annotations

import datetime
import re
import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from clubsite.models import Member
from scoring.engine import RecordError, load_ruleset, replay_record
from scoring.engine.final_scores import parse_final_scores, settle_final_scores
from scoring.ledger import (
    LedgerError,
    hanchan_final_scores,
    hanchan_import,
    hanchan_record,
    hanchan_start,
    hand_record,
    hand_undo_last,
)
from scoring.models import Hanchan, LedgerChange
from tests.conftest import make_member

DAY = datetime.date(2026, 11, 20)
MAKURA = load_ruleset("makura-1.5")


@pytest.fixture(autouse=True)
def english():
    """Refusals and generated names are read in English here (the pages choose per request)."""
    with translation.override("en"):
        yield


def settle(raw: dict, ruleset_id: str = "makura-1.5"):
    ruleset = load_ruleset(ruleset_id)
    return settle_final_scores(ruleset, parse_final_scores(raw, ruleset))


# -- the engine -------------------------------------------------------------------------------


def test_makura_settles_final_scores_with_floor_rounding_uma_and_oka():
    # Makura 1.5 §1 (docs/rules-spec.md): 30,000 return, uma 20/10, oka 20,000 to the top, each
    # difference floored to 1,000 and the top taking the remainder:
    # 15,300 -> 15,000 | 0 + 10,000 | -10,300 -> -11,000 - 10,000 | -25,000 - 20,000.
    settlement = settle({"scores": [45300, 30000, 19700, 5000]})
    assert settlement.points == (56000, 10000, -21000, -45000)
    assert settlement.ranks == (1, 2, 3, 4)
    assert settlement.ended_by == "final_scores"


def test_deposits_left_on_the_table_go_to_the_top():
    settlement = settle({"scores": [45300, 30000, 19700, 4000], "deposits": 1000})
    assert settlement.scores == (46300, 30000, 19700, 4000)
    assert settlement.points == (57000, 10000, -21000, -46000)


def test_a_bust_score_ends_by_tobi_where_the_ruleset_has_it():
    settlement = settle({"scores": [60000, 30000, 11000, -1000]})
    assert settlement.ended_by == "tobi"
    assert settlement.points == (70000, 10000, -29000, -51000)


def test_without_tobi_a_negative_score_is_just_a_score():
    ruleset = load_ruleset("makura-1.5", {"tobi": False})  # the GP: "飛びは無し"
    settlement = settle_final_scores(
        ruleset, parse_final_scores({"scores": [60000, 30000, 11000, -1000]}, ruleset)
    )
    assert settlement.ended_by == "final_scores"


@pytest.mark.parametrize(
    ("raw", "code", "key"),
    [
        ({"scores": [45300, 30000, 19700]}, "final_scores_shape", "final_scores.scores"),
        ({"scores": [45350, 30000, 19650, 5000]}, "final_scores_step", "final_scores.scores"),
        ({"scores": [45300, 30000, 19700, 6000]}, "final_scores_total", "final_scores.scores"),
        ({"scores": [45300, 30000, 19700, 5000], "deposits": -100}, "final_scores_deposits",
         "final_scores.deposits"),
        ({"scores": [45300, 30000, 19700, 5000], "points": 1}, "unknown_key",
         "final_scores.points"),
        ({"scores": [45300, 30000, 19700, 5000], "tobi": [{"busted": 3, "by": 0}]},
         "final_scores_not_bust", "final_scores.tobi"),
        ({"scores": [45300, 30000, 19700, True]}, "final_scores_shape", "final_scores.scores"),
        ("45300", "final_scores_not_object", "final_scores"),
    ],
)  # fmt: skip
def test_bad_final_scores_are_refused_with_a_code(raw, code, key):
    with pytest.raises(RecordError) as raised:
        parse_final_scores(raw, MAKURA)
    assert (raised.value.code, raised.value.key) == (code, key)


def test_a_ruleset_that_pays_for_tobi_needs_to_know_who_busted_whom():
    # Seed 003 (home-nashinashi): tobi at 0 and a tobi payment to the one who busted (H-06).
    ruleset = load_ruleset("home-nashinashi")
    raw = {"scores": [60000, 30000, 18000, 0]}
    with pytest.raises(RecordError) as raised:
        parse_final_scores(raw, ruleset)
    assert raised.value.code == "final_scores_tobi_needs_buster"
    busted_by_0 = settle_final_scores(
        ruleset, parse_final_scores({**raw, "tobi": [{"busted": 3, "by": 0}]}, ruleset)
    )
    busted_by_1 = settle_final_scores(
        ruleset, parse_final_scores({**raw, "tobi": [{"busted": 3, "by": 1}]}, ruleset)
    )
    payment = ruleset.tobi_payment
    assert busted_by_0.points[0] - busted_by_1.points[0] == payment
    assert busted_by_1.points[1] - busted_by_0.points[1] == payment


# -- the ledger -------------------------------------------------------------------------------


@pytest.fixture
def players(member: Member, other_member: Member, coordinator: Member, outsider: Member):
    return [member, other_member, coordinator, outsider]


@pytest.fixture
def game(players) -> Hanchan:
    return hanchan_start(ruleset_id="makura-1.5", members=players, played_on=DAY, by=players[0])


def enter_final(game: Hanchan, raw: dict, by: Member) -> Hanchan:
    game.refresh_from_db()
    hanchan_final_scores(hanchan_id=game.pk, final_scores=raw, expected_version=game.version, by=by)
    game.refresh_from_db()
    return game


def test_a_started_game_can_be_entered_as_final_scores(game, players):
    game = enter_final(game, {"scores": [45300, 30000, 19700, 5000]}, players[0])
    assert game.status == Hanchan.Status.FINISHED
    assert game.final_scores_only
    assert game.ended_by == "final_scores"
    seats = sorted(game.seats.all(), key=lambda s: s.index)
    assert [s.points for s in seats] == [56000, 10000, -21000, -45000]
    assert [s.final_score for s in seats] == [45300, 30000, 19700, 5000]
    assert game.hands.count() == 0
    assert game.changes.filter(action=LedgerChange.Action.FINAL_SCORES).count() == 1


def test_final_scores_are_refused_when_they_do_not_add_up_and_nothing_changes(game, players):
    version = game.version
    with pytest.raises(LedgerError) as raised:
        enter_final(game, {"scores": [45300, 30000, 19700, 6000]}, players[0])
    assert raised.value.field == "final_scores.scores"
    game.refresh_from_db()
    assert (game.version, game.status, game.final_scores_only) == (
        version,
        Hanchan.Status.IN_PLAY,
        False,
    )


def test_a_game_with_hands_cannot_take_final_scores(game, players):
    hand_record(
        hanchan_id=game.pk,
        hand={"result": "draw", "tenpai": [0]},
        expected_version=game.version,
        request_id=uuid.uuid4(),
    )
    with pytest.raises(LedgerError, match="has hands"):
        enter_final(game, {"scores": [45300, 30000, 19700, 5000]}, players[0])


def test_an_undo_takes_the_final_scores_back(game, players):
    game = enter_final(game, {"scores": [45300, 30000, 19700, 5000]}, players[0])
    hand_undo_last(hanchan_id=game.pk, expected_version=game.version, by=players[0])
    game.refresh_from_db()
    assert game.status == Hanchan.Status.IN_PLAY
    assert not game.final_scores_only
    assert game.state["game"] is not None  # hands can be entered again
    assert [s.points for s in game.seats.all()] == [None] * 4


def test_the_record_of_a_final_scores_game_replays_to_the_same_settlement(game, players):
    game = enter_final(game, {"scores": [45300, 30000, 19700, 4000], "deposits": 1000}, players[0])
    record = hanchan_record(game)
    assert record["hands"] == []
    assert record["final_scores"] == {"scores": [45300, 30000, 19700, 4000], "deposits": 1000}
    replay = replay_record(record)
    assert replay.to_json()["final"]["points"] == [57000, 10000, -21000, -46000]
    assert replay.to_json()["final"]["ended_by"] == "final_scores"
    assert replay.to_json()["hands"] == []


def test_a_final_scores_record_imports(players):
    record = {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": [m.display_name for m in players],
        "final_scores": {"scores": [45300, 30000, 19700, 5000]},
    }
    game = hanchan_import(
        record=record, members_by_name={m.display_name: m for m in players}, played_on=DAY
    )
    assert game.final_scores_only
    assert [s.points for s in game.seats.order_by("index")] == [56000, 10000, -21000, -45000]
    assert game.counted.filter(final_scores_only=True, hands=0).count() == 4


# -- the page ---------------------------------------------------------------------------------


def test_the_final_scores_page_settles_the_game(game, players, client_for):
    client = client_for(players[0])
    url = reverse("game_final_scores", args=[game.pk])
    html = client.get(url).text
    for name in ("Aoki", "Baba", "Chiba", "Endo"):
        assert f">{name}</label>" in html
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]*)"', html).group(1)
    post = {"csrfmiddlewaretoken": token, "version": game.version, "deposits": 0}

    bad = client.post(url, {**post, "score_0": 45300, "score_1": 30000, "score_2": 19700,
                            "score_3": 6000})  # fmt: skip
    assert bad.status_code == 200
    assert "100000" in bad.text  # the refusal says what they add up to and should
    game.refresh_from_db()
    assert game.status == Hanchan.Status.IN_PLAY

    good = client.post(url, {**post, "score_0": 45300, "score_1": 30000, "score_2": 19700,
                             "score_3": 5000})  # fmt: skip
    assert good.status_code == 302
    game.refresh_from_db()
    assert game.final_scores_only and game.status == Hanchan.Status.FINISHED
    table = client.get(reverse("game_detail", args=[game.pk])).text
    assert "+56.0" in table or "+56" in table


def test_only_players_and_stewards_enter_final_scores(game, client_for, staff_member):
    response = client_for(staff_member).get(reverse("game_final_scores", args=[game.pk]))
    assert response.status_code == 200  # Doi is a steward
    fuji = make_member("fuji", "Fuji", "ふじ")
    assert client_for(fuji).get(reverse("game_final_scores", args=[game.pk])).status_code == 403


@pytest.mark.parametrize("name", ["A\x00B", "x" * 61, "tab\there"])
def test_an_import_refuses_names_no_member_can_have(players, name):
    record = {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": [name, "Baba", "Chiba", "Endo"],
        "final_scores": {"scores": [45300, 30000, 19700, 5000]},
    }
    with pytest.raises(LedgerError) as raised:
        hanchan_import(
            record=record,
            members_by_name={m.display_name: m for m in players} | {name: players[0]},
            played_on=DAY,
        )
    assert raised.value.field == "players"
    assert Hanchan.objects.count() == 0
