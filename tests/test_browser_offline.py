"""Entry without a connection on a phone: the table screen opens from the
service worker with the network off, a ron is kept in the outbox and shown as waiting to
send, and is recorded once when the connection returns; a hand kept while another phone
entered one is shown beside the current table and recorded after it on the player's choice.
A whole hanchan of 14 hands with hands 5-8 entered offline is stored hand for hand as the
engine replays it; with a second phone entering a hand meanwhile, nothing is lost.
Screenshots of each screen."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

from clubsite.models import Member
from scoring.engine.replay import replay_record
from scoring.ledger import hanchan_start, hand_record
from scoring.models import Hanchan, HandEntry
from scoring.standings.periods import club_today
from tests.browser import PHONE, kept_tap, screenshot, tap_and_settle
from tests.test_browser_confirmation import log_in
from tests.test_browser_hanchan import settle

pytestmark = pytest.mark.browser


def open_table_for_offline(phone: Any, game: Hanchan) -> None:
    """Open the table twice online: the second load is the service worker's, which keeps it."""
    url = f"{phone.base_url}/games/{game.pk}/"
    phone.goto(url)
    phone.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    phone.goto(url)
    assert phone.evaluate("() => navigator.serviceWorker.controller !== null")


def keep_ron_offline(phone: Any) -> None:
    panel = phone.locator("#offline-panel")
    panel.locator("button[data-outcome=ron]").click()
    panel.locator("fieldset", has_text="放銃").get_by_role("button", name="Chiba").click()
    panel.locator("fieldset", has_text="和了").get_by_role("button", name="Baba").click()
    pick_offline_value(phone, "3-30")
    panel.locator("fieldset", has_text="立直").get_by_role("button", name="Baba").click()
    assert phone.inner_text("#offline-summary") == ("Aoki 0 · Baba +3,900 · Chiba −3,900 · Endo 0")
    phone.locator("#offline-keep").click()
    phone.wait_for_selector(".queued-hand.waiting")


def test_a_hand_kept_offline_is_sent_once_when_the_connection_returns(
    phone: Any, table_game: Hanchan, member: Member
) -> None:
    log_in(phone, "aoki")
    open_table_for_offline(phone, table_game)
    phone.context.set_offline(True)
    phone.reload()
    # The panel opens once the ruleset's figures are read (from the service worker's copy).
    phone.locator("#offline-panel").wait_for(state="visible", timeout=10000)
    keep_ron_offline(phone)
    queued = phone.inner_text(".queued-hand")
    assert "送信待ち" in queued and "ロン Baba ← Chiba" in queued
    assert HandEntry.objects.count() == 0
    screenshot(phone, "offline-kept-ja")

    phone.context.set_offline(False)
    phone.locator(".queued-hand").first.wait_for(state="detached", timeout=15000)
    phone.wait_for_selector("#hand-1")
    entry = HandEntry.objects.get(hanchan=table_game)
    assert entry.data["wins"] == [{"winner": 1, "han": 3, "fu": 30}]
    assert entry.data["riichi"] == [1]
    assert entry.result["deltas"] == [0, 3900, -3900, 0]
    screenshot(phone, "offline-sent-ja")


def test_a_hand_kept_while_another_phone_entered_one_waits_for_the_players_choice(
    phone: Any, table_game: Hanchan, member: Member
) -> None:
    log_in(phone, "aoki")
    open_table_for_offline(phone, table_game)
    phone.context.set_offline(True)
    phone.reload()
    keep_ron_offline(phone)
    # Meanwhile another phone at the table records the first hand.
    hand_record(
        hanchan_id=table_game.pk,
        hand={"result": "draw", "tenpai": [0]},
        expected_version=0,
        request_id=uuid.uuid4(),
        by=member,
    )
    phone.context.set_offline(False)
    conflict = phone.locator(".queued-hand.conflict")
    conflict.wait_for(timeout=15000)
    assert "別の端末がこの対局に局を入力しました" in conflict.inner_text()
    # Both are on the screen: the other phone's hand in the list, this one held beside it.
    assert "流局" in phone.inner_text("#hand-1")
    assert HandEntry.objects.count() == 1
    screenshot(phone, "offline-conflict-ja")
    conflict.locator("button[data-action=after]").click()
    phone.locator(".queued-hand").first.wait_for(state="detached", timeout=15000)
    entries = list(HandEntry.objects.filter(hanchan=table_game).order_by("sequence"))
    assert [e.data["result"] for e in entries] == ["draw", "ron"]
    assert Hanchan.objects.get(pk=table_game.pk).version == 2


# A makura-1.5 hanchan of 14 hands (Aoki, Baba, Chiba, Endo; seats 0-3): it ends after South
# 4, 3 honba, when the dealer deals in (checked against the engine below).
HANCHAN: list[dict[str, Any]] = [
    {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}], "riichi": [1]},
    {"result": "draw", "tenpai": [1]},
    {"result": "tsumo", "wins": [{"winner": 3, "limit": "mangan"}]},
    {"result": "draw", "tenpai": []},
    {"result": "ron", "loser": 3, "wins": [{"winner": 0, "han": 2, "fu": 30}]},
    {"result": "tsumo", "wins": [{"winner": 2, "han": 3, "fu": 30}]},
    {"result": "draw", "tenpai": [0, 2], "riichi": [0]},
    {"result": "ron", "loser": 1, "wins": [{"winner": 2, "han": 2, "fu": 30}]},
    {"result": "draw", "tenpai": [2]},
    {"result": "ron", "loser": 0, "wins": [{"winner": 1, "limit": "mangan"}]},
    {"result": "draw", "tenpai": [3, 0]},
    {"result": "draw", "tenpai": [3]},
    {"result": "ron", "loser": 1, "wins": [{"winner": 3, "han": 2, "fu": 30}]},
    {"result": "ron", "loser": 3, "wins": [{"winner": 0, "han": 3, "fu": 30}]},
]
NAMES = ["Aoki", "Baba", "Chiba", "Endo"]
# What the offline panel's fieldsets are called in Japanese.
OFFLINE_STEPS = {"loser": "放銃", "winner": "和了", "tenpai": "聴牌", "riichi": "立直"}


def signed(points: int) -> str:
    """Points as the panel shows a change: "+3,900", "−3,900", "0"."""
    return f"+{points:,}" if points > 0 else f"\u2212{-points:,}" if points < 0 else "0"


def pad_value(win: dict[str, Any]) -> str:
    return win.get("limit") or f"{win['han']}-{win['fu']}"


def tap_form(phone: Any, name: str, value: str) -> None:
    """Tap a button of the hand form and wait for its preview."""
    control = phone.locator(f"#hand-form input[name={name}][value='{value}']")
    tap_and_settle(phone, control)


def enter_online(phone: Any, hand: dict[str, Any]) -> None:
    """Enter ``hand`` (a record hand) with the hand form, as a player taps it, and confirm."""
    tap_form(phone, "result", hand["result"])
    if hand["result"] == "ron":
        tap_form(phone, "loser", str(hand["loser"]))
        tap_form(phone, "winners", str(hand["wins"][0]["winner"]))
    elif hand["result"] == "tsumo":
        tap_form(phone, "winner", str(hand["wins"][0]["winner"]))
    for seat in hand.get("tenpai", []):
        tap_form(phone, "tenpai", str(seat))
    for seat in hand.get("riichi", []):
        if hand["result"] in ("ron", "tsumo"):
            # Before the value: kept by the page, sent with the next tap (static/js/table.js).
            kept_tap(phone, phone.locator(f"#hand-form input[name=riichi][value='{seat}']"))
        else:
            tap_form(phone, "riichi", str(seat))
    for win in hand.get("wins", []):
        tap_form(phone, f"value_{win['winner']}", pad_value(win))
    with phone.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/hands/")):
        phone.locator("#hand-form button.confirm").click()
    settle(phone)
    phone.locator("#hand-entry .notice.success").wait_for()
    phone.wait_for_timeout(1000)  # a tap within a second of a recorded hand is ignored


def pick_offline_value(phone: Any, value: str) -> None:
    """Tap ``value`` on the offline panel's value grid (the online pad's grid)."""
    pad = phone.locator("#offline-value")
    pad.locator("label.tap", has=phone.locator(f"input[value='{value}']")).click()
    assert pad.locator(f"input[value='{value}']").is_checked()


def keep_offline(
    phone: Any, hand: dict[str, Any], steps: dict[str, str] = OFFLINE_STEPS, *, wait: bool = True
) -> None:
    """Enter ``hand`` in the offline panel and keep it in the outbox (``steps``: the panel's
    fieldsets as the page's language calls them); ``wait``: until the outbox shows one more
    hand waiting (not while it is being sent, the rows going as they are recorded)."""
    panel = phone.locator("#offline-panel")

    def seat_button(step: str, seat: int) -> Any:
        fieldset = panel.locator("fieldset", has_text=steps[step])
        return fieldset.get_by_role("button", name=NAMES[seat], exact=True)

    panel.locator(f"button[data-outcome={hand['result']}]").click()
    if hand["result"] == "ron":
        seat_button("loser", hand["loser"]).click()
    for win in hand.get("wins", []):
        seat_button("winner", win["winner"]).click()
        pick_offline_value(phone, pad_value(win))
    for seat in hand.get("tenpai", []):
        seat_button("tenpai", seat).click()
    for seat in hand.get("riichi", []):
        seat_button("riichi", seat).click()
    waiting = phone.locator(".queued-hand.waiting").count()
    phone.locator("#offline-keep").click()
    if wait:
        phone.locator(".queued-hand.waiting").nth(waiting).wait_for()


def stored_hands(game: Hanchan) -> list[HandEntry]:
    return list(HandEntry.objects.filter(hanchan=game).order_by("sequence"))


def assert_stored_as_replayed(game: Hanchan, hands: list[dict[str, Any]]) -> None:
    """The stored game holds ``hands``, each once and in this order, with the engine's
    results for them, and stands where the engine's replay of them ends."""
    entries = stored_hands(game)
    assert len({entry.request_id for entry in entries}) == len(entries) == len(hands)
    record = {"format": "club-game/1", "ruleset": "makura-1.5", "players": NAMES}
    replay = replay_record({**record, "hands": hands})
    for entry, hand, result in zip(entries, hands, replay.results, strict=True):
        assert entry.data["result"] == hand["result"]
        assert entry.data.get("wins", []) == hand.get("wins", [])
        assert entry.data.get("riichi", []) == hand.get("riichi", [])
        assert entry.result["deltas"] == list(result.deltas)
        assert entry.result["scores"] == list(result.scores)
    game.refresh_from_db()
    assert game.state["table"]["scores"] == list(replay.state.scores)
    if replay.settlement is not None:
        assert game.status == Hanchan.Status.FINISHED
        seats = sorted(game.seats.all(), key=lambda seat: seat.index)
        assert [seat.final_score for seat in seats] == list(replay.settlement.scores)
        assert [seat.points for seat in seats] == list(replay.settlement.points)


def four_hands_then_the_basement(phone: Any, game: Hanchan) -> None:
    """Aoki enters the first four hands of :data:`HANCHAN` online, then loses the signal and
    reloads the table (the service worker's copy, from before hand 1)."""
    log_in(phone, "aoki")
    open_table_for_offline(phone, game)
    for hand in HANCHAN[:4]:
        enter_online(phone, hand)
    phone.context.set_offline(True)
    phone.reload()


def test_a_whole_hanchan_with_four_hands_entered_offline_is_stored_as_the_engine_plays_it(
    phone: Any, table_game: Hanchan, member: Member
) -> None:
    four_hands_then_the_basement(phone, table_game)
    for hand in HANCHAN[4:8]:
        keep_offline(phone, hand)
    assert phone.locator(".queued-hand.waiting").count() == 4
    assert HandEntry.objects.filter(hanchan=table_game).count() == 4
    # The page kept by the service worker is from before hand 1, the last update this phone
    # saw is from after hand 4; the panel shows the table after the four hands waiting to
    # send, and each of them on the table before it, as the engine plays them (the
    # third offline hand's estimate once used the dealer and honba from before the first).
    record = {"format": "club-game/1", "ruleset": "makura-1.5", "players": NAMES}
    replay = replay_record({**record, "hands": HANCHAN[:8]})
    for row, result in zip(
        phone.locator(".queued-hand .queued-deltas").all(), replay.results[4:], strict=True
    ):
        assert row.inner_text() == " · ".join(
            f"{name} {signed(delta)}" for name, delta in zip(NAMES, result.deltas, strict=True)
        )
    state = replay.state
    assert (state.round, state.honba, state.deposits) == ("S3", 2, 0)
    assert phone.inner_text("#offline-table") == " · ".join(
        ["南3局 2本場 供託 0"]
        + [f"{name} {score:,}" for name, score in zip(NAMES, state.scores, strict=True)]
    )
    assert "このページは最新の局より前に保存されたもの" in phone.inner_text("#offline-panel")
    assert not phone.locator("#table-status .score-strip").is_visible()
    assert not phone.locator("#hand-list").is_visible()
    screenshot(phone, "offline-four-waiting-ja")
    # Back upstairs: the four are sent in order, each once.
    phone.context.set_offline(False)
    phone.wait_for_selector("#hand-8", timeout=20000)
    phone.locator(".queued-hand").first.wait_for(state="detached", timeout=15000)
    for hand in HANCHAN[8:]:
        enter_online(phone, hand)
    phone.get_by_text("最終結果").wait_for()
    assert_stored_as_replayed(table_game, HANCHAN)


def test_a_hand_entered_by_a_second_phone_while_the_first_is_offline_loses_nothing(
    phone: Any, table_game: Hanchan, member: Member, other_member: Member
) -> None:
    four_hands_then_the_basement(phone, table_game)
    keep_offline(phone, HANCHAN[4])
    # Baba's phone, online, enters hand 6 meanwhile (as the fifth hand the server sees).
    hand_record(
        hanchan_id=table_game.pk,
        hand=HANCHAN[5],
        expected_version=4,
        request_id=uuid.uuid4(),
        by=other_member,
    )
    keep_offline(phone, HANCHAN[6])
    keep_offline(phone, HANCHAN[7])
    phone.context.set_offline(False)
    conflict = phone.locator(".queued-hand.conflict")
    conflict.wait_for(timeout=15000)
    # Both are on the screen: Baba's hand in the list, the three kept here beside it.
    assert "ツモ Chiba" in phone.inner_text("#hand-5")
    assert phone.locator(".queued-hand").count() == 3
    screenshot(phone, "offline-conflict-three-ja")
    conflict.locator("button[data-action=after]").click()
    phone.wait_for_selector("#hand-8", timeout=20000)
    phone.locator(".queued-hand").first.wait_for(state="detached", timeout=15000)
    order = [*HANCHAN[:4], HANCHAN[5], HANCHAN[4], HANCHAN[6], HANCHAN[7]]
    assert_stored_as_replayed(table_game, order)


def test_a_hand_kept_by_one_login_waits_for_it_on_a_shared_phone(
    phone: Any, table_game: Hanchan, member: Member, other_member: Member
) -> None:
    log_in(phone, "aoki")
    open_table_for_offline(phone, table_game)
    context = phone.context
    context.set_offline(True)
    phone.reload()
    keep_ron_offline(phone)
    # Aoki closes the app with the hand kept; later, with a signal, Baba logs in on this phone.
    shared = context.new_page()
    shared.base_url = phone.base_url
    phone.close()
    context.set_offline(False)
    context.clear_cookies()
    log_in(shared, "baba")
    shared.goto(f"{shared.base_url}/games/{table_game.pk}/")
    kept = shared.locator(".queued-hand.other-login")
    kept.wait_for()
    assert "別の人がログインしていた間" in kept.inner_text()
    shared.wait_for_timeout(1000)  # time enough for a send that must not happen
    assert HandEntry.objects.filter(hanchan=table_game).count() == 0
    screenshot(shared, "offline-other-login-ja")
    # Aoki logs in again: the hand goes out as Aoki's.
    context.clear_cookies()
    log_in(shared, "aoki")
    shared.goto(f"{shared.base_url}/games/{table_game.pk}/")
    shared.wait_for_selector("#hand-1", timeout=15000)
    entry = HandEntry.objects.get(hanchan=table_game)
    assert entry.entered_by == member
    assert entry.result["deltas"] == [0, 3900, -3900, 0]


def test_in_english_the_offline_panel_follows_the_engine_and_says_when_it_cannot(
    chromium: Any, live_server: Any, member: Member, other_member: Member, coordinator: Member,
    outsider: Member,
) -> None:  # fmt: skip
    """Tenhou East-only at 390x844 in English: three queued non-dealer rons move the table to
    East 4 as the engine does; the all-last dealer's win may end the game by dealer-top or
    not, depending on the scores: its payments show, the table after it and the next hand's
    figures say they are unavailable. The value is tapped on the grid, 44 px keys."""
    game = hanchan_start(
        ruleset_id="tenhou-4p-east",
        members=[member, other_member, coordinator, outsider],
        played_on=club_today(),
        by=member,
    )
    context = chromium.new_context(viewport=PHONE, locale="en-US", device_scale_factor=2)
    phone = context.new_page()
    phone.base_url = live_server.url
    steps = {"loser": "Who dealt in?", "winner": "Who won?", "tenpai": "Who was tenpai?",
             "riichi": "Riichi"}  # fmt: skip
    hands: list[dict[str, Any]] = [
        {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 1, "fu": 30}]},
        {"result": "ron", "loser": 3, "wins": [{"winner": 2, "han": 2, "fu": 30}]},
        {"result": "ron", "loser": 0, "wins": [{"winner": 3, "han": 1, "fu": 30}]},
        {"result": "ron", "loser": 0, "wins": [{"winner": 3, "han": 2, "fu": 30}]},
        {"result": "draw", "tenpai": [1]},
    ]
    try:
        log_in(phone, "aoki")
        open_table_for_offline(phone, game)
        phone.context.set_offline(True)
        phone.reload()
        for hand in hands[:3]:
            keep_offline(phone, hand, steps)
        record = {"format": "club-game/1", "ruleset": "tenhou-4p-east", "players": NAMES}
        replay = replay_record({**record, "hands": hands[:4]})
        after_three = replay.results[3]
        assert (after_three.round, after_three.dealer, after_three.honba) == ("E4", 3, 0)
        scores = replay.results[2].scores
        # The page's own line (East 1, from before the hands waiting) makes way for the panel's.
        assert not phone.locator("#table-status .score-strip").is_visible()
        assert not phone.locator("#table-status .round-line").is_visible()
        # East 4 is the all-last hand: its conditions, closed, come with the line
        # (static/js/offline_all_last.js; tests/test_browser_offline_all_last.py).
        assert phone.inner_text("#offline-table") == "What each player needs\n" + " · ".join(
            ["East 4 0 honba Deposits 0"]
            + [f"{name} {score:,}" for name, score in zip(NAMES, scores, strict=True)]
        )
        # The grid, as online: every key a thumb's size, nothing wider than the phone.
        panel = phone.locator("#offline-panel")
        panel.locator("button[data-outcome=ron]").click()
        phone.locator("#offline-value").wait_for()
        keys = phone.locator("#offline-value label.tap:visible").all()
        assert len(keys) >= 16  # the limits, 2-4 han 25 fu, 1-4 han 30 and 40 fu
        for key in keys:
            box = key.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, box
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        screenshot(phone, "offline-grid-en")
        for hand in hands[3:]:
            keep_offline(phone, hand, steps)
        rows = phone.locator(".queued-hand .queued-deltas").all_inner_texts()
        for row, result in zip(rows[:4], replay.results, strict=False):
            assert row == " · ".join(
                f"{name} {signed(delta)}" for name, delta in zip(NAMES, result.deltas, strict=True)
            )
        unavailable = "Estimate unavailable: what follows this hand depends on a rule"
        assert rows[4].startswith(unavailable)
        assert phone.inner_text("#offline-table").startswith(unavailable)
        text = phone.inner_text("#offline-panel") + " ".join(rows)
        assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text), text
        screenshot(phone, "offline-unavailable-en")
    finally:
        context.close()


def test_a_hand_waiting_that_busts_a_player_ends_the_game_on_the_offline_panel(
    phone: Any, table_game: Hanchan, member: Member
) -> None:
    """A yakuman dealt in by Chiba (25,000) busts him (makura-1.5 tobi): the panel says the
    game ends there, with the scores, and takes no hand after it."""
    log_in(phone, "aoki")
    open_table_for_offline(phone, table_game)
    phone.context.set_offline(True)
    phone.reload()
    keep_offline(phone, {"result": "ron", "loser": 2, "wins": [{"winner": 1, "limit": "yakuman"}]})
    assert phone.inner_text(".queued-hand .queued-deltas") == (
        "Aoki 0 · Baba +32,000 · Chiba −32,000 · Endo 0 · この局で終局です。"
    )
    assert phone.inner_text("#offline-table") == (
        "この局で終局です。 · Aoki 25,000 · Baba 57,000 · Chiba −7,000 · Endo 25,000"
    )
    panel = phone.locator("#offline-panel")
    panel.locator("button[data-outcome=draw]").click()
    over = "見込みは出せません：対局はすでに終わっています。"
    assert phone.inner_text("#offline-summary") == over
    assert phone.locator("#offline-keep").is_disabled()


def test_a_confirm_answered_503_opens_the_offline_panel_and_the_hand_is_sent_later(
    phone: Any, table_game: Hanchan, member: Member
) -> None:
    """While the database is away the server answers 503 (clubsite/db_unavailable.py): the phone
    offers to keep the hand, as when the network is down, and sends it when the server answers
    again (the outbox's own retry, or the connection's return)."""
    log_in(phone, "aoki")
    open_table_for_offline(phone, table_game)

    def database_away(route: Any) -> None:
        route.fulfill(status=503, headers={"Retry-After": "30"}, body="away")

    phone.route("**/hands/", database_away)
    tap_form(phone, "result", "ron")
    tap_form(phone, "loser", "2")
    tap_form(phone, "winners", "1")
    tap_form(phone, "value_1", "3-30")
    phone.locator("#hand-form button.confirm").click()
    phone.locator("#offline-panel").wait_for(state="visible", timeout=10000)
    assert HandEntry.objects.count() == 0
    phone.unroute("**/hands/")
    keep_ron_offline(phone)
    # The server is back: the page's retry (or a reload) sends the hand, once.
    phone.evaluate("() => window.dispatchEvent(new Event('online'))")
    phone.locator(".queued-hand").first.wait_for(state="detached", timeout=15000)
    entry = HandEntry.objects.get(hanchan=table_game)
    assert entry.result["deltas"] == [0, 3900, -3900, 0]


# Runs in the page: the offline panel's controls (its buttons and value taps, not what the
# value pad folds) not wholly on screen above the panel's "keep it to send" bar.
OFFLINE_HIDDEN = """() => {
    const panel = document.querySelector("#offline-panel");
    const bar = panel.querySelector(".confirm-bar").getBoundingClientRect().top;
    return [...panel.querySelectorAll(
            "fieldset button, fieldset label.tap, .outcomes button, details.more-values > summary")]
        .filter(el => !(el.closest("details.more-values") && el.tagName !== "SUMMARY")
            && el.getClientRects().length)
        .filter(el => {
            const box = el.getBoundingClientRect();
            return box.top < 0 || box.bottom > bar + 0.5;
        })
        .map(el => el.innerText.replace(/\\s+/g, " ") || el.querySelector("input").value);
}"""


# The offline panel's fieldsets and limits, as each language calls them.
PANEL_WORDS = {
    "ja": {**OFFLINE_STEPS, "locale": "ja-JP", "admin": "管理"},
    "en": {"loser": "Who dealt in?", "winner": "Who won?", "tenpai": "Who was tenpai?",
           "riichi": "Riichi", "locale": "en-US", "admin": "Admin"},
}  # fmt: skip


@pytest.mark.parametrize("first", ["ron", "tsumo"])
@pytest.mark.parametrize("role", ["member", "steward"])
@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("size", [PHONE, {"width": 360, "height": 740}], ids=["390x844", "360x740"])
def test_the_offline_panel_keeps_each_step_on_screen(
    chromium: Any, live_server: Any, table_game: Hanchan, member: Member,
    size: dict[str, int], language: str, role: str, first: str,
) -> None:  # fmt: skip
    """The riichi row of a ron was under the value pad, below the screen; a
    tsumo's "keep it to send" below the pad, off screen; after a hand was kept the next hand's
    outcomes were above the screen; at 360 x 740 a ron's "50+ fu" row and, with a hand
    waiting, a tsumo's 30 and 40 fu rows were under the bar (in English the 40 fu rows of a
    ron too, the seats' names broken in two, the outcomes squeezed into half the row). Now,
    at 390 x 844 and 360 x 740, in Japanese and English, for a member and a steward playing
    (the steward's menu in two rows): every step of a ron and a tsumo, with nothing waiting
    and with a hand waiting to send above the panel, has every control wholly on screen
    above the bar, which stays at the bottom of the screen; a kept hand brings the next
    hand's outcomes back; the page never scrolls by itself."""
    if role == "steward":
        # The demo's steward plays too: a superuser, with the admin's links in the menu.
        member.user.is_staff = member.user.is_superuser = True
        member.user.save()
    words = PANEL_WORDS[language]
    context = chromium.new_context(viewport=size, locale=words["locale"], device_scale_factor=2)
    phone = context.new_page()
    phone.base_url = live_server.url
    try:
        log_in(phone, "aoki")
        phone.goto(f"{phone.base_url}/games/{table_game.pk}/")
        admin_link = phone.locator(".site-nav").get_by_role("link", name=words["admin"])
        assert admin_link.is_visible() == (role == "steward")
        phone.context.set_offline(True)
        panel = phone.locator("#offline-panel")
        panel.wait_for()

        def on_screen(control: Any) -> bool:
            """Wholly on screen, above the bar."""
            box = control.bounding_box()
            bar = panel.locator(".confirm-bar").bounding_box()
            assert box is not None and bar is not None
            return bool(box["y"] >= 0 and box["y"] + box["height"] <= bar["y"] + 0.5)

        def tap(control: Any) -> None:
            """Tap a control where it is, and check the panel: every control on screen above
            the bar, the bar on screen, the page where it was."""
            assert on_screen(control), "off screen before the tap"
            control.evaluate("el => (el.closest('label') || el).click()")
            phone.wait_for_timeout(50)
            assert phone.evaluate(OFFLINE_HIDDEN) == []
            bar = panel.locator(".confirm-bar").bounding_box()
            assert bar is not None and bar["y"] + bar["height"] <= size["height"] + 0.5
            assert phone.evaluate("window.scrollY") == 0, "the page scrolled"

        def seat_button(step: str, seat: int) -> Any:
            fieldset = panel.locator("fieldset", has_text=words[step])
            return fieldset.get_by_role("button", name=NAMES[seat], exact=True)

        def value(value: str) -> Any:
            return phone.locator(
                "#offline-value label.tap", has=phone.locator(f"input[value='{value}']")
            )

        def ron() -> None:
            tap(panel.locator("button[data-outcome=ron]"))
            tap(seat_button("loser", 2))
            tap(seat_button("winner", 1))
            tap(seat_button("riichi", 1))
            tap(value("3-30"))

        def tsumo() -> None:
            tap(panel.locator("button[data-outcome=tsumo]"))
            tap(seat_button("winner", 3))
            tap(seat_button("riichi", 3))
            tap(value("mangan"))

        hands = [ron, tsumo] if first == "ron" else [tsumo, ron]
        name = f"{size['width']}-{language}-{role}-{first}-first"
        for waiting, hand in enumerate(hands):
            assert phone.locator(".queued-hand.waiting").count() == waiting
            hand()
            keep = phone.locator("#offline-keep")
            box = keep.bounding_box()
            assert box is not None and box["y"] >= 0
            assert box["y"] + box["height"] <= size["height"] and keep.is_enabled()
            screenshot(phone, f"offline-{hand.__name__}-{waiting}-waiting-{name}")
            keep.click()
            phone.locator(".queued-hand.waiting").nth(waiting).wait_for()
            phone.wait_for_timeout(200)
            for outcome in ("ron", "tsumo", "draw"):
                assert on_screen(panel.locator(f"button[data-outcome={outcome}]"))
        screenshot(phone, f"offline-next-{name}")
    finally:
        context.close()


@pytest.mark.parametrize("language", ["ja", "en"])
def test_hands_waiting_however_many_leave_the_panel_on_one_screen(
    chromium: Any, live_server: Any, table_game: Hanchan, language: str
) -> None:
    """At 360 x 740: with two hands waiting to send, a ron's 40 fu row was once under the
    panel's bar in English, with three in Japanese. The hands waiting stay in one hand's height
    above the panel, the rest a scroll inside their box away (the panel's line gives the table
    after all of them); the ron's every control is above the bar."""
    words = PANEL_WORDS[language]
    size = {"width": 360, "height": 740}
    context = chromium.new_context(viewport=size, locale=words["locale"], device_scale_factor=2)
    phone = context.new_page()
    phone.base_url = live_server.url
    hands: list[dict[str, Any]] = [
        {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 2, "fu": 30}]},
        {"result": "tsumo", "wins": [{"winner": 3, "han": 1, "fu": 30}]},
        {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 2, "fu": 30}]},
    ]
    try:
        log_in(phone, "aoki")
        phone.goto(f"{phone.base_url}/games/{table_game.pk}/")
        phone.context.set_offline(True)
        for hand in hands:
            keep_offline(phone, hand, words)
        panel = phone.locator("#offline-panel")
        panel.locator("button[data-outcome=ron]").click()
        for step, seat in (("loser", 2), ("winner", 1), ("riichi", 1)):
            fieldset = panel.locator("fieldset", has_text=words[step])
            fieldset.get_by_role("button", name=NAMES[seat], exact=True).click()
        pick_offline_value(phone, "3-30")
        phone.evaluate("window.scrollTo(0, 0)")
        assert phone.evaluate(OFFLINE_HIDDEN) == []
        bar = panel.locator(".confirm-bar").bounding_box()
        assert bar is not None and bar["y"] + bar["height"] <= size["height"]
        # Every hand waiting is there, the last one a scroll of its box away.
        waiting = phone.locator(".queued-hand.waiting")
        assert waiting.count() == 3
        assert "Baba \u2190 Chiba" in waiting.nth(2).inner_text()
        outbox = phone.locator("#outbox")
        assert outbox.evaluate("el => el.scrollHeight > el.clientHeight")
        waiting.nth(2).scroll_into_view_if_needed()
        assert phone.evaluate("window.scrollY") == 0
        box, frame = waiting.nth(2).bounding_box(), outbox.bounding_box()
        assert box is not None and frame is not None
        assert box["y"] + box["height"] <= frame["y"] + frame["height"] + 0.5
        screenshot(phone, f"offline-three-waiting-360-{language}")
    finally:
        context.close()
