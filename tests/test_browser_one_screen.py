"""A hand on one phone screen (issue 10 item 1), at 390 x 844 in Japanese and English: every
tap of a hand is on screen when it is needed (not under the confirm bar, not below the
fold), and no tap makes the page scroll by itself. Taps and scrolls are counted:

- a non-dealer's ron with its value and one riichi: 5 taps with the confirm (tapping who
  dealt in is the ron), 0 scrolls in both languages;
- a mangan tsumo: 4 taps, 0 scrolls;
- an exhaustive draw with two tenpai: 4 taps, 0 scrolls;
- a double ron: 7 taps; the second winner's pad is below the first: one scroll (two in
  English).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from scoring.models import Hanchan
from tests.browser import screenshot
from tests.test_browser_confirmation import log_in
from tests.test_browser_hanchan import settle

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


class Taps:
    """Taps a control the way a thumb does, counting taps and the scrolls it took to see the
    control; fails if the page scrolls by itself."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.scrolls = 0
        if page.evaluate("window.scrollY"):
            # The player scrolled for the last hand: back up for this one.
            page.evaluate("window.scrollTo(0, 0)")
            self.scrolls += 1

    def on_screen(self, control: Any) -> bool:
        """The control's middle is on screen and it is what a finger there would touch."""
        return bool(
            control.evaluate(
                """el => {
                    const target = el.closest("label") || el;
                    const box = target.getBoundingClientRect();
                    const x = box.left + box.width / 2, y = box.top + box.height / 2;
                    if (y < 0 || y > window.innerHeight) return false;
                    const hit = document.elementFromPoint(x, y);
                    return hit !== null && (target.contains(hit) || hit.contains(target));
                }"""
            )
        )

    def tap(self, control: Any, *, preview: bool = True) -> None:
        if not self.on_screen(control):
            self.scrolls += 1
            control.evaluate("el => (el.closest('label') || el).scrollIntoView({block: 'center'})")
        before = self.page.evaluate("window.scrollY")
        if preview:
            with self.page.expect_response(lambda r: "/preview/" in r.url):
                control.evaluate("el => (el.closest('label') || el).click()")
        else:
            with self.page.expect_response(
                lambda r: r.request.method == "POST" and r.url.endswith("/hands/")
            ):
                control.evaluate("el => el.click()")
        settle(self.page)
        self.taps += 1
        assert self.page.evaluate("window.scrollY") == before, "the page scrolled by itself"

    def confirm(self) -> None:
        button = self.page.locator("#hand-form button.confirm")
        self.tap(button, preview=False)
        self.page.locator("#hand-entry .notice.success").wait_for()
        self.page.wait_for_timeout(1000)  # a tap within a second of a recorded hand is ignored


def radio(page: Any, name: str, value: str) -> Any:
    return page.locator(f"#hand-form input[name={name}][value='{value}']")


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_hand_is_entered_on_one_screen(phone: Any, table_game: Hanchan, language: str) -> None:
    game = table_game
    phone.set_viewport_size(PHONE)
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, "aoki")
    phone.goto(phone.base_url + f"/games/{game.pk}/")
    taps = Taps(phone)

    # East 1: Baba rons Chiba for 3 han 30 fu; Endo had declared riichi. Tapping who dealt
    # in, before any outcome, is the ron.
    taps.tap(radio(phone, "loser", "2"))
    taps.tap(radio(phone, "winners", "1"))
    taps.tap(radio(phone, "riichi", "3"))
    taps.tap(radio(phone, "value_1", "3-30"))
    summary = phone.locator("#confirm-summary").inner_text()
    assert re.search(r"Chiba → Baba\s*3,900", summary)
    screenshot(phone, f"one-screen-ron-{language}")
    taps.confirm()
    assert (taps.taps, taps.scrolls) == (5, 0)

    # East 2 (Baba deals): Endo's mangan tsumo.
    phone.evaluate("window.scrollTo(0, 0)")
    taps = Taps(phone)
    taps.tap(radio(phone, "result", "tsumo"))
    taps.tap(radio(phone, "winner", "3"))
    taps.tap(radio(phone, "value_3", "mangan"))
    screenshot(phone, f"one-screen-tsumo-{language}")
    taps.confirm()
    assert (taps.taps, taps.scrolls) == (4, 0)

    # East 3: a draw, Aoki and Chiba tenpai.
    taps = Taps(phone)
    taps.tap(radio(phone, "result", "draw"))
    taps.tap(radio(phone, "tenpai", "0"))
    taps.tap(radio(phone, "tenpai", "2"))
    screenshot(phone, f"one-screen-draw-{language}")
    taps.confirm()
    assert (taps.taps, taps.scrolls) == (4, 0)

    # East 3, 1 honba: Baba deals into Aoki and Endo.
    taps = Taps(phone)
    taps.tap(radio(phone, "result", "ron"))
    taps.tap(radio(phone, "loser", "1"))
    taps.tap(radio(phone, "winners", "0"))
    taps.tap(radio(phone, "winners", "3"))
    taps.tap(radio(phone, "value_0", "2-30"))
    taps.tap(radio(phone, "value_3", "1-30"))
    taps.confirm()
    assert taps.taps == 7 and taps.scrolls <= (1 if language == "ja" else 2)

    game.refresh_from_db()
    assert game.hands.count() == 4

    # The chart was left as it was after each hand; scrolled to, it is drawn again with all
    # four hands (issue 10 item 8: a confirm's answer does not carry it).
    chart_rows = phone.locator("#score-chart table tbody tr")
    phone.locator("#score-chart").scroll_into_view_if_needed()
    chart_rows.nth(4).wait_for(state="attached")
    assert chart_rows.count() == 5  # the start and four hands
    assert phone.locator("#chart-refresh[hx-get]").count() == 0
