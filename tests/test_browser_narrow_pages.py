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
from django.urls import reverse

from clubsite.models import Member
from scoring.standings import club_today
from tests.browser import screenshot
from tests.conftest import make_member
from tests.test_browser_confirmation import log_in
from tests.test_browser_tap_targets import _pages, club  # noqa: F401 (a fixture)
from tests.test_tournaments import play_round
from tournaments import formats
from tournaments.models import Round
from tournaments.services import event_create, event_draw, participants_set, round_start

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


@pytest.mark.parametrize("language", ["ja", "en"])
def test_no_page_is_wider_than_a_320_px_phone(
    chromium: Any,
    live_server: Any,
    club: dict[str, Any],  # noqa: F811
    staff_member: Member,
    language: str,
) -> None:
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
    log_in(page, member.user.username)
    for name, path in pages:
        problems += _too_wide(page, name, path, language)
    context.clear_cookies()
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    log_in(page, staff_member.user.username)
    for name, path in [
        ("tasks", reverse("task_queue")),
        ("desk", reverse("desk:members")),
        ("desk-member", reverse("desk:member_edit", args=[member.pk])),
        ("event-edit", reverse("tournaments:edit", args=[event.pk])),
        ("substitutions", reverse("tournaments:substitutions", args=[event.pk])),
    ]:
        problems += _too_wide(page, name, path, language)
    context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def forty(db: None) -> Any:
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


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_venue_board_is_a_kiosk_page_read_across_the_room(
    chromium: Any, live_server: Any, forty: Any, staff_member: Member, language: str
) -> None:
    event, _players = forty
    context = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="ja-JP")
    page = context.new_page()
    page.base_url = live_server.url
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
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
    context.close()
    assert found["chrome"] == 0
    assert found["rows"] == 40
    assert min(found["sizes"]) >= 28
    assert found["bottom"] <= 1080 and found["width"] <= 1920
