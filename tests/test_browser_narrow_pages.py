"""Pages on the narrowest phone and the venue's screen, in Chromium.

- At 320x568 no page is wider than the screen, in Japanese and English: four were 323-352 px
  (a fieldset as wide as its English select, a table head that would not wrap, a setting's
  name in Japanese text, the chart's hidden table of figures), and the venue board's ranking.
- The venue board at 1920x1080 is a kiosk page: no site header with a steward's links, no
  footer, and its ranking text is at least 28 px (it was 16.8 px for a long ranking), all of
  a 40-player field's ranking on the screen.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test.utils import override_settings
from django.urls import reverse

from clubsite.models import Member
from scoring.standings import club_today
from tests.browser import as_seen, rows_for_the_module, screenshot
from tests.conftest import make_member, make_persona
from tests.test_browser_confirmation import log_in
from tests.test_browser_tap_targets import (
    CLUB_PERSONAS,
    LANGUAGES,
    ONE_GAME_CHAMPIONS,
    _pages,
    make_club,
)
from tests.test_tournaments import play_round
from tournaments import formats
from tournaments.models import Round
from tournaments.services import event_create, event_draw, participants_set, round_start

# Whole on one worker under pytest-xdist (tests/conftest.py: WHOLE_ON_ONE_WORKER).
pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 568}

# The widest elements sticking out past the viewport (those inside a box that scrolls or
# clips on the page are not: the page itself does not widen).
WIDE = """(w) => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= w + 0.5) continue;
    let held = false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const box = p.getBoundingClientRect();
      if (getComputedStyle(p).overflowX !== 'visible' && box.right <= w + 0.5) {
        held = true;
        break;
      }
    }
    const named = typeof el.className === 'string' && el.className.trim();
    const label = el.tagName.toLowerCase() + (named ? '.' + named.split(/\\s+/).join('.') : '');
    if (!held) out.push(label + ' ' + Math.round(r.right));
  }
  return {width: document.documentElement.scrollWidth, wide: out.slice(0, 4)};
}"""


def _too_wide(page: Any, name: str, path: str, language: str) -> list[str]:
    response = page.goto(page.base_url + path)
    assert response is not None and response.ok, (name, path)
    page.wait_for_load_state()
    found = page.evaluate(WIDE, NARROW["width"])
    screenshot(page, f"narrow-{name}-{language}")
    if found["width"] > NARROW["width"]:
        return [f"{name} ({path}) is {found['width']} px wide: {', '.join(found['wide'])}"]
    return []


def too_wide_pages(
    chromium: Any, live_server: Any, club: dict[str, Any], staff_member: Member, language: str
) -> list[str]:
    """The pages wider than the screen in ``language``: the main pages as the club's member,
    then the stewards' pages as ``staff_member``."""
    context = chromium.new_context(viewport=NARROW, locale="ja-JP")
    page = context.new_page()
    page.base_url = live_server.url
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    event, member = club["event"], club["member"]
    pages = _pages(club) + [
        ("board", reverse("tournaments:board", args=[event.pk])),
        ("seating", reverse("tournaments:chart", args=[event.pk])),
        ("stats", reverse("member_figures", args=[member.pk])),
        ("ratings", reverse("rating_list")),
        ("what-if", reverse("what_if")),
    ]
    problems: list[str] = []
    try:
        log_in(page, member.user.username)
        for name, path in pages:
            problems += _too_wide(page, name, path, language)
        context.clear_cookies()
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        log_in(page, staff_member.user.username)
        for name, path in [
            ("tasks", reverse("task_queue")),
            ("desk", reverse("desk:members")),
            ("desk-member", reverse("desk:member_edit", args=[member.pk])),
            ("event-edit", reverse("tournaments:edit", args=[event.pk])),
            ("substitutions", reverse("tournaments:substitutions", args=[event.pk])),
        ]:
            problems += _too_wide(page, name, path, language)
    finally:
        context.close()
    return problems


def board_seen(chromium: Any, live_server: Any, event: Any, staff_member: Member, language: str):
    """The venue board at 1920 x 1080 in ``language``, a steward at the screen: what the
    test below reads of it."""
    context = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="ja-JP")
    page = context.new_page()
    page.base_url = live_server.url
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    try:
        # A steward at the screen: the site's header would show the desk's links.
        log_in(page, staff_member.user.username)
        page.goto(live_server.url + reverse("tournaments:board", args=[event.pk]))
        page.wait_for_load_state()
        found = page.evaluate(
            """() => ({
              chrome: document.querySelectorAll('.site-header, .site-footer, nav, form').length,
              sizes: [...document.querySelectorAll('.board-ranking th, .board-ranking td')]
                .map(e => parseFloat(getComputedStyle(e).fontSize)),
              rows: document.querySelectorAll('.board-ranking tbody tr').length,
              bottom: Math.max(...[...document.querySelectorAll('.board-ranking tbody tr')]
                .map(e => e.getBoundingClientRect().bottom)),
              width: document.documentElement.scrollWidth,
            })"""
        )
        screenshot(page, f"board-1920-{language}")
    finally:
        context.close()
    return found


def make_forty() -> Any:
    """A 40-player event, its first round drawn and six of its ten tables played."""
    players = [make_member(f"k{i:02d}", f"選手番号{i:02d}", "") for i in range(40)]
    event = event_create(
        name="秋季オープン大会",
        format_key="custom",
        ruleset_id="makura-1.5",
        starts_on=club_today(),
        plan=formats.custom(preliminary_rounds=4),
        seed=3,
    )
    participants_set(event_id=event.pk, members=players)
    event_draw(event_id=event.pk)
    first = Round.objects.get(event=event, number=1)
    round_start(round_id=first.pk)
    play_round(Round.objects.get(pk=first.pk), better=lambda n: n)
    return event, players


@pytest.fixture(scope="module")
def seen(
    chromium: Any, live_server: Any, django_db_setup: None, django_db_blocker: Any
) -> dict[str, Any]:
    """Each page looked at once per language, for the tests below, which only look: the club
    of the tap targets' test (``make_club``) made once, then emptied, and the 40-player
    event made once, each with the personas as the fixtures make them."""
    found: dict[str, Any] = {}

    def look(key: str, looking: Any, *args: Any) -> None:
        try:
            found[key] = looking(chromium, live_server, *args)
        except Exception as error:  # noqa: BLE001 (raised again in the test that asks)
            found[key] = error

    with (
        rows_for_the_module(django_db_blocker, live_server),
        override_settings(**ONE_GAME_CHAMPIONS),
    ):
        personas = {name: make_persona(name) for name in CLUB_PERSONAS}
        club = make_club(*personas.values())
        for language in LANGUAGES:
            look(f"narrow-{language}", too_wide_pages, club, personas["staff_member"], language)
    with rows_for_the_module(django_db_blocker, live_server):
        event, _players = make_forty()
        steward = make_persona("staff_member")
        for language in LANGUAGES:
            look(f"board-{language}", board_seen, event, steward, language)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_is_wider_than_a_320_px_phone(seen: dict[str, Any], language: str) -> None:
    problems = as_seen(seen, f"narrow-{language}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_venue_board_is_a_kiosk_page_read_across_the_room(
    seen: dict[str, Any], language: str
) -> None:
    found = as_seen(seen, f"board-{language}")
    assert found["chrome"] == 0
    assert found["rows"] == 40
    assert min(found["sizes"]) >= 28
    assert found["bottom"] <= 1080 and found["width"] <= 1920
