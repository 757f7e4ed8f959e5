"""Accounts: login throttling with django-axes, and a password reset by
e-mail for members with an address; stewards' resets in the admin stay. Throttling across
usernames from one address, and of reset e-mails."""

from __future__ import annotations

import datetime
import re

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from clubsite.models import Member, PasswordResetRequest
from tests.conftest import make_member

ADDRESS = "10.0.0.7"


def attempt(client: Client, password: str, **extra: str) -> int:
    extra.setdefault("REMOTE_ADDR", ADDRESS)
    response = client.post(reverse("login"), {"username": "aoki", "password": password}, **extra)
    return response.status_code


def logged_in(client: Client) -> bool:
    # A member's page: the home page answers a visitor too (the club's public page).
    return client.get(reverse("standings")).status_code == 200


def lock_out(client: Client, limit: int, **extra: str) -> None:
    for _ in range(limit - 1):
        assert attempt(client, "wrong", **extra) == 200  # the login page again, with its error
    assert attempt(client, "wrong", **extra) == 429  # the last allowed failure locks


def test_after_five_wrong_passwords_even_the_right_one_is_refused(member: Member, settings):
    assert settings.AXES_FAILURE_LIMIT == 5
    client = Client()
    lock_out(client, settings.AXES_FAILURE_LIMIT)
    assert attempt(client, "aoki-password") == 429
    assert not logged_in(client)


@pytest.mark.parametrize(
    ("language", "texts"),
    [
        ("en", ["Too many attempts", "Try again in 15 minutes"]),
        ("ja", ["試行回数が多すぎます", "15分後にもう一度試す"]),
    ],
)
def test_the_lockout_page_says_how_long_to_wait(member: Member, settings, language, texts):
    client = Client(headers={"accept-language": language})
    lock_out(client, settings.AXES_FAILURE_LIMIT)
    page = client.post(
        reverse("login"), {"username": "aoki", "password": "aoki-password"}, REMOTE_ADDR=ADDRESS
    )
    assert page.status_code == 429
    for text in texts:
        assert text in page.text
    assert reverse("password_reset") in page.text


def test_the_right_password_works_again_after_the_cool_off(member: Member, settings):
    client = Client()
    lock_out(client, settings.AXES_FAILURE_LIMIT)
    # Fifteen minutes and a second pass (the attempts are moved back rather than the clock on).
    earlier = settings.AXES_COOLOFF_TIME + datetime.timedelta(seconds=1)
    for access in AccessAttempt.objects.all():
        access.attempt_time -= earlier
        access.save()
    assert attempt(client, "aoki-password") == 302
    assert logged_in(client)


def test_a_steward_lifts_the_lockout_by_command(member: Member, settings):
    client = Client()
    lock_out(client, settings.AXES_FAILURE_LIMIT)
    call_command("axes_reset_username", "aoki")
    assert attempt(client, "aoki-password") == 302
    assert logged_in(client)


def test_a_steward_lifts_the_lockout_in_the_admin(member: Member, settings):
    client = Client()
    lock_out(client, settings.AXES_FAILURE_LIMIT)
    steward = Client()
    steward.force_login(User.objects.create_superuser("root", password="root-password"))
    listing = steward.get(reverse("admin:axes_accessattempt_changelist"))
    assert listing.status_code == 200 and "aoki" in listing.text
    (locked,) = AccessAttempt.objects.all()
    deleted = steward.post(
        reverse("admin:axes_accessattempt_delete", args=[locked.pk]), {"post": "yes"}
    )
    assert deleted.status_code == 302
    assert attempt(client, "aoki-password") == 302


def test_a_steward_still_sets_a_new_password_in_the_admin(member: Member):
    steward = Client()
    steward.force_login(User.objects.create_superuser("root", password="root-password"))
    url = reverse("admin:auth_user_password_change", args=[member.user.pk])
    assert steward.get(url).status_code == 200
    done = steward.post(
        url,
        {
            "password1": "set-by-Steward-7",
            "password2": "set-by-Steward-7",
            "usable_password": "true",
        },
    )
    assert done.status_code == 302
    member.user.refresh_from_db()
    assert member.user.check_password("set-by-Steward-7")


def test_another_address_is_not_locked_out(member: Member, settings):
    lock_out(Client(), settings.AXES_FAILURE_LIMIT)
    assert attempt(Client(), "aoki-password", REMOTE_ADDR="10.0.0.8") == 302


def test_without_a_proxy_a_made_up_forwarded_address_changes_nothing(member: Member, settings):
    client = Client()
    for number in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, "wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{number}")
    assert attempt(client, "aoki-password", HTTP_X_FORWARDED_FOR="192.0.2.99") == 429


def test_behind_the_proxy_failures_count_against_the_address_it_forwards(member: Member, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proxy = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_PROTO": "https"}
    client = Client()
    # The client makes up the first address; the proxy appends the one it saw.
    lock_out(
        client, settings.AXES_FAILURE_LIMIT, **proxy, HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.5"
    )
    assert attempt(client, "aoki-password", **proxy, HTTP_X_FORWARDED_FOR="203.0.113.5") == 429
    other = Client()
    assert attempt(other, "aoki-password", **proxy, HTTP_X_FORWARDED_FOR="203.0.113.6") == 302
    assert AccessAttempt.objects.get().ip_address == "203.0.113.5"


def reset_link(body: str) -> str | None:
    """The path of the reset link in an e-mail; the link starts with CLUB_SITE_URL (the task
    that sends it has no request to take the host from)."""
    site = re.escape(settings.CLUB_SITE_URL.rstrip("/"))
    found = re.search(site + r"(/accounts/reset/\S+/)", body)
    return found.group(1) if found else None


def reset_by_e_mail(client: Client, address: str, password: str) -> None:
    assert reverse("password_reset") in client.get(reverse("login")).text
    response = client.post(reverse("password_reset"), {"email": address})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [address]
    link = reset_link(mail.outbox[0].body)
    assert link, mail.outbox[0].body
    page = client.get(link, follow=True)  # the token moves into the session
    assert page.status_code == 200 and 'name="new_password1"' in page.text
    done = client.post(
        page.redirect_chain[-1][0], {"new_password1": password, "new_password2": password}
    )
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    assert client.get(done["Location"]).status_code == 200


def test_a_member_resets_the_password_by_e_mail(member: Member):
    member.user.email = "aoki@example.org"
    member.user.save()
    reset_by_e_mail(
        Client(headers={"accept-language": "en"}), "aoki@example.org", "a-new-Secret-42"
    )
    assert mail.outbox[0].subject == "A new password for the club's site"
    assert "aoki" in mail.outbox[0].body
    fresh = Client()
    assert attempt(fresh, "aoki-password") == 200  # the old one no longer works
    assert attempt(fresh, "a-new-Secret-42") == 302
    # The link works once.
    link = reset_link(mail.outbox[0].body)
    assert link
    again = Client().get(link, follow=True)
    assert 'name="new_password1"' not in again.text


def test_a_reset_lifts_the_lockout(member: Member, settings):
    member.user.email = "aoki@example.org"
    member.user.save()
    client = Client()
    lock_out(client, settings.AXES_FAILURE_LIMIT)
    reset_by_e_mail(Client(), "aoki@example.org", "a-new-Secret-42")
    assert attempt(client, "a-new-Secret-42") == 302


def test_an_unknown_address_gets_the_same_answer_and_no_mail(db):
    response = Client().post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


@pytest.mark.parametrize(
    "path", ["password_reset", "password_reset_done", "password_reset_complete"]
)
def test_the_reset_pages_need_no_login(db, path):
    assert Client().get(reverse(path)).status_code == 200


# -- throttling across usernames and of password resets ---------------------------------------


def sprayed(client: Client, username: str, **extra: str) -> int:
    extra.setdefault("REMOTE_ADDR", ADDRESS)
    response = client.post(reverse("login"), {"username": username, "password": "wrong"}, **extra)
    return response.status_code


def test_a_few_wrong_passwords_at_each_of_many_usernames_lock_the_address(member: Member, settings):
    assert settings.CLUB_LOGIN_ADDRESS_FAILURE_LIMIT == 20
    names = [f"player{n}" for n in range(8)]
    for name in names:
        make_member(name, name.title(), "ぷれいやー")
    client = Client()
    answers = [sprayed(client, name) for _ in range(4) for name in names]  # 8 x 4, never 5
    # The twentieth wrong password locks the address; every later attempt is refused.
    assert answers[:19] == [200] * 19 and set(answers[19:]) == {429}
    assert attempt(Client(), "aoki-password") == 429  # even the right password of another
    page = Client(headers={"accept-language": "en"}).post(
        reverse("login"), {"username": "aoki", "password": "aoki-password"}, REMOTE_ADDR=ADDRESS
    )
    assert "for several usernames" in page.text
    assert attempt(Client(), "aoki-password", REMOTE_ADDR="10.0.0.8") == 302


def test_an_address_may_mistype_a_few_passwords_of_several_members(member: Member, settings):
    for name in ("baba", "chiba", "doi"):
        make_member(name, name.title(), "なまえ")
    client = Client()
    for name in ("baba", "chiba", "doi"):
        for _ in range(settings.AXES_FAILURE_LIMIT - 1):
            assert sprayed(client, name) == 200
    assert attempt(client, "aoki-password") == 302


def test_logging_in_forgets_only_ones_own_failures(member: Member, settings):
    """A member who logs in from an address does not wipe the failures of other usernames
    from it: else they could try another's password without end, logging in between."""
    make_member("baba", "Baba", "ばば")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert sprayed(Client(), "baba") == 200
    assert attempt(Client(), "wrong") == 200
    assert attempt(Client(), "aoki-password") == 302
    assert not AccessAttempt.objects.filter(username="aoki").exists()
    assert sprayed(Client(), "baba") == 429  # the fifth for baba from here


def ask_reset(email: str, address: str = ADDRESS) -> None:
    response = Client().post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)
    # Sent or not, the same answer.
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")


def test_reset_e_mails_to_one_account_are_limited_per_hour(member: Member, settings):
    assert settings.CLUB_PASSWORD_RESET_ACCOUNT_LIMIT == 3
    member.user.email = "aoki@example.org"
    member.user.save()
    for number in range(5):
        ask_reset("AOKI@example.org" if number % 2 else "aoki@example.org", f"10.0.1.{number}")
    assert len(mail.outbox) == 3
    # An hour later, one more.
    for request in PasswordResetRequest.objects.all():
        request.requested_at -= datetime.timedelta(hours=1, seconds=1)
        request.save()
    ask_reset("aoki@example.org", "10.0.1.9")
    assert len(mail.outbox) == 4
    assert PasswordResetRequest.objects.count() == 1  # the older ones forgotten


def test_reset_requests_from_one_address_are_limited_per_hour(member: Member, settings):
    assert settings.CLUB_PASSWORD_RESET_ADDRESS_LIMIT == 10
    member.user.email = "aoki@example.org"
    member.user.save()
    for number in range(10):  # addresses the club has or not: each counts
        ask_reset(f"someone{number}@example.org")
    ask_reset("aoki@example.org")
    assert mail.outbox == []
    ask_reset("aoki@example.org", address="10.0.0.8")
    assert len(mail.outbox) == 1
