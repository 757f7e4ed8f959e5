"""The what-if page on a 390 x 844 phone, in Japanese and in English: log in,
go from the standings to "What if", re-score this year's games under tenhou-4p, read each
member's change and the game that cannot be re-scored. Nothing may scroll sideways, every
target is 44 px; every screen is saved under tests/screenshots/.
"""

from __future__ import annotations

from typing import Any

import pytest

from clubsite.models import Member
from scoring import standings as st
from scoring.ledger import hanchan_import
from tests.browser import PHONE, screenshot
from tests.test_browser_tap_targets import MEASURE, MINIMUM
from tests.test_whatif import final_scores_game, late_bust_game, rounding_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {
    "ja-JP": {
        "lang": "ja",
        "title": "もしも",
        "button": "計算し直す",
        "refused": "計算し直せない対局：1",
        "why": "このルールではプレイヤーがより早く飛ぶため、対局がより早く終わります。",
    },
    "en-US": {
        "lang": "en",
        "title": "What if",
        "button": "Re-score",
        "refused": "1 game cannot be re-scored",
        "why": "A player busts earlier, so the game ends earlier.",
    },
}


@pytest.fixture
def history(
    member: Member, other_member: Member, coordinator: Member, staff_member: Member
) -> list[Member]:
    """Three makura-1.5 games of the four today: a hand game, a final-scores game and a game
    played on under "no tobi" (tests/test_whatif.py)."""
    table = [member, other_member, coordinator, staff_member]
    names = [m.display_name for m in table]
    for game in (rounding_game(names), final_scores_game(names), late_bust_game(names)):
        hanchan_import(
            record=game,
            members_by_name={m.display_name: m for m in table},
            played_on=st.club_today(),
        )
    return table


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width} px wide"


@pytest.mark.parametrize("locale", list(LANGUAGES))
def test_it_rescores_the_year_under_tenhou(
    chromium: Any, live_server: Any, history: list[Member], locale: str
) -> None:
    words = LANGUAGES[locale]
    aoki, baba, chiba, doi = history
    context = chromium.new_context(viewport=PHONE, locale=locale, device_scale_factor=2)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/standings/")
        page.locator("#id_username").fill("aoki")
        page.locator("#id_password").fill("aoki-password")
        page.locator("form[action$='/accounts/login/'] button[type=submit]").click()
        page.wait_for_url("**/standings/")
        assert page.locator("html").get_attribute("lang") == words["lang"]

        page.locator(".page-head a[href^='/standings/what-if/']").click()
        page.wait_for_url("**/standings/what-if/**")
        assert page.locator("h1").inner_text() == words["title"]
        form = page.locator("#what-if-rules")
        form.locator("select[name=to]").select_option("tenhou-4p")
        form.get_by_role("button", name=words["button"]).click()
        page.wait_for_url("**to=tenhou-4p**")

        def cells(member: Member) -> list[str]:
            return page.locator(f"#what-if-{member.pk} td").all_inner_texts()

        # Change, re-scored, as counted, place before, games (tests/test_whatif.py works them
        # out by hand): the bust game counts as stored both ways.
        assert cells(aoki)[1:] == ["−1.0", "+143.0", "+144.0", "1", "3"]
        assert cells(chiba)[1:] == ["+2.0", "−65.0", "−67.0", "3", "3"]
        assert cells(doi)[1] == "0.0"
        assert cells(baba)[1] == "−1.0"
        change = page.locator(f"#what-if-{aoki.pk} td").nth(1).bounding_box()
        assert change is not None and change["x"] + change["width"] <= PHONE["width"]
        assert page.locator("#what-if-refused h2").inner_text() == words["refused"]
        assert words["why"] in page.locator("#what-if-refused li").inner_text()
        assert page.locator("#what-if-final-scores").is_visible()
        assert page.locator("#what-if-exact").is_visible()
        screenshot(page, f"what-if-{words['lang']}")
        no_sideways_scroll(page)
        found = page.evaluate(MEASURE, MINIMUM)
        assert (found["small"], found["overflowing"]) == ([], []), found
    finally:
        context.close()
