"""Clubs on the command line: the ``--club SLUG`` every command that reads or writes a club's
rows takes (clubsite.club_commands). Without it a one-club site runs as before clubs and a site
of several clubs is asked which (exit status 2, nothing written); with it the command's work is
that club's alone."""

from __future__ import annotations

import datetime
import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management.base import CommandError

from clubsite.club_commands import command_club
from clubsite.club_model import Club
from clubsite.club_scope import club_scope, only_club
from clubsite.club_services import club_create
from clubsite.models import Member
from meetings.models import Meetup, Venue
from ratings.models import RatedGame, Rating
from scoring.models import Hanchan
from scoring.upkeep.sample_games import sample_hands
from tests.conftest import make_member
from tests.test_club_create import refusal, run

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 10, 7)


def record(players: list[str], seed: int) -> dict[str, Any]:
    """A whole makura-1.5 game between ``players``, its hands drawn from ``seed``."""
    return {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": players,
        "hands": sample_hands(random.Random(seed), "makura-1.5"),
        "date": DAY.isoformat(),
    }


@pytest.fixture
def two_clubs() -> tuple[Club, Club]:
    """The site's club (A, slug "club") and North (B), each with four members of its own, two of
    them named alike in both clubs (display names are per club)."""
    a = only_club()
    b = club_create(slug="north", name="North")
    for club, prefix in ((a, "a"), (b, "b")):
        with club_scope(club):
            for number, name in enumerate(["Sato", "Suzuki", f"{prefix}-3", f"{prefix}-4"]):
                make_member(f"{prefix}{number}", name, "")
    return a, b


def club_rows(club: Club) -> dict[str, int]:
    return {
        model.__name__: model.objects.filter(club=club).count()
        for model in (Member, Hanchan, Meetup, Venue, Rating, RatedGame)
    }


def test_a_one_club_site_needs_no_club_option() -> None:
    site = only_club()
    assert command_club({"club": None}) == site
    assert command_club({"club": site.slug}) == site


def test_an_unknown_club_is_named_with_the_clubs_there_are(two_clubs: tuple[Club, Club]) -> None:
    with pytest.raises(CommandError) as refused:
        command_club({"club": "south"})
    assert refused.value.returncode == 2
    assert (
        str(refused.value) == "--club south: no club has that short name (the clubs: club, north)"
    )


def test_a_scope_the_caller_is_in_does_not_choose_the_club(two_clubs: tuple[Club, Club]) -> None:
    """call_command from inside a club's scope runs as the shell would: no scope there."""
    _a, b = two_clubs
    with club_scope(b), pytest.raises(CommandError, match="say which: --club SLUG"):
        command_club({"club": None})


def write_record(tmp_path: Path, players: list[str], seed: int) -> Path:
    path = tmp_path / f"game-{seed}.json"
    path.write_text(json.dumps(record(players, seed)), encoding="utf-8")
    return path


# Every command that reads or writes a club's rows, as a site of several clubs may run it.
CLUB_COMMANDS = [
    ["export_games"],
    ["import_games", "{game}", "--create-members"],
    ["player_stats"],
    ["seed_history", "--years", "1", "--members", "8", "--end", "2026-10-31"],
    ["restore_drill", "--figures", "--today", "2026-11-01"],
    ["qualifiers", "grand-champion", "--year", "2026"],
    ["rating_rebuild"],
    ["recount_guest_games"],
    ["rating_eval", "--rounds", "1"],
    ["load_demo", "--force"],
    ["send_meetup_reminders", "--hours", "0"],
]


@pytest.mark.parametrize("args", CLUB_COMMANDS, ids=lambda args: args[0])
def test_without_club_a_site_of_several_clubs_is_asked_which_and_nothing_is_written(
    two_clubs: tuple[Club, Club], tmp_path: Path, args: list[str]
) -> None:
    a, b = two_clubs
    game = write_record(tmp_path, ["Sato", "Suzuki", "X", "Y"], seed=1)
    before = (club_rows(a), club_rows(b), User.objects.count())
    status, message = refusal(*[arg.replace("{game}", str(game)) for arg in args])
    assert status == 2
    assert "this site holds several clubs; say which: --club SLUG (the clubs: club, north)" in (
        message
    )
    assert (club_rows(a), club_rows(b), User.objects.count()) == before


@pytest.mark.parametrize("args", CLUB_COMMANDS, ids=lambda args: args[0])
def test_an_unknown_club_stops_every_command_with_status_2(
    two_clubs: tuple[Club, Club], tmp_path: Path, args: list[str]
) -> None:
    a, b = two_clubs
    before = (club_rows(a), club_rows(b))
    status, message = refusal(*[arg.replace("{game}", "x.json") for arg in args], "--club", "nope")
    assert status == 2 and "--club nope: no club has that short name" in message
    assert (club_rows(a), club_rows(b)) == before


def test_player_stats_says_which_club_in_its_own_one_line(two_clubs: tuple[Club, Club]) -> None:
    status, line = refusal("player_stats")
    assert status == 2
    assert line == (
        "player_stats: this site holds several clubs; say which: --club SLUG "
        "(the clubs: club, north)\n"
    )


def test_import_games_stores_into_the_club_named_and_finds_duplicates_in_it_alone(
    two_clubs: tuple[Club, Club], tmp_path: Path, every_club: None
) -> None:
    a, b = two_clubs
    game = write_record(tmp_path, ["Sato", "Suzuki", "Tanaka", "Ito"], seed=2)

    out = run("import_games", str(game), "--create-members", "--club", "north")
    stored_b = Hanchan.objects.get(club=b)
    assert out == f"{game}: imported 1 game(s): {stored_b.pk}\n"
    seated = {s.member.display_name: s.member.club_id for s in stored_b.seats.all()}
    # B's own Sato and Suzuki sit; Tanaka and Ito are new members of B's.
    assert seated == {"Sato": b.pk, "Suzuki": b.pk, "Tanaka": b.pk, "Ito": b.pk}
    assert not Hanchan.objects.filter(club=a).exists()
    assert not Member.objects.filter(club=a, display_name__in=["Tanaka", "Ito"]).exists()

    # The same game is new to the site's club: no duplicate there.
    out = run("import_games", str(game), "--create-members", "--club", "club")
    stored_a = Hanchan.objects.get(club=a)
    assert out == f"{game}: imported 1 game(s): {stored_a.pk}\n"
    assert {s.member.club_id for s in stored_a.seats.all()} == {a.pk}
    assert [s.points for s in stored_a.seats.order_by("index")] == [
        s.points for s in stored_b.seats.order_by("index")
    ]

    # A third time into North: its duplicate, refused, nothing stored.
    status, message = refusal("import_games", str(game), "--club", "north")
    assert status == 2 and message == "1 file(s) not imported; nothing was stored from them"
    assert Hanchan.objects.filter(club=b).count() == 1


def test_export_games_exports_the_named_clubs_games_only(
    two_clubs: tuple[Club, Club], tmp_path: Path, every_club: None
) -> None:
    home = write_record(tmp_path, ["Sato", "Suzuki", "a-3", "a-4"], seed=3)
    run("import_games", str(home), "--club", "club")
    north = write_record(tmp_path, ["Suzuki", "b-3", "Sato", "b-4"], seed=4)
    with pytest.raises(CommandError):
        run("import_games", str(north))  # no --club: asked which
    run("import_games", str(north), "--club", "north")
    a, b = two_clubs

    exported = json.loads(run("export_games", "--club", "north"))
    assert [game["players"] for game in exported] == [["Suzuki", "b-3", "Sato", "b-4"]]
    drawn = record(["Suzuki", "b-3", "Sato", "b-4"], 4)["hands"]
    assert [(h["result"], h.get("wins")) for h in exported[0]["hands"]] == [
        (h["result"], h.get("wins")) for h in drawn
    ]
    # Asked for by id, the other club's game is not North's to export.
    other = Hanchan.objects.get(club=a)
    assert json.loads(run("export_games", "--club", "north", "--id", str(other.pk))) == []
    exported_a = json.loads(run("export_games", "--club", "club"))
    assert [game["players"] for game in exported_a] == [["Sato", "Suzuki", "a-3", "a-4"]]
    assert Hanchan.objects.filter(club=b).count() == 1


def test_seed_history_writes_into_the_named_club_only(
    two_clubs: tuple[Club, Club], every_club: None
) -> None:
    a, b = two_clubs
    before_a = club_rows(a)
    out = run(
        "seed_history", "--years", "1", "--members", "8", "--end", "2026-10-31", "--club", "north"
    )
    assert out.splitlines()[-1].startswith("Created 8 members, ")
    assert Member.objects.filter(club=b).count() == 4 + 8
    games = Hanchan.objects.filter(club=b)
    assert games.count() > 30
    # Every seat of North's games is a member of North's.
    assert set(games.values_list("seats__member__club", flat=True)) == {b.pk}
    assert club_rows(a) == before_a


def test_load_demo_fills_a_second_club_with_logins_of_its_own(every_club: None) -> None:
    a = only_club()
    b = club_create(slug="north", name="North")
    out = run("load_demo", "--force", "--club", "club")
    assert "Log in as aoki / mahjong-demo" in out
    out = run("load_demo", "--force", "--club", "north")
    assert out.endswith("3 meetups. Log in as north-aoki / mahjong-demo.\n")
    assert Member.objects.get(club=b, display_name="青木").user.username == "north-aoki"
    assert club_rows(a)["Hanchan"] == club_rows(b)["Hanchan"] == 7
    assert club_rows(a)["Member"] == club_rows(b)["Member"] == 12
    assert Meetup.objects.filter(club=b).count() == 3
    # North's meetups are at a venue of North's.
    assert set(Meetup.objects.filter(club=b).values_list("venue__club", flat=True)) == {b.pk}
    again = run("load_demo", "--force", "--club", "north")
    assert again == "Members exist already: no demo data loaded.\n"
