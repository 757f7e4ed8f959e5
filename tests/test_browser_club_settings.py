"""The club's settings at a phone's size (390 px), in Japanese and in English: a steward goes
from the desk's member list to the club's settings, changes the time zone, the tie-breakers'
order and the confirmation rule with taps, saves, and sees them kept; a refused value shows
its error beside its field. Every tap target 44 x 44 px at least, no text outside its box, no
sideways scroll. Screenshots go to tests/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from clubsite.club_model import Club
from clubsite.models import Member
from tests.test_browser_confirmation import log_in
from tests.test_browser_member_desk import check_page, click

pytestmark = pytest.mark.browser

SAVED = {"ja": "クラブの設定を保存しました。", "en": "The club’s settings were saved."}
REFUSED = {"ja": "保存していません", "en": "Nothing was saved"}


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_steward_changes_the_clubs_settings_on_a_phone(
    phone: Any, staff_member: Member, language: str
) -> None:
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, "doi")
    phone.goto(f"{phone.base_url}/desk/members/")
    click(phone, "#desk-club")
    assert phone.url.endswith("/desk/club/")
    check_page(phone, f"desk-club-{language}")

    phone.select_option("select[name=time_zone]", "Europe/Paris")
    phone.select_option("select[name=tie_1]", "games")
    phone.select_option("select[name=tie_2]", "average_rank")
    phone.locator("label[for=id_confirmation_1]").click()
    click(phone, "#save-club")
    assert phone.locator("[role=status]").inner_text() == SAVED[language]
    club = Club.objects.get()
    assert (club.time_zone, club.standings_ties, club.confirmation) == (
        "Europe/Paris",
        ["games", "average_rank"],
        "one_other",
    )
    assert phone.locator("select[name=time_zone]").input_value() == "Europe/Paris"

    phone.select_option("select[name=tie_2]", "games")
    click(phone, "#save-club")
    assert REFUSED[language] in phone.locator("#form-errors").inner_text()
    check_page(phone, f"desk-club-refused-{language}")
    assert Club.objects.get().standings_ties == ["games", "average_rank"]
