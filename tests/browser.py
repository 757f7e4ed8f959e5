"""Browser-test fixtures: Playwright driving Debian's Chromium against a live test server.

Tests marked ``browser`` get a phone-sized page (390 x 844). Without /usr/bin/chromium they
are skipped locally, but fail under CI (``CI=true``), where .ci/run installs Chromium.
Screenshots go to tests/screenshots/ (ignored by git).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from clubsite.models import Member
from scoring.ledger import hanchan_start, hand_record
from scoring.models import Hanchan
from scoring.standings.periods import club_today

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).parent / "screenshots"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI needs /usr/bin/chromium for the browser tests (.ci/run installs it)")
        pytest.skip("Debian's Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the tests' own ORM calls are
    # still synchronous and safe.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()


@pytest.fixture
def phone(chromium: Any, live_server: Any) -> Iterator[Any]:
    """A fresh phone-sized browser page (Japanese by default) and the live server's URL as
    ``page.base_url``."""
    context = chromium.new_context(viewport=PHONE, locale="ja-JP", device_scale_factor=2)
    page = context.new_page()
    page.base_url = live_server.url
    yield page
    context.close()


def screenshot(page: Any, name: str) -> Path:
    """Save a full-page screenshot as tests/screenshots/<name>.png and return its path."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def kept_tap(page: Any, control: Any) -> None:
    """Tap a control the table screen keeps without asking the server (static/js/table.js: a
    riichi tapped before a ron's or tsumo's value changes nothing the server draws): it is
    ticked, and no preview is sent; it goes with the next tap."""
    sent: list[str] = []

    def listen(request: Any) -> None:
        if "/preview/" in request.url:
            sent.append(request.url)

    # The element itself: a ticked toggle's accessible name gains its tick.
    element = control.element_handle()
    page.on("request", listen)
    try:
        element.evaluate("el => (el.closest('label') || el).click()")
        page.wait_for_timeout(200)
    finally:
        page.remove_listener("request", listen)
    assert element.is_checked()
    assert sent == [], "a kept tap asked the server"


def game_in_play(four: Sequence[Member], by: Member) -> Hanchan:
    """A Makura 1.5 game started today by ``by`` with ``four`` seated, one hand in (seat 1's
    mangan ron off seat 2: 37,000 / 13,000): the table screen a browser test opens."""
    game = hanchan_start(ruleset_id="makura-1.5", members=list(four), played_on=club_today(), by=by)
    hand_record(
        hanchan_id=game.pk,
        hand={"result": "ron", "loser": 2, "wins": [{"winner": 1, "limit": "mangan"}]},
        expected_version=game.version,
        request_id=uuid.uuid4(),
        by=by,
        user_id=by.user_id,
    )
    return game
