"""The site's header at a phone's size (390 x 844), in Japanese and English, for a member and
for a steward (whose menu has three links more): no page scrolls sideways, and neither does
the header nor its navigation; every link of the navigation is on the screen.

The table screen (a game in play, with its hand form) draws the header in one row of its own
on a phone (static/css/scoring.css); it used to be a strip that scrolled sideways and hid all
but the first two links (in English 800 px of links in 227 px).
"""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest
from django.urls import reverse

from clubsite.models import Member
from scoring.ledger import hanchan_import
from scoring.models import Hanchan
from scoring.standings.periods import club_today
from scoring.upkeep.sample_games import sample_hands
from tests.browser import PHONE, game_in_play, screenshot
from tests.test_browser_confirmation import log_in

pytestmark = pytest.mark.browser

# Runs in the page: how wide the page, the header and its navigation are and can scroll, and
# the navigation's links that are not wholly on the screen.
MEASURE = """() => {
  const header = document.querySelector(".site-header");
  const nav = header.querySelector(".site-nav");
  const offScreen = [...nav.querySelectorAll("a")]
    .filter(a => {
      const box = a.getBoundingClientRect();
      return box.left < 0 || box.right > window.innerWidth || box.width === 0;
    })
    .map(a => a.textContent.trim());
  return {
    page: document.documentElement.scrollWidth,
    header: [header.scrollWidth, header.clientWidth],
    nav: [nav.scrollWidth, nav.clientWidth],
    offScreen,
    handForm: document.querySelector("#hand-form") !== null,
  };
}"""


@pytest.fixture
def games(
    member: Member, other_member: Member, coordinator: Member, staff_member: Member
) -> dict[str, Hanchan]:
    """A finished game and one in play, both with Aoki (a member) and Doi (a steward) seated:
    the game in play is the table screen for both."""
    four = [member, other_member, coordinator, staff_member]
    finished = hanchan_import(
        record={
            "format": "club-game/1",
            "ruleset": "makura-1.5",
            "players": [m.display_name for m in four],
            "hands": sample_hands(random.Random(20261126), "makura-1.5"),
            "table": "A",
        },
        members_by_name={m.display_name: m for m in four},
        played_on=club_today() - datetime.timedelta(days=1),
        by=member,
        steward=True,
    )
    in_play = game_in_play(four, member)
    return {"finished": finished, "in_play": in_play}


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("who", ["aoki", "doi"])
def test_it_never_scrolls_sideways_at_a_phones_width(
    phone: Any, games: dict[str, Hanchan], who: str, language: str
) -> None:
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, who)
    me = Member.objects.get(user__username=who)
    pages = [
        ("home", reverse("game_list")),
        ("standings", reverse("standings")),
        ("meetups", reverse("meetings:list")),
        ("game", reverse("game_detail", args=[games["finished"].pk])),
        ("table", reverse("game_detail", args=[games["in_play"].pk])),
        ("member", reverse("member_detail", args=[me.pk])),
    ]
    problems = []
    for name, path in pages:
        response = phone.goto(phone.base_url + path)
        assert response is not None and response.ok, path
        phone.wait_for_load_state()
        found = phone.evaluate(MEASURE)
        # The table screen is the page whose header is drawn apart.
        assert found["handForm"] is (name == "table"), name
        if found["page"] > PHONE["width"]:
            problems.append(f"{name}: the page is {found['page']} px wide")
        for part in ("header", "nav"):
            scroll_width, client_width = found[part]
            if scroll_width > client_width:
                problems.append(f"{name}: the {part} scrolls, {scroll_width} px in {client_width}")
        if found["offScreen"]:
            problems.append(f"{name}: off the screen: {', '.join(found['offScreen'])}")
        screenshot(phone, f"header-{who}-{language}-{name}")
    assert problems == [], "\n".join(problems)
