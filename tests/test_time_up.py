"""``time_up`` (rules-spec T-07): in a time-limited game the hand in play when time
is called is the last one; the game then settles as usual and ends ``"time_up"``. A
compatible extension of the record format (docs/game-record-format.md, "Extensions")."""

from __future__ import annotations

import datetime
import uuid

import pytest

from scoring.engine import RecordError, replay_record
from scoring.ledger import hanchan_call_time, hanchan_start, hand_record
from scoring.models import Hanchan, LedgerChange

PLAYERS = ["A", "B", "C", "D"]
RON = {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]}


def replay(hands: list[dict], **overrides) -> dict:
    record = {"ruleset": "makura-1.5", "players": PLAYERS, "hands": hands}
    if overrides:
        record["overrides"] = overrides
    return replay_record(record).to_json()


def test_time_up_ends_the_game_after_that_hand_and_settles_it():
    out = replay([RON, {**RON, "time_up": True}], tobi=False)
    # E1: B rons C for 3,900 and takes the deal; E2: B (dealer) rons C again for 5,800.
    assert out["hands"][-1]["scores"] == [25000, 34700, 15300, 25000]
    final = out["final"]
    assert final["ended_by"] == "time_up"
    # A and D tie at 25,000: seat order puts A 2nd (Makura 1.5 §38).
    assert final["ranks"] == [2, 1, 4, 3]
    # Floor to 1,000 after the 30,000 return, uma +20/+10/-10/-20, the top takes the rest:
    # A -5,000 + 10,000; D -5,000 - 10,000; C -14,700 -> -15,000 - 20,000; B = 45,000.
    assert final["points"] == [5000, 45000, -35000, -15000]


def test_a_hand_after_time_up_is_refused():
    with pytest.raises(RecordError) as raised:
        replay([{**RON, "time_up": True}, RON])
    assert (raised.value.hand_index, raised.value.code) == (1, "game_over")
    assert raised.value.params["ended_by"] == "time_up"


def test_a_natural_end_wins_over_time_up():
    yakuman = {"result": "ron", "loser": 2, "wins": [{"winner": 1, "limit": "yakuman"}]}
    assert replay([{**yakuman, "time_up": True}])["final"]["ended_by"] == "tobi"


def test_time_up_false_changes_nothing():
    assert replay([{**RON, "time_up": False}]) == replay([RON])


def test_time_up_must_be_a_boolean():
    with pytest.raises(RecordError) as raised:
        replay([{**RON, "time_up": "yes"}])
    assert (raised.value.key, raised.value.code) == ("time_up", "not_a_boolean")


# -- in the ledger -----------------------------------------------------------------------------


@pytest.fixture
def gp_game(member, other_member, coordinator, staff_member):
    return hanchan_start(
        ruleset_id="makura-1.5",
        members=[member, other_member, coordinator, staff_member],
        played_on=datetime.date(2026, 11, 20),
        overrides={"tobi": False},
        by=member,
    )


def test_calling_time_makes_the_next_hand_the_last(gp_game, member):
    hand_record(hanchan_id=gp_game.pk, hand=RON, expected_version=0, request_id=uuid.uuid4())
    hanchan_call_time(hanchan_id=gp_game.pk, by=member)
    gp_game.refresh_from_db()
    assert gp_game.time_called and gp_game.status == Hanchan.Status.IN_PLAY
    entry = hand_record(
        hanchan_id=gp_game.pk, hand=RON, expected_version=gp_game.version, request_id=uuid.uuid4()
    ).entry
    assert entry.data["time_up"] is True
    gp_game.refresh_from_db()
    assert (gp_game.status, gp_game.ended_by) == (Hanchan.Status.FINISHED, "time_up")
    assert gp_game.changes.filter(action=LedgerChange.Action.TIME_CALLED).count() == 1


def test_a_mistaken_call_can_be_taken_back(gp_game, member):
    hanchan_call_time(hanchan_id=gp_game.pk, by=member)
    hanchan_call_time(hanchan_id=gp_game.pk, by=member, cancel=True)
    gp_game.refresh_from_db()
    entry = hand_record(
        hanchan_id=gp_game.pk, hand=RON, expected_version=gp_game.version, request_id=uuid.uuid4()
    ).entry
    assert "time_up" not in entry.data
