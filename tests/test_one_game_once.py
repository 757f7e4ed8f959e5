"""One game, stored once (issue 19, item 4): every finished game carries a content
fingerprint (:mod:`scoring.ledger.fingerprint`), and an import of a game already in the
ledger is refused, naming the stored game, whatever file it came in, its names or its log id.
"""

from __future__ import annotations

import importlib
import io
import json
import uuid
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils.translation import override

from clubsite.models import Member
from scoring.ledger import hanchan_final_scores, hanchan_import, hanchan_void, hand_record
from scoring.ledger.fingerprint import DuplicateGame, game_fingerprint
from scoring.models import Hanchan, HandEntry, OnlineGame
from scoring.online.reading import read_game_file
from scoring.standings import club_today
from tests.conftest import make_member

DATA = Path(__file__).parent / "data" / "online"
JSON_LOG = DATA / "tenhou-json" / "2024010120gm-00b9-0000-e324b88a.json"
MJLOG = DATA / "mjlog" / "2019082700gm-00a9-0000-63d1f136.mjlog"
# One real game as Tenhou publishes it twice: its mjlog and its tenhou.net/6 JSON
# (tests/data/online/README.md, "pairs/").
PAIR_MJLOG = DATA / "pairs" / "2019103023gm-00a9-0000-f90e0fe9.xml"
PAIR_JSON = DATA / "pairs" / "2019103023gm-00a9-0000-f90e0fe9.json"
DAY = club_today()


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    with override("en"):
        try:
            call_command("import_games", *args, stdout=out, stderr=err)
        except CommandError as error:
            err.write(f"exit {error.returncode}")
    return out.getvalue(), err.getvalue()


@pytest.fixture
def four(db: None) -> list[Member]:
    return [make_member(f"fp{i}", name, "") for i, name in enumerate(["A", "B", "C", "D"])]


def record(players: list[Member]) -> dict:
    """A finished club game: the dealer deals a yakuman in East 1 and busts (Makura 1.5)."""
    return {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": [m.display_name for m in players],
        "date": DAY.isoformat(),
        "hands": [{"result": "ron", "loser": 0, "wins": [{"winner": 1, "limit": "yakuman"}]}],
    }


def test_a_club_record_given_twice_is_refused_naming_the_stored_game(four, tmp_path):
    path = tmp_path / "night.json"
    path.write_text(json.dumps(record(four)), encoding="utf-8")
    out, _ = run(str(path))
    game = Hanchan.objects.get()
    assert f"imported 1 game(s): {game.pk}" in out
    assert len(game.fingerprint) == 64
    out, err = run(str(path))
    assert f"in the ledger already, as game {game.pk}: nothing stored" in err
    assert "exit 2" in err
    assert Hanchan.objects.count() == 1
    # The same game under other file names, or a list with it twice: refused all the same.
    twice = tmp_path / "twice.json"
    twice.write_text(json.dumps([record(four), record(four)]), encoding="utf-8")
    _, err = run(str(twice))
    assert "nothing stored" in err and Hanchan.objects.count() == 1
    # A true twin, said so.
    out, _ = run(str(path), "--allow-duplicate")
    assert Hanchan.objects.count() == 2


def test_a_voided_copy_gives_way(four):
    first = hanchan_import(record=record(four), members_by_name={m.display_name: m for m in four},
                           played_on=DAY)  # fmt: skip
    with pytest.raises(DuplicateGame, match=f"as game {first.pk}"), override("en"):
        hanchan_import(
            record=record(four), members_by_name={m.display_name: m for m in four}, played_on=DAY
        )
    hanchan_void(hanchan_id=first.pk, expected_version=first.version)
    again = hanchan_import(
        record=record(four), members_by_name={m.display_name: m for m in four}, played_on=DAY
    )
    assert again.fingerprint == first.fingerprint and again.pk != first.pk


def test_a_game_entered_at_the_table_is_not_imported_again(four):
    game = Hanchan.objects.get(
        pk=hanchan_import(
            record={**record(four), "hands": []},
            members_by_name={m.display_name: m for m in four},
            played_on=DAY,
        ).pk
    )
    assert game.fingerprint == ""  # in play: nothing to compare yet
    hand_record(
        hanchan_id=game.pk,
        hand=record(four)["hands"][0],
        expected_version=game.version,
        request_id=uuid.uuid4(),
    )
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED
    with pytest.raises(DuplicateGame, match=f"as game {game.pk}"), override("en"):
        hanchan_import(
            record=record(four), members_by_name={m.display_name: m for m in four}, played_on=DAY
        )


def test_final_scores_only_games_have_their_own_fingerprint(four):
    names = {m.display_name: m for m in four}
    game = hanchan_import(record={**record(four), "hands": []}, members_by_name=names,
                          played_on=DAY)  # fmt: skip
    hanchan_final_scores(
        hanchan_id=game.pk,
        final_scores={"scores": [45300, 30000, 19700, 5000]},
        expected_version=game.version,
    )
    game.refresh_from_db()
    assert game.fingerprint == game_fingerprint(
        played_on=DAY,
        members=[m.pk for m in four],
        hand_results=[],
        final_scores={"scores": [45300, 30000, 19700, 5000]},
    )
    with pytest.raises(DuplicateGame, match=f"as game {game.pk}"), override("en"):
        hanchan_import(
            record={**record(four), "hands": [],
                    "final_scores": {"scores": [45300, 30000, 19700, 5000]}},
            members_by_name=names,
            played_on=DAY,
        )  # fmt: skip


def test_an_online_log_with_another_id_is_the_same_game(db, tmp_path):
    out, _ = run(str(JSON_LOG), "--create-members")
    game = Hanchan.objects.get()
    data = json.loads(JSON_LOG.read_text(encoding="utf-8"))
    for ref in ("2024010121gm-00b9-0000-00000000", "edited"):
        other = tmp_path / f"{ref}.json"
        other.write_text(json.dumps({**data, "ref": ref}), encoding="utf-8")
        _, err = run(str(other), "--create-members")
        assert f"as game {game.pk}: nothing stored" in err
    # An mjlog renamed so that its log id is gone.
    run(str(MJLOG), "--create-members")
    renamed = tmp_path / "game.mjlog"
    renamed.write_bytes(MJLOG.read_bytes())
    _, err = run(str(renamed), "--create-members")
    assert "in the ledger already" in err
    assert Hanchan.objects.count() == 2


def test_the_upload_page_says_already_imported(db, staff_member):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(staff_member.user)
    first = client.post(
        reverse("game_import"),
        {"logs": [SimpleUploadedFile(JSON_LOG.name, JSON_LOG.read_bytes())],
         "create_members": "on"},
    )  # fmt: skip
    assert "Stored: 1." in first.content.decode()
    data = json.loads(JSON_LOG.read_text(encoding="utf-8"))
    edited = json.dumps({**data, "ref": "edited"}).encode()
    again = client.post(
        reverse("game_import"),
        {"logs": [SimpleUploadedFile("edited.json", edited)], "create_members": "on"},
    )
    html = again.content.decode()
    assert "Already imported: nothing stored." in html
    assert f'href="/games/{Hanchan.objects.get().pk}/"' in html


def test_the_backfill_migration_hashes_as_the_ledger_does(four):
    game = hanchan_import(record=record(four), members_by_name={m.display_name: m for m in four},
                          played_on=DAY)  # fmt: skip
    migration = importlib.import_module("scoring.migrations.0014_fingerprint_backfill")
    results = list(HandEntry.objects.filter(hanchan=game).values_list("result", flat=True))
    assert migration.fingerprint(DAY, [m.pk for m in four], results, None) == game.fingerprint
    assert migration.fingerprint(DAY, None, results, None) == game_fingerprint(
        played_on=DAY, members=None, hand_results=results
    )


@pytest.mark.parametrize("mjlog_first", [True, False], ids=["mjlog-then-json", "json-then-mjlog"])
def test_the_same_game_as_mjlog_and_as_json_is_refused(db, tmp_path, mjlog_first):
    """Same game as mjlog then JSON (and the other way): the second is refused by its hands.

    Both files are Tenhou's own, byte for byte; the mjlog is under a name without its log
    id (the id of an mjlog is only in its file name), so nothing but the fingerprint can
    tell it is the game the JSON holds.
    """
    mjlog = tmp_path / "game.xml"
    mjlog.write_bytes(PAIR_MJLOG.read_bytes())
    first, second = (mjlog, PAIR_JSON) if mjlog_first else (PAIR_JSON, mjlog)
    out, err = run(str(first), "--create-members")
    game = Hanchan.objects.get()
    assert f"(tenhou-4p, 7 hands) as game {game.pk}" in out and err == ""
    assert game.hands.count() == 7
    out, err = run(str(second), "--create-members")
    assert f"{second}: this game is in the ledger already, as game {game.pk}: nothing stored" in err
    assert "exit 2" in err
    assert Hanchan.objects.count() == 1 and OnlineGame.objects.count() == 1


def test_the_pair_is_one_game_and_its_shared_log_id_answers_first(db):
    """The two files are the same game by Tenhou's log id and by every hand; imported under
    their own names, the second is the log already imported (the log id, checked first)."""
    mjlog, tenhou_json = (
        read_game_file(p.read_bytes(), p.name).log for p in (PAIR_MJLOG, PAIR_JSON)
    )
    assert mjlog is not None and tenhou_json is not None
    assert (mjlog.log_format, tenhou_json.log_format) == ("mjlog", "tenhou-json")
    assert mjlog.log_id == tenhou_json.log_id == "2019103023gm-00a9-0000-f90e0fe9"
    assert mjlog.players == tenhou_json.players
    assert [h.deltas for h in mjlog.hands] == [h.deltas for h in tenhou_json.hands]
    assert mjlog.final_scores == tenhou_json.final_scores
    run(str(PAIR_MJLOG), "--create-members")
    game = Hanchan.objects.get()
    out, err = run(str(PAIR_JSON), "--create-members")
    assert f"already imported as game {game.pk}: nothing stored" in out and err == ""
    assert Hanchan.objects.count() == 1
