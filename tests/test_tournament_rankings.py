"""Rankings that read right: the Grand Champion's finals and preliminaries
in columns of their own, ranked by the finals (T-01) with the deciding columns first, and one
tie order, by the reading of the name, in the events as in the races."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from clubsite.models import Member
from scoring.standings import club_today
from tests.conftest import make_member
from tests.test_tournaments import members, run_rounds
from tournaments.live_ranking import event_ranking
from tournaments.models import Event
from tournaments.ranking import GameResult, ranking, seating_order
from tournaments.services import event_advance, event_create, event_draw, participants_set


def ranking_rows(html: str) -> list[list[str]]:
    """The ranking table's rows as their cells' text."""
    table = re.search(r'<table class="standings-table ev-ranking">(.*?)</table>', html, re.S)
    assert table
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.S):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        rows.append([" ".join(re.sub(r"<[^>]+>", "", c).split()) for c in cells])
    return rows


@pytest.fixture
def reader(client_for: Callable[[Member], Client]) -> Callable[[Member], Client]:
    def english(member: Member) -> Client:
        client = client_for(member)
        client.cookies["django_language"] = "en"
        return client

    return english


def test_the_grand_champion_shows_finals_and_preliminaries_apart(db, reader):
    field = members(8)
    event = event_create(
        name="GC", format_key="grand_champion", ruleset_id="makura-1.5",
        starts_on=club_today(), seed=11,
    )  # fmt: skip
    participants_set(event_id=event.pk, members=field)
    event_draw(event_id=event.pk)
    prelims = {n: sum(p) for n, p in run_rounds(event, better=lambda n: n).items()}
    event_advance(event_id=event.pk)
    page = reverse("tournaments:detail", args=[event.pk])

    # The finals are seated, none played: the finalists stand in their preliminary order,
    # their finals column empty (not 0.0), the preliminaries' leader first.
    rows = ranking_rows(reader(field[0]).get(page).text)
    assert rows[0][:5] == ["#", "Player", "Finals", "Preliminaries", "R1"]
    by_prelims = sorted(range(8), key=lambda n: (-prelims[n], n))
    assert [row[1] for row in rows[1:]] == [field[n].display_name for n in by_prelims]
    leader = rows[1]
    assert leader[2] == "–" and float(leader[3].replace("−", "-")) == prelims[0] / 1000

    finals = {n: sum(p) for n, p in run_rounds(event, better=lambda n: -n).items()}
    event_advance(event_id=event.pk)
    rows = ranking_rows(reader(field[0]).get(page).text)[1:]
    top4 = by_prelims[:4]
    champion = max(top4, key=lambda n: finals[n])
    assert rows[0][1] == field[champion].display_name
    assert float(rows[0][2].replace("−", "-").lstrip("+")) == finals[champion] / 1000
    assert float(rows[0][3].replace("−", "-").lstrip("+")) == prelims[champion] / 1000
    # Finalists by the finals alone; the others show no finals and rank by the preliminaries.
    assert [row[1] for row in rows[:4]] == [
        field[n].display_name for n in sorted(top4, key=lambda n: -finals[n])
    ]
    assert all(row[2] == "–" for row in rows[4:])
    assert [row[1] for row in rows[4:]] == [field[n].display_name for n in by_prelims[4:]]

    # The CSV has the same two columns, in plain signed decimals.
    text = reader(field[0]).get(reverse("tournaments:csv", args=[event.pk])).content
    lines = list(csv.reader(io.StringIO(text.decode("utf-8-sig"))))
    header = lines[0]
    finals_at, prelims_at = header.index("Finals"), header.index("Preliminaries")
    assert "Total" not in header
    first, last = lines[1], lines[-1]
    assert first[1] == field[champion].display_name
    assert first[finals_at] == f"{finals[champion] / 1000:.1f}"
    assert first[prelims_at] == f"{prelims[champion] / 1000:.1f}"
    worst = by_prelims[-1]
    assert last[finals_at] == "" and last[prelims_at] == f"{prelims[worst] / 1000:.1f}"


def test_equal_totals_follow_the_reading_not_the_kanji_code(db):
    # 渡辺 (U+6E21) sorts before 阿部 (U+963F) by code; by reading あべ comes before わたなべ.
    rows = ranking(
        [(0, "渡辺", False, "わたなべ"), (1, "阿部", False, "あべ")],
        [GameResult(0, 1, True, 10000, 2), GameResult(1, 1, True, 10000, 2)],
    )
    assert [row.name for row in rows] == ["阿部", "渡辺"]
    assert [row.name for row in seating_order(rows)] == ["阿部", "渡辺"]


def test_an_event_orders_equal_players_by_reading(db):
    players = [
        make_member("watanabe", "渡辺", "わたなべ"),
        make_member("abe", "阿部", "あべ"),
        make_member("ueda", "上田", "うえだ"),
        make_member("kato", "加藤", "かとう"),
    ]
    event = event_create(
        name="GP", format_key="gp", ruleset_id="makura-1.5", starts_on=club_today(), seed=1
    )
    participants_set(event_id=event.pk, members=players)
    event_draw(event_id=event.pk)
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    # Nobody has played: everyone level, in the order of their readings.
    assert [row.name for row in event_ranking(event).rows] == ["阿部", "上田", "加藤", "渡辺"]


def test_the_csv_marks_no_withdrawn_player_and_no_one_without_finals_as_a_finalist(db, reader):
    """The CSV's "Finalist" column said 1 for a withdrawn player."""
    from tests.test_tournaments import play_round
    from tournaments import formats
    from tournaments.models import Round
    from tournaments.services import participants_withdraw, round_start

    field = members(8)
    event = event_create(
        name="Club open",
        format_key="custom",
        ruleset_id="makura-1.5",
        starts_on=club_today(),
        plan=formats.custom(preliminary_rounds=3),
        seed=4,
    )
    participants_set(event_id=event.pk, members=field)
    event_draw(event_id=event.pk)
    first = Round.objects.get(event=event, number=1)
    round_start(round_id=first.pk)
    first.refresh_from_db()
    play_round(first, better=lambda n: n)
    leaving = Round.objects.get(event=event, number=2).seating[0]
    participants_withdraw(event_id=event.pk, numbers=leaving)
    text = reader(field[0]).get(reverse("tournaments:csv", args=[event.pk])).content
    lines = list(csv.reader(io.StringIO(text.decode("utf-8-sig"))))
    finalist, withdrawn = lines[0].index("Finalist"), lines[0].index("Withdrawn")
    by_name = {line[1]: (line[finalist], line[withdrawn]) for line in lines[1:]}
    left = {field[n].display_name for n in leaving}
    assert {name: cells for name, cells in by_name.items() if name in left} == dict.fromkeys(
        left, ("0", "1")
    )
    assert {cells for name, cells in by_name.items() if name not in left} == {("0", "0")}
