"""Table confirmation: a finished game counts in standings only once its
table (every other seated player, by default) or a steward confirms it; a change to a
counted game waits for confirmation again while the confirmed result stays in force."""

from __future__ import annotations

import datetime
import json
import re
import uuid
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubsite.models import Member
from scoring.ledger import (
    LedgerError,
    StaleHanchan,
    hanchan_confirm,
    hanchan_start,
    hanchan_void,
    hand_correct,
    hand_record,
    hand_undo_last,
)
from scoring.models import Confirmation, CountedSeat, Hanchan
from scoring.standings import club_today, standings
from tests.conftest import make_member

# A bust ends the game at once (Makura 1.5: tobi below 0): seat 2 deals in a yakuman.
YAKUMAN = {"result": "ron", "loser": 2, "wins": [{"winner": 1, "limit": "yakuman"}]}
# The same hand with seat 3 as the winner: still a bust, another winner.
OTHER_WINNER = {"result": "ron", "loser": 2, "wins": [{"winner": 3, "limit": "yakuman"}]}


@pytest.fixture(autouse=True)
def english():
    """The services' refusals are read in English here (the pages choose per request)."""
    with translation.override("en"):
        yield


@pytest.fixture
def players(member: Member, other_member: Member, coordinator: Member, staff_member: Member):
    """Aoki, Baba, Chiba and Doi (Doi is a steward)."""
    return [member, other_member, coordinator, staff_member]


@pytest.fixture
def plain_players(member: Member, other_member: Member, coordinator: Member, outsider: Member):
    """Aoki, Baba, Chiba and Endo: nobody at the table is a steward."""
    return [member, other_member, coordinator, outsider]


def start(players: list[Member], *, played_on: datetime.date | None = None, by=None) -> Hanchan:
    return hanchan_start(
        ruleset_id="makura-1.5",
        members=players,
        played_on=played_on or club_today(),
        by=by or players[0],
    )


def enter(game: Hanchan, hand: dict[str, Any], by: Member) -> Hanchan:
    game.refresh_from_db()
    hand_record(
        hanchan_id=game.pk,
        hand=hand,
        expected_version=game.version,
        request_id=uuid.uuid4(),
        by=by,
        user_id=by.user_id,
    )
    game.refresh_from_db()
    return game


def confirm(game: Hanchan, member: Member, *, steward: bool = False) -> bool:
    game.refresh_from_db()
    return hanchan_confirm(
        hanchan_id=game.pk,
        expected_version=game.version,
        user_id=member.user_id,
        by=member,
        steward=steward,
    )


def counted_points(game: Hanchan) -> dict[str, int]:
    return {
        row.member.display_name: row.points
        for row in CountedSeat.objects.filter(hanchan=game).select_related("member")
    }


def standing_names() -> set[str]:
    today = club_today()
    table = standings(start=today.replace(day=1), end=today, ruleset_ids=None, min_games=0)
    return {row.display_name for row in table.rows}


@pytest.fixture
def finished(plain_players: list[Member]) -> Hanchan:
    """A game Aoki entered alone, ended by tobi after one hand: Baba's yakuman ron on Chiba
    (32,000: Chiba is bust, Makura 1.5 tobi below 0)."""
    game = start(plain_players)
    return enter(game, YAKUMAN, plain_players[0])


def test_a_game_entered_by_one_player_does_not_count(finished, plain_players):
    assert finished.status == Hanchan.Status.FINISHED
    assert finished.counted_version is None
    assert CountedSeat.objects.filter(hanchan=finished).count() == 0
    assert standing_names() == set()
    # Aoki's entry is Aoki's own confirmation; a second tap from Aoki is refused.
    with pytest.raises(LedgerError, match="already confirmed"):
        confirm(finished, plain_players[0])


def test_every_other_player_must_confirm(finished, plain_players):
    aoki, baba, chiba, endo = plain_players
    assert confirm(finished, baba) is False
    assert confirm(finished, chiba) is False
    assert counted_points(finished) == {}
    assert confirm(finished, endo) is True
    finished.refresh_from_db()
    assert finished.counted_version == finished.version
    # Seed 002-style settlement under makura-1.5: the points the seats were settled with.
    seats = {s.member.display_name: s.points for s in finished.seats.select_related("member")}
    assert counted_points(finished) == seats
    assert standing_names() == {"Aoki", "Baba", "Chiba", "Endo"}


def test_someone_not_at_the_table_cannot_confirm(finished, staff_member):
    with pytest.raises(LedgerError, match="Only the players"):
        confirm(finished, staff_member)  # Doi, without a steward's authority here
    assert counted_points(finished) == {}


def test_a_steward_confirms_alone(finished, staff_member):
    assert confirm(finished, staff_member, steward=True) is True
    assert len(counted_points(finished)) == 4
    assert Confirmation.objects.get(hanchan=finished, as_steward=True).member == staff_member


def test_a_stale_confirmation_is_refused(finished, plain_players):
    version = finished.version
    hand_undo_last(hanchan_id=finished.pk, expected_version=version, by=plain_players[0])
    with pytest.raises(StaleHanchan):
        hanchan_confirm(
            hanchan_id=finished.pk,
            expected_version=version,
            user_id=plain_players[1].user_id,
            by=plain_players[1],
            steward=False,
        )


def confirmed(game: Hanchan, players: list[Member]) -> Hanchan:
    for member in players[1:]:
        confirm(game, member)
    game.refresh_from_db()
    assert game.counted_version == game.version
    return game


def test_a_correction_of_a_counted_game_waits_while_the_old_result_stays(finished, plain_players):
    game = confirmed(finished, plain_players)
    before = counted_points(game)
    aoki, baba, *_ = plain_players
    hand_correct(
        hanchan_id=game.pk, sequence=0, hand=OTHER_WINNER, expected_version=game.version, by=baba
    )
    game.refresh_from_db()
    assert game.counted_version != game.version
    assert counted_points(game) == before  # the confirmed result is still in force
    # Baba made the change (vouching for it); the other three confirm it.
    for member in (aoki, plain_players[2], plain_players[3]):
        assert counted_points(game) == before
        confirm(game, member)
    game.refresh_from_db()
    assert game.counted_version == game.version
    assert counted_points(game) != before


def test_an_undo_of_a_counted_game_keeps_the_old_result_counting(finished, plain_players):
    game = confirmed(finished, plain_players)
    before = counted_points(game)
    hand_undo_last(hanchan_id=game.pk, expected_version=game.version, by=plain_players[0])
    game.refresh_from_db()
    assert game.status == Hanchan.Status.IN_PLAY
    assert counted_points(game) == before


def test_a_void_of_a_counted_game_takes_effect_when_confirmed(finished, plain_players):
    game = confirmed(finished, plain_players)
    hanchan_void(hanchan_id=game.pk, expected_version=game.version, by=plain_players[0])
    game.refresh_from_db()
    assert len(counted_points(game)) == 4
    for member in plain_players[1:]:
        confirm(game, member)
    assert counted_points(game) == {}
    assert standing_names() == set()


def test_an_old_game_needs_a_steward(plain_players, staff_member):
    game = start(plain_players, played_on=club_today() - datetime.timedelta(days=2))
    enter(game, YAKUMAN, plain_players[0])
    with pytest.raises(LedgerError, match="steward"):
        confirm(game, plain_players[1])
    assert confirm(game, staff_member, steward=True) is True


def test_yesterdays_game_is_confirmed_by_the_table(plain_players):
    game = start(plain_players, played_on=club_today() - datetime.timedelta(days=1))
    enter(game, YAKUMAN, plain_players[0])
    for member in plain_players[1:3]:
        assert confirm(game, member) is False
    assert confirm(game, plain_players[3]) is True


def test_a_game_started_by_a_member_who_does_not_play_needs_a_steward(plain_players, staff_member):
    game = start(plain_players, by=staff_member)  # Doi starts it without playing
    enter(game, YAKUMAN, plain_players[0])
    for member in plain_players[1:]:
        with pytest.raises(LedgerError, match="steward"):
            confirm(game, member)
    assert counted_points(game) == {}


def test_a_stewards_change_counts_at_once(plain_players, staff_member):
    game = start(plain_players)
    game.refresh_from_db()
    hand_record(
        hanchan_id=game.pk,
        hand=YAKUMAN,
        expected_version=game.version,
        request_id=uuid.uuid4(),
        by=staff_member,
        steward=True,
        user_id=staff_member.user_id,
    )
    assert len(counted_points(game)) == 4


@pytest.mark.parametrize(
    ("policy", "taps_needed"), [("one_other", 1), ("every_other", 3), ("none", 0)]
)
def test_the_club_setting_says_how_many_confirm(club_choices, plain_players, policy, taps_needed):
    club_choices(confirmation=policy)
    game = enter(start(plain_players), YAKUMAN, plain_players[0])
    for tap, member in enumerate(plain_players[1:], start=1):
        if tap > taps_needed:
            break
        assert counted_points(game) == {}
        confirm(game, member)
    assert len(counted_points(game)) == 4


def test_steward_only_setting(club_choices, plain_players, staff_member):
    club_choices(confirmation="steward")
    game = enter(start(plain_players), YAKUMAN, plain_players[0])
    with pytest.raises(LedgerError, match="steward"):
        confirm(game, plain_players[1])
    assert confirm(game, staff_member, steward=True) is True


def test_an_import_by_command_counts_at_once(tmp_path, plain_players):
    record = {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": [m.display_name for m in plain_players],
        "hands": [YAKUMAN],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    call_command("import_games", str(path), "--date", club_today().isoformat(), stdout=None)
    game = Hanchan.objects.get()
    assert game.counted_version == game.version
    assert len(counted_points(game)) == 4


# -- on the pages ------------------------------------------------------------------------


def test_the_table_screen_shows_who_confirmed_and_offers_the_button(
    finished, plain_players, client_for
):
    baba: Client = client_for(plain_players[1])
    html = baba.get(reverse("game_detail", args=[finished.pk])).text
    assert 'class="confirmation awaiting"' in html
    panel = html[html.index('id="confirmation"') :]
    panel = panel[: panel.index("</div>")]
    assert "Aoki" in panel  # confirmed by the one who entered
    assert "Baba, Chiba, Endo" in panel  # waiting for
    assert 'name="version"' in panel

    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]*)"', panel).group(1)
    response = baba.post(
        reverse("game_confirm", args=[finished.pk]),
        {"version": finished.version, "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 302
    finished.refresh_from_db()
    assert [c.member for c in finished.confirmations.filter(version=finished.version)] == [
        plain_players[0],
        plain_players[1],
    ]
    html = baba.get(reverse("game_detail", args=[finished.pk])).text
    panel = html[html.index('id="confirmation"') :]
    assert "Chiba, Endo" in panel[: panel.index("</div>")]
    assert "confirm-result" not in panel[: panel.index("</div>")]


def test_the_home_page_lists_the_games_waiting_for_my_confirmation(
    finished, plain_players, client_for
):
    chiba: Client = client_for(plain_players[2])
    html = chiba.get(reverse("game_list")).text
    section = html[html.index('id="awaiting-mine"') :]
    assert reverse("game_detail", args=[finished.pk]) in section[: section.index("</section>")]
    recent = html[html.index(f'id="game-{finished.pk}"') :]
    assert "awaiting-badge" in recent[: recent.index("</a>")]

    aoki: Client = client_for(plain_players[0])
    assert 'id="awaiting-mine"' not in aoki.get(reverse("game_list")).text


def test_the_history_is_shown_to_players_and_stewards_only(
    finished, plain_players, client_for, staff_member
):
    confirm(finished, plain_players[1])
    for client in (client_for(plain_players[1]), client_for(staff_member)):
        html = client.get(reverse("game_detail", args=[finished.pk])).text
        history = html[html.index('id="game-history"') :]
        history = history[: history.index("</details>")]
        # Newest first: Baba's confirmation, Aoki's hand 1, Aoki's start.
        assert history.count("<li>") == 3
        assert history.index("<b>Baba</b>") < history.index("<b>Aoki</b>")
    fuji = make_member("fuji", "Fuji", "ふじ")
    html = client_for(fuji).get(reverse("game_detail", args=[finished.pk])).text
    assert 'id="game-history"' not in html


def test_the_home_page_takes_the_same_queries_however_many_games_wait(plain_players, client_for):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    baba: Client = client_for(plain_players[1])

    def queries() -> int:
        with CaptureQueriesContext(connection) as context:
            html = baba.get(reverse("game_list")).text
        assert 'id="awaiting-mine"' in html
        return len(context.captured_queries)

    for _ in range(2):
        enter(start(plain_players), YAKUMAN, plain_players[0])
    few = queries()
    for _ in range(4):
        enter(start(plain_players), YAKUMAN, plain_players[0])
    assert queries() == few


def test_a_bad_confirmation_setting_is_a_system_check_error(settings):
    from django.core.checks.registry import registry

    from scoring.checks import confirmation_setting

    assert confirmation_setting in registry.get_checks()
    settings.CLUB_CONFIRMATION = "everyone"
    errors = confirmation_setting()
    assert [e.id for e in errors] == ["scoring.E001"] and "everyone" in errors[0].msg
    settings.CLUB_CONFIRMATION = "one_other"
    assert confirmation_setting() == []
