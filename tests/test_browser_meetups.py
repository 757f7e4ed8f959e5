"""A meetup arranged on phones through the UI (issue 5): Chiba calls for players on two
candidate dates (without playing), five members apply, each on their own phone; Chiba declares
the line-up for the first date; four confirm, Fujii only after a reminder; the final notice goes
out. Then Aoki cancels, Chiba re-recruits the seat, Goto (the fifth applicant) takes it and
confirms, and the final notice goes out again. Every step is saved under tests/screenshots/ as
meetup-NN-*.png (in Japanese), and the meetup page once more in English.

Along the way: the e-mails in Django's outbox (the reminder to Fujii alone, the final notices to
the line-up and the club's list, in Japanese), and phone numbers, which only the coordinator sees.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

import pytest
from django.apps import apps
from django.core import mail
from django.core.management import call_command
from django.utils import translation

from clubsite.models import Member
from meetings.models import Meetup, format_day
from tests.browser import PHONE, SCREENSHOTS
from tests.conftest import make_member
from tests.test_meetings_support import day

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# (username, name, phone): the coordinator, then the five applicants in the order they apply.
COORDINATOR = ("chiba", "Chiba", "090-0000-0003")
APPLICANTS = [
    ("aoki", "Aoki", "090-1234-5678"),
    ("baba", "Baba", "080-2222-0002"),
    ("endo", "Endo", "070-5555-0005"),
    ("fujii", "Fujii", "090-6666-0006"),
    ("goto", "Goto", "080-7777-0007"),
]
PHONES = [phone for _, _, phone in (COORDINATOR, *APPLICANTS)]
VENUE = "ビック"
FIRST, SECOND = day(7), day(8)


@pytest.fixture
def venues(transactional_db: None) -> None:
    """The seeded venues: a transactional test before this one may have flushed them."""
    migration = importlib.import_module("meetings.migrations.0002_seed_venues")
    migration.seed_venues(apps, None)


@pytest.fixture
def people(venues: None) -> dict[str, Member]:
    members = {}
    for username, name, phone in (COORDINATOR, *APPLICANTS):
        member = make_member(username, name, name.lower(), phone=phone)
        member.user.email = f"{username}@example.org"
        member.user.save(update_fields=["email"])
        members[username] = member
    return members


def screenshot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"meetup-{name}.png"), full_page=True)


def settle(page: Any) -> None:
    """Wait until htmx has no request in flight and has swapped in its answer."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def phone_for(chromium: Any, base_url: str, username: str, locale: str = "ja-JP") -> Any:
    """A member's own phone, logged in through the login form."""
    context = chromium.new_context(viewport=PHONE, locale=locale, device_scale_factor=2)
    page = context.new_page()
    page.base_url = base_url
    page.goto(base_url + "/meetups/")
    page.get_by_label("ユーザー名").fill(username)
    page.get_by_label("パスワード").fill(f"{username}-password")
    page.get_by_role("button", name="ログイン").click()
    page.locator("#new-meetup").wait_for()
    return page


def press(page: Any, selector: str) -> None:
    """Tap a button of the meetup page and wait for htmx to swap in the answer."""
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator(selector).click()
    settle(page)
    assert page.locator("#meetup-error").count() == 0, page.locator("#meetup-error").inner_text()


def open_meetup(page: Any, meetup: Meetup) -> None:
    page.goto(f"{page.base_url}/meetups/{meetup.pk}/")
    page.locator("#meetup").wait_for()


def state(page: Any) -> str:
    return page.locator("#meetup").get_attribute("data-state")


def lineup(page: Any) -> dict[str, str]:
    """The line-up on the page: name -> "yes"/"no" (confirmed)."""
    rows = page.locator("#lineup li[data-member]")
    return {
        row.get_attribute("data-member"): row.get_attribute("data-confirmed") for row in rows.all()
    }


def notices(page: Any, kind: str) -> list[str]:
    return page.locator(f"#notices li[data-kind='{kind}']").all_inner_texts()


def phones_shown(page: Any) -> list[str]:
    text = page.content()
    return [phone for phone in PHONES if phone in text]


def new_mail(since: int) -> list[mail.EmailMessage]:
    return list(mail.outbox[since:])


def recipients(messages: list[mail.EmailMessage]) -> set[str]:
    return {re.sub(r".*<(.*)>", r"\1", to) for message in messages for to in message.to}


def check_final_notice(
    page: Any, messages: list[mail.EmailMessage], names: list[str], waiting: list[str]
) -> None:
    """The final notice on the coordinator's page and in the e-mails of the line-up, the
    waiting list and the club's list, with the date, the time and the venue."""
    with translation.override("ja"):
        date_text = format_day(FIRST)
    shown = notices(page, "finalized")[0]  # newest first
    assert "本成立" in shown
    for part in (date_text, "19:00", VENUE, *names):
        assert part in shown, (part, shown)
    expected = {f"{name.lower()}@example.org" for name in (*names, *waiting)}
    assert recipients(messages) == expected | {"club-list@example.org"}
    for message in messages:
        assert message.subject.startswith("[麻雀クラブ] 本成立")
        for part in (date_text, "19:00", VENUE):
            assert part in message.subject, (part, message.subject)
            assert part in message.body, (part, message.body)
        assert not any(phone in message.body for phone in PHONES)


def test_it_arranges_a_meetup_on_phones(chromium: Any, live_server: Any, people: Any) -> None:
    base = live_server.url
    chiba = phone_for(chromium, base, "chiba")
    phones = {username: phone_for(chromium, base, username) for username, _, _ in APPLICANTS}
    try:
        # 1. Chiba calls for players on two dates and does not play: four seats for others.
        screenshot(chiba, "01-list")
        chiba.locator("#new-meetup").click()
        chiba.locator("#id_dates_0").fill(FIRST.isoformat())
        chiba.locator("#id_dates_1").fill(SECOND.isoformat())
        chiba.locator("#id_coordinator_plays").uncheck()
        screenshot(chiba, "02-new")
        chiba.locator("#action-post").click()
        chiba.wait_for_url(re.compile(r"/meetups/\d+/$"))
        assert state(chiba) == "recruiting"
        meetup = Meetup.objects.get()
        assert meetup.coordinator == people["chiba"]
        screenshot(chiba, "03-posted")

        # 2. Five members apply, in order, each for both dates (ticked by default).
        for number, (username, _, _) in enumerate(APPLICANTS, start=1):
            page = phones[username]
            open_meetup(page, meetup)
            assert page.locator("#next-action").get_attribute("data-next-action") == "apply"
            press(page, "#action-apply")
            assert page.locator("#my-status").get_attribute("data-status") == "applied"
            if number == 1:
                screenshot(page, "04-applied")
            # An ordinary member sees nobody's phone number, not even their own.
            assert phones_shown(page) == []
        open_meetup(chiba, meetup)
        assert chiba.locator("#applicants li[data-member]").count() == 5
        # The coordinator sees every applicant's phone number.
        assert phones_shown(chiba) == [phone for _, _, phone in APPLICANTS]
        screenshot(chiba, "05-five-applied")

        # 3. Chiba declares the line-up for the first date: the first four applicants.
        chiba.locator("#coordinator-tools summary").click()
        screenshot(chiba, "06-declare")
        press(chiba, f"#action-declare-{FIRST.isoformat()}")
        assert state(chiba) == "provisional"
        assert lineup(chiba) == {"Aoki": "no", "Baba": "no", "Endo": "no", "Fujii": "no"}
        assert chiba.locator("#waiting li[data-member]").all_inner_texts()[0].count("Goto") == 1
        assert notices(chiba, "declared")
        screenshot(chiba, "07-provisional")

        # 4. Aoki, Baba and Endo confirm; Fujii does not.
        for username in ("aoki", "baba", "endo"):
            page = phones[username]
            open_meetup(page, meetup)
            if username == "aoki":
                screenshot(page, "08-asked-to-confirm")
            press(page, "#action-confirm")
            assert page.locator("#my-status").get_attribute("data-status") == "confirmed"
            assert phones_shown(page) == []
        screenshot(phones["endo"], "09-three-confirmed")

        # 5. The reminder: to Fujii alone, in Japanese.
        sent = len(mail.outbox)
        call_command("send_meetup_reminders", "--hours", "0", stdout=None)
        reminders = new_mail(sent)
        assert recipients(reminders) == {"fujii@example.org"}
        (reminder,) = reminders
        with translation.override("ja"):
            assert reminder.subject == f"[麻雀クラブ] 確認のお願い：{format_day(FIRST)} {VENUE}"
        assert "Fujiiさん、メンバーに入っていますが、まだ確認がありません。" in reminder.body
        assert f"/meetups/{meetup.pk}/" in reminder.body
        fujii = phones["fujii"]
        open_meetup(fujii, meetup)
        screenshot(fujii, "10-reminded")
        press(fujii, "#action-confirm")
        assert fujii.locator("#my-status").get_attribute("data-status") == "confirmed"

        # 6. Everyone has confirmed: Chiba posts the final notice.
        open_meetup(chiba, meetup)
        assert lineup(chiba) == {"Aoki": "yes", "Baba": "yes", "Endo": "yes", "Fujii": "yes"}
        assert chiba.locator("#next-action").get_attribute("data-next-action") == "finalize"
        screenshot(chiba, "11-all-confirmed")
        sent = len(mail.outbox)
        press(chiba, "#action-finalize")
        assert state(chiba) == "confirmed"
        check_final_notice(chiba, new_mail(sent), ["Aoki", "Baba", "Endo", "Fujii"], ["Goto"])
        screenshot(chiba, "12-final-notice")
        in_english(chromium, chiba, meetup, "en-12-final-notice")

        # 7. Aoki cannot come after all and cancels.
        aoki = phones["aoki"]
        open_meetup(aoki, meetup)
        assert notices(aoki, "finalized")
        assert aoki.locator("#next-action").get_attribute("data-next-action") == "calendar"
        aoki.locator("#change-request summary").click()
        aoki.locator("#id_kind_0").check()
        screenshot(aoki, "13-change-request")
        press(aoki, "#action-request-change")
        assert notices(aoki, "change_requested")
        assert phones_shown(aoki) == []
        screenshot(aoki, "14-cancelled-by-member")

        # 8. Chiba re-recruits the seat; it goes to Goto, the fifth applicant.
        open_meetup(chiba, meetup)
        assert chiba.locator("#next-action").get_attribute("data-next-action") == "decide"
        screenshot(chiba, "15-decide")
        press(chiba, "#action-rerecruit")
        assert state(chiba) == "provisional"
        assert lineup(chiba) == {"Baba": "yes", "Endo": "yes", "Fujii": "yes", "Goto": "no"}
        screenshot(chiba, "16-rerecruited")

        goto = phones["goto"]
        open_meetup(goto, meetup)
        screenshot(goto, "17-goto-asked")
        press(goto, "#action-confirm")
        assert goto.locator("#my-status").get_attribute("data-status") == "confirmed"
        assert phones_shown(goto) == []

        # 9. The final notice again, to the new line-up.
        open_meetup(chiba, meetup)
        sent = len(mail.outbox)
        press(chiba, "#action-finalize")
        assert state(chiba) == "confirmed"
        assert len(notices(chiba, "finalized")) == 2
        check_final_notice(chiba, new_mail(sent), ["Baba", "Endo", "Fujii", "Goto"], [])
        screenshot(chiba, "18-final-again")

        # What Baba, an ordinary member of the line-up, sees at the end: no phone numbers.
        baba = phones["baba"]
        open_meetup(baba, meetup)
        assert state(baba) == "confirmed"
        assert len(notices(baba, "finalized")) == 2
        assert phones_shown(baba) == []
        screenshot(baba, "19-member-view")
    finally:
        for page in (chiba, *phones.values()):
            page.context.close()


def in_english(chromium: Any, page: Any, meetup: Meetup, name: str) -> None:
    """The same page for an English-speaking browser (same login): no Japanese but names of
    places, and a screenshot."""
    context = chromium.new_context(
        viewport=PHONE,
        locale="en-US",
        device_scale_factor=2,
        storage_state=page.context.storage_state(),
    )
    try:
        english = context.new_page()
        english.goto(f"{page.base_url}/meetups/{meetup.pk}/")
        english.locator("#meetup").wait_for()
        assert "Final:" in english.locator("#notices").inner_text()
        body = english.locator("main").inner_text()
        # The venue's name, address and directions stay as the venue wrote them.
        for text in (meetup.venue.directions, meetup.venue.address, meetup.venue.name):
            body = body.replace(text, "")
        assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", body), body
        screenshot(english, name)
    finally:
        context.close()
