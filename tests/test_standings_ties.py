"""The club's order of equal totals (the seeds are silent, rules-spec T-06): the club's
``standings_ties`` (a new club's ``CLUB_STANDINGS_TIES``, checked at start-up), worded on the
page; and the champions page in
the club's units (the 3-player club's ep, seed 002 L10-24, S-01)."""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
from django.core.checks.registry import registry
from django.test import Client
from django.urls import reverse

from scoring import standings as st
from scoring.checks import standings_ties_setting
from scoring.standings.table import StandingsRow, order_key, table_order_key
from tests.test_club_units import four, store  # noqa: F401 (a fixture)


def row(name: str, *, rank_sum: int, best: int, games: int = 2, firsts: int = 0) -> StandingsRow:
    return StandingsRow(
        member_id=hash(name) % 1000,
        display_name=name,
        games=games,
        total_points=10000,
        rank_sum=rank_sum,
        rank_counts=(firsts, 0, 0, games - firsts),
        lasts=0,
        tobis=0,
        best_points=best,
        best_hanchan_id=1,
    )


def test_the_default_ties_are_average_rank_then_best_game(club_choices):
    club_choices(standings_ties=["average_rank", "best_points"])
    rows = [row("A", rank_sum=5, best=40000), row("B", rank_sum=4, best=20000)]
    assert [r.display_name for r in sorted(rows, key=table_order_key)] == ["B", "A"]
    assert Fraction(rows[1].rank_sum, rows[1].games) == 2


def test_a_club_may_put_the_best_game_first(club_choices):
    club_choices(standings_ties=["best_points", "average_rank"])
    rows = [row("A", rank_sum=5, best=40000), row("B", rank_sum=4, best=20000)]
    assert [r.display_name for r in sorted(rows, key=table_order_key)] == ["A", "B"]
    # One sort key for a whole table asks the club once; named ties leave the club aside.
    assert [r.display_name for r in sorted(rows, key=order_key())] == ["A", "B"]
    assert [r.display_name for r in sorted(rows, key=order_key(["average_rank"]))] == ["B", "A"]


def test_an_unknown_tie_breaker_is_reported_at_start_up(settings):
    settings.CLUB_STANDINGS_TIES = ["average_rank", "luck"]
    (error,) = standings_ties_setting()
    assert error.id == "scoring.E003"
    assert standings_ties_setting in registry.registered_checks  # manage.py check runs it
    settings.CLUB_STANDINGS_TIES = ["games", "games"]
    assert standings_ties_setting()[0].id == "scoring.E003"
    settings.CLUB_STANDINGS_TIES = ["games", "top_rate"]
    assert standings_ties_setting() == []


@pytest.mark.django_db
def test_the_page_words_the_clubs_order(club_choices, member):
    club_choices(standings_ties=["best_points", "games"])
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(member.user)
    html = client.get(reverse("standings")).text
    assert "the club orders them by best game, then games played." in html
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    client.force_login(member.user)
    assert "クラブの決めた最高得点、次に対局数の順" in client.get(reverse("standings")).text


@pytest.mark.django_db
def test_the_3_player_clubs_champions_show_ep(settings, club_choices, four, monkeypatch):  # noqa: F811
    """Seed 002: a club whose standard ruleset is the 3-player one sees its champions' ep
    beside their points (the month's leader, and the titles)."""
    club_choices(standard_rulesets=["sanma-float"])
    settings.CHAMPION_MIN_GAMES = 1
    a, b, c, _ = four
    store("sanma-float", [a, b, c], {"scores": [45000, 31000, 29000]})  # +600 / -200 / -400 ep
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(a.user)
    html = client.get(reverse("champions")).text
    leader = html[html.index('class="title-holders"') :]
    leader = leader[: leader.index("</ul>")]
    assert "Aoki" in leader and "+600 ep" in leader
    # Next month, this month's title is in the table with its ep column.
    today = st.club_today()
    later = (today.replace(day=1) + datetime.timedelta(days=32)).replace(day=1)
    monkeypatch.setattr(st, "club_today", lambda: later)
    monkeypatch.setattr("scoring.views.standings.st.club_today", lambda: later)
    html = client.get(reverse("champions")).text
    months = html[html.index('id="months-head"') :]
    assert '<th scope="col" class="num">ep</th>' in months
    assert '<td class="num unit-ep">+600</td>' in months
