"""An event between clubs at a phone's size (390 px), in Japanese and in English: the host's
steward invites another club to a tournament and enters one of its members as a guest with
taps; the guest, logged in as themselves, sees the tournament and a header that links only
what they may open. Every tap target 44 x 44 px at least, no text outside its box, no
sideways scroll. Screenshots go to tests/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from clubsite.club_model import Club
from clubsite.club_scope import club_scope, current_club
from clubsite.models import Member
from scoring.standings import club_today
from tests.conftest import make_member
from tests.test_browser_confirmation import log_in
from tests.test_browser_member_desk import check_page, click
from tournaments import formats
from tournaments.services import event_create

pytestmark = pytest.mark.browser

ENTERED = {"ja": "登録済みのゲスト", "en": "Guests entered"}


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_steward_enters_a_guest_from_another_club_on_a_phone(
    phone: Any, staff_member: Member, language: str
) -> None:
    host = current_club()
    north = Club.objects.create(slug="north", name="North Club")
    with club_scope(north):
        kato = make_member("kato", "Kato", "かとう")
        make_member("sato", "Sato", "さとう")
    event = event_create(
        name="League night",
        format_key="custom",
        ruleset_id="makura-1.5",
        starts_on=club_today(),
        plan=formats.custom(preliminary_rounds=1),
    )
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, "doi")
    phone.goto(f"{phone.base_url}/c/{host.slug}/tournaments/{event.pk}/")
    click(phone, "#invite-guests")
    assert phone.url.endswith(f"/c/{host.slug}/tournaments/{event.pk}/guests/")
    check_page(phone, f"event-guests-{language}")
    phone.select_option("#invite-club", str(north.pk))
    click(phone, "#invite-button")
    phone.locator(f"input[name=members][value='{kato.pk}']").check()
    click(phone, "#add-north")
    assert "Kato" in phone.locator("#entered-guests").inner_text()
    assert ENTERED[language] in phone.locator("#entered-guests h2").inner_text()
    check_page(phone, f"event-guests-entered-{language}")
    guest = Member.objects.get(role="guest")
    assert (guest.user_id, guest.home_id) == (kato.user_id, kato.pk)
    assert list(event.participants.values_list("member_id", flat=True)) == [guest.pk]

    phone.context.clear_cookies()
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, "kato")
    phone.goto(f"{phone.base_url}/c/{host.slug}/tournaments/{event.pk}/")
    assert "League night" in phone.locator("h1").inner_text()
    links = phone.locator(".site-nav a").evaluate_all("links => links.map(a => a.pathname)")
    assert f"/c/{host.slug}/standings/" not in links
    assert f"/c/{host.slug}/tournaments/" in links
    check_page(phone, f"event-guest-view-{language}")
