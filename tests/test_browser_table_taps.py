"""The hand form keeps the player's place, at a phone's size: after a
hand is recorded the confirm button waits for an outcome, and the next hand's first tap lands
at once; the taps of an unfinished hand survive a reload."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from scoring.models import Hanchan
from tests.browser import kept_tap, screenshot
from tests.test_browser_confirmation import log_in
from tests.test_browser_hanchan import outcome, seat, settle, step, tap, toggle, value

pytestmark = pytest.mark.browser


@pytest.fixture
def game(table_game: Hanchan) -> Hanchan:
    """Aoki deals; Baba, Chiba and Endo (``table_game``)."""
    return table_game


def confirm_button(page: Any) -> Any:
    return page.locator("#hand-form button.confirm")


def test_a_tap_right_after_a_recorded_hand_lands(phone: Any, game: Hanchan) -> None:
    """A tap in the second after a recorded hand was dropped without a word
    (the table screen ignored every tap for a second). The second half of a double tap on the
    confirm meets the fresh form's confirm, disabled and looking it, and changes nothing; the
    next hand's first tap, at once, lands."""
    log_in(phone, "aoki")
    phone.goto(phone.base_url + f"/games/{game.pk}/")
    assert confirm_button(phone).is_disabled()  # nothing tapped yet
    tap(phone, outcome(phone, "ツモ"))
    assert confirm_button(phone).is_enabled()
    tap(phone, seat(phone, "和了", "Baba"))
    tap(phone, value(phone, "Baba", "満貫"))
    with phone.expect_response(lambda r: r.request.method == "POST" and "/hands/" in r.url):
        confirm_button(phone).click()
    settle(phone)
    notice = phone.get_by_role("status").filter(has_text="記録しました")
    notice.wait_for()

    # The double tap's second half lands on the fresh form's confirm: disabled, seen dimmed.
    assert confirm_button(phone).is_disabled()
    assert float(confirm_button(phone).evaluate("el => getComputedStyle(el).opacity")) < 1
    confirm_button(phone).click(force=True)
    time.sleep(0.3)
    assert notice.is_visible()
    game.refresh_from_db()
    assert game.hands.count() == 1

    # The next hand's first tap, at once, is taken: previewed, and the notice goes with it.
    tap(phone, outcome(phone, "ロン"))
    assert outcome(phone, "ロン").is_checked()
    assert phone.get_by_role("status").filter(has_text="記録しました").count() == 0
    screenshot(phone, "table-after-recorded")
    game.refresh_from_db()
    assert game.hands.count() == 1


def test_the_taps_of_an_unfinished_hand_survive_a_reload(phone: Any, game: Hanchan) -> None:
    log_in(phone, "aoki")
    phone.goto(phone.base_url + f"/games/{game.pk}/")
    tap(phone, outcome(phone, "ロン"))
    tap(phone, seat(phone, "放銃", "Chiba"))
    tap(phone, toggle(phone, re.compile("^和了"), "Baba"))
    kept_tap(phone, toggle(phone, re.compile("^立直"), "Endo"))

    with phone.expect_response(lambda r: "/preview/" in r.url):
        phone.reload()
    settle(phone)
    # (A ticked toggle's accessible name gains its tick: read the inputs themselves.)
    checked = phone.eval_on_selector_all(
        "#hand-form input:checked", "inputs => inputs.map(i => i.name + '=' + i.value)"
    )
    assert sorted(checked) == ["loser=2", "result=ron", "riichi=3", "winners=1"]
    assert step(phone, "Babaの点数").is_visible()
    screenshot(phone, "table-taps-after-reload")

    # Once the hand is recorded, a reload starts the next hand afresh.
    tap(phone, value(phone, "Baba", "満貫"))
    with phone.expect_response(lambda r: r.request.method == "POST" and "/hands/" in r.url):
        confirm_button(phone).click()
    settle(phone)
    phone.reload()
    phone.wait_for_load_state("networkidle")
    assert not outcome(phone, "ロン").is_checked()
    assert "東2局" in phone.locator("main").inner_text()
