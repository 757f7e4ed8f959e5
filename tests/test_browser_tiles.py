"""A hand entered by its tiles on a phone (issue 13, item 3): the tile keyboard on the hand
form, one tap per tile, the yaku and fu shown by the server, the hand stored with its tiles
and yaku; in Japanese and English. Screenshots of each."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import Hanchan, HandEntry
from tests.browser import screenshot
from tests.test_browser_confirmation import log_in
from tests.test_browser_hanchan import settle
from tests.test_browser_one_screen import radio

pytestmark = pytest.mark.browser

# Baba rons Chiba: riichi, pinfu, tanyao (the hand's tiles in tap order, the winning 5s last).
TAPS = ["2m", "3m", "4m", "5m", "6m", "7m", "2p", "3p", "4p", "8p", "8p", "6s", "7s", "5s"]


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_ron_entered_by_its_tiles(phone: Any, table_game: Hanchan, language: str) -> None:
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, "aoki")
    phone.goto(phone.base_url + f"/games/{table_game.pk}/")
    for name, value in (("result", "ron"), ("loser", "2"), ("winners", "1"), ("riichi", "1")):
        with phone.expect_response(lambda r: "/preview/" in r.url):
            radio(phone, name, value).evaluate("el => (el.closest('label') || el).click()")
        settle(phone)
    phone.locator("#value-pad-1 details.tile-entry > summary").click()
    keyboard = phone.locator("#value-pad-1 .tile-keyboard")
    for tile in TAPS[:-1]:
        keyboard.locator(f"button[data-tile='{tile}']").click()
    # The 14th tile completes the hand: the server values it.
    with phone.expect_response(lambda r: "/preview/" in r.url):
        keyboard.locator("button[data-tile='5s']").click()
    settle(phone)
    result = phone.locator("#tile-result-1").inner_text()
    if language == "ja":
        assert "平和" in result and "断幺九" in result and "立直" in result
    else:
        assert "Pinfu" in result and "Tanyao" in result and "Riichi" in result
    assert "30" in result
    screenshot(phone, f"tiles-ron-{language}")
    with phone.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/hands/")):
        phone.locator("#hand-form button.confirm").click()
    phone.locator("#hand-entry .notice.success").wait_for()
    [win] = HandEntry.objects.get(hanchan=table_game).data["wins"]
    assert (win["han"], win["fu"]) == (3, 30)
    assert win["tiles"] == {"hand": "234567m23488p675s", "win_tile": "5s"}
    assert {y["name"] for y in win["yaku"]} == {"riichi", "pinfu", "tanyao"}
