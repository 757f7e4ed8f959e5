"""One game, stored once: every finished game carries a content
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
from django.apps import apps as django_apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils.translation import override

from clubsite.models import Member, OnlineLobby, OnlineName
from scoring.ledger import hanchan_final_scores, hanchan_import, hanchan_void, hand_record
from scoring.ledger.fingerprint import DuplicateGame, game_fingerprint
from scoring.models import Hanchan, HandEntry, OnlineGame
from scoring.online.reading import read_game_file
from tests.conftest import make_member, new_club_today

DATA = Path(__file__).parent / "data" / "online"
JSON_LOG = DATA / "tenhou-json" / "2024010120gm-00b9-0000-e324b88a.json"
MJLOG = DATA / "mjlog" / "2019082700gm-00a9-0000-63d1f136.mjlog"
# One real game as Tenhou publishes it twice: its mjlog and its tenhou.net/6 JSON
# (tests/data/online/README.md, "pairs/").
PAIR_MJLOG = DATA / "pairs" / "2019103023gm-00a9-0000-f90e0fe9.xml"
PAIR_JSON = DATA / "pairs" / "2019103023gm-00a9-0000-f90e0fe9.json"
DAY = new_club_today()


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


def test_a_club_lobbys_log_with_its_date_edited_is_the_same_game(db, tmp_path):
    """A game the club counts under its own ruleset (a listed lobby) is its hands too, as
    any online log's: its date comes from its log id, which anyone can
    edit; with the date and members in its fingerprint, the edited copy was a second game."""
    OnlineLobby.objects.create(service="tenhou", lobby="L7447", ruleset_id="tenhou-4p")
    source = (DATA / "tenhou-json" / "2022081017gm-00e1-0000-2df24853.json").read_text(
        encoding="utf-8"
    )
    paths = []
    for log_id in ("2022081017gm-00e1-7447-2df24853", "2022091117gm-00e1-7447-2df24853"):
        path = tmp_path / f"{log_id}.json"
        path.write_text(source.replace("2022081017gm-00e1-0000-2df24853", log_id), "utf-8")
        paths.append(path)
    out, err = run(str(paths[0]), "--create-members")
    game = Hanchan.objects.get()
    assert err == "" and game.ruleset_version.service == ""  # the club's own table
    assert game.played_on.isoformat() == "2022-08-10"
    out, err = run(str(paths[1]), "--create-members")
    assert f"in the ledger already, as game {game.pk}: nothing stored" in err
    assert Hanchan.objects.count() == 1


def edited_copy(name: str | None = None) -> bytes:
    """JSON_LOG under another log id, with seat 1's name changed to ``name`` if given."""
    data = json.loads(JSON_LOG.read_text(encoding="utf-8"))
    if name is not None:
        data["name"] = [name, *data["name"][1:]]
    return json.dumps({**data, "ref": "edited"}).encode()


def upload(member: Member, content: bytes) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(member.user)
    files = {"logs": [SimpleUploadedFile("edited.json", content)]}
    return client.post(reverse("game_import"), files).content.decode()


def test_already_imported_names_the_game_only_to_one_who_played_it(db, member):
    """A refusal never reveals a game the reader cannot see as theirs. A
    member whose copy of a game stored already is refused is told which game only if they
    sat in it (or are a steward)."""
    run(str(JSON_LOG), "--create-members")
    game = Hanchan.objects.get()
    seated = game.seats.get(index=1).member
    OnlineName.objects.create(member=member, service="tenhou", name="Zed")
    # The log with its id edited and seat 1 given the member's name: the same hands.
    html = upload(member, edited_copy("Zed"))
    assert "This game is stored already: nothing stored." in html
    assert f"/games/{game.pk}/" not in html and f"Game {game.pk}" not in html
    html = upload(seated, edited_copy())
    assert "Already imported: nothing stored." in html
    assert f'href="/games/{game.pk}/"' in html
    assert Hanchan.objects.count() == 1


def unfinished(players: list[Member]) -> dict:
    """A club game in play after two hands (Makura 1.5): a draw, the dealer tenpai, then a
    1,000 ron of the dealer's."""
    return {
        **record(players),
        "hands": [
            {"result": "draw", "tenpai": [0]},
            {"result": "ron", "loser": 2, "wins": [{"winner": 0, "han": 1, "fu": 30}]},
        ],
    }


def test_an_unfinished_record_imported_twice_is_one_game_in_play(four, tmp_path):
    """The same unfinished record imported twice made two games in play."""
    path = tmp_path / "in-play.json"
    path.write_text(json.dumps(unfinished(four)), encoding="utf-8")
    out, err = run(str(path))
    game = Hanchan.objects.get()
    assert f"imported 1 game(s): {game.pk}" in out and game.status == Hanchan.Status.IN_PLAY
    _, err = run(str(path))
    assert f"in the ledger already, as game {game.pk}: nothing stored" in err
    assert Hanchan.objects.count() == 1
    # Played on at the table since: the record is still that game.
    hand_record(
        hanchan_id=game.pk,
        hand={"result": "draw", "tenpai": []},
        expected_version=game.version,
        request_id=uuid.uuid4(),
    )
    _, err = run(str(path))
    assert f"in the ledger already, as game {game.pk}: nothing stored" in err
    assert Hanchan.objects.count() == 1
    # The evening's other game at the table in the same seats, begun as this one was and
    # finished: another game, stored.
    other = unfinished(four)
    other["hands"].append(
        {"result": "ron", "loser": 3, "wins": [{"winner": 2, "limit": "yakuman"}]}
    )
    finished = tmp_path / "finished.json"
    finished.write_text(json.dumps(other), encoding="utf-8")
    out, err = run(str(finished))
    assert err == "" and Hanchan.objects.filter(status=Hanchan.Status.FINISHED).count() == 1
    # The same four in the same seats another day: another game.
    path.write_text(json.dumps({**unfinished(four), "date": "2025-01-05"}), encoding="utf-8")
    out, err = run(str(path))
    assert err == "" and Hanchan.objects.filter(status=Hanchan.Status.IN_PLAY).count() == 2
    # A true twin, said so.
    _, err = run(str(path), "--allow-duplicate")
    assert err == "" and Hanchan.objects.filter(status=Hanchan.Status.IN_PLAY).count() == 3


def test_migration_0021_gives_the_stored_online_games_the_ledgers_fingerprints(db, tmp_path):
    """The games stored before the fingerprint of a result line and of a club lobby's log
    changed get the ledger's fingerprint: the migration recomputes them
    (a result line's, a club lobby's log's), and leaves the others alone."""
    OnlineLobby.objects.create(service="tenhou", lobby="L7447", ruleset_id="tenhou-4p")
    source = (DATA / "tenhou-json" / "2022081017gm-00e1-0000-2df24853.json").read_text(
        encoding="utf-8"
    )
    club_log = tmp_path / "2022081017gm-00e1-7447-2df24853.json"
    club_log.write_text(source.replace("-0000-", "-7447-"), encoding="utf-8")
    lines = tmp_path / "lines.txt"
    lines.write_text(
        "L1000 | 00:30 | 四般南喰赤－ | A(+45.0) B(+10.0) C(-15.0) D(-40.0)\n", encoding="utf-8"
    )
    run(str(club_log), "--create-members")
    run(str(lines), "--create-members", "--date", "2026-11-20")
    run(str(JSON_LOG), "--create-members")
    games = list(Hanchan.objects.order_by("pk"))
    assert len(games) == 3
    expected = {game.pk: game.fingerprint for game in games}
    # As version 1 stored them: the club lobby's log with its date and members, the line
    # with its final scores alone.
    club_game, line_game, ranked = games
    members = [s.member_id for s in club_game.seats.order_by("index")]
    results = list(club_game.hands.order_by("sequence").values_list("result", flat=True))
    old = importlib.import_module("scoring.migrations.0014_fingerprint_backfill")
    Hanchan.objects.filter(pk=club_game.pk).update(
        fingerprint=old.fingerprint(club_game.played_on, members, results, None)
    )
    Hanchan.objects.filter(pk=line_game.pk).update(
        fingerprint=old.fingerprint(line_game.played_on, None, [], line_game.state["final_scores"])
    )
    Hanchan.objects.filter(pk=ranked.pk).update(fingerprint="untouched")
    before = dict(Hanchan.objects.values_list("pk", "fingerprint"))
    assert before[club_game.pk] != expected[club_game.pk]
    assert before[line_game.pk] != expected[line_game.pk]
    migration = importlib.import_module("scoring.migrations.0021_fingerprint_of_online_games")
    migration.recompute(django_apps, None)
    after = dict(Hanchan.objects.values_list("pk", "fingerprint"))
    assert after[club_game.pk] == expected[club_game.pk]
    assert after[line_game.pk] == expected[line_game.pk]
    assert after[ranked.pk] == "untouched"
