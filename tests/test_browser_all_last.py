"""The table screen's all-last conditions on a phone (390 x 844), in Japanese and English:
closed, the summary sits on the round's line as a 44 px target and the hand entry starts where
it did; opened, every condition is on screen, within the page's width (no sideways scroll, no
text cut), and pushes the scores and the entry down instead of covering them.

The game: Aoki's dealer yakuman tsumo in East 1 leaves the others 9,000 each, so the next hand
can end the game by a bust (docs/all-last.md, tests/test_all_last.py for the figures).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from scoring.ledger import hanchan_start, hand_record
from scoring.standings.periods import club_today
from tests.browser import PHONE, screenshot
from tests.test_browser_confirmation import log_in

pytestmark = pytest.mark.browser

# Every box of the conditions, and whether it is inside the page's width and its own box.
BOXES = """() => {
    const out = [];
    for (const el of document.querySelectorAll("#all-last li, #all-last span, #all-last p")) {
        const r = el.getBoundingClientRect();
        out.push({left: r.left, right: r.right, clipped: el.scrollWidth > el.clientWidth + 1
                  && getComputedStyle(el).overflow === "hidden"});
    }
    return out;
}"""


@pytest.fixture
def players(member, other_member, coordinator, staff_member):
    return [member, other_member, coordinator, staff_member]


def _game(players: list[Any]) -> int:
    game = hanchan_start(
        ruleset_id="makura-1.5", members=players, played_on=club_today(), by=players[0]
    )
    hand_record(
        hanchan_id=game.pk,
        hand={"result": "tsumo", "wins": [{"winner": 0, "limit": "yakuman"}]},
        expected_version=game.version,
        request_id=uuid.uuid4(),
    )
    return game.pk


def _check(page: Any, summary_name: str, routes: list[str], name: str) -> None:
    page.locator("#all-last").wait_for()
    summary = page.locator("#all-last > summary")
    assert summary.inner_text().startswith(summary_name)
    box = summary.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    # Closed, it ends the round's line: above the scores, the conditions hidden.
    assert box["y"] + box["height"] <= page.locator(".score-strip").bounding_box()["y"] + 1
    assert not page.locator("#all-last-3").is_visible()
    entry_top = page.locator("#hand-form").bounding_box()["y"]
    assert entry_top < PHONE["height"]
    screenshot(page, f"{name}-closed")

    summary.click()
    for text in routes:
        route = page.locator("#all-last .all-last-route", has_text=text).first
        route.wait_for()
        assert route.is_visible()
    for b in page.evaluate(BOXES):
        assert b["left"] >= 0 and b["right"] <= PHONE["width"], b
        assert not b["clipped"], b
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Opened, it pushes the entry down: nothing of the form is under it.
    panel = page.locator("#all-last").bounding_box()
    assert page.locator("#hand-form").bounding_box()["y"] >= panel["y"] + panel["height"]
    assert page.locator(".score-strip").bounding_box()["y"] >= panel["y"] + panel["height"] - 1
    screenshot(page, name)


def test_the_conditions_on_a_phone_in_japanese_and_english(chromium, live_server, players):
    game_id = _game(players)
    for locale, summary_name, routes in (
        ("ja-JP", "逆転条件", ["300/500ツモ", "1,000 出アガリ", "役満 Aokiから直撃"]),
        (
            "en-US",
            "What each player needs",
            ["300/500 by tsumo", "1,000 ron from anyone", "Yakuman direct hit on Aoki"],
        ),
    ):
        context = chromium.new_context(viewport=PHONE, locale=locale, device_scale_factor=2)
        try:
            page = context.new_page()
            page.base_url = live_server.url
            log_in(page, players[1].user.username)
            page.goto(f"{live_server.url}/games/{game_id}/")
            _check(page, summary_name, routes, f"all-last-{locale}")
        finally:
            context.close()
