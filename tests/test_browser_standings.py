"""Monthly standings, a player page and the champions page on a 390 x 844 phone, in
Japanese and in English: log in through the form, read the standings in the order the stored
settlement gives, tap a member's name, and check the games table and both charts. Nothing may
scroll sideways; every screen is saved under tests/screenshots/.

The history is six sample games played this month (club time) by the five personas, each game
without one of them, so everybody has at least the champion's minimum of four games.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.conf import settings

from clubsite.models import Member
from scoring import standings as st
from scoring.ledger import hanchan_import
from scoring.upkeep.sample_games import sample_hands
from scoring.views.standings_filters import thousands_one_decimal
from tests.browser import PHONE, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RULESET = "makura-1.5"  # the club's standard ruleset: these games count by default
LANGUAGES = {
    "ja-JP": {"lang": "ja", "standings": "順位表"},
    "en-US": {"lang": "en", "standings": "Standings"},
}


@pytest.fixture
def personas(
    member: Member,
    other_member: Member,
    coordinator: Member,
    staff_member: Member,
    outsider: Member,
) -> list[Member]:
    return [member, other_member, coordinator, staff_member, outsider]


@pytest.fixture
def history(personas: list[Member]) -> st.Standings:
    """Six finished games today (club time): one without each persona, and one more of the
    first four. Returns the month's standings as the stored settlement gives them."""
    today = st.club_today()
    tables = [[m for m in personas if m is not out] for out in personas] + [personas[:4]]
    for seed, table in enumerate(tables, start=1):
        hands = sample_hands(random.Random(seed), RULESET)
        record = {
            "format": "club-game/1",
            "ruleset": RULESET,
            "players": [m.display_name for m in table],
            "hands": hands,
        }
        hanchan_import(
            record=record, members_by_name={m.display_name: m for m in table}, played_on=today
        )
    table = st.period_standings(st.current_month_period())
    assert len(table.rows) == len(personas)
    assert all(row.games >= settings.CHAMPION_MIN_GAMES for row in table.rows)
    return table


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width} px wide"


def log_in(page: Any, path: str) -> None:
    page.goto(page.base_url + path)
    page.locator("#id_username").fill("aoki")
    page.locator("#id_password").fill("aoki-password")
    page.locator("form[action$='/accounts/login/'] button[type=submit]").click()
    page.wait_for_url(f"**{path}")


@pytest.mark.parametrize("locale", list(LANGUAGES))
def test_standings_and_player_page_fit_a_phone(
    chromium: Any, live_server: Any, history: st.Standings, locale: str
) -> None:
    words = LANGUAGES[locale]
    lang = words["lang"]
    context = chromium.new_context(viewport=PHONE, locale=locale, device_scale_factor=2)
    page = context.new_page()
    page.base_url = live_server.url
    page.set_default_timeout(10_000)
    try:
        log_in(page, "/standings/")
        assert page.locator("html").get_attribute("lang") == lang
        page.get_by_role("heading", name=words["standings"], level=1).wait_for()

        # The rows in the stored settlement's order, with their totals as the page writes them.
        rows = page.locator("table.standings-table > tbody:not(.below-minimum) > tr")
        names = rows.locator("th.col-name").all_inner_texts()
        assert names == [row.display_name for row in history.rows]
        totals = rows.locator("td.settlement b").all_inner_texts()
        assert totals == [thousands_one_decimal(row.total_points) for row in history.rows]
        assert page.locator("tbody.below-minimum").count() == 0
        no_sideways_scroll(page)
        screenshot(page, f"standings-{lang}")

        # Tap the leader's name: their player page for the same month.
        leader = history.rows[0]
        page.locator("th.col-name").get_by_role("link", name=leader.display_name).click()
        page.wait_for_url(f"**/members/{leader.member_id}/**")
        page.get_by_role("heading", name=leader.display_name, level=1).wait_for()
        games = page.locator("table.member-games > tbody > tr")
        assert games.count() == leader.games
        # The member's own figures (the rating's summary follows it, in its own block).
        summary = page.locator(".player-summary").first.inner_text()
        assert thousands_one_decimal(leader.total_points) in summary
        charts = page.locator("section[aria-labelledby=charts-head] figure.chart svg")
        assert charts.count() == 2
        for number in range(2):
            title = charts.nth(number).locator("title").text_content() or ""
            assert title.strip()
            assert charts.nth(number).bounding_box()["width"] <= PHONE["width"]
        no_sideways_scroll(page)
        screenshot(page, f"player-{lang}")

        # The champions page: the leaders of the month, first as on the standings.
        page.goto(page.base_url + "/standings/champions/")
        holders = page.locator(".leader-card .holder-name").all_inner_texts()
        assert holders and holders[0] == leader.display_name
        no_sideways_scroll(page)
        screenshot(page, f"champions-{lang}")
    finally:
        context.close()
