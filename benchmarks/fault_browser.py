"""The fault runs' Chromium phones (:mod:`benchmarks.faults`): tables whose hands are
entered on the real table screen, ``static/js/table.js`` and ``static/js/offline.js``
included, in Debian's Chromium driven by Playwright (390 x 844, as the browser tests).

A browser table has one page (its phone on the venue's Wi-Fi, :class:`~benchmarks.
fault_venue.Venue`) and a phone on mobile data (a Python client straight to gunicorn). Each
hand is tapped as a player taps it:

- online, the hand form (each tap drawn on the phone or previewed by the server, as the page
  decides: static/js/table_steps.js, then Confirm); the form's request id is read before the
  confirm;
- when a tap or the confirm gets no answer (the network cut) or a 503 (the database away),
  offline.js opens its offline panel and the hand is entered there, and kept
  (``#offline-keep``): its request id is the new one in the page's IndexedDB outbox;
- offline.js sends the outbox itself (every 30 s, on ``online``, on load) and reloads the page
  when it is empty; while hands wait it holds the hand form (``#outbox-first``), and the
  player waits for it (or keeps the hand on the panel, when the page opens it);
- a hand the server answers ``stale`` is shown beside the current table (``.queued-hand
  .conflict``); the player chooses as a player at the table would: a hand already in the
  table's list (the game's version is past it) is discarded, any other recorded after them.

The stale answer is brought about on purpose at some tables (``plan``): while the Wi-Fi is
down, the mobile phone records a hand, either the hand the page has just kept (``discard``:
the players entered it twice) or the hand the page first failed to send, with nothing in its
outbox yet (``after``: the players switched phones). The page's hands are then stale when
they are sent. Neither is done for a hand whose confirm the page sent (it may be recorded).

Playwright's API runs in one thread with its own event loop: :func:`play_tables` plays every
browser table there, one Chromium with a context (cookies, IndexedDB, service worker) a
phone.
"""

from __future__ import annotations

import asyncio
import collections
import os
import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.fault_phones import HANDS, SPEED, Phone, form_fields, phone_records
from benchmarks.fault_venue import Venue

CHROMIUM = Path("/usr/bin/chromium")
VIEWPORT: Any = {"width": 390, "height": 844}
LOG = os.environ.get("FAULTS_LOG", "")
ACTION_MS = 15_000  # a tap or a keep given up on after this long (the page reloading)
SETTLED = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
PANEL = "() => !!document.getElementById('offline-panel')"
# The page holds its hand form while hands wait in the outbox (offline.js holdEntry).
HELD_FORM = "() => !!document.getElementById('outbox-first')"
# The game's version as offline.js reckons it: the page's, or the newer one this phone saw
# since (a page the service worker kept is older; offline.js latestTable).
VERSION = """() => {
  const table = JSON.parse(document.getElementById('offline-data').textContent);
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem('clubsite-table:' + table.action)); } catch (e) {}
  return Math.max(table.version, kept ? kept.version : 0);
}"""
# The request ids in the page's outbox (offline.js's IndexedDB store); null when the page
# cannot tell yet (loading: no idb, the store not open).
OUTBOX_RIDS = """() => new Promise((resolve) => {
  if (!window.idb || !window.indexedDB) { resolve(null); return; }
  window.idb.openDB('clubsite-outbox', 1, {
    upgrade(db) { db.createObjectStore('hands', { keyPath: 'requestId' }); },
  }).then((db) => db.getAllKeys('hands')).then(resolve, () => resolve(null));
})"""


def browser_hand(number: int) -> dict[str, str | list[str]]:
    """Hand ``number`` of a browser table, in the hand form's fields: an exhaustive draw with
    the dealer alone tenpai (the dealer stays, honba grows), and every fourth hand a mangan
    tsumo by the seat after the dealer, which moves the deal on (the dealer is seat
    ``number // 4``); 24 hands stay within East 1 to South 3."""
    dealer = (number // 4) % 4
    if number % 4 != 3:
        return {"result": "draw", "tenpai": [str(dealer)]}
    winner = str((dealer + 1) % 4)
    return {"result": "tsumo", "winner": winner, f"value_{winner}": "mangan"}


@dataclass
class BrowserFigures:
    """What the Chromium phones did and saw during one run."""

    statuses: collections.Counter[int | str] = field(default_factory=collections.Counter)
    online: int = 0  # hands confirmed on the hand form and answered "recorded"
    kept: int = 0  # hands kept in the offline panel
    sent_json: int = 0  # outbox sends answered (any status)
    recorded_json: int = 0  # outbox sends answered "recorded"
    stale: int = 0  # outbox sends answered 409 stale
    after: int = 0  # held hands recorded after the others (the player's choice)
    discarded: int = 0  # held hands discarded, already in the list (the player's choice)
    mobile: int = 0  # hands the mobile phone recorded while the Wi-Fi was down
    waited: int = 0  # hands the page held its form for until the outbox was sent (online)
    sent: collections.Counter[str] = field(default_factory=collections.Counter)
    unexpected: list[str] = field(default_factory=list)


class BrowserTable:
    """One table played on a Chromium page (see the module)."""

    def __init__(
        self,
        game: int,
        base: str,
        page: Any,
        mobile: Phone,
        venue: Venue,
        figures: BrowserFigures,
        seed: int,
        plan: str | None,
    ) -> None:
        self.game = game
        self.page = page
        self.mobile = mobile
        self.venue = venue
        self.figures = figures
        self.rng = random.Random(seed)
        self.plan = plan
        self.played: list[set[uuid.UUID]] = []
        self.owner: dict[str, int] = {}  # request id to hand number
        self.stored: set[int] = set()  # hands the table saw recorded
        self.confirmed: set[int] = set()  # hands whose online confirm the page sent
        self.posted: set[str] = set()  # request ids the page sent to record a hand
        self.url = f"{base}/games/{game}/"
        page.on("request", self._on_request)
        page.on("response", self._on_response)
        page.on("requestfailed", self._on_failed)

    # -- what the page sends ------------------------------------------------------------------

    def _is_hands(self, url: str) -> bool:
        return url.endswith(f"/games/{self.game}/hands/")

    def _on_request(self, request: Any) -> None:
        if request.method == "POST" and self._is_hands(request.url):
            fields = dict(_pairs(request.post_data or ""))
            if rid := fields.get("request_id"):
                self.posted.add(rid)
                self.figures.sent[rid] += 1

    def _on_response(self, response: Any) -> None:
        if f"/games/{self.game}/" not in response.url:
            return
        status = response.status
        self.figures.statuses[status] += 1
        if status not in (200, 302, 304, 409, 503):
            self.figures.unexpected.append(f"page {response.url}: HTTP {status}")
        request = response.request
        if request.method != "POST" or not self._is_hands(response.url):
            return
        rid = dict(_pairs(request.post_data or "")).get("request_id")
        self.log(f"{rid} answered {status}")
        if "json" not in (request.headers.get("accept") or ""):
            return  # a confirm: _online reads its answer
        self.figures.sent_json += 1
        if status == 200:
            self.figures.recorded_json += 1
            if rid in self.owner:
                self.stored.add(self.owner[rid])
        elif status == 409:
            self.figures.stale += 1

    def _on_failed(self, request: Any) -> None:
        if f"/games/{self.game}/" in request.url and request.method == "POST":
            self.figures.statuses["network"] += 1

    # -- the table ----------------------------------------------------------------------------

    async def open(self) -> None:
        """Open the table twice online: the second load is the service worker's, which
        keeps the page (as the browser tests do)."""
        await self.page.goto(self.url)
        await self.page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        await self.page.goto(self.url)
        await self.page.wait_for_function(SETTLED)

    async def play(self, stop: float) -> None:
        await asyncio.sleep(self.rng.uniform(0, 0.5))
        for number in range(HANDS):
            if time.monotonic() > stop:
                self.figures.unexpected.append(f"game {self.game}: out of time at hand {number}")
                return
            await asyncio.sleep(self.rng.uniform(120, 180) / SPEED)
            self.played.append(set())
            await self._hand(number, stop)
            if (
                self.plan == "discard"
                and self.venue.cut_left() > 3
                and number not in self.confirmed | self.stored
                and await self._offline()
                and await self._kept_alone(number)
            ):
                # The page kept this hand; the players enter it again on the mobile phone.
                self.plan = None
                await self._mobile(number)
        # The outbox empties itself (offline.js every 30 s); the player answers the stale.
        while time.monotonic() < stop:
            await self._resolve()
            if not await self._outbox() and not await self._offline():
                return
            await asyncio.sleep(1)
        self.figures.unexpected.append(f"game {self.game}: outbox not empty in time")

    async def _mobile(self, number: int) -> bool:
        fields = form_fields(browser_hand(number))
        stop = time.monotonic() + 30
        rid, recorded = await asyncio.to_thread(phone_records, self.mobile, self.game, fields, stop)
        if rid is not None:
            self._own(rid, number)
        if recorded:
            self.figures.mobile += 1
            self.stored.add(number)
            self.log(f"hand {number}: recorded by the mobile phone")
        else:
            self.figures.unexpected.append(f"game {self.game}: mobile phone, hand {number}")
        return recorded

    def log(self, line: str) -> None:
        """A line of the table's story, for ``FAULTS_LOG`` (a file name)."""
        if LOG:
            with open(LOG, "a") as out:
                out.write(f"{time.monotonic():.2f} game {self.game}: {line}\n")

    def _own(self, rid: uuid.UUID | str, number: int) -> None:
        self.log(f"hand {number}: request id {rid}")
        rid = uuid.UUID(str(rid))
        self.played[number].add(rid)
        self.owner[str(rid)] = number

    async def _hand(self, number: int, stop: float) -> None:
        for _ in range(6):
            if await self._in_list(number):
                return  # an earlier try got through (its answer lost, or the page reloaded)
            try:
                await self._until_free(stop)
                if await self._offline():
                    done = await self._mobile_first(number) or await self._keep(number)
                else:
                    done = await self._online(number)
            except Exception:  # noqa: BLE001 - a Playwright timeout, the page reloading under it
                done = await self._kept_meanwhile(number)
                await self._wait_loaded()
                done = done or await self._in_list(number)
            if done:
                return
        self.figures.unexpected.append(f"game {self.game}: hand {number} not entered")

    async def _mobile_first(self, number: int) -> bool:
        """Plan ``after``: the page has just gone offline with nothing waiting, and the hand
        goes in on the phone with mobile data instead; the page does not know it, and its
        next hands, kept offline, will be stale. Only for a hand the page sent nothing of (a
        confirm cut on its way may have been recorded)."""
        if self.plan != "after" or self.venue.cut_left() <= 3 or number in self.confirmed:
            return False
        if await self._outbox():
            return False
        self.plan = None
        return await self._mobile(number)

    def _sent(self, number: int) -> bool:
        return any(self.owner.get(rid) == number for rid in self.posted)

    async def _in_list(self, number: int) -> bool:
        """Whether hand ``number``, its confirm sent and its answer not seen, is in the
        table's list as the page shows it (the hands are stored in the order played)."""
        try:
            if self._sent(number) and int(await self.page.evaluate(VERSION)) > number:
                self.stored.add(number)
                return True
        except Exception:  # noqa: BLE001 - the page reloading: entered again, looked at then
            return False
        return False

    async def _until_free(self, stop: float) -> None:
        """The player looks at the phone before entering a hand: answers a held hand first,
        and waits while the page holds its hand form for the hands waiting to send
        (offline.js sends them first). With the offline panel open, the next hand goes to
        the outbox after them."""
        waited = False
        await self.page.wait_for_timeout(300)  # the outbox read after a load (IndexedDB)
        while time.monotonic() < stop:
            await self._resolve()
            if await self._offline() or not await self.page.evaluate(HELD_FORM):
                break
            waited = True
            await asyncio.sleep(0.5)
        if waited:
            self.figures.waited += 1

    async def _kept_alone(self, number: int) -> bool:
        """Hand ``number`` is the only one waiting in the outbox: entered again on the mobile
        phone, it is the hand the outbox then finds stale. With an earlier hand waiting (its
        confirm cut on its way, the panel taking it again), the mobile phone's hand would sit
        in that one's place, and the player, seeing the table past it, would discard a hand
        never recorded: that is not the players' double entry this plan plays."""
        waiting = await self._outbox()
        return [self.owner.get(rid) for rid in waiting] == [number]

    async def _offline(self) -> bool:
        return bool(await self.page.evaluate(PANEL))

    async def _outbox(self) -> list[str]:
        """The request ids waiting in the outbox, read until the page can tell (a page
        loading has no outbox yet: read as empty, it would let a hand in online before
        the waiting ones)."""
        for _ in range(100):
            try:
                found = await self.page.evaluate(OUTBOX_RIDS)
            except Exception:  # noqa: BLE001 - the page navigating
                found = None
            if found is not None:
                return list(found)
            await self._wait_loaded()
            await asyncio.sleep(0.1)
        raise TimeoutError("the outbox could not be read")

    async def _wait_loaded(self) -> None:
        try:
            await self.page.wait_for_load_state()
            await self.page.wait_for_function(SETTLED, timeout=ACTION_MS)
        except Exception:  # noqa: BLE001 - no page at all: open it again
            await self.page.goto(self.url)

    async def _online(self, number: int) -> bool:
        """The hand on the hand form; False when the panel opened (a tap or the confirm got
        no answer, or a 503) or the confirm was refused (a stale form)."""
        page = self.page
        form = page.locator("#hand-form")
        if not await form.count():
            await page.goto(self.url)
            await self._wait_loaded()
            return False
        for name, value in form_fields(browser_hand(number)):
            control = form.locator(f"input[name={name}][value='{value}']")
            # A reload keeps the taps (table.js): tap only what is not ticked yet.
            if not await control.is_checked(timeout=ACTION_MS):
                await control.evaluate("el => (el.closest('label') || el).click()")
                await page.wait_for_timeout(30)
                await page.wait_for_function(SETTLED, timeout=ACTION_MS)
            if await self._offline():
                return False  # the panel opened: the next try keeps the hand there
        confirm = form.locator("button.confirm")
        # The taps are drawn on the phone (static/js/table_steps.js): the confirm is the first
        # request a cut meets. One sent with the Wi-Fi already down and more than a second of
        # the cut left never reaches the server: the hand is as unsent as before any request.
        unsent = self.venue.cut_left() > 1.0
        async with page.expect_request(
            # The confirm, not an outbox send (JSON) the page may make meanwhile.
            lambda r: (
                r.method == "POST"
                and self._is_hands(r.url)
                and "json" not in (r.headers.get("accept") or "")
            ),
            timeout=ACTION_MS,
        ) as sent:
            await confirm.click(timeout=ACTION_MS)
        request = await sent.value
        if not unsent:
            self.confirmed.add(number)
        # The request id the confirm carried (the page may have been reloaded since the taps).
        self._own(dict(_pairs(request.post_data or ""))["request_id"], number)
        response = await request.response()
        if response is not None and response.status == 200:
            if 'class="notice success"' in await response.text():
                self.figures.online += 1
                self.stored.add(number)
                self.log(f"hand {number}: recorded online")
                await page.wait_for_function(SETTLED, timeout=ACTION_MS)
                # A tap within a second of a recorded hand is ignored (table.js).
                await page.wait_for_timeout(1000)
                return True
            await page.wait_for_function(SETTLED, timeout=ACTION_MS)
            return False  # refused (a stale form): the table as it stands, enter it again
        # No answer, or the 503: offline.js opens its panel; the next try keeps the hand there.
        await page.wait_for_function(PANEL, timeout=ACTION_MS)
        return False

    async def _keep(self, number: int) -> bool:
        """The hand in the offline panel, kept in the outbox."""
        page = self.page
        panel = page.locator("#offline-panel")
        hand = browser_hand(number)
        steps = panel.locator("fieldset.step")
        await panel.locator(f"button[data-outcome={hand['result']}]").click(timeout=ACTION_MS)
        if hand["result"] == "draw":
            for seat in hand["tenpai"]:
                await steps.nth(0).locator("button").nth(int(seat)).click(timeout=ACTION_MS)
        else:
            winner = str(hand["winner"])
            await steps.nth(0).locator("button").nth(int(winner)).click(timeout=ACTION_MS)
            value = str(hand[f"value_{winner}"])
            pad = page.locator("#offline-value")
            await pad.locator("label.tap", has=page.locator(f"input[value='{value}']")).click(
                timeout=ACTION_MS
            )
        before = set(await self._outbox()) | self.posted
        await page.locator("#offline-keep").click(timeout=ACTION_MS)
        return await self._kept_meanwhile(number, before)

    async def _kept_meanwhile(self, number: int, before: set[str] | None = None) -> bool:
        """Whether hand ``number`` was kept: a request id in the outbox (or already sent by
        it) that no hand owns."""
        deadline = time.monotonic() + (5 if before is not None else 2)
        while time.monotonic() < deadline:
            try:
                seen = set(await self.page.evaluate(OUTBOX_RIDS) or ()) | self.posted
            except Exception:  # noqa: BLE001 - the page reloading
                seen = set(self.posted)
            new = {rid for rid in seen if rid not in self.owner and rid not in (before or set())}
            if len(new) == 1:
                self._own(new.pop(), number)
                self.figures.kept += 1
                self.log(f"hand {number}: kept offline")
                return True
            if len(new) > 1:
                self.figures.unexpected.append(f"game {self.game}: request ids {sorted(new)}")
                return True
            await asyncio.sleep(0.1)
        return False

    async def _resolve(self) -> None:
        """The player's choice on a hand held back as stale: discard it when the table's
        list has it already, else record it after the others."""
        page = self.page
        try:
            row = page.locator(".queued-hand.conflict").first
            if not await row.count():
                return
            rid = await row.get_attribute("data-request-id", timeout=ACTION_MS) or ""
            version = int(await page.evaluate(VERSION))
            number = self.owner.get(rid)
            if number is None:
                self.figures.unexpected.append(f"game {self.game}: held hand {rid} unknown")
                return
            self.log(f"held hand {number} ({rid}), the table at version {version}")
            # In the list: the table saw it recorded (entered on another phone too), or the
            # table the phone last saw is past it (its confirm got through, the answer not).
            if number in self.stored or number < version:
                self.figures.discarded += 1
                await row.locator("button[data-action=discard]").click(timeout=ACTION_MS)
            else:
                self.figures.after += 1
                await row.locator("button[data-action=after]").click(timeout=ACTION_MS)
            # The choice is sent or the page reloaded: the row goes (a player taps once).
            held = page.locator(f".queued-hand.conflict[data-request-id='{rid}']")
            await held.wait_for(state="detached", timeout=30_000)
            await self._wait_loaded()
        except Exception:  # noqa: BLE001 - the page reloading under the tap: looked at again
            await self._wait_loaded()


def _pairs(body: str) -> list[tuple[str, str]]:
    import urllib.parse

    return urllib.parse.parse_qsl(body, keep_blank_values=True)


@dataclass
class Clock:
    """When a run's play starts and stops: ``ready`` is set once the pages are open,
    ``start`` by the run when the play begins, ``stop`` (``time.monotonic()``) set before
    it."""

    ready: threading.Event = field(default_factory=threading.Event)
    start: threading.Event = field(default_factory=threading.Event)
    stop: float = 0.0


async def _play(
    base: str,
    tables: list[tuple[int, str, Phone, str | None]],
    venue: Venue,
    figures: BrowserFigures,
    clock: Clock,
    played: list[BrowserTable],
) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            for index, (game, session, mobile, plan) in enumerate(tables):
                context = await browser.new_context(viewport=VIEWPORT, locale="ja-JP")
                await context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
                page = await context.new_page()
                table = BrowserTable(game, base, page, mobile, venue, figures, 7000 + index, plan)
                await table.open()
                played.append(table)
            clock.ready.set()
            await asyncio.to_thread(clock.start.wait)
            await asyncio.gather(*(table.play(clock.stop) for table in played))
        finally:
            await browser.close()


def play_tables(
    base: str,
    tables: list[tuple[int, str, Phone, str | None]],
    venue: Venue,
    figures: BrowserFigures,
    clock: Clock,
    into: list[BrowserTable],
) -> None:
    """Play ``tables`` (game, session key, mobile phone, plan) on Chromium pages at
    ``base`` (through the venue), as :class:`Clock` says; the tables, with what they played,
    are put in ``into`` (a thread's result). ``clock.ready`` is set even when the pages
    could not be opened (``into`` stays empty, ``figures.unexpected`` says why)."""
    try:
        asyncio.run(_play(base, tables, venue, figures, clock, into))
    except Exception as error:  # noqa: BLE001 - reported by the run, which fails
        figures.unexpected.append(f"the browser tables stopped: {error!r}"[:300])
    finally:
        clock.ready.set()
