"""A member's figures and a head-to-head on a 390 x 844 phone, in
Japanese and in English: log in, open the figures from the member page, read a figure with
its interval, pick an opponent and read the head-to-head. Nothing may scroll sideways, the
links and the picker are 44 px tap targets; every screen is saved under tests/screenshots/.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from clubsite.models import Member
from scoring import standings as st
from scoring.ledger import hanchan_import
from scoring.stats.families import family_selection
from scoring.stats.figures import player_figures
from scoring.upkeep.sample_games import sample_hands
from tests.browser import PHONE, screenshot
from tests.test_browser_tap_targets import MEASURE, MINIMUM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RULESET = "makura-1.5"
LANGUAGES = {
    "ja-JP": {
        "lang": "ja",
        "figures": "Aoki：詳細成績",
        "win": "和了率",
        "duel": "Aoki 対 Baba",
        "pick": "直接対決",
    },
    "en-US": {
        "lang": "en",
        "figures": "Aoki: figures",
        "win": "Win rate",
        "duel": "Aoki against Baba",
        "pick": "Head to head",
    },
}


@pytest.fixture
def history(
    member: Member, other_member: Member, coordinator: Member, staff_member: Member
) -> list[Member]:
    """Six sample games of the four, by hands, this month (club time)."""
    table = [member, other_member, coordinator, staff_member]
    for seed in range(1, 7):
        record = {
            "format": "club-game/1",
            "ruleset": RULESET,
            "players": [m.display_name for m in table],
            "hands": sample_hands(random.Random(seed), RULESET),
        }
        hanchan_import(
            record=record,
            members_by_name={m.display_name: m for m in table},
            played_on=st.club_today(),
        )
    return table


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width} px wide"


def well_made(page: Any) -> None:
    """Every target 44 px, no text out of its box (tests/test_browser_tap_targets.py's measure)."""
    found = page.evaluate(MEASURE, MINIMUM)
    assert (found["small"], found["overflowing"]) == ([], []), page.url


def tap_size(locator: Any) -> None:
    box = locator.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44, box


@pytest.mark.parametrize("locale", list(LANGUAGES))
def test_it_shows_the_figures_and_a_head_to_head(
    chromium: Any, live_server: Any, history: list[Member], locale: str
) -> None:
    words = LANGUAGES[locale]
    aoki, baba = history[0], history[1]
    win = player_figures(aoki.pk, family_selection(4)).figure("win").estimate
    context = chromium.new_context(viewport=PHONE, locale=locale, device_scale_factor=2)
    page = context.new_page()
    try:
        member_path = f"/members/{aoki.pk}/"
        page.goto(live_server.url + member_path)
        page.locator("#id_username").fill("aoki")
        page.locator("#id_password").fill("aoki-password")
        page.locator("form[action$='/accounts/login/'] button[type=submit]").click()
        page.wait_for_url(f"**{member_path}")
        assert page.locator("html").get_attribute("lang") == words["lang"]

        # From the member page to the 4-player figures.
        link = page.locator(f"#member-figures a[href^='/members/{aoki.pk}/stats/4p/']")
        tap_size(link)
        link.click()
        page.wait_for_url(f"**/members/{aoki.pk}/stats/4p/**")
        assert page.locator("h1").inner_text() == words["figures"]
        row = page.locator("#figure-win")
        assert row.locator("th").inner_text() == words["win"]
        assert win.n > 0 and win.low is not None
        cells = row.locator("td").all_inner_texts()
        assert cells[1] == f"{win.total} / {win.n}"
        assert "–" in cells[0] and cells[0].count("%") == 3  # the rate, its low and high
        tap_size(page.locator(".family-links a").first)
        no_sideways_scroll(page)
        screenshot(page, f"player-figures-{words['lang']}")
        fed = page.locator("#who-fed-whom")
        fed.scroll_into_view_if_needed()
        fed.screenshot(path=str(screenshot(page, f"player-figures-fed-{words['lang']}")))
        assert fed.locator("table").bounding_box()["width"] <= PHONE["width"]
        well_made(page)

        # Pick Baba: the head-to-head of the same family and period.
        picker = page.locator("form.opponent-picker")
        tap_size(picker.locator("select"))
        picker.locator("select").select_option(str(baba.pk))
        picker.get_by_role("button", name=words["pick"]).click()
        page.wait_for_url(f"**/members/{aoki.pk}/vs/{baba.pk}/4p/**")
        assert page.locator("h1").inner_text() == words["duel"]
        above = page.locator("#figure-above td").all_inner_texts()
        assert above[1].endswith(" / 6")  # six games together
        assert page.locator(f"#side-{baba.pk}").is_visible()
        no_sideways_scroll(page)
        screenshot(page, f"head-to-head-{words['lang']}")
        well_made(page)
    finally:
        context.close()
