"""Tap targets and text boxes on the main pages at a phone's size.

A member logs in to a club with a few finished games, one in play, a meetup, a tournament
with a round played and a race, and opens each main page (the login and password-reset pages
before logging in) in Japanese and English at 390 x 844. On each:

- every visible ``a``, ``button``, ``input[type=checkbox|radio|submit]``, ``select`` and
  ``summary`` is at least 44 x 44 CSS px (its ``getBoundingClientRect``);
- no text overflows its box: every line of text (its ``Range.getClientRects``) stays within
  the border of the block, inline-block, flex item or cell that holds it; no box that clips
  (``overflow: hidden``) has a ``scrollWidth`` beyond its ``clientWidth``; and the page never
  scrolls sideways. A deliberate scroller (``overflow-x: auto``, the wide tables) is not an
  overflow, nor is a text field's long value or a name cut with ``text-overflow: ellipsis``.

Every ``details`` is opened first, so what a tap reveals (the standings' filters) is measured.

The rule for inline links (WCAG 2.5.8's inline exception): a link *in running text* — inside
a ``p`` (or an element of class ``prose``) that has words or figures of its own besides its
links — is sized by the sentence it sits in and is exempt. A paragraph that is only links and
separators ("Seating chart · Ranking (CSV) · Add to calendar") is a row of links, not prose.
Navigation, buttons, links alone on their line, links in lists, cards and table cells, and
every form control are not exempt.

A checkbox or radio button counts with its label: tapping the label ticks it, so the label's
box (when it holds the input, or names it with ``for``) is the target.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest
from django.test.utils import override_settings
from django.urls import reverse

from clubsite.club_scope import current_club
from clubsite.models import Member
from meetings import services as meetups
from meetings.models import Venue
from scoring.ledger import hanchan_import
from scoring.models import Hanchan
from scoring.standings import club_today
from scoring.upkeep.sample_games import sample_hands
from tests.browser import PHONE, as_seen, game_in_play, phone_page, rows_for_the_module, screenshot
from tests.conftest import make_member, make_persona
from tests.test_browser_confirmation import log_in
from tests.test_tournaments import play_round
from tournaments.models import Round
from tournaments.services import event_create, event_draw, participants_set, round_start

# Whole on one worker under pytest-xdist (tests/conftest.py: WHOLE_ON_ONE_WORKER).
pytestmark = pytest.mark.browser

MINIMUM = 44

# Runs in the page: the targets under 44 px and the boxes whose text overflows.
MEASURE = """
(minimum) => {
  // What a tap opens is measured too: the filters, "more", a game's history.
  for (const details of document.querySelectorAll("details")) details.open = true;
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && style.visibility !== "hidden"
      && el.closest("[hidden], [aria-hidden=true]") === null;
  };
  const describe = (el) => {
    const text = (el.innerText || el.value || el.getAttribute("aria-label") || "").trim();
    const id = el.id ? "#" + el.id : "";
    const cls = typeof el.className === "string" && el.className
      ? "." + el.className.trim().split(/\\s+/).join(".") : "";
    return `${el.tagName.toLowerCase()}${id}${cls} "${text.slice(0, 30)}"`;
  };
  const inRunningText = (el) => {
    if (el.tagName !== "A") return false;
    const prose = el.parentElement && el.parentElement.closest("p, .prose");
    if (prose === null) return false;
    // Prose: words or figures around the links, not only separators ("a · b · c" is a
    // row of links, and each must be a full target).
    const words = prose.cloneNode(true);
    for (const link of words.querySelectorAll("a")) link.remove();
    return /[\\p{L}\\p{N}]/u.test(words.textContent);
  };
  const targetBox = (el) => {
    const r = el.getBoundingClientRect();
    if (el.tagName === "INPUT" && (el.type === "checkbox" || el.type === "radio")) {
      const label = el.closest("label")
        || (el.id && document.querySelector(`label[for="${el.id}"]`));
      if (label) {
        const l = label.getBoundingClientRect();
        const left = Math.min(r.left, l.left), right = Math.max(r.right, l.right);
        const top = Math.min(r.top, l.top), bottom = Math.max(r.bottom, l.bottom);
        return {width: right - left, height: bottom - top};
      }
    }
    return {width: r.width, height: r.height};
  };
  const small = [];
  const selector = "a[href], button, input[type=checkbox], input[type=radio], "
    + "input[type=submit], select, summary";
  for (const el of document.querySelectorAll(selector)) {
    if (!visible(el) || inRunningText(el)) continue;
    const box = targetBox(el);
    if (box.width < minimum - 0.5 || box.height < minimum - 0.5) {
      small.push(`${describe(el)} ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  const overflowing = [];
  const blockOf = (el) => {
    while (el && ["inline", "contents"].includes(getComputedStyle(el).display)) {
      el = el.parentElement;
    }
    return el;
  };
  const cutOnPurpose = (el) => {
    const style = getComputedStyle(el);
    // A name cut with an ellipsis; a visually hidden label (clipped to 1 px).
    return (style.textOverflow === "ellipsis" && style.overflowX !== "visible")
      || el.clientWidth <= 1;
  };
  // Text outside its box: each line of text stays within the inner edge of the border of the
  // block (or inline-block, flex item, cell) that holds it.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const reported = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || !node.parentElement) continue;
    if (node.parentElement.closest("svg, script, style, noscript, template")) continue;
    const box = blockOf(node.parentElement);
    if (!box || reported.has(box) || !visible(box) || cutOnPurpose(box)) continue;
    const r = box.getBoundingClientRect();
    const style = getComputedStyle(box);
    const left = r.left + parseFloat(style.borderLeftWidth);
    const right = r.right - parseFloat(style.borderRightWidth);
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const line of range.getClientRects()) {
      if (line.width > 0 && (line.left < left - 1 || line.right > right + 1)) {
        reported.add(box);
        overflowing.push(`${describe(box)} text ${Math.round(line.left)}-${Math.round(line.right)}`
          + ` outside ${Math.round(left)}-${Math.round(right)}`);
        break;
      }
    }
  }
  // A box that clips its content loses what is wider than it.
  for (const el of document.body.querySelectorAll("*")) {
    const style = getComputedStyle(el);
    if (!["hidden", "clip"].includes(style.overflowX) || style.display === "inline") continue;
    if (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT") continue;
    if (el.closest("svg") !== null || !visible(el) || cutOnPurpose(el)) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      overflowing.push(`${describe(el)} clips ${el.scrollWidth}>${el.clientWidth}`);
    }
  }
  return {small, overflowing, pageWidth: document.documentElement.scrollWidth};
}
"""


def _import_game(players: list[Member], rng: random.Random, days_ago: int) -> Hanchan:
    record = {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": [m.display_name for m in players],
        "hands": sample_hands(rng, "makura-1.5"),
        "venue": "ビック",
        "table": "A",
    }
    return hanchan_import(
        record=record,
        members_by_name={m.display_name: m for m in players},
        played_on=club_today() - datetime.timedelta(days=days_ago),
        by=players[0],
        steward=True,
    )


LANGUAGES = ["ja", "en"]
# The personas of make_club, in its order.
CLUB_PERSONAS = ("member", "other_member", "coordinator", "staff_member")
# One game makes a monthly champion here, as in the races' tests.
ONE_GAME_CHAMPIONS = {"CHAMPION_MIN_GAMES": 1, "HALF_YEAR_CHAMPION_MIN_GAMES": 1}


def make_club(
    member: Member, other_member: Member, coordinator: Member, staff_member: Member
) -> dict[str, Any]:
    """A small club like the demo's: finished games, one in play, a meetup, a tournament with
    a round played, last month's champion in the Grand Champion race."""
    rng = random.Random(20261126)
    others = [make_member(f"tt{i}", f"長めの名前の選手{i}", f"せんしゅ{i}") for i in range(4)]
    four = [member, other_member, coordinator, staff_member]
    games = [_import_game(four, rng, 3), _import_game(four[::-1], rng, 2)]
    games.append(_import_game([member, *others[:3]], rng, 1))
    # A game in play at the table screen, a hand in: 37,000 / 13,000.
    in_play = game_in_play(four, member)
    # Last month's game makes a monthly champion, who leads the Grand Champion race.
    last_month = club_today().replace(day=1) - datetime.timedelta(days=1)
    _import_game(four, rng, (club_today() - last_month).days)

    venue = Venue.default() or Venue.objects.create(name="ビック", address="札幌市中央区")
    meetup = meetups.meetup_post(
        by=coordinator.user,
        dates=[
            club_today() + datetime.timedelta(days=3),
            club_today() + datetime.timedelta(days=4),
        ],
        venue=venue,
        ruleset_id="makura-1.5",
        note="金曜か土曜、どちらか都合のいい方で。",
    )
    meetups.meetup_apply(meetup_id=meetup.pk, by=member.user)
    # The club's public page with every section, seen before logging in.
    club_row = current_club()
    club_row.public_text = "札幌の麻雀サークルです。\n\n初めての方も歓迎します。"
    for switch in ("public_rules", "public_venues", "public_meetups", "public_boards"):
        setattr(club_row, switch, True)
    club_row.public_join = True
    club_row.save()

    event = event_create(
        name="グランドチャンピオン戦 2026", format_key="grand_champion",
        ruleset_id="makura-1.5", starts_on=club_today(), seed=5,
    )  # fmt: skip
    participants_set(event_id=event.pk, members=[*four, *others])
    event_draw(event_id=event.pk)
    first = Round.objects.get(event=event, number=1)
    round_start(round_id=first.pk)
    play_round(Round.objects.get(pk=first.pk), better=lambda n: n)
    return {
        "game": games[0],
        "table": in_play,
        "meetup": meetup,
        "event": event,
        "member": member,
        "race_year": last_month.year,
    }


def _pages(club: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        ("games", reverse("game_list")),
        ("game", reverse("game_detail", args=[club["game"].pk])),
        ("table", reverse("game_detail", args=[club["table"].pk])),
        ("standings", reverse("standings")),
        ("champions", reverse("champions")),
        ("yaku", reverse("yaku_records")),
        ("member", reverse("member_detail", args=[club["member"].pk])),
        ("rulesets", reverse("ruleset_list")),
        ("ruleset", reverse("ruleset_detail", args=["makura-1.5"])),
        ("meetups", reverse("meetings:list")),
        ("meetup", reverse("meetings:detail", args=[club["meetup"].pk])),
        ("tournaments", reverse("tournaments:list")),
        ("event", reverse("tournaments:detail", args=[club["event"].pk])),
        ("race", reverse("tournaments:race_grand_champion", args=[club["race_year"]])),
        ("online-names", reverse("online_names")),
        ("import", reverse("game_import")),
        ("password", reverse("password_change")),
        ("password-changed", reverse("password_change_done")),
    ]


def _problems(page: Any, name: str, path: str, language: str) -> list[str]:
    """What is wrong on one page: small targets, overflowing text, a page wider than the phone.
    Saves its screenshot as tap-targets-<name>-<language>."""
    response = page.goto(page.base_url + path)
    assert response is not None and response.ok, (name, path)
    page.wait_for_load_state()
    found = page.evaluate(MEASURE, MINIMUM)
    problems = [f"{name}: small {entry}" for entry in found["small"]]
    problems += [f"{name}: overflows {entry}" for entry in found["overflowing"]]
    if found["pageWidth"] > PHONE["width"]:
        problems.append(f"{name}: the page is {found['pageWidth']} px wide")
    screenshot(page, f"tap-targets-{name}-{language}")
    return problems


def every_page_problems(page: Any, club: dict[str, Any], language: str) -> list[str]:
    """The problems of every page in ``language``: the login, password-reset and public pages, then,
    logged in as the club's member, the main pages."""
    page.context.add_cookies([{"name": "django_language", "value": language, "url": page.base_url}])
    problems: list[str] = []
    visitors = [
        ("login", reverse("login")),
        ("password-reset", reverse("password_reset")),
        ("public", reverse("game_list")),
    ]
    for name, path in visitors:
        problems += _problems(page, name, path, language)
    log_in(page, club["member"].user.username)
    for name, path in _pages(club):
        problems += _problems(page, name, path, language)
    return problems


@pytest.fixture(scope="module")
def problems_by_language(
    chromium: Any, live_server: Any, django_db_setup: None, django_db_blocker: Any
) -> dict[str, Any]:
    """The club made once (its personas as the fixtures make them; one game makes a
    champion) and every page measured once per language, each language on a phone page of
    its own: the tests below only look."""
    seen: dict[str, Any] = {}
    with (
        rows_for_the_module(django_db_blocker, live_server),
        override_settings(**ONE_GAME_CHAMPIONS),
    ):
        club = make_club(*(make_persona(name) for name in CLUB_PERSONAS))
        for language in LANGUAGES:
            page = phone_page(chromium, live_server)
            try:
                seen[language] = every_page_problems(page, club, language)
            except Exception as error:  # noqa: BLE001 (raised again in the language's test)
                seen[language] = error
            finally:
                page.context.close()
    return seen


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_tap_target_is_44_px_and_no_text_overflows(
    problems_by_language: dict[str, Any], language: str
) -> None:
    problems = as_seen(problems_by_language, language)
    assert not problems, "\n".join(problems)


def test_it_measures_a_small_target_and_overflowing_text(phone: Any) -> None:
    """The measure itself: on a page made for it, it names the small button and the text that
    runs out of its box, and lets the link in running text and the full-size button be (so
    the pages' test above cannot pass by measuring nothing)."""
    phone.set_content(
        '<body style="margin:0">'
        '<button id="tiny" style="width:20px;height:20px;padding:0">x</button>'
        '<button id="full" style="width:48px;height:48px">ok</button>'
        '<p>Read <a id="inline" href="#">the rules</a> first.</p>'
        '<div id="narrow" style="width:40px;white-space:nowrap">a line far too long for it</div>'
        "</body>"
    )
    found = phone.evaluate(MEASURE, MINIMUM)
    assert len(found["small"]) == 1 and found["small"][0].startswith("button#tiny ")
    assert len(found["overflowing"]) == 1 and found["overflowing"][0].startswith("div#narrow")
