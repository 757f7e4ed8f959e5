"""The one online import path in the ledger (:func:`scoring.ledger.import_online`): a listed
lobby's game is verified once, the upload page and ``import_games`` both render its outcomes,
and a result line is stored as a log is (a voided import of it gives way)."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

import scoring.ledger
from clubsite.models import Member, OnlineLobby
from scoring.engine import Game
from scoring.ledger import (
    AlreadyImported,
    ImportOptions,
    hanchan_void,
    import_line_game,
    import_online,
    match_players,
    result_line_game,
)
from scoring.ledger.online.club import club_rules, verified_plan
from scoring.models import Hanchan
from scoring.online.reading import read_game_file
from scoring.online.result_lines import read_result_lines
from scoring.online.verify import verify

DATA = Path(__file__).parent / "data" / "online"
MAJSOUL_30 = DATA / "lobby" / "majsoul-nagashi_mangan_riichi_bets_bug.json"
BRIEF = "L1000 | 00:30 | 四般南喰赤－ | A(+45.0) B(+10.0) C(-15.0) D(-40.0)"


@pytest.fixture
def plays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    played: list[int] = []
    original = Game.play

    def counting(self: Game, hand: Any) -> Any:
        played.append(1)
        return original(self, hand)

    monkeypatch.setattr(Game, "play", counting)
    return played


def test_it_counts_a_listed_lobbys_game_as_verifying_it_again_would(db):
    """The club's ruleset with the lobby's rules as overrides plays as the ruleset the log was
    verified under: the relabelled record and plan are those a second verification gives."""
    OnlineLobby.objects.create(service="majsoul", lobby="1111", ruleset_id="makura-1.5")
    log = read_game_file(MAJSOUL_30.read_bytes(), MAJSOUL_30.name).log
    assert log is not None
    counted = club_rules(verify(log))
    assert counted.service == "" and counted.record["ruleset"] == "makura-1.5"
    again = verify(log, ("makura-1.5",), overrides=counted.record["overrides"])
    assert counted.record == again.record
    assert counted.plan == verified_plan(again)


def test_it_plays_a_listed_lobbys_game_once(db, plays):
    OnlineLobby.objects.create(service="majsoul", lobby="1111", ruleset_id="makura-1.5")
    log = read_game_file(MAJSOUL_30.read_bytes(), MAJSOUL_30.name).log
    assert log is not None
    verify(log)
    verifying = len(plays)
    plays.clear()
    call_command(
        "import_games", str(MAJSOUL_30), "--create-members", stdout=io.StringIO(),
        stderr=io.StringIO(),
    )  # fmt: skip
    game = Hanchan.objects.get()
    assert game.ruleset_version.service == "" and game.ruleset_version.ruleset_id == "makura-1.5"
    assert len(plays) == verifying


def test_the_page_and_the_command_render_the_paths_outcomes(db, staff_member, monkeypatch):
    seen: list[str] = []
    real = scoring.ledger.import_online

    def spy(*args: Any, **kwargs: Any) -> Any:
        for outcome in real(*args, **kwargs):
            seen.append(outcome.status)
            yield outcome

    monkeypatch.setattr("scoring.views.online.import_online", spy)
    monkeypatch.setattr("scoring.management.commands.import_games.import_online", spy)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(staff_member.user)
    upload = SimpleUploadedFile(MAJSOUL_30.name, MAJSOUL_30.read_bytes())
    client.post(reverse("game_import"), {"logs": [upload], "create_members": "on"})
    call_command("import_games", str(MAJSOUL_30), stdout=io.StringIO(), stderr=io.StringIO())
    assert seen == ["stored", "already"]


def test_a_voided_result_line_is_imported_again_as_a_voided_log_is(db, staff_member):
    line = read_result_lines(BRIEF)[0]
    game = result_line_game(line, date(2026, 11, 20))
    first = import_line_game(game, match_players(game.log, create_members=True))
    with pytest.raises(AlreadyImported):
        import_line_game(game, match_players(game.log))
    hanchan_void(hanchan_id=first.pk, expected_version=first.version, by=staff_member, steward=True)
    again = import_line_game(game, match_players(game.log))
    assert again.pk != first.pk and again.online.active
    first.refresh_from_db()
    assert first.status == Hanchan.Status.VOIDED and not first.online.active


def test_a_member_is_refused_a_game_they_did_not_play_in_the_paths_own_words(db, member):
    members = Member.objects.count()
    options = ImportOptions(
        played_on=date(2026, 11, 20), by=member, own_games_only=True, create_members=True
    )
    # The refusal is said in the language active when it is made: English here, whatever an
    # earlier test in the same worker left active.
    with translation.override("en"):
        (outcome,) = import_online([], options, pasted=BRIEF)
        assert outcome.status == "refused" and outcome.line is not None
        assert str(outcome.refusal).startswith("You did not play in this game")
    assert Hanchan.objects.count() == 0 and Member.objects.count() == members
