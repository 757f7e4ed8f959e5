"""Ledger services: start, record (idempotent, version-checked), correct, undo, void, export."""

from __future__ import annotations

import datetime
import json
import random
import uuid

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.translation import override

from clubsite.models import Member
from scoring.engine import replay_record
from scoring.ledger import (
    LedgerError,
    StaleHanchan,
    hanchan_import,
    hanchan_record,
    hanchan_start,
    hanchan_void,
    hand_correct,
    hand_record,
    hand_undo_last,
)
from scoring.models import Hanchan, HandEntry, LedgerChange, RulesetVersion

DAY = datetime.date(2026, 11, 20)


def make_members(*names: str) -> list[Member]:
    return [
        Member.objects.create(user=User.objects.create_user(name.lower()), display_name=name)
        for name in names
    ]


@pytest.fixture
def players(db) -> list[Member]:
    return make_members("Aoki", "Baba", "Chiba", "Doi")


@pytest.fixture
def game(players) -> Hanchan:
    return hanchan_start(ruleset_id="makura-1.5", members=players, played_on=DAY, by=players[0])


def record(game: Hanchan, hand: dict, **kwargs) -> HandEntry:
    game.refresh_from_db()
    outcome = hand_record(
        hanchan_id=game.pk,
        hand=hand,
        expected_version=kwargs.pop("version", game.version),
        request_id=kwargs.pop("request_id", uuid.uuid4()),
        **kwargs,
    )
    return outcome.entry


RON = {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]}
MANGAN_TSUMO = {"result": "tsumo", "wins": [{"winner": 0, "limit": "mangan"}]}


def test_it_starts_a_game_pinned_to_the_current_ruleset_version(game, players):
    assert game.status == Hanchan.Status.IN_PLAY
    assert [s.member for s in game.seats.order_by("index")] == players
    assert game.ruleset_version.ruleset_id == "makura-1.5"
    assert game.state["table"] == {
        "round": "E1",
        "dealer": 0,
        "honba": 0,
        "deposits": 0,
        "scores": [25000] * 4,
        "all_last": False,
        "hands_played": 0,
    }
    assert game.changes.get().action == LedgerChange.Action.STARTED
    # A second game reuses the stored version: the built-in did not change.
    again = hanchan_start(ruleset_id="makura-1.5", members=players, played_on=DAY)
    assert again.ruleset_version == game.ruleset_version
    assert RulesetVersion.objects.count() == 1


def test_it_draws_seats_at_random_when_asked(players):
    game = hanchan_start(
        ruleset_id="makura-1.5",
        members=players,
        played_on=DAY,
        draw_seats=True,
        rng=random.Random(3),
    )
    seated = [s.member for s in game.seats.order_by("index")]
    assert sorted(m.pk for m in seated) == sorted(m.pk for m in players)
    assert seated != players


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"ruleset_id": "makura-9"}, "ruleset"),
        ({"ruleset_id": "fuji-sanma"}, "players"),
        ({"overrides": {"tobi": "no"}}, "overrides.tobi"),
    ],
)
def test_it_refuses_a_bad_start_and_writes_nothing(players, kwargs, field):
    args = {"ruleset_id": "makura-1.5", "members": players, "played_on": DAY, **kwargs}
    with pytest.raises(LedgerError) as error:
        hanchan_start(**args)
    assert error.value.field == field
    assert Hanchan.objects.count() == 0


def test_it_refuses_the_same_member_twice(players):
    with pytest.raises(LedgerError) as error:
        hanchan_start(ruleset_id="makura-1.5", members=[*players[:3], players[0]], played_on=DAY)
    assert error.value.field == "players"


def test_it_records_a_hand_with_the_engines_payments(game, players):
    entry = record(game, RON, by=players[3])
    assert entry.sequence == 0
    assert entry.result["deltas"] == [0, 3900, -3900, 0]
    assert entry.result["payments"] == [{"payer": 2, "payee": 1, "amount": 3900, "reason": "ron"}]
    assert entry.entered_by == players[3]
    game.refresh_from_db()
    assert game.version == 1
    assert game.state["table"]["round"] == "E2"
    assert game.state["table"]["scores"] == [25000, 28900, 21100, 25000]


def test_it_records_a_double_tap_once(game):
    request = uuid.uuid4()
    first = hand_record(hanchan_id=game.pk, hand=RON, expected_version=0, request_id=request)
    again = hand_record(hanchan_id=game.pk, hand=RON, expected_version=0, request_id=request)
    assert first.created and not again.created
    assert again.entry.pk == first.entry.pk
    assert game.hands.count() == 1
    game.refresh_from_db()
    assert game.version == 1


def test_it_refuses_a_second_phone_entering_on_a_stale_version(game):
    record(game, RON, version=0)
    with pytest.raises(StaleHanchan) as error:
        hand_record(
            hanchan_id=game.pk, hand=MANGAN_TSUMO, expected_version=0, request_id=uuid.uuid4()
        )
    assert error.value.hanchan.version == 1
    assert game.hands.count() == 1


def test_it_refuses_an_impossible_hand_and_changes_nothing(game):
    bad = {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 1, "fu": 25}]}
    with pytest.raises(LedgerError) as error:
        record(game, bad)
    assert error.value.field == "wins[0].fu"
    game.refresh_from_db()
    assert (game.version, game.hands.count(), game.changes.count()) == (0, 0, 1)


def test_it_finishes_the_game_when_the_engine_says_so_and_stores_the_settlement(game):
    yakuman = {"result": "tsumo", "wins": [{"winner": 0, "limit": "yakuman"}]}
    record(game, yakuman)
    record(game, yakuman)  # the others at -7,000: tobi
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED
    assert game.ended_by == "tobi"
    assert game.finished_at is not None
    seats = list(game.seats.order_by("index"))
    assert [s.final_score for s in seats] == [121300, -7100, -7100, -7100]
    assert [s.rank for s in seats] == [1, 2, 3, 4]
    assert sum(s.points for s in seats) == 0
    with pytest.raises(LedgerError):
        record(game, RON)


def test_it_corrects_an_earlier_hand_and_recomputes_the_rest(game):
    record(game, RON)  # E1: B rons C 3,900 -> E2 dealer B
    record(game, {"result": "draw", "tenpai": [1]})  # E2: dealer B tenpai, renchan
    game.refresh_from_db()
    hand_correct(
        hanchan_id=game.pk,
        sequence=0,
        hand={"result": "ron", "loser": 2, "wins": [{"winner": 0, "han": 3, "fu": 30}]},
        expected_version=game.version,
    )
    game.refresh_from_db()
    first, second = game.hands.order_by("sequence")
    assert first.result["deltas"] == [5800, 0, -5800, 0]  # dealer A now wins: renchan
    assert second.result["round"] == "E1"
    assert second.result["honba"] == 1
    assert second.result["deltas"] == [-1000, 3000, -1000, -1000]
    change = game.changes.get(action=LedgerChange.Action.CORRECTED)
    assert change.before == RON
    assert game.state["table"]["round"] == "E2"


def test_it_refuses_a_correction_that_makes_a_later_hand_impossible(game):
    yakuman = {"result": "tsumo", "wins": [{"winner": 0, "limit": "yakuman"}]}
    record(game, RON)
    record(game, {"result": "draw", "tenpai": []})
    game.refresh_from_db()
    with override("en"), pytest.raises(LedgerError, match="hand 2 impossible"):
        hand_correct(
            hanchan_id=game.pk,
            sequence=0,
            hand={**yakuman, "wins": [{"winner": 1, "limit": "yakuman", "yakuman": 2}]},
            expected_version=game.version,
        )
    assert game.hands.order_by("sequence").first().data == RON


def test_it_undoes_the_last_hand_and_keeps_it_in_the_history(game):
    record(game, RON)
    record(game, MANGAN_TSUMO)
    game.refresh_from_db()
    hand_undo_last(hanchan_id=game.pk, expected_version=game.version)
    game.refresh_from_db()
    assert game.hands.count() == 1
    assert game.state["table"]["round"] == "E2"
    change = game.changes.get(action=LedgerChange.Action.UNDONE)
    assert change.before["hand"] == MANGAN_TSUMO
    assert change.before["result"]["deltas"] == [8000, -4000, -2000, -2000]


def test_it_reopens_a_finished_game_when_its_last_hand_is_undone(game):
    yakuman = {"result": "tsumo", "wins": [{"winner": 0, "limit": "yakuman"}]}
    record(game, yakuman)
    record(game, yakuman)
    game.refresh_from_db()
    hand_undo_last(hanchan_id=game.pk, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Hanchan.Status.IN_PLAY
    assert game.ended_by == ""
    assert all(s.points is None for s in game.seats.all())


def test_it_voids_a_game_and_keeps_its_hands(game):
    record(game, RON)
    game.refresh_from_db()
    hanchan_void(hanchan_id=game.pk, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Hanchan.Status.VOIDED
    assert game.hands.count() == 1
    with pytest.raises(LedgerError):
        hanchan_void(hanchan_id=game.pk, expected_version=game.version)
    with pytest.raises(LedgerError):
        record(game, RON)


def test_it_exports_a_record_that_replays_to_the_stored_result(game):
    for hand in (RON, MANGAN_TSUMO, {"result": "draw", "tenpai": [0], "riichi": [0]}):
        record(game, hand)
    game.refresh_from_db()
    exported = hanchan_record(game)
    assert exported["players"] == ["Aoki", "Baba", "Chiba", "Doi"]
    replayed = replay_record(exported).to_json()["hands"]
    stored = [{k: v for k, v in e.result.items() if k != "payments"} for e in game.hands.all()]
    assert replayed == stored


def test_it_imports_a_record_all_or_nothing(players):
    members = {m.display_name: m for m in players}
    good = {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": ["Aoki", "Baba", "Chiba", "Doi"],
        "hands": [RON, MANGAN_TSUMO],
    }
    imported = hanchan_import(record=good, members_by_name=members, played_on=DAY)
    assert imported.hands.count() == 2
    assert imported.state["table"]["round"] == "E3"
    with pytest.raises(LedgerError, match="hand 1: wins"):
        hanchan_import(
            record={**good, "hands": [RON, {"result": "tsumo", "wins": []}]},
            members_by_name=members,
            played_on=DAY,
        )
    # A 2-han 25-fu tsumo (chiitoitsu 2 han + menzen tsumo, Makura 1.5 §45c)
    # is refused on import as by the pad; nothing of the record is stored.
    chiitoitsu_tsumo = {"result": "tsumo", "wins": [{"winner": 2, "han": 2, "fu": 25}]}
    with pytest.raises(LedgerError, match="hand 1: wins\\[0\\].fu"):
        hanchan_import(
            record={**good, "hands": [RON, chiitoitsu_tsumo]},
            members_by_name=members,
            played_on=DAY,
        )
    assert Hanchan.objects.count() == 1


def test_it_uses_a_constant_number_of_queries_per_hand_entry(game):
    counts = []
    for i in range(7):  # E1..S3: the game ends after S4
        loser, winner = (2, 1) if i % 2 else (1, 2)
        hand = {"result": "ron", "loser": loser, "wins": [{"winner": winner, "han": 1, "fu": 30}]}
        game.refresh_from_db()
        with CaptureQueriesContext(connection) as queries:
            hand_record(
                hanchan_id=game.pk,
                hand=hand,
                expected_version=game.version,
                request_id=uuid.uuid4(),
            )
        counts.append(len(queries))
    assert len(set(counts)) == 1
    assert counts[0] <= 10, counts


def test_it_round_trips_games_through_export_and_import_commands(game, tmp_path):
    import io
    import json

    from django.core.management import call_command
    from django.core.management.base import CommandError

    yakuman = {"result": "tsumo", "wins": [{"winner": 0, "limit": "yakuman"}]}
    for hand in (RON, yakuman, yakuman):
        record(game, hand)
    out = io.StringIO()
    call_command("export_games", stdout=out)
    records = json.loads(out.getvalue())
    assert [r["players"] for r in records] == [["Aoki", "Baba", "Chiba", "Doi"]]
    path = tmp_path / "games.json"
    path.write_text(out.getvalue(), encoding="utf-8")
    # The same ledger holds the game already: refused, then taken as a twin.
    err = io.StringIO()
    with pytest.raises(CommandError), override("en"):
        call_command("import_games", str(path), stdout=io.StringIO(), stderr=err)
    assert f"as game {game.pk}: nothing stored" in err.getvalue()
    call_command("import_games", str(path), "--allow-duplicate", stdout=io.StringIO())
    copy = Hanchan.objects.exclude(pk=game.pk).get()
    assert copy.status == Hanchan.Status.FINISHED
    assert copy.played_on == DAY
    original = [(s.final_score, s.rank, s.points) for s in game.seats.order_by("index")]
    assert [(s.final_score, s.rank, s.points) for s in copy.seats.order_by("index")] == original


def test_it_refuses_unknown_players_unless_asked_to_create_them(db, tmp_path):
    import io

    from django.core.management import call_command
    from django.core.management.base import CommandError

    record_ = {
        "format": "club-game/1",
        "ruleset": "fuji-sanma",
        "players": ["Eto", "Fujii", "Goto"],
        "hands": [{"result": "tsumo", "wins": [{"winner": 0, "han": 2}]}],
        "date": "2026-10-01",
    }
    path = tmp_path / "g.json"
    path.write_text(json.dumps(record_), encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError), override("en"):
        call_command("import_games", str(path), stdout=io.StringIO(), stderr=err)
    assert "unknown player(s): Eto, Fujii, Goto" in err.getvalue()
    assert Hanchan.objects.count() == 0
    call_command("import_games", str(path), "--create-members", stdout=io.StringIO())
    game = Hanchan.objects.get()
    assert game.played_on == datetime.date(2026, 10, 1)
    assert sorted(Member.objects.values_list("display_name", flat=True)) == ["Eto", "Fujii", "Goto"]


def test_it_stores_nothing_from_a_file_with_one_bad_record(players, tmp_path):
    import io

    from django.core.management import call_command
    from django.core.management.base import CommandError

    good = {"ruleset": "makura-1.5", "players": ["Aoki", "Baba", "Chiba", "Doi"], "hands": [RON]}
    bad = {**good, "hands": [RON, {"result": "ron", "loser": 9, "wins": []}]}
    path = tmp_path / "two.json"
    path.write_text(json.dumps([good, bad]), encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError), override("en"):
        call_command("import_games", str(path), stdout=io.StringIO(), stderr=err)
    assert "record 2: hand 1: wins" in err.getvalue()
    assert Hanchan.objects.count() == 0


def test_it_turns_a_lost_race_for_the_same_hand_into_a_stale_refusal(game):
    # Another phone's transaction stored hand 0 but this one read the game before it did.
    HandEntry.objects.create(hanchan=game, sequence=0, data=RON, result={})
    with pytest.raises(StaleHanchan):
        hand_record(
            hanchan_id=game.pk, hand=MANGAN_TSUMO, expected_version=0, request_id=uuid.uuid4()
        )
    assert game.hands.count() == 1


def test_it_turns_a_lost_race_with_its_own_resent_request_into_that_entry(game):
    request = uuid.uuid4()
    first = HandEntry.objects.create(
        hanchan=game, sequence=7, data=RON, result={}, request_id=request
    )
    again = hand_record(hanchan_id=game.pk, hand=RON, expected_version=0, request_id=request)
    assert (again.entry.pk, again.created) == (first.pk, False)
    assert game.hands.count() == 1
