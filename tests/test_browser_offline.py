"""Entry without a connection on a phone (issue 10, item 7): the table screen opens from the
service worker with the network off, a ron is kept in the outbox and shown as waiting to
send, and is recorded once when the connection returns; a hand kept while another phone
entered one is shown beside the current table and recorded after it on the player's choice.
Screenshots of each screen."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from clubsite.models import Member
from scoring.models import Hanchan, HandEntry
from scoring.services import hand_record
from tests.browser import screenshot

pytestmark = pytest.mark.browser


def log_in(page: Any, username: str) -> None:
    page.goto(page.base_url + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", f"{username}-password")
    page.locator("form[action$='/accounts/login/'] button[type=submit]").click()
    page.wait_for_load_state()


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
    phone.select_option("#offline-value", "3-30")
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
    assert phone.locator("#offline-panel").is_visible()
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
