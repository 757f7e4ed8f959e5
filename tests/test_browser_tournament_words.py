"""The tournament pages' words at a phone's size (390 x 844), in Japanese and English: the Grand
Champion's ranking with its deciding columns (finals, preliminaries) on screen, the finals
seated by standing, and a tournament game's page with its way back to the event. Screenshots
go to tests/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from clubsite.models import Member
from scoring.standings import club_today
from tests.browser import PHONE, SCREENSHOTS, screenshot
from tests.conftest import make_member
from tests.test_browser_confirmation import log_in, no_sideways_scroll
from tests.test_qualification import TODAY, grand_champion_history, m, minimums  # noqa: F401
from tests.test_tournaments import run_rounds
from tournaments.models import Round
from tournaments.services import (
    event_advance,
    event_create,
    event_draw,
    participants_set,
    round_start,
)

pytestmark = pytest.mark.browser


def test_the_grand_champion_ranking_and_a_finals_game_on_a_phone(
    phone: Any, staff_member: Member
) -> None:
    field = [make_member(f"gc{i}", f"長い名前の選手{i}", f"せんしゅ{i}") for i in range(8)]
    event = event_create(
        name="グランドチャンピオン戦 2026", format_key="grand_champion",
        ruleset_id="makura-1.5", starts_on=club_today(), seed=5,
    )  # fmt: skip
    participants_set(event_id=event.pk, members=field)
    event_draw(event_id=event.pk)
    run_rounds(event, better=lambda n: n)
    event_advance(event_id=event.pk)
    log_in(phone, "doi")
    for language in ("ja", "en"):
        phone.context.add_cookies(
            [{"name": "django_language", "value": language, "url": phone.base_url}]
        )
        phone.goto(f"{phone.base_url}/tournaments/{event.pk}/")
        no_sideways_scroll(phone)
        for cell in ("th.col-deciding >> nth=0", "th.col-deciding >> nth=1"):
            box = phone.locator(f"#ranking {cell}").bounding_box()
            assert box is not None and box["x"] + box["width"] <= PHONE["width"], (language, box)
        state = phone.locator("#round-7 .ev-round-state").inner_text()
        assert state == {"ja": "成績順に配席済み", "en": "seated by standing"}[language]
        screenshot(phone, f"tournament-gc-{language}")
        ranking = SCREENSHOTS / f"tournament-gc-ranking-{language}.png"
        phone.locator("#ranking").screenshot(path=str(ranking))

    round_start(round_id=Round.objects.get(event=event, number=7).pk)
    game = Round.objects.get(event=event, number=7).tables.get().hanchan
    for language, words in (("ja", "7回戦 1番卓"), ("en", "Round 7, table 1")):
        phone.context.add_cookies(
            [{"name": "django_language", "value": language, "url": phone.base_url}]
        )
        phone.goto(f"{phone.base_url}/games/{game.pk}/")
        links = phone.locator("#tournament-game").inner_text()
        assert words in links and event.name in links
        assert "卓卓" not in phone.locator("h1").inner_text()
        no_sideways_scroll(phone)
        screenshot(phone, f"tournament-game-links-{language}")
        top = SCREENSHOTS / f"tournament-game-top-{language}.png"
        phone.screenshot(path=str(top))
        phone.locator("#my-table-link").click()
        phone.wait_for_load_state()
        assert phone.url.endswith(f"/tournaments/{event.pk}/my-table/")


@pytest.mark.usefixtures("minimums")
def test_the_grand_champion_race_on_a_phone(
    phone: Any,
    grand_champion_history,  # noqa: F811
    monkeypatch,
) -> None:
    """Stand-in seats and the gap to the last seat held, in both languages."""
    monkeypatch.setattr("tournaments.race_pages.club_today", lambda: TODAY)
    log_in(phone, "m0")
    for language, words in (
        ("ja", "順位の次点（女流枠：女流の候補なし）"),
        ("en", "next in the ranking, in the women's seat (no woman in the race)"),
    ):
        phone.context.add_cookies(
            [{"name": "django_language", "value": language, "url": phone.base_url}]
        )
        phone.goto(f"{phone.base_url}/tournaments/races/grand-champion/2025/")
        assert words in phone.locator("#qualified").inner_text()
        assert "24.0" in phone.locator("#bubble").inner_text()
        no_sideways_scroll(phone)
        screenshot(phone, f"race-grand-champion-{language}")
