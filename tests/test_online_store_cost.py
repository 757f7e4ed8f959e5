"""Storing online logs: a batch (:func:`scoring.ledger.import_logs`) stores
each log as :func:`scoring.ledger.import_verified` does, with the members' roll-ups refreshed
and ``games_counted`` sent once, in a bounded number of statements per log."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubsite.models import Member, OnlineName
from scoring.ledger import (
    AlreadyImported,
    games_counted,
    import_logs,
    import_verified,
    match_players,
)
from scoring.models import CountedSeat, Hanchan, HandSeat, MemberMonth, MemberYear, OnlineGame
from scoring.online.reading import read_game_file
from scoring.online.verify import VerifiedGame, verify

DATA = Path(__file__).resolve().parent / "data" / "online" / "mjlog-gz"
PLAYED_ON = datetime.date(2026, 1, 10)
# Statements of a batch of 10 logs of known players (29 measured on SQLite, 30 on
# PostgreSQL: the online names, origins, duplicates, ruleset versions, bulk writes and the
# roll-ups, each once); a log stored one by one once took 49, import_verified alone
# takes 24.
MAX_STATEMENTS_10_LOGS = 32
# Statements a log adds to a batch (0 measured: every statement is the batch's).
MAX_STATEMENTS_PER_MORE_LOG = 0


def logs(count: int) -> list[VerifiedGame]:
    games = []
    for path in sorted(DATA.glob("*.mjlog"))[:count]:
        log = read_game_file(path.read_bytes(), path.name).log
        assert log is not None
        games.append(verify(log))
    return games


def known_players(games: list[VerifiedGame]) -> None:
    """Every seat's online name saved for a member (the steady state of a club's imports)."""
    for game in games:
        for name in game.log.players:
            if not OnlineName.objects.filter(service=game.log.service, name=name).exists():
                number = Member.objects.count() + 1
                user = get_user_model().objects.create_user(username=f"player{number}")
                member = Member.objects.create(user=user, display_name=f"Player {number}")
                OnlineName.objects.create(service=game.log.service, name=name, member=member)


def rollups() -> list[tuple[object, ...]]:
    months = MemberMonth.objects.order_by("member_id", "ruleset_version_id", "month")
    years = MemberYear.objects.order_by("member_id", "ruleset_version_id", "year")
    fields = ("member_id", "ruleset_version_id", "games", "total_points", "rank_sum",
              "hands", "wins", "riichi", "win_points")  # fmt: skip
    # The best game's points (its id, below them, differs once the games are stored again).
    return [
        *(("m", row.month, row.best >> 32, *(getattr(row, f) for f in fields)) for row in months),
        *(("y", row.year, row.best >> 32, *(getattr(row, f) for f in fields)) for row in years),
    ]


def stored() -> list[tuple[object, ...]]:
    return sorted(
        CountedSeat.objects.values_list(
            "member_id", "played_on", "seat", "final_score", "rank", "points", "hands", "wins"
        )
    )


@pytest.mark.django_db
def test_a_batch_stores_what_one_by_one_stores() -> None:
    games = logs(6)
    known_players(games)
    for game in games:
        import_verified(game, match_players(game.log), played_on=PLAYED_ON)
    one_by_one = (stored(), rollups(), HandSeat.objects.count())
    assert len(one_by_one[0]) == 24 and one_by_one[1]
    Hanchan.objects.all().delete()
    MemberMonth.objects.all().delete()
    MemberYear.objects.all().delete()
    sent: list[list[int]] = []

    def heard(sender: object, hanchan_ids: list[int], **kwargs: object) -> None:
        sent.append(list(hanchan_ids))

    games_counted.connect(heard, dispatch_uid="test_batch_heard")
    try:
        outcomes = import_logs(games, played_on=PLAYED_ON)
    finally:
        games_counted.disconnect(dispatch_uid="test_batch_heard")
    assert all(isinstance(o, Hanchan) for o in outcomes)
    assert (stored(), rollups(), HandSeat.objects.count()) == one_by_one
    # One signal for the batch, naming every game stored.
    assert sent == [[h.pk for h in outcomes if isinstance(h, Hanchan)]]
    assert OnlineGame.objects.filter(active=True).count() == 6


@pytest.mark.django_db
def test_a_refused_log_in_a_batch_changes_nothing_and_the_rest_is_stored() -> None:
    games = logs(3)
    known_players(games)
    first = import_verified(games[0], match_players(games[0].log), played_on=PLAYED_ON)
    outcomes = import_logs([games[1], games[0], games[2]], played_on=PLAYED_ON)
    assert isinstance(outcomes[0], Hanchan) and isinstance(outcomes[2], Hanchan)
    assert isinstance(outcomes[1], AlreadyImported) and outcomes[1].hanchan == first
    assert Hanchan.objects.count() == 3
    assert CountedSeat.objects.count() == 12
    assert sum(MemberMonth.objects.values_list("games", flat=True)) == 12


@pytest.mark.django_db
def test_statements_per_stored_log_are_bounded(django_assert_max_num_queries) -> None:
    games = logs(26)
    known_players(games)
    with django_assert_max_num_queries(MAX_STATEMENTS_10_LOGS):
        outcomes = import_logs(games[:10], played_on=PLAYED_ON)
    assert sum(isinstance(o, Hanchan) for o in outcomes) == 10
    with CaptureQueriesContext(connection) as ten:
        import_logs(games[10:20], played_on=PLAYED_ON)
    Hanchan.objects.filter(pk__gt=max(h.pk for h in outcomes if isinstance(h, Hanchan))).delete()
    with CaptureQueriesContext(connection) as sixteen:
        import_logs(games[10:26], played_on=PLAYED_ON)
    assert len(sixteen) - len(ten) <= 6 * MAX_STATEMENTS_PER_MORE_LOG


@pytest.mark.django_db
def test_the_roll_ups_are_refreshed_once_per_batch() -> None:
    games = logs(5)
    known_players(games)
    with CaptureQueriesContext(connection) as queries:
        import_logs(games, played_on=PLAYED_ON)
    deletes = [q["sql"] for q in queries if q["sql"].startswith('DELETE FROM "scoring_member')]
    assert len(deletes) == 2


@pytest.mark.django_db
def test_new_players_in_a_batch_become_one_member_each_across_its_logs() -> None:
    games = logs(4)
    names = {name for game in games for name in game.log.players}
    outcomes = import_logs(games, played_on=PLAYED_ON, create_members=True)
    assert all(isinstance(o, Hanchan) for o in outcomes)
    # A name new in the first log is matched, not created again, in the next ones.
    assert Member.objects.count() == len(names)
    assert OnlineName.objects.count() == len(names)
    again = import_logs(games, played_on=PLAYED_ON)
    assert [o.hanchan for o in again if isinstance(o, AlreadyImported)] == outcomes


@pytest.mark.django_db
def test_a_log_twice_in_one_batch_is_stored_once() -> None:
    games = logs(2)
    known_players(games)
    outcomes = import_logs([games[0], games[1], games[0]], played_on=PLAYED_ON)
    assert isinstance(outcomes[0], Hanchan) and isinstance(outcomes[1], Hanchan)
    assert isinstance(outcomes[2], AlreadyImported) and outcomes[2].hanchan == outcomes[0]
    assert Hanchan.objects.count() == 2 and OnlineGame.objects.count() == 2


@pytest.mark.django_db
def test_import_games_refreshes_the_roll_ups_once_for_all_its_files(tmp_path: Path) -> None:
    from io import StringIO

    from django.core.management import CommandError, call_command

    paths = sorted(DATA.glob("*.mjlog"))[:3]
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with CaptureQueriesContext(connection) as queries, pytest.raises(CommandError):
        call_command(
            "import_games", *paths, bad, "--create-members", stdout=StringIO(), stderr=StringIO()
        )
    deletes = [q["sql"] for q in queries if q["sql"].startswith('DELETE FROM "scoring_member')]
    assert len(deletes) == 2
    # The bad file is refused alone: the three logs are stored and counted.
    assert Hanchan.objects.count() == 3
    assert sum(MemberMonth.objects.values_list("games", flat=True)) == 12
    assert sum(MemberYear.objects.values_list("games", flat=True)) == 12


@pytest.mark.django_db
def test_the_upload_page_refreshes_the_roll_ups_once_for_all_its_files(staff_member) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.urls import reverse

    games = logs(3)
    known_players(games)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(staff_member.user)
    uploads = [SimpleUploadedFile(p.name, p.read_bytes()) for p in sorted(DATA.glob("*.mjlog"))[:3]]
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("game_import"), {"logs": uploads})
    assert response.status_code == 200
    assert response.content.decode().count('class="import-message">Stored') == 3
    deletes = [q["sql"] for q in queries if q["sql"].startswith('DELETE FROM "scoring_member')]
    assert len(deletes) == 2
    assert Hanchan.objects.count() == 3
    assert sum(MemberMonth.objects.values_list("games", flat=True)) == 12


@pytest.mark.django_db
def test_the_upload_page_stores_its_logs_in_one_batch(staff_member, monkeypatch) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.urls import reverse

    import scoring.ledger.online.path as ledger_path

    games = logs(6)
    known_players(games)
    paths = sorted(DATA.glob("*.mjlog"))[:6]
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(staff_member.user)
    batches: list[int] = []
    real = ledger_path.import_logs

    def spy(games: list[VerifiedGame], **kwargs: object) -> list[object]:
        batches.append(len(games))
        return real(games, **kwargs)

    monkeypatch.setattr(ledger_path, "import_logs", spy)
    statements = []
    for count in (2, 5):
        Hanchan.objects.all().delete()
        uploads = [SimpleUploadedFile(p.name, p.read_bytes()) for p in paths[:count]]
        uploads.insert(1, SimpleUploadedFile("notes.json", b"{}"))
        with CaptureQueriesContext(connection) as queries:
            response = client.post(reverse("game_import"), {"logs": uploads})
        page = response.content.decode()
        assert page.count('class="import-message">Stored') == count
        # Each file's outcome at its place: the second file is the one refused.
        assert page.index(paths[0].name) < page.index("Not a game log") < page.index(paths[1].name)
        statements.append(len(queries))
    assert batches == [2, 5]
    # The same statements for 5 logs as for 2 (measured: equal): the batch's are fixed.
    assert statements[1] - statements[0] <= 3 * MAX_STATEMENTS_PER_MORE_LOG


@pytest.mark.django_db
def test_a_member_uploading_a_batch_stores_only_the_games_they_sat_in(member) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.urls import reverse

    games = logs(2)
    known_players(games)
    # Aoki is a seat of the first log only.
    name = next(n for n in games[0].log.players if n not in games[1].log.players)
    OnlineName.objects.filter(service="tenhou", name=name).update(member=member)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(member.user)
    paths = sorted(DATA.glob("*.mjlog"))[:2]
    uploads = [SimpleUploadedFile(p.name, p.read_bytes()) for p in paths]
    page = client.post(reverse("game_import"), {"logs": uploads}).content.decode()
    assert page.count('class="import-message">Stored') == 1
    assert "You did not play in this game" in page
    (stored,) = Hanchan.objects.all()
    assert stored.online.log_id == games[0].log.log_id
    # A member's upload waits for the other players' confirmations.
    assert stored.counted_version is None and not CountedSeat.objects.exists()


@pytest.mark.django_db
def test_import_games_stores_consecutive_logs_in_one_batch(tmp_path: Path, monkeypatch) -> None:
    import json
    from io import StringIO

    from django.core.management import call_command

    import scoring.ledger.online.path as command  # where import_games' logs are stored

    batches: list[int] = []
    real = command.import_logs

    def spy(games: list[VerifiedGame], **kwargs: object) -> list[object]:
        batches.append(len(games))
        return real(games, **kwargs)

    monkeypatch.setattr(command, "import_logs", spy)
    paths = sorted(DATA.glob("*.mjlog"))[:3]
    record = tmp_path / "record.json"
    record.write_text(json.dumps({
        "ruleset": "makura-1.5", "players": ["A", "B", "C", "D"],
        "final_scores": {"scores": [45300, 30000, 19700, 5000]},
    }))  # fmt: skip
    out = StringIO()
    call_command(
        "import_games", paths[0], paths[1], record, paths[2], paths[0], "--create-members",
        stdout=out, stderr=StringIO(),
    )  # fmt: skip
    assert batches == [2, 2]
    # One line a file (after its settlement note, if any), in the order given; the last file
    # is the first log again.
    lines = [line for line in out.getvalue().splitlines() if not line.startswith("note: ")]
    assert [line.split(": ")[0] for line in lines] == [
        str(p) for p in (paths[0], paths[1], record, paths[2], paths[0])
    ]
    assert all("imported tenhou" in line for line in (lines[0], lines[1], lines[3]))
    assert "new member(s)" in lines[0] and "already imported" in lines[4]
    assert Hanchan.objects.count() == 4 and OnlineGame.objects.count() == 3


@pytest.mark.django_db
def test_a_batch_another_import_overtook_is_stored_log_by_log(monkeypatch) -> None:
    from django.db import IntegrityError

    import scoring.ledger.online.store

    games = logs(3)
    known_players(games)
    calls = []

    def overtaken(*args: object, **kwargs: object) -> object:
        # As when another import stored one of these logs first: its unique origin.
        calls.append(1)
        raise IntegrityError("duplicate key value violates unique constraint")

    monkeypatch.setattr(scoring.ledger.online.store, "create_games", overtaken)
    outcomes = import_logs([games[0], games[1], games[0], games[2]], played_on=PLAYED_ON)
    assert calls == [1]
    assert [type(o).__name__ for o in outcomes] == [
        "Hanchan", "Hanchan", "AlreadyImported", "Hanchan"
    ]  # fmt: skip
    assert isinstance(outcomes[2], AlreadyImported) and outcomes[2].hanchan == outcomes[0]
    assert Hanchan.objects.count() == 3 and OnlineGame.objects.filter(active=True).count() == 3
    assert sum(MemberMonth.objects.values_list("games", flat=True)) == 12
