"""The ledger's one pipeline: every change plays the engine once over the hands that
change, previews and writes alike; the facts standings add up are written with each hand.

Engine plays are counted by wrapping ``Game.play``: the one place the engine applies a hand.
"""

from __future__ import annotations

import datetime
import io
import random
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from clubsite.models import Member
from scoring.engine import Game, load_ruleset, replay_record
from scoring.entry.offline_data import offline_rules
from scoring.ledger import (
    Correction,
    GameToImport,
    LedgerError,
    NewHand,
    Undo,
    hanchan_import,
    hanchan_start,
    hanchan_void,
    hanchans_import_bulk,
    hand_correct,
    hand_record,
    hand_undo_last,
    plan_for,
)
from scoring.ledger.online.club import verified_plan  # internal: the verified log's plan
from scoring.ledger.plan import Record, StoredGame, plan  # internal: the pipeline's first step
from scoring.models import Hanchan, HandEntry, HandSeat, Seat
from scoring.online.reading import read_game_file
from scoring.online.verify import verify
from scoring.upkeep.sample_games import sample_hands

DAY = datetime.date(2026, 11, 20)
ONLINE = Path(__file__).parent / "data" / "online"
ONLINE_FILES = sorted(
    p for p in ONLINE.glob("*/*") if p.suffix in (".json", ".mjlog", ".xml", ".jsonl")
)

# Six hands of makura-1.5 (Makura 1.5 §19 riichi, §24 ron, §27 draws): E1 ron, E2 tsumo,
# E3 draw (two tenpai), E3-1 ron by the dealer, E3-2 ron, E4 tsumo.
SIX_HANDS: list[dict[str, Any]] = [
    {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]},
    {"result": "tsumo", "wins": [{"winner": 0, "limit": "mangan"}], "riichi": [0]},
    {"result": "draw", "tenpai": [2, 3], "riichi": [3]},
    {"result": "ron", "loser": 1, "wins": [{"winner": 2, "han": 2, "fu": 40}]},
    {"result": "ron", "loser": 0, "wins": [{"winner": 3, "han": 1, "fu": 30}]},
    {"result": "tsumo", "wins": [{"winner": 1, "han": 4, "fu": 30}]},
]


class PlayCounter:
    """Counts ``Game.play`` calls while installed."""

    def __init__(self) -> None:
        self.plays = 0

    def reset(self) -> None:
        self.plays = 0


@pytest.fixture
def plays(monkeypatch: pytest.MonkeyPatch) -> Iterator[PlayCounter]:
    counter = PlayCounter()
    original = Game.play

    def counting(self: Game, hand: Any) -> Any:
        counter.plays += 1
        return original(self, hand)

    monkeypatch.setattr(Game, "play", counting)
    yield counter


@pytest.fixture
def players(member: Member, other_member: Member, coordinator: Member, staff_member: Member):
    return [member, other_member, coordinator, staff_member]


def started(players: list[Member]) -> Hanchan:
    return hanchan_start(ruleset_id="makura-1.5", members=players, played_on=DAY, by=players[0])


def enter(game: Hanchan, hand: dict[str, Any]) -> HandEntry:
    game.refresh_from_db()
    return hand_record(
        hanchan_id=game.pk, hand=hand, expected_version=game.version, request_id=uuid.uuid4()
    ).entry


@pytest.fixture
def six(players: list[Member]) -> Hanchan:
    game = started(players)
    for hand in SIX_HANDS:
        enter(game, hand)
    game.refresh_from_db()
    return game


def entries(game: Hanchan) -> list[HandEntry]:
    return list(game.hands.order_by("sequence"))


# -- one engine pass per change ----------------------------------------------------------------


def test_a_new_hand_plays_the_engine_once_to_preview_and_once_to_record(six, plays):
    planned = plan_for(six, NewHand({"result": "draw", "tenpai": [0]}))
    assert plays.plays == 1
    assert planned.last is not None and planned.last.sequence == 6

    plays.reset()
    enter(six, {"result": "draw", "tenpai": [0]})
    assert plays.plays == 1


def test_correcting_hand_1_of_6_plays_the_six_hands_once(six, plays):
    corrected = {"result": "ron", "loser": 3, "wins": [{"winner": 1, "han": 3, "fu": 30}]}
    planned = plan_for(six, Correction(0, corrected), entries(six))
    assert plays.plays == 6
    assert planned.engine_plays == 6
    assert planned.hands[0].result["deltas"] == [0, 3900, 0, -3900]

    plays.reset()
    hand_correct(hanchan_id=six.pk, sequence=0, hand=corrected, expected_version=six.version)
    assert plays.plays == 6


def test_correcting_the_last_hand_plays_only_that_hand(six, plays):
    last = {"result": "tsumo", "wins": [{"winner": 1, "limit": "mangan"}]}
    hand_correct(hanchan_id=six.pk, sequence=5, hand=last, expected_version=six.version)
    assert plays.plays == 1
    # E4, dealer seat 3: a non-dealer mangan tsumo is 2,000 / 4,000.
    assert entries(six)[5].result["deltas"] == [-2000, 8000, -2000, -4000]


def test_an_undo_and_a_void_play_nothing(six, plays):
    hand_undo_last(hanchan_id=six.pk, expected_version=six.version)
    six.refresh_from_db()
    hanchan_void(hanchan_id=six.pk, expected_version=six.version)
    assert plays.plays == 0
    six.refresh_from_db()
    assert six.status == Hanchan.Status.VOIDED
    assert six.state["table"]["hands_played"] == 5


def test_an_undo_restores_the_state_before_the_last_hand(six):
    before = entries(six)[5].before
    hand_undo_last(hanchan_id=six.pk, expected_version=six.version)
    six.refresh_from_db()
    assert six.state["game"] == before
    assert six.state["table"]["scores"] == entries(six)[4].result["scores"]


def test_an_import_plays_each_hand_once(plays, players):
    record = {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": [m.display_name for m in players],
        "hands": SIX_HANDS,
    }
    hanchan_import(
        record=record, members_by_name={m.display_name: m for m in players}, played_on=DAY
    )
    assert plays.plays == 6


def test_the_history_seeding_plays_each_hand_once(plays, players):
    rng = random.Random(3)
    records = [
        {
            "format": "club-game/1",
            "ruleset": "makura-1.5",
            "players": [m.display_name for m in players],
            "hands": sample_hands(rng, "makura-1.5"),
        }
        for _ in range(3)
    ]
    plays.reset()  # sample_hands plays its own games to draw legal hands
    hanchans_import_bulk(
        [GameToImport(record, {m.display_name: m for m in players}, DAY) for record in records]
    )
    assert plays.plays == sum(len(r["hands"]) for r in records)


# -- online imports ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "attempts"),
    [
        # Agrees under its preset at once: verification plays each hand once.
        ("tenhou-json/2022081017gm-00e1-0000-2df24853.json", ()),
        # Tenhou went on after the all-last dealer's win at South 4 (2010): the preset and the
        # first variant end the game there, so each plays up to that hand, the 11th of 12; the
        # second variant (dealer_top_ends "after_win") agrees and plays all 12.
        ("variants/2010060106gm-00a9-0000-30d6de3b_tw=0.mjlog", ("S4 0 honba", "S4 0 honba")),
    ],
)
def test_an_online_import_plays_each_hand_once_and_a_retry_up_to_where_it_differs(
    db, plays, name, attempts
):
    path = ONLINE / name
    log = read_game_file(path.read_bytes(), path.name).log
    assert log is not None and all(len(h.candidates) == 1 for h in log.hands)
    labels = [h.label for h in log.hands]
    call_command(
        "import_games", str(path), "--create-members", stdout=io.StringIO(), stderr=io.StringIO()
    )
    game = Hanchan.objects.get()
    assert game.hands.count() == len(log.hands)
    # Nothing is played again once verification agrees: the ledger writes its plays.
    assert plays.plays == sum(labels.index(a) + 1 for a in attempts) + len(log.hands)


@pytest.mark.parametrize("path", ONLINE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_plan_an_online_log_is_stored_by_is_the_ledgers_own(path):
    """What verification played, handed to the ledger, is the plan the ledger makes of the
    verified record (every hand's data, result and snapshot, the state, the settlement)."""
    log = read_game_file(path.read_bytes(), path.name).log
    assert log is not None
    verified = verify(log)
    ruleset = load_ruleset(verified.ruleset, verified.overrides)
    replayed = plan(StoredGame.new(ruleset), Record(verified.record["hands"]))
    handed = verified_plan(verified)
    assert handed == replayed
    assert handed.engine_plays == verified.engine_plays >= len(log.hands)


def test_a_plan_that_is_not_the_records_is_refused(players):
    record = {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": [m.display_name for m in players],
        "hands": SIX_HANDS,
    }
    other = plan(StoredGame.new(load_ruleset("makura-1.5")), Record(SIX_HANDS[:5]))
    with pytest.raises(ValueError, match="not the plan of this record's hands"):
        hanchan_import(
            record=record,
            members_by_name={m.display_name: m for m in players},
            played_on=DAY,
            planned=other,
        )
    assert Hanchan.objects.count() == 0


# -- through the table screen ------------------------------------------------------------------


def hidden(html: str, name: str) -> str:
    match = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert match, f"no hidden {name}"
    return match.group(1)


def test_the_correction_screen_plays_one_pass_to_show_and_one_to_store(
    six, client_for, member, plays
):
    client: Client = client_for(member)
    # The offline panel's figures are the engine's, played once per ruleset and process
    # (scoring.entry.offline_data.offline_rules, cached): not the ledger's passes counted here.
    offline_rules(six.ruleset())
    plays.reset()
    url = reverse("hand_edit", args=[six.pk, 1])
    html = client.get(url).text  # the form as stored, with its preview
    assert plays.plays == 6

    plays.reset()
    fields = {
        "csrfmiddlewaretoken": hidden(html, "csrfmiddlewaretoken"),
        "version": hidden(html, "version"),
        "result": "ron",
        "loser": "3",
        "winners": ["1"],
        "value_1": "3-30",
    }
    response = client.post(reverse("hand_edit_preview", args=[six.pk, 1]), fields)
    assert response.status_code == 200
    assert plays.plays == 6

    plays.reset()
    response = client.post(url, fields)
    assert response.status_code == 302
    assert plays.plays == 6  # the service's pass only: no preview before storing
    assert entries(six)[0].data["loser"] == 3


def test_the_next_hand_preview_plays_one_hand(six, client_for, member, plays):
    client: Client = client_for(member)
    html = client.get(reverse("game_detail", args=[six.pk])).text
    plays.reset()
    response = client.post(
        reverse("hand_preview", args=[six.pk]),
        {
            "csrfmiddlewaretoken": hidden(html, "csrfmiddlewaretoken"),
            "request_id": hidden(html, "request_id"),
            "version": hidden(html, "version"),
            "result": "tsumo",
            "winner": "0",
            "value_0": "mangan",
        },
    )
    assert response.status_code == 200
    assert plays.plays == 1


# -- the plan ------------------------------------------------------------------------------


def test_a_plan_writes_nothing(six):
    hands_before = list(HandEntry.objects.values_list("pk", "data", "result"))
    plan_for(six, Correction(0, {"result": "draw", "tenpai": []}), entries(six))
    plan_for(six, Undo(), entries(six))
    plan_for(six, NewHand({"result": "draw"}))
    assert list(HandEntry.objects.values_list("pk", "data", "result")) == hands_before


def test_a_plan_of_a_record_matches_the_engines_replay():
    ruleset = load_ruleset("makura-1.5")
    planned = plan(StoredGame.new(ruleset), Record(SIX_HANDS))
    replay = replay_record(
        {"ruleset": "makura-1.5", "players": ["A", "B", "C", "D"], "hands": SIX_HANDS}
    )
    assert [h.result["deltas"] for h in planned.hands] == [list(r.deltas) for r in replay.results]
    assert planned.state["table"]["scores"] == list(replay.results[-1].scores)
    assert planned.engine_plays == 6
    # The replay hands back where the game stands: after E4 comes South 1, seat 0 dealing.
    assert (replay.state.round, replay.state.dealer, replay.state.honba) == ("S1", 0, 0)
    assert list(replay.state.scores) == planned.state["table"]["scores"]
    assert replay.state.ended_by is None and replay.settlement is None


def test_a_correction_that_breaks_a_later_hand_names_it(six):
    # Seat 2 (the loser of hand 1) now deals in a yakuman: bust, the game ends at hand 1,
    # and hand 2 can no longer be played.
    yakuman = {"result": "ron", "loser": 2, "wins": [{"winner": 1, "limit": "yakuman"}]}
    with pytest.raises(LedgerError) as raised:
        plan_for(six, Correction(0, yakuman), entries(six))
    assert raised.value.later_hand == 2
    assert "2" in str(raised.value)
    assert raised.value.cause is not None and raised.value.cause.hand_index == 1


def test_rows_without_a_snapshot_are_replayed_from_east_1(six, plays):
    HandEntry.objects.filter(hanchan=six).update(before=None)
    corrected = {"result": "tsumo", "wins": [{"winner": 1, "limit": "mangan"}]}
    planned = plan_for(six, Correction(5, corrected), entries(six))
    assert plays.plays == 6  # five to reach hand 6, one to play it
    assert planned.engine_plays == 6
    assert planned.hands[0].result["deltas"] == [-2000, 8000, -2000, -4000]


# -- facts ---------------------------------------------------------------------------------


def facts(game: Hanchan, sequence: int) -> list[tuple[Any, ...]]:
    return list(
        HandSeat.objects.filter(hand__hanchan=game, hand__sequence=sequence)
        .order_by("seat")
        .values_list("member_id", "dealer", "delta", "won", "tsumo", "dealt_in", "riichi",
                     "chombo", "win_value")
    )  # fmt: skip


def test_each_hand_stores_its_facts_per_seat(six, players):
    ids = [m.pk for m in players]
    # Hand 2 (E2, seat 1 deals): seat 0 tsumo mangan after riichi: 2,000 / 4,000 as the
    # win's value, the stick put out and taken back as the deposit (not a win value).
    assert facts(six, 1) == [
        (ids[0], False, 8000, True, True, False, True, False, 8000),
        (ids[1], True, -4000, False, False, False, False, False, 0),
        (ids[2], False, -2000, False, False, False, False, False, 0),
        (ids[3], False, -2000, False, False, False, False, False, 0),
    ]
    # Hand 1: seat 1 rons seat 2 for 3,900.
    assert [row[3:6] for row in facts(six, 0)] == [
        (False, False, False),
        (True, False, False),
        (False, False, True),
        (False, False, False),
    ]
    assert HandSeat.objects.filter(hanchan=six).count() == 6 * 4


def test_a_correction_replaces_the_facts_and_an_undo_removes_them(six):
    corrected = {"result": "ron", "loser": 3, "wins": [{"winner": 1, "han": 3, "fu": 30}]}
    hand_correct(hanchan_id=six.pk, sequence=0, hand=corrected, expected_version=six.version)
    assert [row[2] for row in facts(six, 0)] == [0, 3900, 0, -3900]
    assert [row[5] for row in facts(six, 0)] == [False, False, False, True]
    six.refresh_from_db()
    hand_undo_last(hanchan_id=six.pk, expected_version=six.version)
    assert facts(six, 5) == []
    assert HandSeat.objects.filter(hanchan=six).count() == 5 * 4


def test_a_game_ended_by_tobi_marks_the_busted_seat_and_last_place(players):
    game = started(players)
    enter(game, {"result": "ron", "loser": 2, "wins": [{"winner": 1, "limit": "yakuman"}]})
    seats = {s.index: s for s in Seat.objects.filter(hanchan=game)}
    game.refresh_from_db()
    assert game.ended_by == "tobi"
    assert seats[2].busted is True and seats[2].last_place is True
    assert [seats[i].busted for i in (0, 1, 3)] == [False, False, False]
    assert [seats[i].last_place for i in (0, 1, 3)] == [False, False, False]

    hand_undo_last(hanchan_id=game.pk, expected_version=game.version)
    seat = Seat.objects.get(hanchan=game, index=2)
    assert seat.busted is None and seat.last_place is None and seat.points is None


@pytest.mark.parametrize("played_on", [datetime.date(9999, 12, 31), datetime.date(1949, 12, 31)])
def test_a_game_is_dated_between_1950_and_today(players, played_on):
    """Dates within a sane range; nothing is written for a refused date."""
    with pytest.raises(LedgerError) as raised:
        hanchan_start(ruleset_id="makura-1.5", members=players, played_on=played_on, by=players[0])
    assert raised.value.field == "played_on"
    assert Hanchan.objects.count() == 0
