"""Result lines and the club's lobbies in the browser at a phone's size: a
steward lists the club's lobby, pastes a lobby's result lines on the import page,
reads the summary and opens the stored game, whose page says the lobby's rules; every tap
target of both pages is 44 px at least and no text runs out of its box, in Japanese and
English. Screenshots of each screen."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from clubsite.models import Member, OnlineName
from scoring.models import Hanchan
from tests.browser import screenshot
from tests.conftest import make_member
from tests.test_browser_confirmation import log_in, no_sideways_scroll
from tests.test_browser_tap_targets import MEASURE, MINIMUM

pytestmark = pytest.mark.browser

LINES = (
    "L1002 | 00:44 | 四般南喰赤－ | A(+61.0) B(0.0) C(-25.0) D(-36.0)\n"
    "L1002 | 01:20 | 四般南喰赤－ | B(+45.0) A(+10.0) C(-15.0) D(-45.0)"
)


@pytest.fixture
def lobby_players(db: None) -> list[Member]:
    members = []
    for name in "ABCD":
        member = make_member(f"p{name.lower()}", f"Player {name}", f"ぷれいやー{name}")
        OnlineName.objects.create(member=member, service="tenhou", name=name)
        members.append(member)
    return members


def small_targets(page: Any) -> list[str]:
    found = page.evaluate(MEASURE, MINIMUM)
    return [*found["small"], *found["overflowing"]]


@pytest.mark.parametrize(
    ("language", "stored", "refused", "words"),
    [
        ("ja", "保存", "では精算が合いません", "ロビー L1002 の対戦結果の行から。"),
        ("en", "Stored: final scores", "do not settle under", "From a result line of lobby L1002."),
    ],
)
def test_a_steward_lists_the_lobby_and_pastes_its_lines(
    phone: Any, staff_member: Member, lobby_players: list[Member], language, stored, refused, words
):
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, staff_member.user.username)
    phone.goto(phone.base_url + reverse("online_lobbies"))
    phone.select_option("select[name=service]", "tenhou")
    phone.fill("input[name=lobby]", "L1002")
    phone.select_option("select[name=ruleset]", "tenhou-4p")
    phone.locator("#online-lobby-form button[type=submit]").click()
    phone.wait_for_load_state()
    assert "L1002" in phone.locator("#online-lobbies").inner_text()
    no_sideways_scroll(phone)
    assert small_targets(phone) == []
    screenshot(phone, f"online-lobbies-{language}")

    phone.goto(phone.base_url + reverse("game_import"))
    phone.fill("textarea[name=lines]", LINES)
    phone.fill("input[name=played_on]", "2026-11-20")
    assert small_targets(phone) == []
    phone.locator("#import-form button[type=submit]").click()
    phone.wait_for_load_state()
    summary = phone.locator("#import-summary").inner_text()
    assert stored in summary and refused in summary
    no_sideways_scroll(phone)
    assert small_targets(phone) == []
    screenshot(phone, f"result-lines-summary-{language}")

    game = Hanchan.objects.get()
    assert game.ruleset_version.standings_key == "tenhou-4p"  # the club's own table
    phone.goto(phone.base_url + reverse("game_detail", args=[game.pk]))
    assert words in phone.locator("#lobby-rules").inner_text()
    no_sideways_scroll(phone)
    screenshot(phone, f"result-line-game-{language}")
