"""Accounts (issue 9, item 5): login throttling with django-axes, and a password reset by
e-mail for members with an address; stewards' resets in the admin stay."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from clubsite.models import Member


def attempt(client: Client, password: str) -> int:
    response = client.post(
        reverse("login"), {"username": "aoki", "password": password}, REMOTE_ADDR="10.0.0.7"
    )
    return response.status_code


def logged_in(client: Client) -> bool:
    return client.get(reverse("game_list")).status_code == 200


def test_after_five_wrong_passwords_even_the_right_one_is_refused(member: Member, settings):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert attempt(client, "wrong") == 200  # the login page again, with its error
    assert attempt(client, "wrong") == 429  # locked out
    assert attempt(client, "aoki-password") == 429
    assert not logged_in(client)
    page = client.post(reverse("login"), {"username": "aoki", "password": "aoki-password"},
                       REMOTE_ADDR="10.0.0.7")  # fmt: skip
    assert "Too many attempts" in page.text or "試行回数" in page.text


def test_a_steward_lifts_the_lockout(member: Member, settings):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, "wrong")
    call_command("axes_reset_username", "aoki")
    assert attempt(client, "aoki-password") == 302
    assert logged_in(client)


def test_another_address_is_not_locked_out(member: Member, settings):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, "wrong")
    other = Client()
    response = other.post(
        reverse("login"), {"username": "aoki", "password": "aoki-password"}, REMOTE_ADDR="10.0.0.8"
    )
    assert response.status_code == 302


def test_a_member_resets_the_password_by_e_mail(member: Member):
    member.user.email = "aoki@example.org"
    member.user.save()
    client = Client()
    assert reverse("password_reset") in client.get(reverse("login")).text
    response = client.post(reverse("password_reset"), {"email": "aoki@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["aoki@example.org"]
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    assert link
    page = client.get(link.group(1), follow=True)
    form_url = page.redirect_chain[-1][0] if page.redirect_chain else link.group(1)
    done = client.post(
        form_url, {"new_password1": "a-new-Secret-42", "new_password2": "a-new-Secret-42"}
    )
    assert done.status_code == 302
    fresh = Client()
    assert fresh.post(reverse("login"), {"username": "aoki", "password": "a-new-Secret-42"}
                      ).status_code == 302  # fmt: skip


def test_an_unknown_address_gets_the_same_answer_and_no_mail(db):
    response = Client().post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response.status_code == 302
    assert mail.outbox == []


@pytest.mark.parametrize("path", ["password_reset", "password_reset_done"])
def test_the_reset_pages_need_no_login(db, path):
    assert Client().get(reverse(path)).status_code == 200
