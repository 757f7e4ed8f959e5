"""The outbox keeps the table's order when the server comes back (static/js/offline.js, the
service worker templates/pwa/sw.js), three faults the fault run's Chromium tables met
(docs/capacity.md, "Faults"):

- a hand kept while the outbox is being sent follows the hands that send records (it was sent
  on the page's version plus the hands still waiting, and came back stale), and the page goes
  back to the hand form once the outbox is empty (the offline panel stayed open, the next
  hands going to the outbox with the server back);
- while hands of this game wait in the outbox, the hand form is not offered: they are sent
  first (a hand entered on the form was recorded before them, which then came back stale and
  stood out of play order);
- the reload after an outbox answer shows the table as the server has it, however slow its
  answer (the service worker's copy, older, answered after 5 s).

Each test holds the outbox's sends (Playwright's routes) to reach the moment it is about."""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from clubsite.models import Member
from scoring.ledger import hand_record
from scoring.models import Hanchan, HandEntry
from tests.browser import PHONE, screenshot
from tests.test_browser_confirmation import log_in
from tests.test_browser_offline import (
    PANEL_WORDS,
    assert_stored_as_replayed,
    enter_online,
    keep_offline,
    open_table_for_offline,
)

pytestmark = pytest.mark.browser

RON = {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]}
DRAW = {"result": "draw", "tenpai": [1]}
TSUMO = {"result": "tsumo", "wins": [{"winner": 3, "limit": "mangan"}]}
RON_AGAIN = {"result": "ron", "loser": 0, "wins": [{"winner": 2, "han": 2, "fu": 30}]}


class Outbox:
    """The outbox's sends (a POST of the hand form asking for JSON) as the page makes them: each
    one's fields, and those held back until :meth:`release` (``hold``: how many to let through
    before holding the rest)."""

    def __init__(self, page: Any, hold: int | None = None) -> None:
        self.page = page
        self.hold = hold
        self.sent: list[dict[str, str]] = []
        self.held: list[Any] = []
        page.route("**/hands/", self._route)

    def _route(self, route: Any) -> None:
        request = route.request
        if "json" not in (request.headers.get("accept") or ""):
            route.continue_()
            return
        fields = {k: v[0] for k, v in parse_qs(request.post_data or "").items()}
        self.sent.append(fields)
        if self.hold is not None and len(self.sent) > self.hold:
            self.held.append(route)
        else:
            route.continue_()

    def wait_held(self, count: int = 1) -> None:
        deadline = 100
        while len(self.held) < count and deadline:
            self.page.wait_for_timeout(100)
            deadline -= 1
        assert len(self.held) >= count, self.sent

    def release(self) -> None:
        self.hold = None
        held, self.held = self.held, []
        for route in held:
            route.continue_()

    def versions(self) -> list[int]:
        return [int(fields["version"]) for fields in self.sent]

    def close(self) -> None:
        self.page.unroute("**/hands/", self._route)


def offline_with(phone: Any, game: Hanchan, hands: list[dict[str, Any]]) -> None:
    """Aoki opens the table (kept by the service worker), loses the signal and keeps ``hands``
    in the offline panel."""
    log_in(phone, "aoki")
    open_table_for_offline(phone, game)
    phone.context.set_offline(True)
    phone.reload()
    phone.locator("#offline-panel").wait_for(state="visible", timeout=10000)
    for hand in hands:
        keep_offline(phone, hand)


def on_the_hand_form(phone: Any) -> None:
    """The page is back to the hand form: no offline panel, nothing waiting."""
    phone.locator("#hand-form").wait_for(state="visible", timeout=15000)
    assert phone.locator("#offline-panel").count() == 0
    assert phone.locator(".queued-hand").count() == 0


def test_a_hand_kept_while_the_outbox_is_sent_follows_the_hands_it_records(
    phone: Any, table_game: Hanchan, member: Member
) -> None:
    """Two hands wait (versions 0 and 1); the server is back; the first is recorded and, while
    the second is on its way, the players keep a third on the panel. It goes on version 2 (it
    went on version 1, the page's 0 plus the one hand then waiting, and came back stale), in
    the same send; then the page is the hand form again (the panel stayed open, the table's
    next hands going to the outbox)."""
    offline_with(phone, table_game, [RON, DRAW])
    outbox = Outbox(phone, hold=1)
    phone.context.set_offline(False)
    outbox.wait_held()
    # The first is recorded; the second is on its way.
    assert [e.data["result"] for e in HandEntry.objects.filter(hanchan=table_game)] == ["ron"]
    assert phone.locator("#offline-panel").is_visible()
    keep_offline(phone, TSUMO, wait=False)
    phone.locator(".queued-hand.waiting", has_text="ツモ Endo").wait_for()
    outbox.release()
    phone.wait_for_selector("#hand-3", timeout=15000)
    on_the_hand_form(phone)
    assert outbox.versions() == [0, 1, 2]
    assert phone.locator(".queued-hand.conflict").count() == 0
    outbox.close()
    enter_online(phone, RON_AGAIN)
    assert_stored_as_replayed(table_game, [RON, DRAW, TSUMO, RON_AGAIN])


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_hand_form_waits_for_the_hands_in_the_outbox(
    chromium: Any, live_server: Any, table_game: Hanchan, member: Member, language: str
) -> None:
    """Two hands kept offline; the players entered the first on another phone too, so it comes
    back stale and is held for their choice, the second waiting behind it. The page does not
    offer the hand form (a hand entered there was recorded before the one waiting, which then
    came back stale and, recorded after, stood out of play order): it says why. Discarding the
    held hand sends the other at once (it waited for the next 30 s), the hand form staying
    away until it is recorded; then the form is back, and the next hand follows it."""
    words = PANEL_WORDS[language]
    context = chromium.new_context(viewport=PHONE, locale=words["locale"], device_scale_factor=2)
    phone = context.new_page()
    phone.base_url = live_server.url
    try:
        log_in(phone, "aoki")
        open_table_for_offline(phone, table_game)
        context.set_offline(True)
        phone.reload()
        phone.locator("#offline-panel").wait_for(state="visible", timeout=10000)
        keep_offline(phone, RON, words)
        keep_offline(phone, DRAW, words)
        # The players entered the ron on Baba's phone too.
        hand_record(
            hanchan_id=table_game.pk,
            hand=RON,
            expected_version=0,
            request_id=uuid.uuid4(),
            by=member,
        )
        context.set_offline(False)
        held = phone.locator(".queued-hand.conflict")
        held.wait_for(timeout=15000)
        phone.wait_for_selector("#hand-1")
        # The hand form is not offered while the held hand and the one behind it wait.
        first = phone.locator("#outbox-first")
        first.wait_for()
        assert not phone.locator("#hand-form").is_visible()
        expected = {
            "ja": "送信待ちの局が2局あります。先に上の保留中の局をどうするか選んでください。",
            "en": "2 hands are waiting to send. First choose what to do with the hand held above.",
        }
        assert first.inner_text() == expected[language]
        assert phone.locator("#offline-panel").count() == 0
        screenshot(phone, f"offline-outbox-first-held-{language}")
        # The held hand is the one in the list: discarded, the draw goes at once (held here
        # on its way, to see the page meanwhile).
        outbox = Outbox(phone, hold=0)
        held.locator("button[data-action=discard]").click()
        outbox.wait_held()
        sending = {
            "ja": "送信待ちの局が1局あります。先に送信します。",
            "en": "1 hand is waiting to send. Sending it first.",
        }
        phone.wait_for_function(
            "text => document.getElementById('outbox-first')?.innerText.startsWith(text)",
            arg=sending[language],
        )
        assert not phone.locator("#hand-form").is_visible()
        assert (
            phone.locator("#outbox-first button").inner_text()
            == {
                "ja": "今すぐ送信",
                "en": "Send now",
            }[language]
        )
        screenshot(phone, f"offline-outbox-first-sending-{language}")
        outbox.release()
        phone.wait_for_selector("#hand-2", timeout=15000)
        on_the_hand_form(phone)
        assert outbox.versions() == [1]
        assert phone.locator("#outbox-first").count() == 0
        outbox.close()
        if language == "ja":
            enter_online(phone, TSUMO)
            assert_stored_as_replayed(table_game, [RON, DRAW, TSUMO])
    finally:
        context.close()


def test_a_hand_waiting_after_a_reload_goes_before_the_hand_form(
    phone: Any, table_game: Hanchan, member: Member
) -> None:
    """A hand waits and its send gets no answer (the Wi-Fi's first second back): the page,
    reloaded with the server back, sends it before it offers the hand form; with no answer
    again, the hand is taken on the offline panel, after it."""
    offline_with(phone, table_game, [RON])
    phone.route("**/hands/", lambda route: route.abort())
    phone.context.set_offline(False)
    phone.reload()
    # No answer: the next hand goes on the panel, after the one waiting.
    phone.locator("#offline-panel").wait_for(state="visible", timeout=10000)
    assert not phone.locator("#hand-form").is_visible()
    assert phone.locator(".queued-hand.waiting").count() == 1
    phone.unroute("**/hands/")
    outbox = Outbox(phone, hold=0)
    phone.reload()
    outbox.wait_held()
    assert not phone.locator("#hand-form").is_visible()
    assert phone.locator("#outbox-first").is_visible()
    outbox.release()
    phone.wait_for_selector("#hand-1", timeout=15000)
    on_the_hand_form(phone)
    outbox.close()
    enter_online(phone, DRAW)
    assert_stored_as_replayed(table_game, [RON, DRAW])


def test_the_reload_after_a_stale_answer_shows_the_table_from_the_server(
    phone: Any, table_game: Hanchan, member: Member, other_member: Member
) -> None:
    """A hand kept offline comes back stale (Baba's phone entered a hand meanwhile); the page
    reloads to show it beside the table as it stands. The server takes 6 s to answer that
    reload: the page waits for it (the service worker's copy, from before Baba's hand, answered
    after 5 s, and a "record after" chosen on it came back stale again)."""
    offline_with(phone, table_game, [RON])
    hand_record(
        hanchan_id=table_game.pk,
        hand=DRAW,
        expected_version=0,
        request_id=uuid.uuid4(),
        by=other_member,
    )
    slow: list[Any] = []
    path = f"/games/{table_game.pk}/"

    def slow_page(route: Any) -> None:
        # The service worker's fetch of the page (Playwright routes it too).
        if route.request.method == "GET" and urlsplit(route.request.url).path == path:
            slow.append(route)
        else:
            route.continue_()

    phone.context.route(f"**{path}*", slow_page)
    phone.context.set_offline(False)
    deadline = 150
    while not slow and deadline:
        phone.wait_for_timeout(100)
        deadline -= 1
    assert slow, "the reload did not reach the network"
    phone.wait_for_timeout(6000)
    for route in slow:
        route.continue_()
    phone.context.unroute(f"**{path}*", slow_page)
    held = phone.locator(".queued-hand.conflict")
    held.wait_for(timeout=15000)
    # The table as the server has it: Baba's draw in the list, the page's version 1.
    assert "流局" in phone.inner_text("#hand-1")
    assert (
        phone.evaluate(
            "() => JSON.parse(document.getElementById('offline-data').textContent).version"
        )
        == 1
    )
    # The address is the page's own again, and the service worker keeps the network's copy
    # under it (not under the reload's marked address): opened offline, it has Baba's draw.
    assert phone.url == f"{phone.base_url}{path}"
    kept = phone.evaluate(
        """async (path) => {
            const cache = await caches.open("clubsite-pages");
            const keys = (await cache.keys()).map((request) => new URL(request.url));
            const page = await cache.match(location.origin + path);
            return {
                addresses: keys.map((url) => url.pathname + url.search),
                draw: page ? (await page.text()).includes('id="hand-1"') : false,
            };
        }""",
        path,
    )
    assert kept["draw"]
    assert not [address for address in kept["addresses"] if "fresh" in address]
    outbox = Outbox(phone)
    held.locator("button[data-action=after]").click()
    phone.wait_for_selector("#hand-2", timeout=15000)
    on_the_hand_form(phone)
    assert outbox.versions() == [1]
    outbox.close()
    assert_stored_as_replayed(table_game, [DRAW, RON])
