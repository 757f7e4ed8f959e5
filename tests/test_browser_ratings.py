"""Ratings on a 390 x 844 phone, in Japanese and English: the member page's
rating with its sigma, "provisional" and its history line, then the ratings list from there.
Nothing may scroll sideways, every target is 44 px, no text leaves its box; screenshots go
under tests/screenshots/."""

from __future__ import annotations

import random
from typing import Any

import pytest

from clubsite.models import Member
from ratings.models import Rating
from scoring import standings as st
from scoring.ledger import hanchan_import
from scoring.upkeep.sample_games import sample_hands
from tests.browser import PHONE, screenshot
from tests.test_browser_tap_targets import MEASURE, MINIMUM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RULESET = "makura-1.5"
LANGUAGES = {
    "ja-JP": {"lang": "ja", "head": "レーティング", "provisional": "暫定", "list": "レーティング"},
    "en-US": {"lang": "en", "head": "Rating", "provisional": "Provisional", "list": "Ratings"},
}


@pytest.fixture
def history(
    member: Member, other_member: Member, coordinator: Member, staff_member: Member
) -> list[Member]:
    """Six sample games of the four today, imported with a steward's authority: they count,
    and the ratings follow when each import commits."""
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


def well_made(page: Any) -> None:
    found = page.evaluate(MEASURE, MINIMUM)
    assert (found["small"], found["overflowing"]) == ([], []), page.url
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width} px wide"


@pytest.mark.parametrize("locale", list(LANGUAGES))
def test_it_shows_the_rating_and_the_list(
    chromium: Any, live_server: Any, history: list[Member], locale: str
) -> None:
    words = LANGUAGES[locale]
    aoki = history[0]
    rating = Rating.objects.get(member=aoki, family=4)
    assert rating.games == 6
    context = chromium.new_context(viewport=PHONE, locale=locale, device_scale_factor=2)
    page = context.new_page()
    try:
        member_path = f"/members/{aoki.pk}/"
        page.goto(live_server.url + member_path)
        page.locator("#id_username").fill("aoki")
        page.locator("#id_password").fill("aoki-password")
        page.locator("form[action$='/accounts/login/'] button[type=submit]").click()
        page.wait_for_url(f"**{member_path}")

        section = page.locator("#member-rating")
        section.scroll_into_view_if_needed()
        assert section.locator("h2").inner_text() == words["head"]
        # One number and how sure it is in words: no sigma, no ordinal.
        assert section.locator(".rating-value").inner_text() == f"{rating.mu:.1f}"
        assert section.locator(".rating-sigma").count() == 0
        assert section.locator(".rating-provisional").inner_text() == words["provisional"]
        assert "σ" not in section.inner_text() and "±" not in section.inner_text()
        assert section.locator("#rating-chart-4 polyline").count() == 1
        assert section.locator(".rating-history tbody tr").count() == 6
        assert section.bounding_box()["width"] <= PHONE["width"]
        section.screenshot(path=str(screenshot(page, f"member-rating-{words['lang']}")))

        for link in section.locator(".link-line a").all():
            box = link.bounding_box()
            assert box is not None and box["height"] >= 44 and box["width"] >= 44
        section.locator("#rating-how-link").click()
        page.wait_for_url("**/ratings/#how-ratings-work")
        how = page.locator("#how-ratings-work")
        assert how.is_visible() and "25.0" in how.inner_text()
        top = page.evaluate(
            "() => document.querySelector('#how-ratings-work h2').getBoundingClientRect().top"
        )
        assert 0 <= top < PHONE["height"] - 100  # the link lands on the section, on screen
        page.screenshot(path=str(screenshot(page, f"ratings-how-{words['lang']}")))
        page.goto(live_server.url + "/ratings/")
        assert page.locator("h1").inner_text() == words["list"]
        # Six games each, under the threshold of 10: all four provisional, none ranked.
        assert page.locator("table.rating-list:not(.rating-new)").count() == 0
        rows = page.locator(".rating-new tbody tr")
        assert rows.count() == 4
        shown = sorted(row.locator("td").all_inner_texts()[0] for row in rows.all())
        assert shown == sorted(f"{r.mu:.1f}" for r in Rating.objects.filter(family=4))
        screenshot(page, f"ratings-{words['lang']}")
        well_made(page)
    finally:
        context.close()
