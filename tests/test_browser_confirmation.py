"""Table confirmation and final scores in the browser at a phone's size: Baba
finds the game Aoki entered on his home page, sees who has confirmed, taps
"this result is right"; a game is entered as final scores only. Screenshots of each screen."""

from __future__ import annotations

import datetime
import uuid
from typing import Any

import pytest

from clubsite.models import Member
from scoring.ledger import hanchan_start, hand_record
from scoring.models import Hanchan
from scoring.standings.periods import club_today
from tests.browser import screenshot

pytestmark = pytest.mark.browser


def log_in(page: Any, username: str) -> None:
    page.goto(page.base_url + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", f"{username}-password")
    page.locator("form[action$='/accounts/login/'] button[type=submit]").click()
    page.wait_for_load_state()


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.fixture
def players(member: Member, other_member: Member, coordinator: Member, outsider: Member):
    return [member, other_member, coordinator, outsider]


def test_a_player_confirms_the_result_from_the_home_page(phone: Any, players) -> None:
    game = hanchan_start(
        ruleset_id="makura-1.5", members=players, played_on=club_today(), by=players[0]
    )
    hand_record(
        hanchan_id=game.pk,
        hand={"result": "ron", "loser": 2, "wins": [{"winner": 1, "limit": "yakuman"}]},
        expected_version=game.version,
        request_id=uuid.uuid4(),
        by=players[0],
        user_id=players[0].user_id,
    )
    log_in(phone, "baba")
    phone.goto(phone.base_url + "/")
    waiting = phone.locator("#awaiting-mine")
    assert waiting.is_visible()
    assert "あなたの承認待ち" in waiting.inner_text()
    no_sideways_scroll(phone)
    screenshot(phone, "confirmation-home")

    waiting.locator("a.game-card").first.click()
    phone.wait_for_load_state()
    panel = phone.locator("#confirmation")
    assert "承認待ち" in panel.inner_text()
    assert "Aoki" in panel.inner_text()  # who entered it vouched for it
    no_sideways_scroll(phone)
    screenshot(phone, "confirmation-panel")

    panel.locator("button.confirm-result").click()
    phone.wait_for_load_state()
    phone.wait_for_selector("#confirmation button.confirm-result", state="detached")
    assert "Baba" in phone.locator("#confirmation").inner_text()
    screenshot(phone, "confirmation-after-tap")
    confirmations = Hanchan.objects.get(pk=game.pk).confirmations.filter(version=game.version + 1)
    assert {c.member.display_name for c in confirmations} == {"Aoki", "Baba"}


def test_a_game_is_entered_as_final_scores(phone: Any, players) -> None:
    game = hanchan_start(
        ruleset_id="makura-1.5",
        members=players,
        played_on=club_today() - datetime.timedelta(days=0),
        by=players[0],
    )
    log_in(phone, "aoki")
    phone.goto(phone.base_url + f"/games/{game.pk}/final-scores/")
    for seat, score in enumerate([45300, 30000, 19700, 5000]):
        phone.fill(f"input[name=score_{seat}]", str(score))
    no_sideways_scroll(phone)
    screenshot(phone, "final-scores-form")
    phone.locator("#final-scores-form button[type=submit]").click()
    phone.wait_for_load_state()
    assert "+56.0" in phone.locator("#table-status").inner_text()
    screenshot(phone, "final-scores-settled")
    game.refresh_from_db()
    assert game.final_scores_only and game.status == Hanchan.Status.FINISHED
