"""The clock and the live board in the browser, in Japanese and
English: a player at a GP table sees the time left at 390x844; the steward calls time and,
within one 10 s poll, the table says "time up" and its preview and confirm say the hand ends
the game before the tap; the hand then ends it. The live board at 1920x1080 follows.
Screenshots go to tests/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from clubsite.models import Member
from scoring.models import Hanchan
from scoring.standings import club_today
from tests.browser import SCREENSHOTS, screenshot
from tests.conftest import make_member
from tests.test_browser_confirmation import log_in, no_sideways_scroll
from tests.test_browser_hanchan import settle
from tournaments.models import Event, Round
from tournaments.services import (
    event_create,
    event_draw,
    participants_set,
    round_call_time,
    round_start,
)

pytestmark = pytest.mark.browser

WORDS = {
    "ja": {
        "outcome": "結果",
        "tsumo": "ツモ",
        "winner": "和了",
        "value": "{name}の点数",
        "mangan": "満貫",
        "left": "残り時間",
        "min": "60分",
        "time_up": "時間切れ：この局で対局終了です。",
        "ends": "対局終了",
        "confirm": "確定",
        "board_time_up": "時間切れ：最終局",
        "board_playing": "対局中",
        "board_waiting": "承認待ち",
    },
    "en": {
        "outcome": "How did the hand end?",
        "tsumo": "Tsumo",
        "winner": "Winner",
        "value": "Value of {name}'s win",
        "mangan": "Mangan",
        "left": "Time left",
        "min": "60 min",
        "time_up": "Time up: this hand ends the game.",
        "ends": "The game ends",
        "confirm": "Confirm",
        "board_time_up": "time up: last hand",
        "board_playing": "playing",
        "board_waiting": "waiting for confirmation",
    },
}


def gp_started(language: str) -> tuple[Event, Round, list[Member]]:
    players = [make_member(f"k{language}{i}", f"Kp{i}", f"けー{i}") for i in range(8)]
    event = event_create(
        name=f"GP {language}", format_key="gp", ruleset_id="makura-1.5",
        starts_on=club_today(), seed=7,
    )  # fmt: skip
    participants_set(event_id=event.pk, members=players)
    event_draw(event_id=event.pk)
    rnd = Round.objects.get(event=event, number=1)
    round_start(round_id=rnd.pk)
    return event, rnd, players


def tap(page: Any, control: Any) -> None:
    """Tap a button of the hand form and wait for its preview, the server's or the phone's."""
    control.check()
    settle(page)


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_table_sees_the_clock_and_time_up_before_the_tap(
    phone: Any, chromium: Any, language: str
) -> None:
    words = WORDS[language]
    event, rnd, players = gp_started(language)
    table = rnd.tables.select_related("hanchan").get(number=1)
    east = players[rnd.seating[0][0]]
    winner = players[rnd.seating[0][1]]
    phone.context.add_cookies([{"name": "django_language", "value": language,
                                "url": phone.base_url}])  # fmt: skip
    log_in(phone, east.user.username)
    phone.goto(phone.base_url + f"/games/{table.hanchan_id}/")
    clock = phone.locator("#table-clock")
    assert words["left"] in clock.inner_text() and words["min"] in clock.inner_text()
    no_sideways_scroll(phone)
    screenshot(phone, f"tournament-clock-table-{language}")

    # The steward calls time: the next poll (at most 10 s) shows it and draws the form again.
    round_call_time(round_id=rnd.pk)
    phone.locator("#time-up").wait_for(timeout=15000)
    assert phone.locator("#time-up").inner_text() == words["time_up"]
    phone.locator("#time-up-confirm").wait_for(timeout=5000)
    assert phone.locator("#time-up-confirm").inner_text() == words["time_up"]

    # The hand: its preview settles the game before the tap on confirm.
    tap(phone, phone.get_by_role("group", name=words["outcome"]).get_by_role(
        "radio", name=words["tsumo"], exact=True))  # fmt: skip
    tap(phone, phone.get_by_role("group", name=words["winner"]).get_by_role(
        "radio", name=winner.display_name, exact=True))  # fmt: skip
    pad = phone.get_by_role("group", name=words["value"].format(name=winner.display_name))
    tap(phone, pad.get_by_role("radio", name=words["mangan"], exact=True))
    assert words["ends"] in phone.locator(".preview-ends").inner_text()
    assert phone.locator("#preview-final").is_visible()
    assert phone.locator("#preview-next").count() == 0
    note = phone.locator("#time-up-confirm")
    assert note.is_visible() and note.bounding_box()["height"] >= 20
    no_sideways_scroll(phone)
    screenshot(phone, f"tournament-time-up-table-{language}")
    # What the phone shows at once: the confirm bar with the note above the button.
    phone.screenshot(path=str(SCREENSHOTS / f"tournament-time-up-confirm-{language}.png"))
    confirm = phone.get_by_role("button", name=words["confirm"], exact=True)
    box = confirm.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    with phone.expect_response(lambda r: r.request.method == "POST" and "/hands/" in r.url):
        confirm.click()
    settle(phone)
    game = Hanchan.objects.get(pk=table.hanchan_id)
    assert (game.status, game.ended_by) == (Hanchan.Status.FINISHED, "time_up")

    # The live board at the venue, without a login for a public event.
    Event.objects.filter(pk=event.pk).update(public=True)
    screen = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="ja-JP")
    try:
        screen.add_cookies([{"name": "django_language", "value": language,
                             "url": phone.base_url}])  # fmt: skip
        board = screen.new_page()
        board.goto(phone.base_url + f"/tournaments/{event.pk}/board/")
        states = board.locator(".board-state").all_inner_texts()
        assert states == [words["board_waiting"], words["board_time_up"]]
        assert board.evaluate("document.documentElement.scrollWidth") <= 1920
        assert board.evaluate("document.documentElement.scrollHeight") <= 1080
        size = board.locator(".board-seats li").first.evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        assert size >= 18  # read across a room
        assert board.locator(".board-ranking tbody tr").count() == 8
        assert board.locator("#board").get_attribute("hx-trigger") == "every 20s"
        screenshot(board, f"tournament-board-{language}")
    finally:
        screen.close()


def test_the_board_of_a_gp_for_40_fits_the_screen(chromium: Any, live_server: Any) -> None:
    """Ten tables and forty players on one 1920x1080 screen, without a login (public)."""
    players = [make_member(f"f{i:02d}", f"Player {i:02d}", f"ぷれいや{i:02d}") for i in range(40)]
    event = event_create(
        name="GP for 40", format_key="gp", ruleset_id="makura-1.5", starts_on=club_today(), seed=9
    )
    participants_set(event_id=event.pk, members=players)
    event_draw(event_id=event.pk)
    Event.objects.filter(pk=event.pk).update(public=True)
    rnd = Round.objects.get(event=event, number=1)
    round_start(round_id=rnd.pk)
    screen = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US")
    try:
        screen.add_cookies([{"name": "django_language", "value": "en",
                             "url": live_server.url}])  # fmt: skip
        board = screen.new_page()
        board.goto(live_server.url + f"/tournaments/{event.pk}/board/")
        assert board.locator(".board-table").count() == 10
        assert board.locator(".board-ranking tbody tr").count() == 40
        assert board.locator(".board-ranking").count() == 2  # two columns of 20
        assert board.evaluate("document.documentElement.scrollWidth") <= 1920
        bottom = board.evaluate(
            "Math.max(...[...document.querySelectorAll('.board-table, .board-ranking')]"
            ".map(e => e.getBoundingClientRect().bottom))"
        )
        assert bottom <= 1080  # every table and every player on the screen
        size = board.locator(".board-seats li").first.evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        assert size >= 18
        screenshot(board, "tournament-board-40-en")
    finally:
        screen.close()


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_steward_sees_the_round_clock_and_gives_extra_time(
    phone: Any, staff_member: Member, language: str
) -> None:
    event, rnd, _ = gp_started(language)
    phone.context.add_cookies([{"name": "django_language", "value": language,
                                "url": phone.base_url}])  # fmt: skip
    log_in(phone, "doi")
    phone.goto(phone.base_url + f"/tournaments/{event.pk}/")
    clock = phone.locator("#round-clock-1")
    assert WORDS[language]["left"] in clock.inner_text()
    minutes = phone.locator("#extra-1-2")
    button = phone.locator("form.ev-extra-time button").nth(1)
    for control in (minutes, button):
        box = control.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44
    minutes.fill("7")
    button.click()
    phone.wait_for_load_state()
    assert rnd.tables.get(number=2).extra_minutes == 7
    extra = phone.locator("#extra-2").inner_text()
    assert ("2卓：延長7分" if language == "ja" else "Table 2: 7 min extra time") in extra
    no_sideways_scroll(phone)
    screenshot(phone, f"tournament-clock-event-{language}")
    phone.evaluate("window.scrollTo(0, document.querySelector('#clock').offsetTop - 8)")
    phone.screenshot(path=str(SCREENSHOTS / f"tournament-clock-tables-{language}.png"))
