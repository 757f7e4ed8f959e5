"""The champions page's history part costs the same whatever the years of history:
it reads the members' monthly roll-ups (``MemberMonth``) of the last 12 completed
months only, through their (ruleset version, month) index, in a fixed number of queries."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring import standings as st
from scoring.models import MemberMonth
from scoring.standings.periods import half_year_of
from scoring.upkeep.history_seeding import seed_history

# The history's queries: the ruleset versions counted, the members' months, their names.
HISTORY_QUERIES = 3
# The whole page (measured 11 on 1 and on 5 years of history): the session, the club of the
# page's scope, the user with their member profile (clubsite.auth_backends), the first
# counted month, the history, this month's leader (its name: one query where there is one).
PAGE_QUERIES = 11


@pytest.mark.django_db
@pytest.mark.parametrize("years", [1, 5])
def test_the_champions_history_of_a_year_costs_the_same_for_1_and_5_years(years: int) -> None:
    today = st.club_today()
    seed_history(years=years, members=10, seed=3, games_per_night=2, end=today)
    year_ago = st.month_period(today.year - 1, today.month).start
    first = MemberMonth.objects.order_by("month").values_list("month", flat=True).first()
    assert first is not None and first.year <= today.year - years + (0 if years == 1 else 1)
    with CaptureQueriesContext(connection) as queries:
        history = st.champions_history(today=today, since=year_ago)
    assert len(queries) == HISTORY_QUERIES
    # Only the months from the half year of a year ago are read (the half-year titles need
    # them): the range is bounded, whatever came before.
    months = [q["sql"] for q in queries if "scoring_membermonth" in q["sql"]]
    start = half_year_of(year_ago).start.isoformat()
    assert len(months) == 1 and f"BETWEEN '{start}'" in months[0]
    # The completed months from a year ago (or from the first standard-rule game).
    assert len(history.months) <= 12
    if years == 5:
        assert len(history.months) == 12 and history.months[-1].period.start == year_ago
    assert any(t.holders for t in history.months)


@pytest.mark.django_db
@pytest.mark.parametrize("years", [1, 5])
def test_the_champions_page_costs_the_same_for_1_and_5_years(years: int) -> None:
    today = st.club_today()
    seed_history(years=years, members=10, seed=3, games_per_night=2, end=today)
    client = Client()
    client.force_login(get_user_model().objects.order_by("pk")[0])
    client.get("/standings/champions/")
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/standings/champions/")
    assert response.status_code == 200
    # This month's standings read their names only where someone has played enough games so
    # far this month: the seeded nights may have too few yet (the 5 years' on 30 November
    # 2026, club time).
    month = st.period_standings(st.current_month_period(), min_games=settings.CHAMPION_MIN_GAMES)
    assert len(queries) == PAGE_QUERIES - (0 if month.rows else 1)
    assert response.content.count(b"<tr") >= 12
