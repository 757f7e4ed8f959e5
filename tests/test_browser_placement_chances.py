"""The chances of each place on a phone (390 x 844), in Japanese and English: beside the score
chart, below the hand entry (which starts where it did), every cell within the page's width
and its own box; after the game, the final places."""

from __future__ import annotations

import uuid

import pytest

from scoring.ledger import hanchan_start, hand_record
from scoring.standings.periods import club_today
from tests.browser import PHONE, screenshot
from tests.test_browser_confirmation import log_in

pytestmark = pytest.mark.browser

CELLS = """() => [...document.querySelectorAll("#placement-chances th, #placement-chances td")]
    .map((el) => {
        const r = el.getBoundingClientRect();
        return {left: r.left, right: r.right, clipped: el.scrollWidth > el.clientWidth + 1};
    })"""


@pytest.fixture
def players(member, other_member, coordinator, staff_member):
    return [member, other_member, coordinator, staff_member]


def test_the_chances_on_a_phone_in_japanese_and_english(chromium, live_server, players):
    game = hanchan_start(
        ruleset_id="makura-1.5", members=players, played_on=club_today(), by=players[0]
    )
    hand_record(
        hanchan_id=game.pk,
        hand={"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]},
        expected_version=game.version,
        request_id=uuid.uuid4(),
    )
    for locale, caption, first in (
        ("ja-JP", "この局の後の順位確率", "1位"),
        ("en-US", "Chances of each place after this hand", "1st"),
    ):
        context = chromium.new_context(viewport=PHONE, locale=locale, device_scale_factor=2)
        try:
            page = context.new_page()
            page.base_url = live_server.url
            log_in(page, players[1].user.username)
            page.goto(f"{live_server.url}/games/{game.pk}/")
            table = page.locator("#placement-chances")
            assert page.locator("#hand-form").bounding_box()["y"] < PHONE["height"]
            table.scroll_into_view_if_needed()
            assert table.locator("caption").inner_text() == caption
            assert table.locator("thead th").nth(1).inner_text() == first
            assert table.locator("tbody tr").count() == 4
            for cell in page.evaluate(CELLS):
                assert cell["left"] >= 0 and cell["right"] <= PHONE["width"], cell
                assert not cell["clipped"], cell
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            screenshot(page, f"placement-chances-{locale}")
        finally:
            context.close()
