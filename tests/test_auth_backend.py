"""The login backend (clubsite/auth_backends.py): the user comes with their membership of the
club in hand in one query, so a page's header costs no query for it; sessions logged in before
it keep working; a wrong password is checked once, and counts once towards a lockout."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from axes.models import AccessAttempt
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.hashers import MD5PasswordHasher
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_login_failed
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from clubsite.auth_backends import MemberModelBackend
from clubsite.club_model import Club
from clubsite.club_scope import club_scope, current_club
from clubsite.members import membership_create
from clubsite.models import Member

NEW_PATH = "clubsite.auth_backends.MemberModelBackend"
OLD_PATH = "django.contrib.auth.backends.ModelBackend"


def test_the_user_comes_with_the_member_profile_in_one_query(member: Member) -> None:
    with CaptureQueriesContext(connection) as queries:
        user = MemberModelBackend().get_user(member.user_id)
        assert user is not None
        assert Member.for_user(user) == member
        membership = Member.for_user(user)
        assert membership is not None and membership.display_name == "Aoki"
        assert membership.user is user
    assert len(queries) == 1


def test_the_user_comes_with_its_membership_of_the_club_in_hand(member: Member) -> None:
    other = Club.objects.create(slug="kita", name="Kita club")
    with club_scope(other):
        there = membership_create(member.user, club=other, display_name="Aoki of Kita")
        user = MemberModelBackend().get_user(member.user_id)
        assert user is not None
        with CaptureQueriesContext(connection) as queries:
            assert Member.for_user(user) == there
        assert queries.captured_queries == []
    # Another club's answer is asked once, then kept on the user object too.
    with CaptureQueriesContext(connection) as queries:
        assert Member.for_user(user) == member
        assert Member.for_user(user, club=other) == there
        assert Member.for_user(user) == member
    assert len(queries) == 1


def test_a_deactivated_membership_is_no_members(member: Member) -> None:
    Member.objects.filter(pk=member.pk).update(active=False)
    user = MemberModelBackend().get_user(member.user_id)
    assert user is not None and Member.for_user(user) is None
    assert Member.for_user(User.objects.get(pk=member.user_id)) is None


def test_an_account_without_a_profile_still_loads_and_has_none(db: None) -> None:
    admin = User.objects.create_user("root", password="root-password")
    # The test's club looked up before the count, as a request's scope has it already.
    assert current_club().slug == "club"
    with CaptureQueriesContext(connection) as queries:
        user = MemberModelBackend().get_user(admin.pk)
        assert user is not None and Member.for_user(user) is None
    assert len(queries) == 1
    assert MemberModelBackend().get_user(admin.pk + 1000) is None


def test_an_inactive_user_is_not_loaded(member: Member) -> None:
    User.objects.filter(pk=member.user_id).update(is_active=False)
    assert MemberModelBackend().get_user(member.user_id) is None


def test_the_async_user_comes_with_the_profile_too(member: Member) -> None:
    with CaptureQueriesContext(connection) as queries:
        user = async_to_sync(MemberModelBackend().aget_user)(member.user_id)
        assert user is not None
        membership = Member.for_user(user)
        assert membership is not None and membership.display_name == "Aoki"
    assert len(queries) == 1


def test_a_page_reads_the_viewer_with_the_profile_and_no_query_more(
    member: Member, client_for: Callable[[Member], Client]
) -> None:
    client = client_for(member)
    client.get(reverse("game_list"))
    assert client.session[BACKEND_SESSION_KEY] == NEW_PATH
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("game_list"))
    assert page.status_code == 200
    assert f'href="{reverse("member_detail", args=[member.pk])}"' in page.text
    users = [q["sql"] for q in queries if 'FROM "auth_user"' in q["sql"]]
    assert len(users) == 1 and '"clubsite_member"' in users[0]
    assert not [q for q in queries if q["sql"].startswith('SELECT "clubsite_member"."id"')]


def test_logging_in_stores_the_new_backend(member: Member) -> None:
    client = Client()
    response = client.post(reverse("login"), {"username": "aoki", "password": "aoki-password"})
    assert response.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == NEW_PATH


def test_a_session_from_before_the_backend_stays_logged_in(member: Member) -> None:
    """A session stored with Django's backend path, as every session before the deploy."""
    client = Client()
    session = client.session
    session[SESSION_KEY] = str(member.user_id)
    session[BACKEND_SESSION_KEY] = OLD_PATH
    session[HASH_SESSION_KEY] = member.user.get_session_auth_hash()
    session.save()
    client.cookies["sessionid"] = session.session_key  # type: ignore[assignment]
    response = client.get(reverse("game_list"))
    assert response.status_code == 200
    assert f'href="{reverse("member_detail", args=[member.pk])}"' in response.text


class CountingHasher(MD5PasswordHasher):
    """The tests' fast hasher, counting the passwords it checks."""

    checked = 0

    def verify(self, password: str, encoded: str) -> bool:
        CountingHasher.checked += 1
        return super().verify(password, encoded)


@pytest.fixture
def counting_hasher() -> Iterator[type[CountingHasher]]:
    CountingHasher.checked = 0
    with override_settings(PASSWORD_HASHERS=["tests.test_auth_backend.CountingHasher"]):
        yield CountingHasher


def test_a_wrong_password_is_checked_once_and_fails_once(
    member: Member, counting_hasher: type[CountingHasher]
) -> None:
    failures: list[dict[str, Any]] = []

    def failed(sender: object, credentials: dict[str, Any], **kwargs: object) -> None:
        failures.append(credentials)

    user_login_failed.connect(failed)
    try:
        client = Client()
        response = client.post(reverse("login"), {"username": "aoki", "password": "wrong"})
    finally:
        user_login_failed.disconnect(failed)
    assert response.status_code == 200
    assert counting_hasher.checked == 1
    assert [f["username"] for f in failures] == ["aoki"]
    assert AccessAttempt.objects.get(username="aoki").failures_since_start == 1

    counting_hasher.checked = 0
    response = client.post(reverse("login"), {"username": "aoki", "password": "aoki-password"})
    assert response.status_code == 302 and counting_hasher.checked == 1
