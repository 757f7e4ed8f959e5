"""Words and numbers of the tournament pages: a table's name built for the
reader, the game's history in words, the ranking CSV's plain numbers, the "fewest possible"
repeat meetings a true figure, finals that say they were seated by standing, and a game's page
that leads back to its event and to "my table"."""

from __future__ import annotations

import csv
import importlib
import io
from collections.abc import Callable

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubsite.models import Member
from scoring.ledger import hanchan_call_time, hanchan_start
from scoring.models import Hanchan, LedgerChange
from scoring.standings import club_today
from scoring.views.confirmation_panel import ACTION_TEXT, history_rows
from tests.test_tournaments import members, play_round, run_rounds
from tournaments.models import Event, Round, Table
from tournaments.services import (
    event_advance,
    event_create,
    event_draw,
    participants_set,
    round_start,
)
from tournaments.templatetags.tournament_games import tournament_links


@pytest.fixture
def reader(client_for: Callable[[Member], Client]) -> Callable[[Member, str], Client]:
    """A member's client reading the pages in ``language``."""

    def client(member: Member, language: str) -> Client:
        logged_in = client_for(member)
        logged_in.cookies["django_language"] = language
        return logged_in

    return client


def started_gp(players: list[Member], *, name: str = "Autumn GP") -> Event:
    event = event_create(
        name=name, format_key="gp", ruleset_id="makura-1.5", starts_on=club_today(), seed=7
    )
    participants_set(event_id=event.pk, members=players)
    event_draw(event_id=event.pk)
    with translation.override("ja"):  # the steward reads Japanese: nothing of it is stored
        round_start(round_id=Round.objects.get(event=event, number=1).pk)
    return event


def test_a_table_game_is_named_in_the_readers_language(db, reader):
    players = members(16)
    event = started_gp(players)
    table = Table.objects.get(round__event=event, round__number=1, number=2)
    assert table.hanchan.table_name == "2"
    player = players[Round.objects.get(event=event, number=1).seating[1][0]]
    page = reverse("game_detail", args=[table.hanchan_id])

    japanese = reader(player, "ja").get(page).text
    assert "2卓" in japanese and "卓卓" not in japanese
    assert "1回戦 2番卓" in japanese
    english = reader(player, "en").get(page).text
    assert "Table 2" in english and "Round 1, table 2" in english
    assert "回戦" not in english and "第" not in english


def test_a_table_game_links_to_its_event_and_my_table_in_one_query(
    db, reader, django_assert_num_queries
):
    players = members(16)
    event = started_gp(players)
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    html = reader(players[0], "en").get(reverse("game_detail", args=[table.hanchan_id])).text
    block = html[html.index('id="tournament-game"') :]
    block = block[: block.index("</nav>")]
    assert f'href="{reverse("tournaments:detail", args=[event.pk])}"' in block
    assert "Autumn GP" in block
    assert f'href="{reverse("tournaments:my_table", args=[event.pk])}"' in block
    hanchan = table.hanchan
    with django_assert_num_queries(1):
        found = tournament_links(hanchan)["event_table"]
        assert (found, found.round.number, found.round.event.name) == (table, 1, "Autumn GP")


def test_a_club_game_has_no_tournament_links(db, reader, member, other_member, outsider):
    fourth = members(1)[0]
    game = hanchan_start(
        ruleset_id="makura-1.5",
        members=[member, other_member, outsider, fourth],
        played_on=club_today(),
        by=member,
    )
    html = reader(member, "en").get(reverse("game_detail", args=[game.pk])).text
    assert 'id="tournament-game"' not in html


def test_names_stored_in_one_language_are_rewritten_to_the_table_number(db):
    event = started_gp(members(16))
    table = Table.objects.get(round__event=event, round__number=1, number=3)
    Hanchan.objects.filter(pk=table.hanchan_id).update(table_name="Autumn GP 1回戦 3卓")
    migration = importlib.import_module("tournaments.migrations.0002_table_names_by_number")
    migration.names_by_number(apps, None)
    table.hanchan.refresh_from_db()
    assert table.hanchan.table_name == "3"


def test_every_change_of_a_game_has_words_in_both_languages(db):
    event = started_gp(members(16))
    hanchan = Table.objects.get(round__event=event, round__number=1, number=1).hanchan
    hanchan_call_time(hanchan_id=hanchan.pk, by=None)
    assert set(ACTION_TEXT) == set(LedgerChange.Action)
    play_round(Round.objects.get(event=event, number=1), better=lambda n: n)
    actions = set(hanchan.changes.values_list("action", flat=True))
    assert {"time_called", "final_scores"} <= actions
    for language, words in (("en", ["called time", "entered the final scores"]),
                            ("ja", ["時間切れを宣言", "最終持ち点を入力"])):  # fmt: skip
        with translation.override(language):
            said = [row.what for row in history_rows(hanchan)]
        assert all(word in said for word in words), said
        assert not {"time_called", "final_scores"} & set(said)


def test_the_ranking_csv_writes_plain_signed_decimals(db, reader, member):
    players = members(16)
    event = started_gp(players)
    earned = play_round(Round.objects.get(event=event, number=1), better=lambda n: n)
    response = reader(member, "en").get(reverse("tournaments:csv", args=[event.pk]))
    text = response.content.decode("utf-8-sig")
    assert "\N{MINUS SIGN}" not in text and "+" not in text
    rows = list(csv.reader(io.StringIO(text)))[1:]
    by_name = {players[n].display_name: points for n, points in earned.items()}
    for row in rows:
        expected = f"{by_name[row[1]] / 1000:.1f}"
        assert row[2] == expected and row[6] == expected
    assert rows[0][6] == "56.0" and rows[-1][6] == "-45.0"
    assert float(rows[-1][6]) == -45.0


def test_a_meijin_draw_does_not_promise_fewer_repeats_than_possible(db, reader, member):
    event = event_create(
        name="Meijin", format_key="meijin", ruleset_id="makura-1.5", starts_on=club_today()
    )
    participants_set(event_id=event.pk, members=members(8))
    event_draw(event_id=event.pk)
    said = {
        "en": "Repeat meetings: 4 (the fewest possible)",
        "ja": "再対戦：4（これより少ない組み合わせはありません）",
    }
    for language, fewest in said.items():
        html = reader(member, language).get(reverse("tournaments:detail", args=[event.pk])).text
        assert fewest in html
        assert "fewest possible: 0" not in html and "最少：0" not in html


def test_finals_say_they_are_seated_by_standing(db, reader, staff_member):
    event = started_gp(members(16))
    play_round(Round.objects.get(event=event, number=1), better=lambda n: n)
    run_rounds(event, better=lambda n: n)
    event_advance(event_id=event.pk)
    finals = Round.objects.get(event=event, number=5)
    assert finals.phase.seating == "standing" and finals.started_at is None
    html = reader(staff_member, "en").get(reverse("tournaments:detail", args=[event.pk])).text
    section = html[html.index('id="round-5"') :]
    heading = section[: section.index("</h3>")]
    assert "seated by standing" in heading and "drawn" not in heading
    assert "Opens one game per table, seated by standing." in html
    assert "seated as drawn" not in html
    japanese = reader(staff_member, "ja").get(reverse("tournaments:detail", args=[event.pk])).text
    assert "成績順に配席済み" in japanese and "成績順の席で卓ごとに対局を開きます。" in japanese
