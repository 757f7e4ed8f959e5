"""Substitutions on the steward's event desk at a phone's size, in Japanese
and in English: after round 1 of a GP for 16, a withdrawal alone is refused (a table would be
short), then a player is replaced by a member not entered; the rounds not started are shown
before and after side by side with the repeat meetings of both, nothing is written until the
steward accepts, and the log says who replaced whom from which round. Tap targets of 44 px,
nothing off the side at 390 px. Screenshots go to tests/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from clubsite.models import Member
from scoring.standings import club_today
from tests.browser import screenshot
from tests.conftest import make_member
from tests.test_browser_confirmation import log_in, no_sideways_scroll
from tests.test_browser_tournament_desk import PLAYERS, click
from tests.test_tournaments import play_round
from tournaments.models import Participant, Round, Substitution
from tournaments.services import event_create, event_draw, participants_set, round_start

pytestmark = pytest.mark.browser

WORDS = {
    "ja": {
        "short": "卓が欠ける棄権には",
        "from": "2回戦から",
        "replaces": "佐藤 → 木村（交代）",
        "figures": "再対戦の数",
        "before": "交代前",
    },
    "en": {
        "short": "a withdrawal that leaves a table short needs a substitute",
        "from": "From round 2",
        "replaces": "木村 replaces 佐藤",
        "figures": "Repeat meetings",
        "before": "Before",
    },
}


def tap_size(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None
    return box["width"], box["height"]


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_steward_replaces_a_player_after_round_1(
    phone: Any, staff_member: Member, language: str
) -> None:
    words = WORDS[language]
    players = [make_member(f"p{i:02d}", name, reading) for i, (name, reading) in enumerate(PLAYERS)]
    kimura = make_member("o00", "木村", "きむら")
    make_member("o01", "清水", "しみず")
    event = event_create(
        name="秋のGP", format_key="gp", ruleset_id="makura-1.5", starts_on=club_today(), seed=3
    )
    participants_set(event_id=event.pk, members=players)
    event_draw(event_id=event.pk)
    first = Round.objects.get(event=event, number=1)
    round_start(round_id=first.pk)
    play_round(first, better=lambda n: n)
    drawn = {r.number: r.seating for r in Round.objects.filter(event=event)}
    sato = Participant.objects.get(event=event, member=players[0])

    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, "doi")
    phone.goto(f"{phone.base_url}/tournaments/{event.pk}/")
    assert tap_size(phone, "#substitutions")[1] >= 44
    no_sideways_scroll(phone)
    phone.locator("#substitutions").scroll_into_view_if_needed()
    screenshot(phone, f"tournament-substitution-event-{language}")
    click(phone, "#substitutions")

    # 佐藤 alone withdraws: 15 players cannot sit at tables of 4; refused, nothing changed.
    phone.locator(f"input[name=leaving][value='{sato.number}']").check()
    width, height = tap_size(phone, "input[name=leaving]")
    assert width >= 44 and height >= 44
    click(phone, "#sub-show")
    assert words["short"] in phone.locator("#sub-error").inner_text()
    assert phone.locator("#sub-accept").count() == 0
    # The ticked player first, seen at once in the list that scrolls.
    assert phone.locator("input[name=leaving]").first.get_attribute("value") == str(sato.number)
    assert phone.locator("input[name=leaving]").first.is_checked()
    no_sideways_scroll(phone)
    screenshot(phone, f"tournament-substitution-short-{language}")

    # 木村 comes in for 佐藤: the re-seat is shown, before and after, nothing written yet.
    phone.locator(f"input[name=substitutes][value='{kimura.pk}']").check()
    assert phone.locator(f"input[name=leaving][value='{sato.number}']").is_checked()
    click(phone, "#sub-show")
    proposal = phone.locator("#sub-proposal")
    assert words["from"] in proposal.locator("h2").inner_text()
    assert words["replaces"] in proposal.inner_text()
    assert words["figures"] in phone.locator("#sub-figures").inner_text()
    assert phone.locator("#sub-figures strong").all_inner_texts() == ["0", "0"]
    for number in (2, 3, 4):
        before = phone.locator(f"#before-{number}")
        after = phone.locator(f"#after-{number}")
        assert words["before"] in before.inner_text()
        assert "佐藤" in before.inner_text() and "木村" not in before.inner_text()
        assert "木村" in after.inner_text() and "佐藤" not in after.inner_text()
        assert before.locator(".ev-sub-tables > li").count() == 4
        assert after.locator(".ev-sub-tables > li").count() == 4
        # Side by side, even at 390 px.
        left, right = before.bounding_box(), after.bounding_box()
        assert left is not None and right is not None
        assert abs(left["y"] - right["y"]) < 2 and right["x"] > left["x"] + left["width"] - 1
    assert tap_size(phone, "#sub-accept")[1] >= 44
    no_sideways_scroll(phone)
    phone.locator("#sub-proposal").scroll_into_view_if_needed()
    screenshot(phone, f"tournament-substitution-proposal-{language}")
    assert {r.number: r.seating for r in Round.objects.filter(event=event)} == drawn
    assert not Substitution.objects.exists()

    click(phone, "#sub-accept")
    assert phone.locator("#sub-done").is_visible()
    substitute = Participant.objects.get(event=event, member=kimura)
    sato.refresh_from_db()
    assert sato.withdrawn and not substitute.withdrawn
    after = {r.number: r.seating for r in Round.objects.filter(event=event)}
    assert after[1] == drawn[1]
    for number in (2, 3, 4):
        assert any(substitute.number in table for table in after[number])
    log = phone.locator("#sub-log").inner_text()
    assert words["from"] in log and words["replaces"] in log
    assert phone.locator("#sub-proposal").count() == 0
    no_sideways_scroll(phone)
    screenshot(phone, f"tournament-substitution-done-{language}")

    # The event page says it too, and ranks the substitute under their own name.
    phone.goto(f"{phone.base_url}/tournaments/{event.pk}/")
    made = phone.locator("#substitutions-made").inner_text()
    assert words["from"] in made and words["replaces"] in made
    assert "木村" in phone.locator("#ranking").inner_text()
    no_sideways_scroll(phone)
    phone.locator("#substitutions-made").scroll_into_view_if_needed()
    screenshot(phone, f"tournament-substitution-event-log-{language}")
