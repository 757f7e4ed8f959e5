"""Tournament games in or out of the standings (rules-spec §4.4 leaves
"whether tournament games count" to the club): the club's default
(the club's ``tournaments_in_standings``), a filter on the standings page and its CSV, over whole
months (the members' monthly totals) and over a date range alike."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from clubsite.models import Member
from scoring import standings as st
from scoring.ledger import hanchan_final_scores, hanchan_start
from scoring.standings import club_today
from tests.conftest import make_member
from tournaments.models import Round
from tournaments.services import event_create, event_draw, participants_set, round_start

# Makura 1.5 §1: 45,300 / 30,000 / 19,700 / 5,000 settle +56.0, +10.0, -21.0, -45.0.
SCORES = [45300, 30000, 19700, 5000]


@pytest.fixture
def games(db, member: Member, other_member: Member, coordinator: Member, outsider: Member):
    """This month: a club game (Aoki 1st, Baba 2nd, Chiba 3rd, Endo 4th) and a GP table
    where Aoki is 4th among three tournament players (both counted at once)."""
    club = hanchan_start(
        ruleset_id="makura-1.5",
        members=[member, other_member, coordinator, outsider],
        played_on=club_today(),
    )
    hanchan_final_scores(
        hanchan_id=club.pk, final_scores={"scores": SCORES}, expected_version=club.version
    )
    guests = [make_member(f"t{i}", f"Guest{i}", "") for i in range(3)]
    event = event_create(
        name="GP", format_key="gp", ruleset_id="makura-1.5", starts_on=club_today(), seed=2
    )
    participants_set(event_id=event.pk, members=[*guests, member])
    event_draw(event_id=event.pk)
    rnd = Round.objects.get(event=event, number=1)
    round_start(round_id=rnd.pk)
    table = rnd.tables.select_related("hanchan").get()
    seated = [seat.member_id for seat in table.hanchan.seats.order_by("index")]
    # Aoki takes 5,000 wherever the draw seated them; the guests the rest in seat order.
    rest = iter(SCORES[:3])
    scores = [5000 if m == member.pk else next(rest) for m in seated]
    hanchan_final_scores(
        hanchan_id=table.hanchan_id, final_scores={"scores": scores}, expected_version=0
    )
    return {"aoki": member, "guests": guests}


def totals(table: st.Standings) -> dict[str, tuple[int, int]]:
    return {row.display_name: (row.total_points, row.games) for row in table.rows}


@pytest.mark.parametrize("whole_months", [True, False])
def test_tournament_games_in_or_out(games, whole_months):
    today = club_today()
    if whole_months:
        period = st.month_period(today.year, today.month)
    else:  # a range: no monthly totals, the counted results themselves
        period = st.range_period(today, today)
    with_them = totals(st.period_standings(period))
    assert with_them["Aoki"] == (56000 - 45000, 2)
    assert with_them["Guest0"][1] == 1
    without = totals(st.period_standings(period, tournaments=False))
    assert without == {
        "Aoki": (56000, 1),
        "Baba": (10000, 1),
        "Chiba": (-21000, 1),
        "Endo": (-45000, 1),
    }


def rows(html: str) -> list[str]:
    names = dict(Member.objects.values_list("pk", "display_name"))
    return [names[int(pk)] for pk in re.findall(r'id="standing-(\d+)"', html)]


def test_the_page_counts_them_by_default_and_filters_them_out(games, client_for):
    client: Client = client_for(games["aoki"])
    client.cookies["django_language"] = "en"
    html = client.get("/standings/").text
    assert len(rows(html)) == 7 and "tournaments-left-out" not in html
    assert '<option value="in" selected>Counted</option>' in html
    html = client.get("/standings/?tournaments=out").text
    assert rows(html) == ["Aoki", "Baba", "Chiba", "Endo"]
    assert 'id="tournaments-left-out">Tournament games are left out.<' in html
    assert '<option value="out" selected>Left out</option>' in html
    # The period links keep the choice.
    previous = re.search(r'href="([^"]+)" rel="prev"', html)
    assert previous is not None and "tournaments=out" in previous[1]
    csv = client.get("/standings/export.csv?tournaments=out").content.decode("utf-8-sig")
    assert "Guest0" not in csv and "Aoki" in csv


def test_the_club_may_leave_them_out_by_default(games, client_for, club_choices):
    club_choices(tournaments_in_standings=False)
    client: Client = client_for(games["aoki"])
    client.cookies["django_language"] = "ja"
    html = client.get("/standings/").text
    assert rows(html) == ["Aoki", "Baba", "Chiba", "Endo"]
    assert "大会の対局は除いています。" in html
    assert '<option value="out" selected>除く</option>' in html
    html = client.get("/standings/?tournaments=in").text
    assert len(rows(html)) == 7
    assert "大会の対局" in html and '<option value="in" selected>含める</option>' in html
