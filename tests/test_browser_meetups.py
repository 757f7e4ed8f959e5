"""A meetup arranged on phones through the UI, once in Japanese and once in English
(every phone set to that language): Chiba calls for players on two candidate dates (without
playing), five members apply, each on their own phone; Chiba declares the line-up for the first
date; four confirm, Fujii only after a reminder; the final notice goes out. Then Aoki cancels,
Chiba re-recruits the seat, Goto (the fifth applicant) takes it and confirms, and the final
notice goes out again. Every step is saved under tests/screenshots/ as meetup-<lang>-NN-*.png.

Along the way: the e-mails in Django's outbox (the reminder to Fujii alone, the final notices to
the line-up and the club's list), each in its recipient's language: the members' is the one they
used the meetup pages in, the list's is the site's (Japanese). And phone numbers, which only the
coordinator sees. In the English run no page shows Japanese but what stays as written:
the venues' own words and Tenhou's lobby codes.
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
from meetings.models import Meetup, Venue, format_day
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
LIST_ADDRESS = "club-list@example.org"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
# Tenhou's own names of its lobbies, part of the English names of those rulesets too.
# The online services' own room names, kept as written in every language (the rulesets'
# names carry them): Tenhou's lobby codes and Mahjong Soul's rooms.
TENHOU_CODES = (
    *("三般南喰赤", "般南喰赤", "三般東喰赤", "般東喰赤"),
    *("四人南", "四人東", "三人南", "三人東"),
)

# What each run expects, written out (not looked up in the catalogs, so that they are checked
# too). The reminder's subject and greeting take {days}, {venue} and {name}.
TEXTS = {
    "ja": {
        "locale": "ja-JP",
        "final": "本成立",
        "club": "麻雀クラブ",
        "when": "日時：",
        "where": "会場：",
        "reminder_subject": "確認のお願い：{days} {venue}",
        "reminder_greeting": "{name}さん、メンバーに入っていますが、まだ確認がありません。",
    },
    "en": {
        "locale": "en-US",
        "final": "Final:",
        "club": "Mahjong club",
        "when": "When:",
        "where": "Where:",
        "reminder_subject": "Please confirm: {days} at {venue}",
        "reminder_greeting": "{name}, you are in the line-up but have not confirmed yet.",
    },
}


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
    """Save the page as meetup-<lang>-<name>.png; in English, first check that it holds no
    Japanese but the words that stay as written."""
    lang = page.lang
    if lang == "en":
        assert_english(page)
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"meetup-{lang}-{name}.png"), full_page=True)


def kept_words() -> list[str]:
    """What stays as written in every language, longest first: the venues' own words (name,
    address, directions) and Tenhou's lobby codes."""
    words = {VENUE, *TENHOU_CODES}
    for venue in Venue.objects.all():
        words |= {venue.name, venue.address, venue.directions}
    return sorted((w for w in words if w), key=len, reverse=True)


def without_kept_words(text: str) -> str:
    for words in kept_words():
        text = text.replace(words, "")
    return text


def assert_english(page: Any) -> None:
    assert page.locator("html").get_attribute("lang") == "en"
    body = without_kept_words(page.locator("main").inner_text())
    assert not JAPANESE.search(body), body


def settle(page: Any) -> None:
    """Wait until htmx has no request in flight and has swapped in its answer."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def phone_for(chromium: Any, base_url: str, username: str, lang: str) -> Any:
    """A member's own phone in language ``lang``, logged in through the login form."""
    context = chromium.new_context(
        viewport=PHONE, locale=TEXTS[lang]["locale"], device_scale_factor=2
    )
    page = context.new_page()
    page.base_url = base_url
    page.lang = lang
    page.goto(base_url + "/meetups/")
    assert page.locator("html").get_attribute("lang") == lang
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(f"{username}-password")
    page.locator("form[action$='/accounts/login/'] [type=submit]").click()
    page.locator("#new-meetup").wait_for()
    assert page.locator("html").get_attribute("lang") == lang
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


def day_in(lang: str, date: Any) -> str:
    with translation.override(lang):
        return format_day(date)


def check_language(message: mail.EmailMessage, lang: str) -> None:
    """The message is in ``lang``: its labels, and in English no Japanese but the
    words that stay as written."""
    texts = TEXTS[lang]
    assert message.subject.startswith(f"[{texts['club']}] "), message.subject
    assert texts["when"] in message.body, message.body
    assert texts["where"] in message.body, message.body
    if lang == "en":
        for part in (message.subject, message.body):
            assert not JAPANESE.search(without_kept_words(part)), part


def check_final_notice(
    page: Any, lang: str, messages: list[mail.EmailMessage], names: list[str], waiting: list[str]
) -> None:
    """The final notice on the coordinator's page (in ``lang``) and in the e-mails of the
    line-up and the waiting list (in ``lang``, the language they used the pages in) and of the
    club's list (in the site's language, Japanese), with the date, the time and the venue."""
    shown = notices(page, "finalized")[0]  # newest first
    assert TEXTS[lang]["final"] in shown
    for part in (day_in(lang, FIRST), "19:00", VENUE, *names):
        assert part in shown, (part, shown)
    expected = {f"{name.lower()}@example.org" for name in (*names, *waiting)}
    assert recipients(messages) == expected | {LIST_ADDRESS}
    for message in messages:
        in_lang = "ja" if recipients([message]) == {LIST_ADDRESS} else lang
        texts = TEXTS[in_lang]
        assert message.subject.startswith(f"[{texts['club']}] {texts['final']}"), message.subject
        check_language(message, in_lang)
        for part in (day_in(in_lang, FIRST), "19:00", VENUE):
            assert part in message.subject, (part, message.subject)
            assert part in message.body, (part, message.body)
        assert not any(phone in message.body for phone in PHONES)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_it_arranges_a_meetup_on_phones(
    chromium: Any, live_server: Any, people: Any, lang: str
) -> None:
    base = live_server.url
    chiba = phone_for(chromium, base, "chiba", lang)
    phones = {username: phone_for(chromium, base, username, lang) for username, _, _ in APPLICANTS}
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

        # 5. The reminder: to Fujii alone, in the language Fujii uses.
        sent = len(mail.outbox)
        call_command("send_meetup_reminders", "--hours", "0", stdout=None)
        reminders = new_mail(sent)
        assert recipients(reminders) == {"fujii@example.org"}
        (reminder,) = reminders
        texts = TEXTS[lang]
        subject = texts["reminder_subject"].format(days=day_in(lang, FIRST), venue=VENUE)
        assert reminder.subject == f"[{texts['club']}] {subject}"
        assert texts["reminder_greeting"].format(name="Fujii") in reminder.body
        assert f"/meetups/{meetup.pk}/" in reminder.body
        check_language(reminder, lang)
        assert not any(phone in reminder.body for phone in PHONES)
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
        check_final_notice(chiba, lang, new_mail(sent), ["Aoki", "Baba", "Endo", "Fujii"], ["Goto"])
        screenshot(chiba, "12-final-notice")

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
        check_final_notice(chiba, lang, new_mail(sent), ["Baba", "Endo", "Fujii", "Goto"], [])
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
