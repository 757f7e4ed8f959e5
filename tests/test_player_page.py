"""The player page and the champions page stay the size of what they show however long the
club's history: the player page's figures from monthly totals equal those
computed game by game, its games list is read a page at a time, a long period's totals go by
year and its chart by month or quarter; the champions page shows the last 12 months or one
year, with links to every year."""

from __future__ import annotations

import datetime
import random
import re
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubsite.models import Member
from scoring import standings as st
from scoring.upkeep.history_seeding import seed_history
from scoring.upkeep.sample_games import sample_hands as hands_of
from scoring.views import player as player_views
from tests.test_standings import D, build_history, queries_of, store


def figures(member: Member, period: st.Period, chart_games: int) -> tuple:
    page = st.player_page(member.pk, period, chart_games=chart_games)
    return (
        page.months,
        page.game_count,
        page.total_points,
        page.rank_sum,
        page.hands,
        page.last_games,
        list(page.games[0 : page.game_count]),
    )


@pytest.mark.parametrize("chart_games", [5, 500])
@pytest.mark.parametrize(
    "period",
    [st.all_time_period(), st.year_period(2025), st.range_period(D(2025, 2, 3), D(2025, 9, 17))],
    ids=["all-time", "year", "range"],
)
def test_its_figures_equal_the_game_by_game_ones(db, period, chart_games):
    players = build_history(30)
    for member in players:
        stats = st.player_stats(member.pk, period)
        page = st.player_page(member.pk, period, chart_games=chart_games)
        assert page.months == stats.months
        assert page.game_count == len(stats.games)
        assert page.total_points == sum(g.points for g in stats.games)
        assert page.rank_sum == sum(g.rank for g in stats.games)
        assert page.hands == stats.hands
        assert page.last_games == stats.last_games
        assert list(page.games[0 : page.game_count]) == list(reversed(stats.games))
        if page.game_count > chart_games:
            assert page.cumulative_by_month
            # The running total at each month's end is that of the month's last game.
            month_ends = {(p.played_on.year, p.played_on.month): p for p in stats.cumulative}
            assert [p.cumulative for p in page.cumulative] == [
                p.cumulative for p in month_ends.values()
            ]
        else:
            assert not page.cumulative_by_month
            assert page.cumulative == stats.cumulative


def test_it_reads_one_page_of_games_at_a_time(db):
    players = build_history(30)
    page = st.player_page(players[0].pk, st.all_time_period(), chart_games=5)
    everything = list(page.games[0 : page.game_count])
    assert page.games[3:7] == everything[3:7]
    assert page.games[len(page.games) - 1] == everything[-1]
    assert queries_of(lambda: page.games[0:2]) == 1


def test_it_takes_as_many_queries_for_many_games_as_for_few(db):
    few = build_history(3)
    small = queries_of(lambda: st.player_page(few[0].pk, st.all_time_period(), chart_games=1))
    many = build_history(40, prefix="r")
    large = queries_of(lambda: st.player_page(many[0].pk, st.all_time_period(), chart_games=1))
    assert small == large <= 5


@pytest.fixture
def long_history(db) -> list[Member]:
    """Six members over three years (November 2023 to October 2026), a game a month each
    for four of them."""
    players = [Member.objects.get(pk=m.pk) for m in build_history(0)]
    rng = random.Random(7)
    for index in range(36):
        year, month = divmod(2023 * 12 + 10 + index, 12)
        store(players[:4], D(year, month + 1, 10), hands_of(rng, "makura-1.5"))
    return players


def test_a_long_period_totals_by_year_and_charts_by_quarter(
    long_history: list[Member], client_for: Callable[[Member], Client]
):
    member = long_history[0]
    client = client_for(member)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("member_detail", args=[member.pk]) + "?period=all").text
    months = page[page.index('id="months-head"') : page.index('id="games-head"')]
    assert "By year" in months
    assert [int(y) for y in re.findall(r">(20\d\d)</a></th>", months)] == [2026, 2025, 2024, 2023]
    stats = st.player_stats(member.pk, st.all_time_period())
    chart = page[page.index('id="cumulative-chart"') :]
    # 36 games: a point per game (up to 120), so 36 rows in the chart's table.
    assert chart.count("<tr>") - 1 >= len(stats.cumulative)

    year = client.get(reverse("member_detail", args=[member.pk]) + "?period=year&year=2025").text
    assert "By month" in year[year.index('id="months-head"') :]


def test_the_champions_page_shows_a_year_at_a_time(
    long_history: list[Member], client_for: Callable[[Member], Client], monkeypatch
):
    monkeypatch.setattr(st, "club_today", lambda: datetime.date(2026, 11, 15))
    client = client_for(long_history[0])
    client.cookies["django_language"] = "en"
    recent = client.get(reverse("champions")).text
    months = recent[recent.index('id="months-head"') :]
    # The last 12 completed months: November 2025 to October 2026.
    assert "October 2026" in months and "November 2025" in months
    assert "October 2025" not in months
    years = recent[recent.index('id="champion-years"') :]
    years = years[: years.index("</nav>")]
    assert re.findall(r"\?year=(\d{4})", years) == ["2026", "2025", "2024", "2023"]

    old = client.get(reverse("champions") + "?year=2024").text
    months = old[old.index('id="months-head"') :]
    assert "January 2024" in months and "December 2024" in months
    assert "2025" not in months.split("</table>")[0]
    assert 'aria-current="page">2024' in old


# A member's all-time page, charted by month (beyond CHART_GAMES games): the session, the
# club of the page's scope, the user with the viewer's profile, the member with their online
# names, the stored rulesets (the filter), the versions counted, the monthly totals with the
# hand sums, the latest games, the page of games, the ratings.
PLAYER_PAGE_QUERIES = 10


@pytest.mark.parametrize("years", [1, 3])
def test_the_page_costs_the_same_queries_for_1_and_3_years_and_reads_a_page_of_games(
    db: None,
    years: int,
    client_for: Callable[[Member], Client],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A chart by month beyond 40 games (as beyond CHART_GAMES on a club's page), pages of 10
    # games (of GAMES_PER_PAGE): the shapes of a regular's ten years, without seeding them.
    monkeypatch.setattr(player_views, "CHART_GAMES", 40)
    monkeypatch.setattr(player_views, "GAMES_PER_PAGE", 10)
    today = st.club_today()
    seed_history(years=years, members=10, seed=3, games_per_night=2, end=today)
    busiest = max(st.period_standings(st.all_time_period()).rows, key=lambda row: row.games)
    # The seeded nights fall on weekdays counted back from today, so the exact count moves with
    # the date (46 or 48 on one year); the shape is what matters: beyond the chart's 40 games
    # and more than two pages of 10.
    assert busiest.games > {1: 40, 3: 130}[years]
    member = Member.objects.get(pk=busiest.member_id)
    client = client_for(member)
    client.cookies["django_language"] = "en"
    url = reverse("member_detail", args=[member.pk]) + "?period=all"
    client.get(url)
    for page_number, offset in [(1, ""), (2, " OFFSET 10")]:
        with CaptureQueriesContext(connection) as queries:
            page = client.get(f"{url}&page={page_number}")
        assert page.status_code == 200
        assert len(queries) == PLAYER_PAGE_QUERIES
        # The games list: one query for its 10 games, at the page's offset; no other query
        # reads the member's games (the chart goes by month, the totals by month or year).
        seats = [q["sql"] for q in queries if 'FROM "scoring_countedseat"' in q["sql"]]
        assert len(seats) == 2
        assert [s for s in seats if s.endswith(f"LIMIT 10{offset}")] == [seats[1]]
        assert seats[0].endswith("LIMIT 20")  # the ranks chart's latest games
        assert page.text.count('<tr id="game-') == 10
        assert f"Page {page_number} of {-(-busiest.games // 10)}" in page.text
