"""One ledger, one trust model: every path into the standings goes
through the table's confirmation, and every reader reads the ledger's one read of
what counts (:mod:`scoring.ledger.counts`).

- An online log uploaded by a member counts once the other seated members confirm it (or a
  steward does); the uploader vouches for their own seat only, so claiming another player's
  online name changes nobody's standings.
- A tournament table entered by one player is shown waiting, with who must confirm; the
  event's ranking, its CSV and the Grand Champion race leave it out, and the next round
  cannot start, until it is confirmed.
"""

from __future__ import annotations

import datetime
import uuid
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from clubsite.models import Member, OnlineName
from scoring import standings as st
from scoring.ledger import (
    LedgerError,
    counts,
    hanchan_confirm,
    hanchan_final_scores,
    hand_record,
)
from scoring.models import Hanchan
from scoring.standings import club_today
from tests.conftest import make_member
from tournaments.live_ranking import event_ranking
from tournaments.models import Event, Round
from tournaments.races import grand_champion_race
from tournaments.services import (
    EventError,
    event_create,
    event_draw,
    participants_set,
    round_start,
)

# A real Tenhou 3-player game (tests/data/online/README.md): its seats' online names.
SANMA = (
    Path(__file__).parent
    / "data"
    / "online"
    / "tenhou-json"
    / "2024010120gm-00b9-0000-e324b88a.json"
)
SANMA_NAMES = ("代々木寿人", "傍若無人51", "れすこ")


def logged_in(member: Member) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(member.user)
    return client


def confirm(game_id: int, version: int, member: Member, *, steward: bool = False) -> bool:
    """``member`` taps "this result is right" on version ``version`` of the game."""
    return hanchan_confirm(
        hanchan_id=game_id,
        expected_version=version,
        user_id=member.user_id,
        by=member,
        steward=steward,
    )


def standing_members() -> set[int]:
    """Members with a row in the all-time standings of Tenhou's 3-player online games."""
    table = st.period_standings(st.all_time_period(), ruleset_ids=["tenhou-3p@tenhou"])
    return {row.member_id for row in table.rows}


@pytest.fixture
def sanma(db: None) -> tuple[Member, Member, Member]:
    """Two members who played the log under their own online names, and one who claims the
    third seat's name without having played it."""
    players = []
    for number, name in enumerate(SANMA_NAMES):
        member = make_member(f"sanma{number}", f"Sanma {number}", f"さんま{number}")
        OnlineName.objects.create(member=member, service="tenhou", name=name)
        players.append(member)
    return players[0], players[1], players[2]


def test_an_upload_by_a_member_counts_only_once_the_others_confirm(sanma):
    claimer, first, second = sanma
    response = logged_in(claimer).post(
        reverse("game_import"), {"logs": [SimpleUploadedFile(SANMA.name, SANMA.read_bytes())]}
    )
    assert "Stored: 1. Refused: 0." in response.content.decode()
    assert "once the other players at the table confirm it" in response.content.decode()
    game = Hanchan.objects.get()
    # The log is from January 2024, a closed year: its players still confirm it (not only a
    # steward), as they would a table game; nothing counts meanwhile.
    assert game.played_on == datetime.date(2024, 1, 1)
    assert game.status == Hanchan.Status.FINISHED and game.counted_version is None
    assert standing_members() == set()
    assert not counts.counted_games().exists()
    # The others see it waiting for their confirmation on their home page.
    home = logged_in(first).get(reverse("game_list")).content.decode()
    assert f'href="/games/{game.pk}/"' in home and "waiting for your confirmation" in home.lower()
    # The claimer vouched for their own seat only: a second tap of theirs is refused.
    with pytest.raises(LedgerError, match="already confirmed"):
        confirm(game.pk, game.version, claimer)
    assert not confirm(game.pk, game.version, first)
    assert standing_members() == set()
    assert confirm(game.pk, game.version, second)
    assert standing_members() == {claimer.pk, first.pk, second.pk}
    assert list(counts.counted_games()) == [game]


def test_a_steward_counts_an_upload_that_its_players_leave_waiting(sanma, staff_member):
    claimer, _, _ = sanma
    logged_in(claimer).post(
        reverse("game_import"), {"logs": [SimpleUploadedFile(SANMA.name, SANMA.read_bytes())]}
    )
    game = Hanchan.objects.get()
    assert standing_members() == set()
    assert confirm(game.pk, game.version, staff_member, steward=True)
    assert len(standing_members()) == 3


def test_a_stewards_upload_counts_at_once(sanma, staff_member):
    response = logged_in(staff_member).post(
        reverse("game_import"), {"logs": [SimpleUploadedFile(SANMA.name, SANMA.read_bytes())]}
    )
    assert "Stored: 1." in response.content.decode()
    assert "once the other players" not in response.content.decode()
    assert len(standing_members()) == 3


# -- tournaments ------------------------------------------------------------------------------

# Makura 1.5 §1: these final scores settle to +56.0, +10.0, -21.0, -45.0.
SCORES = [45300, 30000, 19700, 5000]


@pytest.fixture
def gp(db: None) -> tuple[Event, list[Member]]:
    field = [make_member(f"gp{i:02d}", f"GP{i:02d}", "") for i in range(16)]
    event = event_create(
        name="GP 2026", format_key="gp", ruleset_id="makura-1.5", starts_on=club_today(), seed=4
    )
    participants_set(event_id=event.pk, members=field)
    event_draw(event_id=event.pk)
    return event, field


def enter_round(rnd: Round, *, by_player: int | None = None) -> None:
    """Enter every table of ``rnd`` as final scores by a command (it counts at once), except
    table ``by_player`` (a number from 1), entered by the player in its first seat."""
    for table in rnd.tables.order_by("number").select_related("hanchan"):
        entrant = None
        if table.number == by_player:
            entrant = table.hanchan.seats.get(index=0).member
        hanchan_final_scores(
            hanchan_id=table.hanchan_id,
            final_scores={"scores": SCORES},
            expected_version=table.hanchan.version,
            by=entrant,
        )


def test_a_tournament_table_entered_by_one_player_waits_for_confirmation(gp, staff_member):
    event, _ = gp
    first = Round.objects.get(event=event, number=1)
    round_start(round_id=first.pk)
    enter_round(first, by_player=1)
    table = first.tables.get(number=1)
    seated = list(table.hanchan.seats.order_by("index").select_related("member"))
    entrant, others = seated[0].member, [seat.member for seat in seated[1:]]

    # Not in the ranking, nor its CSV, nor the Grand Champion race (the GP counts there).
    ranking = {row.number: row for row in event_ranking(event).rows}
    waiting = {p.number for p in event.participants.filter(member__in=[s.member for s in seated])}
    assert all(ranking[n].games == 0 for n in waiting)
    assert sum(row.games for row in ranking.values()) == 12
    client = logged_in(staff_member)
    csv = client.get(reverse("tournaments:csv", args=[event.pk])).content.decode()
    assert entrant.display_name in csv  # listed, with nothing played
    race = grand_champion_race(club_today().year)
    assert entrant.pk not in {runner.member_id for runner in race.ranking}
    assert others[0].pk not in {runner.member_id for runner in race.ranking}

    # The event page shows the table waiting, and who must confirm.
    html = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert "waiting for confirmation" in html
    assert "To confirm: " + ", ".join(m.display_name for m in others) + "." in html
    # The next round cannot start before the table is confirmed.
    second = Round.objects.get(event=event, number=2)
    with pytest.raises(EventError, match="confirmed"):
        round_start(round_id=second.pk)

    for member in others:
        confirm(table.hanchan_id, 1, member)
    ranking = {row.number: row for row in event_ranking(event).rows}
    assert all(row.games == 1 for row in ranking.values())
    assert sorted(ranking[n].total for n in waiting) == [-45000, -21000, 10000, 56000]
    race = grand_champion_race(club_today().year)
    assert entrant.pk in {runner.member_id for runner in race.ranking}
    html = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert "To confirm:" not in html
    round_start(round_id=second.pk)
    assert Round.objects.get(pk=second.pk).started_at is not None


def test_a_steward_confirms_a_tournament_table(gp, staff_member):
    event, _ = gp
    first = Round.objects.get(event=event, number=1)
    round_start(round_id=first.pk)
    enter_round(first, by_player=2)
    table = first.tables.get(number=2)
    assert counts.is_waiting(Hanchan.objects.get(pk=table.hanchan_id))
    confirm(table.hanchan_id, 1, staff_member, steward=True)
    assert counts.is_settled(Hanchan.objects.get(pk=table.hanchan_id))
    assert sum(row.games for row in event_ranking(event).rows) == 16


def test_the_standings_count_a_game_only_once_confirmed_and_say_what_waits(
    table_game: Hanchan, member: Member, staff_member: Member
):
    """A finished table game entered by one player: not in the month's standings, which say
    that one game waits; confirmed by a steward, it is in and nothing waits."""
    hand_record(
        hanchan_id=table_game.pk,
        hand={"result": "ron", "loser": 0, "wins": [{"winner": 1, "limit": "yakuman"}]},
        expected_version=0,
        request_id=uuid.uuid4(),
        by=member,
    )
    client = logged_in(member)
    html = client.get(reverse("standings")).content.decode()
    assert "1 game of this period waits for its table's confirmation" in html
    assert "No finished games in this period." in html
    ja = Client(HTTP_ACCEPT_LANGUAGE="ja")
    ja.force_login(member.user)
    assert "承認待ち" in ja.get(reverse("standings")).content.decode()
    confirm(table_game.pk, 1, staff_member, steward=True)
    html = client.get(reverse("standings")).content.decode()
    assert 'id="standings-waiting"' not in html
    assert member.display_name in html
