"""The event desk at a phone's size, in Japanese and in English: a steward
renames and moves an event, ticks 16 players one search at a time on the member picker (one
member a row, boxes of 44 px, the count ticked), then cancels the event after its first round:
the games played stay and the event page marks them. Screenshots go to tests/screenshots/."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from playwright.sync_api import expect

from clubsite.models import Member
from scoring.standings import club_today
from tests.browser import PHONE, screenshot
from tests.conftest import make_member
from tests.test_browser_confirmation import log_in, no_sideways_scroll
from tests.test_tournaments import play_round
from tournaments.models import Event, Round
from tournaments.services import event_create, event_draw, round_start

pytestmark = pytest.mark.browser

# Sixteen players and four other members: name, reading.
PLAYERS = [
    ("佐藤", "さとう"), ("鈴木", "すずき"), ("高橋", "たかはし"), ("田中", "たなか"),
    ("伊藤", "いとう"), ("渡辺", "わたなべ"), ("山本", "やまもと"), ("中村", "なかむら"),
    ("小林", "こばやし"), ("加藤", "かとう"), ("吉田", "よしだ"), ("山田", "やまだ"),
    ("佐々木", "ささき"), ("山口", "やまぐち"), ("松本", "まつもと"), ("井上", "いのうえ"),
]  # fmt: skip
OTHERS = [("木村", "きむら"), ("清水", "しみず"), ("山崎", "やまざき"), ("森", "もり")]

WORDS = {
    "ja": {"cancelled": "中止", "ticked": "16人選択"},
    "en": {"cancelled": "cancelled", "ticked": "16 ticked"},
}


def katakana(reading: str) -> str:
    return "".join(chr(ord(c) + 0x60) for c in reading)


def click(page: Any, selector: str) -> None:
    page.locator(selector).click()
    page.wait_for_load_state()


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_steward_edits_ticks_16_players_and_cancels(
    phone: Any, staff_member: Member, language: str
) -> None:
    players = [make_member(f"p{i:02d}", name, reading) for i, (name, reading) in enumerate(PLAYERS)]
    for i, (name, reading) in enumerate(OTHERS):
        make_member(f"o{i:02d}", name, reading)
    event = event_create(
        name="秋のGP", format_key="gp", ruleset_id="makura-1.5", starts_on=club_today(), seed=3
    )
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, "doi")

    # Edit: a new name, two days, a venue.
    phone.goto(f"{phone.base_url}/tournaments/{event.pk}/")
    click(phone, "#edit-event")
    last_day = club_today() + datetime.timedelta(days=1)
    phone.fill("input[name=name]", "秋のGP 2026")
    phone.fill("input[name=ends_on]", last_day.isoformat())
    phone.fill("input[name=venue]", "吉祥寺")
    no_sideways_scroll(phone)
    screenshot(phone, f"tournament-desk-edit-{language}")
    click(phone, "#save-event")
    assert phone.url.endswith(f"/tournaments/{event.pk}/")
    assert phone.locator("h1").inner_text() == "秋のGP 2026"
    assert "吉祥寺" in phone.locator(".ev-meta").first.inner_text()
    event.refresh_from_db()
    assert (event.ends_on, event.venue) == (last_day, "吉祥寺")

    # The picker: every member one a row, found by name or by reading (in katakana too).
    click(phone, "#choose-players")
    rows = phone.locator(".ev-pick")
    assert rows.count() == Member.objects.count()
    first = rows.first.bounding_box()
    assert first is not None and first["width"] >= PHONE["width"] - 40  # a whole row each
    assert first["height"] < 80  # a name on one line, its reading under it
    box = phone.locator(".ev-pick input").first.bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44
    search = phone.locator("#member-search")
    for i, (player, (name, reading)) in enumerate(zip(players, PLAYERS, strict=True)):
        search.fill(name if i % 2 else katakana(reading))
        expect(rows).to_have_count(1)
        tick = phone.locator(f"input[name=members][value='{player.pk}']")
        tick.check()
        expect(phone.locator("#ticked-count")).to_have_text(str(i + 1))
        if i == 7:
            no_sideways_scroll(phone)
            screenshot(phone, f"tournament-desk-picker-search-{language}")
    search.fill("")
    expect(rows).to_have_count(Member.objects.count())
    expect(phone.locator("input[name=members]:checked")).to_have_count(16)
    no_sideways_scroll(phone)
    screenshot(phone, f"tournament-desk-picker-{language}")
    # On a desktop too: still one member a row, nothing off the side.
    phone.set_viewport_size({"width": 1280, "height": 800})
    assert phone.evaluate("document.documentElement.scrollWidth") <= 1280
    tops = [rows.nth(i).bounding_box()["y"] for i in range(2)]
    assert tops[1] > tops[0]
    screenshot(phone, f"tournament-desk-picker-desktop-{language}")
    phone.set_viewport_size(PHONE)
    click(phone, "#save-players")
    assert sorted(event.participants.values_list("member_id", flat=True)) == sorted(
        p.pk for p in players
    )
    assert WORDS[language]["ticked"] in phone.locator("#choose-players").inner_text()

    # The first round is played; then the steward cancels the tournament.
    event_draw(event_id=event.pk)
    first_round = Round.objects.get(event=event, number=1)
    round_start(round_id=first_round.pk)
    play_round(first_round, better=lambda n: n)
    phone.goto(f"{phone.base_url}/tournaments/{event.pk}/")
    click(phone, "#edit-event")
    assert phone.locator("#format-locked").is_visible()
    assert phone.locator("#confirm-delete").count() == 0
    phone.locator("#cancel summary").click()
    no_sideways_scroll(phone)
    screenshot(phone, f"tournament-desk-cancel-{language}")
    click(phone, "#confirm-cancel")
    event.refresh_from_db()
    assert event.status == Event.Status.CANCELLED
    assert phone.locator("#event-status").inner_text() == WORDS[language]["cancelled"]
    assert phone.locator("#cancelled-note").is_visible()
    assert phone.locator("#round-1 .ev-cancelled-tag").count() == 4
    assert phone.locator("#start-round").count() == 0
    no_sideways_scroll(phone)
    screenshot(phone, f"tournament-desk-cancelled-{language}")


@pytest.fixture
def phone_without_javascript(chromium: Any, live_server: Any) -> Any:
    context = chromium.new_context(
        viewport=PHONE, locale="ja-JP", device_scale_factor=2, java_script_enabled=False
    )
    page = context.new_page()
    page.base_url = live_server.url
    yield page
    context.close()


def test_the_picker_works_without_javascript(
    phone_without_javascript: Any, staff_member: Member
) -> None:
    phone = phone_without_javascript
    players = [
        make_member(f"p{i:02d}", name, reading) for i, (name, reading) in enumerate(PLAYERS[:8])
    ]
    event = event_create(
        name="春のGP", format_key="gp", ruleset_id="makura-1.5", starts_on=club_today()
    )
    log_in(phone, "doi")
    phone.goto(f"{phone.base_url}/tournaments/{event.pk}/players/")
    for player in players[:4]:
        phone.locator(f"input[name=members][value='{player.pk}']").check()
    # The search is a GET of the whole form: the four ticks ride along and are counted.
    phone.fill("#member-search", "ヤマ")
    click(phone, "#search-members")
    assert "q=" in phone.url
    assert phone.locator(".ev-pick").count() == 1  # 山本 (やまもと), not ticked yet
    assert phone.locator("#ticked-count").inner_text() == "4"
    assert phone.locator("#ticked-elsewhere").is_visible()
    screenshot(phone, "tournament-desk-picker-no-js")
    phone.fill("#member-search", "")
    click(phone, "#search-members")
    for player in players[4:]:
        phone.locator(f"input[name=members][value='{player.pk}']").check()
    click(phone, "#save-players")
    assert phone.url.endswith(f"/tournaments/{event.pk}/")
    assert sorted(event.participants.values_list("member_id", flat=True)) == sorted(
        p.pk for p in players
    )
