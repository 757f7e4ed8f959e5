"""The table screen draws a hand's steps and preview on the phone, in Japanese and English at
390 x 844: of a ron's taps only the winner's asks the server (for the value pad); who dealt in
(static/js/table_steps.js), the value and a riichi (static/js/table_preview.js) are drawn on
the phone. What it draws (the payments with their reasons, each seat's change and score, the
deposits, the next hand, the confirm bar's line) is word for word what the server's preview of
the same taps says; the pad folds to its one line and "More: rare cases" comes up as the
server would draw them; and the confirm records the hand.

The game: Makura 1.5, East 1 after a draw with Aoki (the dealer) tenpai: 1 honba, so the ron
has a honba line (tests/test_hand_preview_agreement.py proves the figures over 13 rulesets).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from scoring.ledger import hanchan_start, hand_record
from scoring.models import HandEntry
from scoring.standings.periods import club_today
from tests.browser import PHONE, screenshot
from tests.test_browser_confirmation import log_in

pytestmark = pytest.mark.browser

# Texts are compared without their white space: the markup between elements differs.
# The server's preview of the form as it stands: the same fields, posted as htmx posts them.
SERVER_PREVIEW = """async (url) => {
    const form = document.getElementById("hand-form");
    const answer = await fetch(url, {method: "POST", body: new FormData(form),
                                     headers: {"HX-Request": "true"}});
    const html = new DOMParser().parseFromString(await answer.text(), "text/html");
    const text = (el) => el ? el.textContent.replace(/\\s+/g, "") : null;
    return {preview: text(html.getElementById("hand-preview")),
            summary: text(html.getElementById("confirm-summary"))};
}"""
DRAWN = """() => {
    const text = (el) => el ? el.textContent.replace(/\\s+/g, "") : null;
    return {preview: text(document.getElementById("hand-preview")),
            summary: text(document.getElementById("confirm-summary"))};
}"""


@pytest.fixture
def players(member, other_member, coordinator, outsider):
    return [member, other_member, coordinator, outsider]


def _game(players: list[Any]) -> int:
    game = hanchan_start(
        ruleset_id="makura-1.5", members=players, played_on=club_today(), by=players[0]
    )
    hand_record(
        hanchan_id=game.pk,
        hand={"result": "draw", "tenpai": [0]},
        expected_version=game.version,
        request_id=uuid.uuid4(),
    )
    return int(game.pk)


def _tap(page: Any, name: str, value: str) -> None:
    page.locator(f"label:has(> input[name={name}][value='{value}'])").first.click()


@pytest.mark.parametrize(
    ("locale", "next_words", "choose_winner"),
    [
        ("ja-JP", "次: 東2局 0本場", "和了者を選んでください。"),
        ("en-US", "Next: East 2 0 honba", "Choose who won."),
    ],
)
def test_the_phone_draws_the_preview_and_the_confirm_records_it(
    chromium: Any,
    live_server: Any,
    players: list[Any],
    locale: str,
    next_words: str,
    choose_winner: str,
) -> None:
    game_id = _game(players)
    context = chromium.new_context(viewport=PHONE, locale=locale, device_scale_factor=2)
    try:
        page = context.new_page()
        page.base_url = live_server.url
        log_in(page, players[0].user.username)
        page.goto(f"{live_server.url}/games/{game_id}/")
        page.locator("#offline-values[data-ready='1']").wait_for(state="attached")
        page.locator("#value-pads[data-ready='1']").wait_for(state="attached")
        previews: list[str] = []
        page.on(
            "request",
            lambda request: (
                previews.append(request.post_data or "") if "/preview/" in request.url else None
            ),
        )
        # Who dealt in: the phone shows the ron's next steps itself.
        _tap(page, "loser", "2")
        page.locator("input[name=winners]").first.wait_for()
        assert page.locator("#hand-preview .next-step").inner_text() == choose_winner
        assert previews == []
        # Who won: the phone draws the server's value pad, "More: rare cases" hidden after it.
        _tap(page, "winners", "1")
        page.locator("#value-pad-1").wait_for()
        assert page.locator("#value-pad-1 legend").inner_text() == (
            "Babaの点数" if locale == "ja-JP" else "Value of Baba's win"
        )
        asked = len(previews)
        assert asked == 0
        assert page.locator(".more").get_attribute("hidden") is not None

        # The value and a riichi: drawn on the phone, nothing asked.
        _tap(page, "value_1", "3-30")
        page.locator("#preview-next").wait_for()
        _tap(page, "riichi", "1")
        page.wait_for_timeout(300)
        assert len(previews) == asked
        drawn = page.evaluate(DRAWN)
        assert page.locator("#preview-next").inner_text().startswith(next_words)
        assert "Chiba→Baba3,900" in drawn["preview"], drawn
        assert (
            page.locator("#pad-fold-1 .pad-chosen")
            .inner_text()
            .startswith("3飜30符" if locale == "ja-JP" else "3 han 30 fu")
        )
        assert page.locator(".more").get_attribute("hidden") is None
        server = page.evaluate(SERVER_PREVIEW, f"/games/{game_id}/hands/preview/")
        assert drawn == server
        # "More: rare cases", opened, asks the server, which draws it open, the taps kept.
        asked = len(previews)
        page.locator(".more > summary").click()
        page.locator(".more[open] fieldset").first.wait_for()
        assert len(previews) == asked + 1 and "more=1" in previews[-1]
        assert page.evaluate(DRAWN) == drawn
        # The confirm bar's line is above the bar's button, on screen.
        bar = page.locator("#confirm-summary").bounding_box()
        assert bar is not None and bar["y"] + bar["height"] <= PHONE["height"]
        screenshot(page, f"phone-preview-{locale}")

        page.locator("button.confirm").click()
        page.locator("#hand-entry .notice.success").wait_for()
        entries = list(HandEntry.objects.filter(hanchan_id=game_id).order_by("sequence"))
        assert len(entries) == 2
        assert entries[1].data["riichi"] == [1]
        # Baba's ron, 3,900 + 300 honba from Chiba, his own stick back: +4,200 - 1,000 + 1,000.
        assert entries[1].result["deltas"] == [0, 4200, -4200, 0]
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["ja-JP", "en-US"])
def test_the_phone_shows_a_ron_or_a_tsumo_and_switching_sends_only_the_last(
    chromium: Any, live_server: Any, players: list[Any], locale: str
) -> None:
    """Ron, then who dealt in, then Tsumo, its winner and value: all drawn on the phone; the
    confirm sends a tsumo alone (who dealt in, untapped by the switch, is not sent) and
    records it."""
    game_id = _game(players)
    context = chromium.new_context(viewport=PHONE, locale=locale, device_scale_factor=2)
    try:
        page = context.new_page()
        page.base_url = live_server.url
        log_in(page, players[0].user.username)
        page.goto(f"{live_server.url}/games/{game_id}/")
        posted: list[str] = []
        page.on(
            "request",
            lambda request: (
                posted.append(request.post_data or "") if "/preview/" in request.url else None
            ),
        )
        _tap(page, "result", "ron")
        _tap(page, "loser", "3")
        page.locator("input[name=winners]").first.wait_for()
        legend = page.locator("#ron-shortcut legend").inner_text()
        assert legend == ("放銃" if locale == "ja-JP" else "Dealt in")
        screenshot(page, f"phone-steps-ron-{locale}")
        _tap(page, "result", "tsumo")
        page.locator("input[name=winner]").first.wait_for()
        assert not page.locator("#ron-shortcut").is_visible()
        assert not page.locator("input[name=winners]").first.is_visible()
        assert posted == []

        _tap(page, "winner", "2")
        page.locator("#value-pad-2").wait_for()
        _tap(page, "value_2", "mangan")
        page.locator("#preview-next").wait_for()
        assert posted == []
        with page.expect_request(
            lambda r: r.method == "POST" and r.url.endswith("/hands/")
        ) as sent:
            page.locator("button.confirm").click()
        fields = sent.value.post_data or ""
        assert "result=tsumo" in fields and "winner=2" in fields and "value_2=mangan" in fields
        assert "loser=" not in fields and "winners=" not in fields
        page.locator("#hand-entry .notice.success").wait_for()
        entry = HandEntry.objects.filter(hanchan_id=game_id).order_by("-sequence").first()
        assert entry is not None and entry.data["result"] == "tsumo"
        # Chiba's mangan tsumo at 1 honba: 2,100 from each non-dealer, 4,100 from Aoki.
        assert entry.result["deltas"] == [-4100, -2100, 8300, -2100]
    finally:
        context.close()
