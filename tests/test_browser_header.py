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
from tests.browser import (
    PHONE,
    as_seen,
    game_in_play,
    phone_page,
    rows_for_the_module,
    screenshot,
)
from tests.conftest import make_persona
from tests.test_browser_confirmation import log_in

# Whole on one worker under pytest-xdist (tests/conftest.py: WHOLE_ON_ONE_WORKER).
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


def make_games(
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


LANGUAGES = ["ja", "en"]
WHO = ["aoki", "doi"]
# The personas of make_games, in its order.
GAME_PERSONAS = ("member", "other_member", "coordinator", "staff_member")


def pages_seen(page: Any, games: dict[str, Hanchan], who: str, language: str) -> list[Any]:
    """Each page as ``who`` sees it in ``language``: its name and path, whether it answered,
    and what MEASURE found on it (None when it did not answer)."""
    page.context.add_cookies([{"name": "django_language", "value": language, "url": page.base_url}])
    log_in(page, who)
    me = Member.objects.get(user__username=who)
    pages = [
        ("home", reverse("game_list")),
        ("standings", reverse("standings")),
        ("meetups", reverse("meetings:list")),
        ("game", reverse("game_detail", args=[games["finished"].pk])),
        ("table", reverse("game_detail", args=[games["in_play"].pk])),
        ("member", reverse("member_detail", args=[me.pk])),
    ]
    seen = []
    for name, path in pages:
        response = page.goto(page.base_url + path)
        answered = response is not None and response.ok
        if not answered:
            seen.append((name, path, False, None))
            break
        page.wait_for_load_state()
        seen.append((name, path, True, page.evaluate(MEASURE)))
        screenshot(page, f"header-{who}-{language}-{name}")
    return seen


@pytest.fixture(scope="module")
def seen(
    chromium: Any, live_server: Any, django_db_setup: None, django_db_blocker: Any
) -> dict[str, Any]:
    """The games made once (the personas as the fixtures make them) and each page loaded once
    for each login and language, each on a phone page of its own: the test below only looks."""
    found: dict[str, Any] = {}
    with rows_for_the_module(django_db_blocker, live_server):
        games = make_games(*(make_persona(name) for name in GAME_PERSONAS))
        for who in WHO:
            for language in LANGUAGES:
                page = phone_page(chromium, live_server)
                try:
                    found[f"{who}-{language}"] = pages_seen(page, games, who, language)
                except Exception as error:  # noqa: BLE001 (raised again in the test)
                    found[f"{who}-{language}"] = error
                finally:
                    page.context.close()
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("who", WHO)
def test_it_never_scrolls_sideways_at_a_phones_width(
    seen: dict[str, Any], who: str, language: str
) -> None:
    problems = []
    for name, path, answered, found in as_seen(seen, f"{who}-{language}"):
        assert answered, path
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
    assert problems == [], "\n".join(problems)
