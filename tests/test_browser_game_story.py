"""The story of a game and a season on a 390 x 844 phone, in Japanese and in English: the
game page's score lines with each seat's riichi, wins and deal-ins marked, the chance of
first place by hand, both in black and white with dashes when printed; and a member's
placement swings loaded when scrolled to. Nothing scrolls sideways; the screens are saved
under tests/screenshots/."""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest
from django.core.cache import cache

from clubsite.models import Member
from scoring.ledger import hanchan_import
from scoring.models import Hanchan, Seat
from scoring.upkeep.sample_games import sample_hands
from tests.browser import PHONE, screenshot
from tests.test_browser_player_figures import no_sideways_scroll, tap_size
from tests.test_game_charts import HANDS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LEGEND = {"ja-JP": ("リーチ", "和了", "放銃"), "en-US": ("riichi", "win", "deal-in")}


@pytest.fixture
def games(
    member: Member, other_member: Member, coordinator: Member, staff_member: Member
) -> tuple[list[Member], Hanchan]:
    """Three whole games of the four from sample hands, and a game in play of four known
    hands (tests/test_game_charts.py's: 3 riichi, 4 wins, 2 deal-ins)."""
    cache.clear()
    table = [member, other_member, coordinator, staff_member]
    by_name = {m.display_name: m for m in table}

    def record(hands: list[dict[str, Any]]) -> dict[str, Any]:
        players = [m.display_name for m in table]
        return {
            "format": "club-game/1",
            "ruleset": "makura-1.5",
            "players": players,
            "hands": hands,
        }

    for seed in range(3):
        hanchan_import(
            record=record(sample_hands(random.Random(seed), "makura-1.5")),
            members_by_name=by_name,
            played_on=datetime.date(2026, 11, 1 + seed),
        )
    marked = hanchan_import(
        record=record(HANDS), members_by_name=by_name, played_on=datetime.date(2026, 11, 20)
    )
    return table, marked


def inside(box: dict[str, float], frame: dict[str, float]) -> bool:
    return (
        box["x"] >= frame["x"] - 0.5
        and box["y"] >= frame["y"] - 0.5
        and box["x"] + box["width"] <= frame["x"] + frame["width"] + 0.5
        and box["y"] + box["height"] <= frame["y"] + frame["height"] + 0.5
    )


@pytest.mark.parametrize("locale", list(LEGEND))
def test_a_game_and_a_season_tell_their_story(
    chromium: Any, live_server: Any, games: tuple[list[Member], Hanchan], locale: str
) -> None:
    table, marked = games
    lang = locale[:2]
    context = chromium.new_context(viewport=PHONE, locale=locale, device_scale_factor=2)
    page = context.new_page()
    try:
        game_path = f"/games/{marked.pk}/"
        page.goto(live_server.url + game_path)
        page.locator("#id_username").fill("aoki")
        page.locator("#id_password").fill("aoki-password")
        page.locator("form[action$='/accounts/login/'] button[type=submit]").click()
        page.wait_for_url(f"**{game_path}")

        chart = page.locator("#scores-chart")
        chart.scroll_into_view_if_needed()
        frame = chart.locator("svg").first.bounding_box()
        assert frame is not None and frame["width"] <= PHONE["width"]
        for kind, count in (("riichi", 3), ("win", 4), ("deal-in", 2)):
            marks = chart.locator(f"g.chart-series path.mark-{kind}")
            assert marks.count() == count
            for index in range(count):
                box = marks.nth(index).bounding_box()
                assert box is not None and box["width"] >= 6 and inside(box, frame), (kind, box)
        legend = chart.locator(".chart-legend").inner_text()
        assert all(word in legend for word in LEGEND[locale])
        assert all(m.display_name in legend for m in table)
        chances = page.locator("#chances-chart")
        assert chances.locator("g.chart-series polyline").count() == 4
        assert chances.locator(".chart-grid text").all_text_contents()[:5] == [
            "0%", "25%", "50%", "75%", "100%",
        ]  # fmt: skip
        no_sideways_scroll(page)
        chart.screenshot(path=str(screenshot(page, f"game-story-{lang}")))

        # On paper: black lines told apart by their dashes, the hand entry left out.
        page.emulate_media(media="print")
        strokes = chart.locator("g.chart-series polyline").evaluate_all(
            "lines => lines.map(l => [getComputedStyle(l).stroke,"
            " getComputedStyle(l).strokeDasharray])"
        )
        assert {stroke for stroke, _dash in strokes} == {"rgb(0, 0, 0)"}
        assert len({dash for _stroke, dash in strokes}) == 4
        assert not page.locator("#hand-entry").is_visible()
        assert chart.is_visible() and chances.is_visible()
        screenshot(page, f"game-story-print-{lang}")
        page.emulate_media(media="screen")

        # A member's swings, loaded when scrolled to.
        member_path = f"/members/{table[0].pk}/"
        page.goto(live_server.url + member_path)
        page.locator("#member-swings").scroll_into_view_if_needed()
        decider = page.locator("#swing-decider")
        decider.wait_for()
        link = decider.locator("a")
        assert "#hand-" in (link.get_attribute("href") or "")
        tap_size(link)
        tap_size(page.locator(".swings-table tbody a").first)
        ranks = Seat.objects.filter(member=table[0], rank__isnull=False).values_list(
            "rank", flat=True
        )
        assert page.locator("#comeback-chart > svg").count() == (1 if min(ranks) < 4 else 0)
        no_sideways_scroll(page)
        page.locator("#member-swings").screenshot(
            path=str(screenshot(page, f"member-swings-{lang}"))
        )
    finally:
        context.close()
