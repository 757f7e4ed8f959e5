"""Storing online logs (issue 24 item 3): a batch (:func:`scoring.ledger.import_logs`) stores
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
# Statements of a batch of 10 logs of known players (36 measured: one online-name match a
# log, then the origins, duplicates, ruleset versions, bulk inserts and the roll-ups once);
# the issue measured 49 a log stored one by one, import_verified alone takes 24.
MAX_STATEMENTS_10_LOGS = 40
# Statements a log adds to a batch (1 measured: its players' online names).
MAX_STATEMENTS_PER_MORE_LOG = 2


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
