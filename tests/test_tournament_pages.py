"""The tournament pages (docs/rules-spec.md §4.1): a steward creates and runs a
GP through the pages, participants see their next table, everyone may look, the chart prints
every round, the CSV and the .ics hold the event, the seating goes out by e-mail, and a
withdrawal re-draws the rounds to come."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubsite.models import Member
from meetings.models import MeetupProfile
from tests.conftest import make_member
from tests.test_tournaments import POINTS, play_round
from tournaments.models import Event, Round
from tournaments.services import event_create, event_draw, participants_set, round_start


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def client_for(client_for: Callable[[Member], Client]) -> Callable[[Member], Client]:
    """The personas' clients, reading the pages in English."""

    def english_client(member: Member) -> Client:
        client = client_for(member)
        client.cookies["django_language"] = "en"
        return client

    return english_client


def token(client: Client, path: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', client.get(path).text)
    assert match, path
    return match.group(1)


def post(client: Client, path: str, data: dict | None = None, *, page: str = "/tournaments/"):
    return client.post(path, {"csrfmiddlewaretoken": token(client, page), **(data or {})})


def field(count: int) -> list[Member]:
    members = []
    for i in range(count):
        member = make_member(f"p{i:02d}", f"P{i:02d}", "")
        member.user.email = f"p{i:02d}@example.org"
        member.user.save()
        MeetupProfile.remember_language(member, "en")  # the site's own language is Japanese
        members.append(member)
    return members


def drawn_gp(players: list[Member]) -> Event:
    event = event_create(
        name="Autumn GP", format_key="gp", ruleset_id="makura-1.5", starts_on=_today(), seed=7
    )
    participants_set(event_id=event.pk, members=players)
    event_draw(event_id=event.pk)
    return event


def _today():
    from scoring.standings import club_today

    return club_today()


def test_it_lets_a_steward_create_seat_draw_and_run_a_gp(
    staff_member, client_for: Callable[[Member], Client], django_capture_on_commit_callbacks
):
    players = field(16)
    steward = client_for(staff_member)
    response = post(
        steward,
        reverse("tournaments:new"),
        {
            "name": "Autumn GP",
            "format": "gp",
            "ruleset": "makura-1.5",
            "starts_on": _today().isoformat(),
            "venue": "Makura Kichijoji",
            "tobi": "",
        },
        page=reverse("tournaments:new"),
    )
    event = Event.objects.get(name="Autumn GP")
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:detail", args=[event.pk])
    assert event.overrides == {"tobi": False}  # GP: "飛びは無し"
    assert [p.kind for p in event.phases.order_by("number")] == ["preliminary", "final"]

    detail = reverse("tournaments:detail", args=[event.pk])
    response = post(
        steward,
        reverse("tournaments:participants", args=[event.pk]),
        {"members": [m.pk for m in players]},
        page=detail,
    )
    assert response.status_code == 302
    assert event.participants.count() == 16
    page = steward.get(detail).text
    assert 'id="draw"' in page and "16 players, seats by lot" in page

    with django_capture_on_commit_callbacks(execute=True):
        response = post(steward, reverse("tournaments:draw", args=[event.pk]), page=detail)
    assert response.status_code == 302
    assert Round.objects.filter(event=event).count() == 4
    # Everyone got their four tables by e-mail.
    assert len(mail.outbox) == 16
    first = next(m for m in mail.outbox if "p00@example.org" in m.to[0])
    assert "Autumn GP: your tables" in first.subject
    assert first.body.count("Round ") == 4

    page = steward.get(detail).text
    assert "Repeat meetings: 0 (the fewest possible)" in page
    assert "wind spread: 1" in page or "wind spread: 0" in page
    assert 'id="start-round"' in page and "Start round 1" in page

    response = post(steward, reverse("tournaments:round_start", args=[event.pk, 1]), page=detail)
    assert response.status_code == 302
    rnd = Round.objects.get(event=event, number=1)
    assert rnd.tables.count() == 4
    page = steward.get(detail).text
    assert "Call time in round 1" in page  # preliminaries are time-limited (T-07)
    assert 'id="start-round"' not in page  # round 2 waits for round 1

    earned = play_round(rnd, better=lambda n: n)
    page = steward.get(detail).text
    assert "Start round 2" in page
    # The ranking shows round 1's points: the best at each table +56.0.
    winner = min(rnd.seating[0])
    assert earned[winner] == POINTS[0]
    row = re.search(rf'<tr id="rank-{winner}".*?</tr>', page, re.S).group(0)
    assert "+56.0" in row


def test_it_shows_a_participant_their_next_table_and_everyone_the_tables(
    client_for: Callable[[Member], Client], outsider
):
    players = field(8)
    event = event_create(
        name="Meijin 2026", format_key="meijin", ruleset_id="makura-1.5", starts_on=_today()
    )
    participants_set(event_id=event.pk, members=players)
    event_draw(event_id=event.pk)
    rnd = Round.objects.get(event=event, number=1)
    number = 0
    table_index = next(i for i, t in enumerate(rnd.seating) if number in t)
    wind = ["East", "South", "West", "North"][rnd.seating[table_index].index(number)]

    page = client_for(players[0]).get(reverse("tournaments:detail", args=[event.pk])).text
    section = re.search(r'<section class="ev-mine" id="next-table".*?</section>', page, re.S)
    assert section
    assert f"Round 1 · table {table_index + 1}" in section.group(0)
    assert wind in section.group(0)
    assert "The steward starts the round" in section.group(0)

    round_start(round_id=rnd.pk)
    mine = client_for(players[0]).get(reverse("tournaments:my_table", args=[event.pk])).text
    assert f"Table {table_index + 1}" in mine
    game = rnd.tables.get(number=table_index + 1).hanchan
    assert reverse("game_detail", args=[game.pk]) in mine

    # Someone not in the event sees the tables but no "next table", and no steward buttons.
    other = client_for(outsider).get(reverse("tournaments:detail", args=[event.pk]))
    assert other.status_code == 200
    assert 'id="next-table"' not in other.text and 'id="next-step"' not in other.text
    assert "P00" in other.text
    assert (
        client_for(outsider).get(reverse("tournaments:my_table", args=[event.pk])).status_code
        == 404
    )


def test_it_refuses_every_steward_action_to_a_member_and_changes_nothing(
    client_for: Callable[[Member], Client], member
):
    players = field(8)
    event = event_create(
        name="Meijin 2026", format_key="meijin", ruleset_id="makura-1.5", starts_on=_today()
    )
    participants_set(event_id=event.pk, members=players)
    client = client_for(member)
    detail = reverse("tournaments:detail", args=[event.pk])
    for path in [
        reverse("tournaments:draw", args=[event.pk]),
        reverse("tournaments:advance", args=[event.pk]),
        reverse("tournaments:participants", args=[event.pk]),
        reverse("tournaments:round_start", args=[event.pk, 1]),
    ]:
        assert post(client, path, page=detail).status_code == 403
    assert client.get(reverse("tournaments:new")).status_code == 403
    event.refresh_from_db()
    assert event.status == Event.Status.OPEN
    assert not Round.objects.filter(event=event).exists()


def test_it_says_why_a_field_cannot_be_drawn(staff_member, client_for):
    players = field(8)
    event = event_create(name="GP", format_key="gp", ruleset_id="makura-1.5", starts_on=_today())
    participants_set(event_id=event.pk, members=players)
    steward = client_for(staff_member)
    detail = reverse("tournaments:detail", args=[event.pk])
    response = post(
        steward,
        reverse("tournaments:participants", args=[event.pk]),
        {"members": [m.pk for m in players[:6]]},
        page=detail,
    )
    # The picker again with why, the six still ticked (a form error: 200, nothing saved).
    assert response.status_code == 200
    assert "6 players cannot sit at tables of 4." in response.text
    assert response.text.count("checked") == 6
    assert event.participants.count() == 8


def test_it_creates_a_custom_tournament_and_refuses_finalists_without_finals(
    staff_member, client_for
):
    steward = client_for(staff_member)
    new = reverse("tournaments:new")
    data = {
        "name": "Club cup",
        "format": "custom",
        "ruleset": "makura-1.5",
        "starts_on": _today().isoformat(),
        "preliminary_rounds": "3",
        "preliminary_seating": "lot",
        "final_rounds": "0",
        "finalists": "4",
    }
    response = post(steward, new, data, page=new)
    assert response.status_code == 200
    assert "Finalists need final games." in response.text
    assert not Event.objects.exists()
    data |= {"final_rounds": "1", "carry_over": "on", "tobi": "on"}
    response = post(steward, new, data, page=new)
    event = Event.objects.get()
    assert response.status_code == 302
    phases = list(event.phases.order_by("number"))
    assert [(p.kind, p.rounds, p.qualifiers, p.counts) for p in phases] == [
        ("preliminary", 3, None, True),
        ("final", 1, 4, True),
    ]
    assert event.overrides == {}  # "a bust ends the game" is what Makura 1.5 says already


def test_it_prints_the_chart_and_exports_the_ranking_and_the_calendar_entry(client_for, member):
    players = field(16)
    event = drawn_gp(players)
    client = client_for(member)
    chart = client.get(reverse("tournaments:chart", args=[event.pk])).text
    for n in range(1, 5):
        assert f"Round {n}</h2>" in chart
    first = Round.objects.get(event=event, number=1).seating[0]
    east = players[first[0]].display_name
    row = re.search(r"<tbody>\s*<tr><th scope=\"row\">1</th>(.*?)</tr>", chart, re.S).group(1)
    assert row.index(east) < row.index(players[first[1]].display_name)
    assert "Where each player sits" in chart

    rnd = Round.objects.get(event=event, number=1)
    round_start(round_id=rnd.pk)
    earned = play_round(rnd, better=lambda n: n)
    response = client.get(reverse("tournaments:csv", args=[event.pk]))
    text = response.content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(text)))
    assert lines[0][:4] == ["Place", "Player", "R1", "R2"]
    best = {players[n].display_name: p for n, p in earned.items()}
    top = lines[1]
    assert best[top[1]] == 56000 and top[2] == "56.0" and top[6] == "56.0"

    ics = client.get(reverse("tournaments:ics", args=[event.pk]))
    assert ics["Content-Type"].startswith("text/calendar")
    body = ics.content.decode()
    assert "SUMMARY:Autumn GP (Mahjong GP)" in body
    assert f"DTSTART;VALUE=DATE:{event.starts_on:%Y%m%d}" in body


def test_it_mails_each_player_in_their_own_language(db, django_capture_on_commit_callbacks):
    players = field(8)
    MeetupProfile.remember_language(players[1], "ja")
    event = event_create(
        name="名人戦", format_key="meijin", ruleset_id="makura-1.5", starts_on=_today()
    )
    participants_set(event_id=event.pk, members=players)
    with django_capture_on_commit_callbacks(execute=True):
        event_draw(event_id=event.pk)
    assert len(mail.outbox) == 8
    japanese = next(m for m in mail.outbox if "p01@" in m.to[0])
    english = next(m for m in mail.outbox if "p00@" in m.to[0])
    assert "1回戦：" in japanese.body and "さんの卓" in japanese.body
    assert "Round 1: table" in english.body
    assert "Round 3" not in english.body  # games 3- are seated by standing later (T-03)


def test_a_withdrawal_redraws_the_rounds_to_come(staff_member, client_for):
    players = field(20)
    event = drawn_gp(players)
    first = Round.objects.get(event=event, number=1)
    round_start(round_id=first.pk)
    play_round(first, better=lambda n: n)
    leaving = first.seating[0]  # a whole table leaves
    steward = client_for(staff_member)
    detail = reverse("tournaments:detail", args=[event.pk])
    response = post(
        steward,
        reverse("tournaments:withdraw", args=[event.pk]),
        {"numbers": leaving},
        page=detail,
    )
    assert response.status_code == 302
    for rnd in Round.objects.filter(event=event, number__gt=1):
        seated = [n for table in rnd.seating for n in table]
        assert sorted(seated) == sorted(set(range(20)) - set(leaving))
        assert len(rnd.seating) == 4
    assert Round.objects.get(pk=first.pk).seating == first.seating  # played stays as played
    page = steward.get(detail).text
    assert page.count("(withdrew)") == 4

    # One more player alone would leave 15: refused, nothing changed.
    response = post(
        steward,
        reverse("tournaments:withdraw", args=[event.pk]),
        {"numbers": [next(n for n in range(20) if n not in leaving)]},
        page=detail,
    )
    assert response.status_code == 409
    assert "15 players would remain" in response.text
    assert event.participants.filter(withdrawn=True).count() == 4


def test_it_lists_tournaments_by_state(client_for, member, staff_member):
    running = drawn_gp(field(16))
    coming = event_create(
        name="Meijin 2027", format_key="meijin", ruleset_id="makura-1.5", starts_on=_today()
    )
    page = client_for(member).get(reverse("tournaments:list")).text
    being_played = re.search(r'<section class="ev-section" id="running">.*?</section>', page, re.S)
    upcoming = re.search(r'<section class="ev-section" id="coming">.*?</section>', page, re.S)
    assert running.name in being_played.group(0) and coming.name not in being_played.group(0)
    assert coming.name in upcoming.group(0)
    assert 'id="new-event"' not in page
    assert 'id="new-event"' in client_for(staff_member).get(reverse("tournaments:list")).text


def test_the_event_page_names_its_ruleset_in_the_readers_language(client_for, member):
    event = drawn_gp(field(16))
    client = client_for(member)
    client.cookies["django_language"] = "ja"
    page = client.get(reverse("tournaments:detail", args=[event.pk])).text
    assert "枕倶楽部 標準ルール v1.5" in page
    assert ">makura-1.5<" not in page
