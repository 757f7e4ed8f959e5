"""The all-last conditions in the offline panel on a phone (390 x 844), in Japanese and
English: the same words, place for place, as the table screen's own panel for the same table
(docs/all-last.md). Online at the all-last hand, then offline: the offline panel shows them,
one tap away, closed above the hand's first step and pushing it down when opened; the page's
own is hidden meanwhile. And a hand kept offline at South 3 that leads to the all-last hand:
the panel shows the conditions of the table after it, which are the server's once the hand is
sent.

The game (makura-1.5; Aoki, Baba, Chiba, Endo): six hands to South 3 (1 honba, 1,000 on the
table); a draw with Baba alone tenpai and in riichi, the dealer Chiba noten, leads to South 4,
2 honba, 2,000 on the table (scores checked against the engine below).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from scoring.engine import Game, load_ruleset, parse_hand
from scoring.ledger import hand_record
from scoring.models import Hanchan, HandEntry
from tests.browser import PHONE, screenshot
from tests.test_browser_confirmation import log_in
from tests.test_browser_offline import (
    NAMES,
    OFFLINE_HIDDEN,
    PANEL_WORDS,
    keep_offline,
    open_table_for_offline,
    pick_offline_value,
)

pytestmark = pytest.mark.browser

TO_SOUTH_3: list[dict[str, Any]] = [
    {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]},
    {"result": "ron", "loser": 3, "wins": [{"winner": 2, "han": 2, "fu": 30}]},
    {"result": "tsumo", "wins": [{"winner": 3, "limit": "mangan"}]},
    {"result": "ron", "loser": 1, "wins": [{"winner": 0, "han": 1, "fu": 30}]},
    {"result": "ron", "loser": 0, "wins": [{"winner": 2, "han": 3, "fu": 30}]},
    {"result": "draw", "tenpai": [0], "riichi": [0]},
]
TO_SOUTH_4 = {"result": "draw", "tenpai": [1], "riichi": [1]}

# The conditions as they read: per player below the top, name, place and, per better place,
# its label and its routes; then the summary and the note.
READ = """(selector) => {
    const box = document.querySelector(selector);
    const seats = Array.from(box.querySelectorAll(".all-last-seat")).map((li) => [
        li.querySelector("b").textContent.trim(),
        li.querySelector(".all-last-now").textContent.trim(),
        Array.from(li.querySelectorAll(".all-last-places > li")).map((p) =>
            Array.from(p.querySelectorAll(".all-last-place, .all-last-route"))
                .map((s) => s.textContent.trim())),
    ]);
    return {summary: box.querySelector("summary").textContent.trim(),
            note: box.querySelector(".all-last-note").textContent.trim(), seats: seats};
}"""


def _play(game: Hanchan, hands: list[dict[str, Any]]) -> None:
    for hand in hands:
        game.refresh_from_db()
        hand_record(
            hanchan_id=game.pk, hand=hand, expected_version=game.version, request_id=uuid.uuid4()
        )


def _engine_south_4() -> tuple[int, ...]:
    rs = load_ruleset("makura-1.5")
    engine = Game(rs)
    for number, hand in enumerate([*TO_SOUTH_3, TO_SOUTH_4]):
        engine.play(parse_hand(hand, 4, number))
    state = engine.state()
    assert (state.round, state.honba, state.deposits, state.all_last) == ("S4", 2, 2000, True)
    return state.scores


def _online(page: Any) -> dict[str, Any]:
    page.locator("#all-last > summary").click()
    page.locator("#all-last .all-last-route").first.wait_for()
    return page.evaluate(READ, "#all-last")


def _offline(page: Any, name: str) -> dict[str, Any]:
    """The offline panel's conditions, checked on the screen: closed, one line above the
    hand's first step; opened, all within the page's width, the steps pushed down."""
    box = page.locator("#offline-all-last")
    box.wait_for()
    assert not page.locator("#all-last").is_visible()  # one copy on the screen
    summary = box.locator("summary")
    closed = summary.bounding_box()
    assert closed["height"] >= 44 and closed["width"] >= 44
    outcomes = page.locator("#offline-panel .outcomes").bounding_box()
    assert outcomes["y"] >= closed["y"] + closed["height"] - 1
    assert outcomes["y"] + outcomes["height"] <= PHONE["height"]
    assert not page.locator("#offline-all-last-0").is_visible()
    screenshot(page, f"{name}-closed")
    summary.click()
    page.locator("#offline-all-last .all-last-route").first.wait_for()
    opened = box.bounding_box()
    assert page.locator("#offline-panel .outcomes").bounding_box()["y"] >= (
        opened["y"] + opened["height"] - 1
    )
    for right in page.evaluate(
        "() => Array.from(document.querySelectorAll('#offline-all-last li, "
        "#offline-all-last span')).map((el) => el.getBoundingClientRect().right)"
    ):
        assert right <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, name)
    return page.evaluate(READ, "#offline-all-last")


@pytest.mark.parametrize(
    ("locale", "summary", "route"),
    [
        ("ja-JP", "逆転条件", "3,200 Endoから直撃"),
        ("en-US", "What each player needs", "3,200 direct hit on Endo"),
    ],
)
def test_offline_at_the_all_last_hand_the_conditions_are_the_servers(
    chromium: Any, live_server: Any, table_game: Hanchan, locale: str, summary: str, route: str
) -> None:
    _play(table_game, [*TO_SOUTH_3, TO_SOUTH_4])
    table_game.refresh_from_db()
    assert tuple(table_game.state["table"]["scores"]) == _engine_south_4()
    context = chromium.new_context(viewport=PHONE, locale=locale, device_scale_factor=2)
    try:
        page = context.new_page()
        page.base_url = live_server.url
        log_in(page, "aoki")
        open_table_for_offline(page, table_game)
        online = _online(page)
        assert online["summary"] == summary
        assert any(route in routes for _n, _p, places in online["seats"] for routes in places)
        context.set_offline(True)
        page.reload()
        page.locator("#offline-panel").wait_for(state="visible", timeout=10000)
        offline = _offline(page, f"offline-all-last-{locale}")
        assert offline == online
        # Endo on top; Baba 2nd, Aoki 3rd, Chiba 4th.
        assert [name for name, _place, _places in offline["seats"]] == ["Aoki", "Baba", "Chiba"]
    finally:
        context.close()


def test_a_hand_kept_offline_before_the_all_last_shows_the_conditions_the_server_then_shows(
    phone: Any, table_game: Hanchan
) -> None:
    _play(table_game, TO_SOUTH_3)
    log_in(phone, "aoki")
    open_table_for_offline(phone, table_game)
    # South 3: no seat near a bust, not the last hand: no conditions on the table screen.
    assert phone.locator("#all-last").count() == 0
    phone.context.set_offline(True)
    phone.reload()
    panel = phone.locator("#offline-panel")
    panel.wait_for(state="visible", timeout=10000)
    assert phone.locator("#offline-all-last").count() == 0
    panel.locator("button[data-outcome=draw]").click()
    panel.locator("fieldset", has_text="聴牌").get_by_role("button", name="Baba").click()
    panel.locator("fieldset", has_text="立直").get_by_role("button", name="Baba").click()
    phone.locator("#offline-keep").click()
    phone.wait_for_selector(".queued-hand.waiting")
    offline = _offline(phone, "offline-all-last-after-kept-ja")
    assert "南4局" in phone.inner_text("#offline-table")

    phone.context.set_offline(False)
    phone.locator(".queued-hand").first.wait_for(state="detached", timeout=15000)
    assert HandEntry.objects.filter(hanchan=table_game).count() == 7
    table_game.refresh_from_db()
    assert tuple(table_game.state["table"]["scores"]) == _engine_south_4()
    assert _online(phone) == offline


@pytest.mark.parametrize("waiting", [0, 1])
@pytest.mark.parametrize(
    ("size", "language"),
    [(PHONE, "ja"), (PHONE, "en"), ({"width": 360, "height": 740}, "ja")],
    ids=["390x844-ja", "390x844-en", "360x740-ja"],
)
def test_the_closed_conditions_leave_a_ron_on_one_screen(
    chromium: Any,
    live_server: Any,
    table_game: Hanchan,
    size: dict[str, int],
    language: str,
    waiting: int,
) -> None:
    """At the all-last hand, with the conditions' line in the offline panel, a ron's every
    control (its 30 and 40 fu rows included) is still wholly on screen above the panel's bar,
    a hand waiting to send or not. (At 360 x 740 in English this table's hand is not on one
    screen with or without the conditions: the lines of South 4 with honba and deposits alone
    push a ron's 40 fu rows under the bar.)"""
    _play(table_game, TO_SOUTH_3 if waiting else [*TO_SOUTH_3, TO_SOUTH_4])
    words = PANEL_WORDS[language]
    context = chromium.new_context(viewport=size, locale=words["locale"], device_scale_factor=2)
    phone = context.new_page()
    phone.base_url = live_server.url
    try:
        log_in(phone, "aoki")
        phone.goto(f"{phone.base_url}/games/{table_game.pk}/")
        phone.wait_for_selector("#offline-values[data-ready]", state="attached")
        phone.context.set_offline(True)
        panel = phone.locator("#offline-panel")
        panel.wait_for()
        if waiting:
            keep_offline(phone, TO_SOUTH_4, words)
        phone.locator("#offline-all-last").wait_for()
        panel.locator("button[data-outcome=ron]").click()
        for step, seat in (("loser", 2), ("winner", 1), ("riichi", 1)):
            fieldset = panel.locator("fieldset", has_text=words[step])
            fieldset.get_by_role("button", name=NAMES[seat], exact=True).click()
        pick_offline_value(phone, "3-30")
        phone.evaluate("window.scrollTo(0, 0)")
        assert phone.evaluate(OFFLINE_HIDDEN) == []
        screenshot(phone, f"offline-all-last-ron-{size['width']}-{language}-{waiting}-waiting")
    finally:
        context.close()
