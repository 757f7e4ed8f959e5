"""Browser-test fixtures: Playwright driving Debian's Chromium against a live test server.

Tests marked ``browser`` get a phone-sized page (390 x 844). Without /usr/bin/chromium they
are skipped locally, but fail under CI (``CI=true``), where .ci/run installs Chromium.
Screenshots go to tests/screenshots/ (ignored by git).

A module whose tests only look at pages (measure, read, screenshot) may make its rows and load
each page once per language in a module-scoped fixture (``rows_for_the_module``) and hand each
test what was seen; a test that acts on a page keeps a page of its own (``phone``).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS

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
    from playwright.sync_api import BrowserContext

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        close = BrowserContext.close
        BrowserContext.close = _close_when_answered(close)  # type: ignore[method-assign]
        try:
            yield browser
        finally:
            BrowserContext.close = close  # type: ignore[method-assign]
            browser.close()


def _close_when_answered(close: Any) -> Any:
    """``BrowserContext.close`` that first lets each page's htmx requests be answered: a page
    asks for what it draws when seen (a game's charts in play) as soon as it is on screen,
    and a request the live server is still answering when the test's tables are emptied
    meets them locked (SQLite) or gone."""

    def close_when_answered(context: Any, *args: Any, **kwargs: Any) -> Any:
        for page in context.pages:
            # A closed or crashed page has nothing to wait for.
            with suppress(Exception):
                page.wait_for_function(QUIET, timeout=5_000)
        return close(context, *args, **kwargs)

    return close_when_answered


@pytest.fixture
def phone(chromium: Any, live_server: Any) -> Iterator[Any]:
    """A fresh phone-sized browser page (Japanese by default) and the live server's URL as
    ``page.base_url``."""
    page = phone_page(chromium, live_server)
    yield page
    page.context.close()


@contextmanager
def rows_for_the_module(django_db_blocker: Any, live_server: Any) -> Iterator[None]:
    """Database access and the live server for a module-scoped fixture, outside any test: the
    rows it makes are committed (the live server reads them), the live server answers to its
    host, and afterwards every table is emptied as after a transactional test, so that the
    next test starts from the same empty database."""
    with django_db_blocker.unblock(), live_server._live_server_modified_settings:
        try:
            yield
        finally:
            call_command(
                "flush",
                verbosity=0,
                interactive=False,
                database=DEFAULT_DB_ALIAS,
                reset_sequences=False,
                allow_cascade=False,
                inhibit_post_migrate=False,
            )


def as_seen(seen: dict[str, Any], key: str) -> Any:
    """What a module-scoped fixture saw for ``key``; the error it met there, raised again in
    the test that asks, so the test fails as it would have failed loading the page itself."""
    found = seen[key]
    if isinstance(found, BaseException):
        raise found
    return found


def phone_page(chromium: Any, live_server: Any) -> Any:
    """A page as ``phone`` gives one, for a fixture of a wider scope; close its context."""
    context = chromium.new_context(viewport=PHONE, locale="ja-JP", device_scale_factor=2)
    page = context.new_page()
    page.base_url = live_server.url
    return page


def screenshot(page: Any, name: str) -> Path:
    """Save a full-page screenshot as tests/screenshots/<name>.png and return its path."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


# No htmx request in flight, nor an answer being swapped in.
QUIET = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


def tap_and_settle(page: Any, control: Any) -> None:
    """Tap a control of the hand form (its label, as a finger does) and wait for what the tap
    brings: the server's answer swapped in where the tap asks the server, nothing more where
    the phone draws it itself (static/js/table_steps.js, table_preview.js). htmx starts its
    request within the tap's own event, so once the tap has run, a request is in flight or
    none will be."""
    control.evaluate("el => (el.closest('label') || el).click()")
    page.wait_for_function(QUIET)


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
