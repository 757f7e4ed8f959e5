"""The live board: every table of the current round with its state as the
ledger counts it (playing, time up, waiting for confirmation, confirmed), the ranking from
confirmed results only, refreshing itself; without a login only for a public event; Japanese
and English."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import timezone

from clubsite.models import Member
from scoring.ledger import hanchan_call_time, hanchan_final_scores
from tests.conftest import make_member
from tournaments.models import Event, Round
from tournaments.services import event_create, event_draw, participants_set, round_start

# Makura 1.5 §1 settlement of these final scores: +56.0, +10.0, -21.0, -45.0.
SCORES = [45300, 30000, 19700, 5000]


@pytest.fixture
def gp(db) -> Event:
    """A GP for 16 in its first round: table 1 entered by its East player (waiting for the
    others to confirm), table 2 entered by a command (counted at once), table 3 with time
    called, table 4 playing."""
    event = event_create(
        name="GP 2026", format_key="gp", ruleset_id="makura-1.5",
        starts_on=timezone.localdate(), seed=5,
    )  # fmt: skip
    players = [make_member(f"b{i:02d}", f"Player{i:02d}", "") for i in range(16)]
    participants_set(event_id=event.pk, members=players)
    event_draw(event_id=event.pk)
    rnd = Round.objects.get(event=event, number=1)
    round_start(round_id=rnd.pk)
    tables = {t.number: t for t in rnd.tables.select_related("hanchan")}
    for number, entrant in ((1, tables[1].hanchan.seats.get(index=0).member), (2, None)):
        hanchan_final_scores(
            hanchan_id=tables[number].hanchan_id,
            final_scores={"scores": SCORES},
            expected_version=tables[number].hanchan.version,
            by=entrant,
        )
    hanchan_call_time(hanchan_id=tables[3].hanchan_id)
    return event


def names_at(event: Event, table: int) -> list[str]:
    rnd = Round.objects.get(event=event, number=1)
    numbers = rnd.seating[table - 1]
    participants = event.participants.select_related("member")
    by_number = {p.number: p.member.display_name for p in participants}
    return [by_number[n] for n in numbers]


def board_client(member: Member | None, language: str) -> Client:
    client = Client()
    client.cookies["django_language"] = language
    if member is not None:
        client.force_login(member.user)
    return client


def state_of(html: str, table: int) -> str:
    match = re.search(rf'id="board-table-{table}".*?data-state="([a-z_]+)">([^<]+)<', html, re.S)
    assert match, table
    return f"{match.group(1)}: {match.group(2)}"


def test_the_board_shows_each_table_as_the_ledger_counts_it(gp, outsider):
    html = board_client(outsider, "en").get(f"/tournaments/{gp.pk}/board/").text
    assert [state_of(html, n) for n in (1, 2, 3, 4)] == [
        "waiting: waiting for confirmation",
        "confirmed: confirmed",
        "time_up: time up: last hand",
        "playing: playing",
    ]
    assert 'id="board-round">Round 1' in html
    assert re.search(r'class="clock-left">60 min<', html)  # the round's clock
    # Only the confirmed table's players have a game in the ranking: +56.0 ... -45.0.
    confirmed = names_at(gp, 2)
    ranking = re.findall(
        r'<th scope="row" class="board-name">([^<]+)</th>\s*'
        r'<td class="settlement[^"]*">([^<]+)</td>\s*<td class="board-games">(\d)<',
        html,
    )
    assert len(ranking) == 16
    played = {name: (total, games) for name, total, games in ranking if games == "1"}
    assert played == {
        confirmed[0]: ("+56.0", "1"),
        confirmed[1]: ("+10.0", "1"),
        confirmed[2]: ("\u221221.0", "1"),
        confirmed[3]: ("\u221245.0", "1"),
    }
    assert [name for name, _, _ in ranking[:2]] == confirmed[:2]
    waiting_names = set(names_at(gp, 1))
    assert all(games == "0" for name, _, games in ranking if name in waiting_names)


def test_the_board_refreshes_itself_with_a_fragment(gp, outsider):
    client = board_client(outsider, "en")
    page = client.get(f"/tournaments/{gp.pk}/board/").text
    assert f'hx-get="/tournaments/{gp.pk}/board/" hx-trigger="every 20s"' in page
    fragment = client.get(f"/tournaments/{gp.pk}/board/", headers={"HX-Request": "true"}).text
    assert fragment.lstrip().startswith('<div id="board"') and "<html" not in fragment
    assert 'id="board-table-4"' in fragment


def test_the_board_in_japanese(gp, outsider):
    html = board_client(outsider, "ja").get(f"/tournaments/{gp.pk}/board/").text
    assert [state_of(html, n) for n in (1, 2, 3, 4)] == [
        "waiting: 承認待ち",
        "confirmed: 確定",
        "time_up: 時間切れ：最終局",
        "playing: 対局中",
    ]
    assert ">現在の順位</h2>" in html and 'id="board-round">1回戦' in html
    assert "確定した結果のみ。ポイントは千点単位。" in html
    assert "残り時間" in html and "60分" in html


def test_a_members_board_asks_a_visitor_to_log_in(gp):
    response = board_client(None, "en").get(f"/tournaments/{gp.pk}/board/")
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/tournaments/{gp.pk}/board/"


def test_a_public_board_needs_no_login(gp):
    Event.objects.filter(pk=gp.pk).update(public=True)
    response = board_client(None, "en").get(f"/tournaments/{gp.pk}/board/")
    assert response.status_code == 200
    assert state_of(response.text, 3) == "time_up: time up: last hand"


def test_the_board_calls_time_when_the_round_runs_out(gp, outsider):
    rnd = Round.objects.get(event=gp, number=1)
    Round.objects.filter(pk=rnd.pk).update(ends_at=timezone.now())
    html = board_client(outsider, "en").get(f"/tournaments/{gp.pk}/board/").text
    assert state_of(html, 4) == "time_up: time up: last hand"
    assert rnd.tables.get(number=4).hanchan.time_called


def test_the_steward_makes_the_board_public_at_the_desk(gp, client_for, staff_member):
    client = client_for(staff_member)
    client.cookies["django_language"] = "en"
    page = client.get(f"/tournaments/{gp.pk}/edit/").text
    assert "Show the live board without a login" in page
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = client.post(
        f"/tournaments/{gp.pk}/edit/",
        {
            "csrfmiddlewaretoken": token,
            "name": gp.name,
            "starts_on": gp.starts_on.isoformat(),
            "venue": "",
            "public": "on",
        },
    )
    assert response.status_code == 302
    gp.refresh_from_db()
    assert gp.public and gp.format == "gp"  # the format, locked once started, is kept
    assert board_client(None, "en").get(f"/tournaments/{gp.pk}/board/").status_code == 200


def test_the_board_is_a_kiosk_page_without_the_sites_header(gp, staff_member):
    """The venue's screen showed the site's header, with a steward's links."""
    html = board_client(staff_member, "en").get(f"/tournaments/{gp.pk}/board/").text
    assert "<body hx-headers=" in html and ' class="kiosk">' in html
    assert 'class="site-header"' not in html and 'class="site-footer"' not in html
    assert "/desk/" not in html and "/admin/" not in html and "Log out" not in html
    # Every other page keeps them.
    detail = board_client(staff_member, "en").get(f"/tournaments/{gp.pk}/").text
    assert 'class="site-header"' in detail and "/desk/" in detail
