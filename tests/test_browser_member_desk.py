"""The steward's desk at a phone's size, in Japanese and in English: a
steward goes from the header to the members, adds a member in one step, and the new member
sets a password from the welcome e-mail and logs in; the steward lifts a lockout, deactivates
and reactivates a member, and adds a venue. Every tap target 44 x 44 px at least, no text
outside its box, no sideways scroll. Screenshots go to tests/screenshots/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from clubsite.models import Member
from meetings.models import Venue
from tests.browser import PHONE, screenshot
from tests.test_browser_confirmation import log_in
from tests.test_browser_tap_targets import MEASURE, MINIMUM

pytestmark = pytest.mark.browser

WORDS = {
    "ja": {
        "added": "藤田さんを追加しました",
        "subject": "クラブのサイトへようこそ",
        "login": "ログイン名: fujita",
        "locked": "ロックされています",
        "cleared": "ログイン失敗の記録を消しました",
        "deactivated": "無効にしました",
        "again": "またログインできます",
        "venue saved": "さくら荘を保存しました",
    },
    "en": {
        "added": "藤田 was added",
        "subject": "Welcome to the club's site",
        "login": "Your login name: fujita",
        "locked": "Locked out",
        "cleared": "failed logins are cleared",
        "deactivated": "is deactivated",
        "again": "may log in again",
        "venue saved": "さくら荘 was saved",
    },
}


def click(page: Any, selector: str) -> None:
    page.locator(selector).click()
    page.wait_for_load_state()


def check_page(page: Any, name: str) -> None:
    """No tap target under 44 x 44 px, no text outside its box, no sideways scroll; then a
    screenshot as tests/screenshots/<name>.png."""
    found = page.evaluate(MEASURE, MINIMUM)
    assert found["small"] == [], name
    assert found["overflowing"] == [], name
    assert found["pageWidth"] <= PHONE["width"], name
    screenshot(page, name)


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_steward_adds_a_member_who_sets_a_password_and_logs_in(
    phone: Any, staff_member: Member, member: Member, language: str, settings: Any
) -> None:
    settings.CLUB_SITE_URL = phone.base_url
    words = WORDS[language]
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, "doi")
    click(phone, ".site-nav a[href='/desk/members/']")
    assert phone.url.endswith("/desk/members/")
    assert phone.locator(f"#member-{member.pk}").is_visible()
    check_page(phone, f"desk-members-{language}")

    click(phone, "#add-member")
    phone.fill("input[name=username]", "fujita")
    phone.fill("input[name=display_name]", "藤田")
    phone.fill("input[name=furigana]", "ふじた")
    phone.fill("input[name=email]", "fujita@example.org")
    phone.fill("input[name=phone]", "090-0000-1111")
    phone.locator("label[for=id_women_division]").click()
    assert phone.locator("#id_women_division").is_checked()
    check_page(phone, f"desk-member-new-{language}")
    click(phone, "#save-member")

    added = Member.objects.get(display_name="藤田")
    assert phone.url.endswith(f"/desk/members/{added.pk}/")
    assert words["added"] in phone.locator("[role=status]").inner_text()
    assert added.women_division and added.user.email == "fujita@example.org"
    check_page(phone, f"desk-member-edit-{language}")

    # The welcome e-mail, in the steward's language; its link sets the password.
    assert [m.subject for m in mail.outbox] == [words["subject"]]
    body = mail.outbox[0].body
    assert words["login"] in body
    link = re.search(r"(http://\S+/accounts/reset/\S+/)", str(body))
    assert link
    newcomer = phone.context.browser.new_context(viewport=PHONE, locale="ja-JP")
    page = newcomer.new_page()
    page.goto(link.group(1))
    page.fill("input[name=new_password1]", "Tile-Wall-2026")
    page.fill("input[name=new_password2]", "Tile-Wall-2026")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    page.goto(phone.base_url + "/accounts/login/")
    page.fill("input[name=username]", "fujita")
    page.fill("input[name=password]", "Tile-Wall-2026")
    page.locator("form[action$='/accounts/login/'] button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator(".site-user").inner_text() == "藤田"
    newcomer.close()


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_steward_lifts_a_lockout_deactivates_and_adds_a_venue(
    phone: Any, staff_member: Member, member: Member, language: str, settings: Any
) -> None:
    words = WORDS[language]
    outside = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        outside.post("/accounts/login/", {"username": "aoki", "password": "wrong"})
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, "doi")
    phone.goto(f"{phone.base_url}/desk/members/{member.pk}/")
    assert words["locked"] in phone.locator("#lockout-state").inner_text()
    check_page(phone, f"desk-member-locked-{language}")
    click(phone, "#lift-lockout")
    assert words["cleared"] in phone.locator("[role=status]").inner_text()
    assert phone.locator("#lift-lockout").count() == 0

    click(phone, "#deactivate")
    assert words["deactivated"] in phone.locator("[role=status]").inner_text()
    member.refresh_from_db()
    member.user.refresh_from_db()
    assert not member.active and not member.user.is_active
    check_page(phone, f"desk-member-deactivated-{language}")
    click(phone, "#reactivate")
    assert words["again"] in phone.locator("[role=status]").inner_text()
    member.refresh_from_db()
    member.user.refresh_from_db()
    assert member.active and member.user.is_active

    phone.goto(f"{phone.base_url}/meetups/venues/")
    click(phone, "#add-venue")
    phone.fill("input[name=name]", "さくら荘")
    phone.select_option("select[name=role]", "backup")
    phone.fill("input[name=address]", "札幌市中央区南1条西1丁目")
    phone.fill("textarea[name=directions]", "2階、エレベーターの右")
    check_page(phone, f"desk-venue-new-{language}")
    click(phone, "#save-venue")
    assert words["venue saved"] in phone.locator("[role=status]").inner_text()
    venue = Venue.objects.get(name="さくら荘")
    assert (venue.role, venue.directions) == ("backup", "2階、エレベーターの右")
    check_page(phone, f"desk-venues-{language}")
