"""Shared fixtures: the club's personas and clients logged in as them.

Each persona is a `Member` whose user logs in with the password ``<username>-password``:

- ``member``: Aoki, an ordinary club member (the one whose phone number is on file);
- ``other_member``: Baba, another member, for "not your own" cases;
- ``coordinator``: Chiba, who will coordinate meetups (for now a member like any other);
- ``staff_member``: Doi, a club steward (``is_staff``);
- ``outsider``: Endo, a logged-in member who is not seated at the table under test;
- ``staff``: a steward's account without a member profile, as ``createsuperuser`` would make.
"""

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.test.utils import override_settings

from clubsite.models import Member
from scoring.ledger import hanchan_start
from scoring.standings.periods import club_today

pytest_plugins = ["tests.browser"]


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing() -> Iterator[None]:
    """MD5 instead of PBKDF2 at full strength, which takes about 0.4 s per password."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


def make_member(
    username: str, display_name: str, furigana: str, *, phone: str = "", is_staff: bool = False
) -> Member:
    user = User.objects.create_user(username, password=f"{username}-password", is_staff=is_staff)
    return Member.objects.create(
        user=user, display_name=display_name, furigana=furigana, phone=phone
    )


# Each persona's username, display name, reading and extras: the fixtures below, and
# make_persona() for a fixture of a wider scope that makes them outside a test.
PERSONAS: dict[str, tuple[str, str, str, dict[str, Any]]] = {
    "member": ("aoki", "Aoki", "あおき", {"phone": "090-1234-5678"}),
    "other_member": ("baba", "Baba", "ばば", {}),
    "coordinator": ("chiba", "Chiba", "ちば", {}),
    "staff_member": ("doi", "Doi", "どい", {"is_staff": True}),
    "outsider": ("endo", "Endo", "えんどう", {}),
}


def make_persona(fixture_name: str) -> Member:
    """The persona the fixture of that name makes."""
    username, display_name, furigana, extras = PERSONAS[fixture_name]
    return make_member(username, display_name, furigana, **extras)


@pytest.fixture
def member(db: None) -> Member:
    """A club member, the one usually at the table under test."""
    return make_persona("member")


@pytest.fixture
def other_member(db: None) -> Member:
    return make_persona("other_member")


@pytest.fixture
def coordinator(db: None) -> Member:
    """A member who will coordinate meetups once there are meetups; a plain member for now."""
    return make_persona("coordinator")


@pytest.fixture
def staff_member(db: None) -> Member:
    """A club steward with a member profile: plays, and may use the admin."""
    return make_persona("staff_member")


@pytest.fixture
def outsider(db: None) -> Member:
    """A logged-in member who is not seated at any table the test sets up."""
    return make_persona("outsider")


@pytest.fixture
def staff(db: None) -> User:
    """A club officer who runs the site and may use the admin, without a member profile."""
    return User.objects.create_user("staff", password="staff-password", is_staff=True)


@pytest.fixture
def csrf_client() -> Client:
    """An anonymous client that checks CSRF tokens as a browser's requests are checked."""
    return Client(enforce_csrf_checks=True)


@pytest.fixture
def client_for(db: None) -> Callable[[Member], Client]:
    """``client_for(member)``: a CSRF-checking client logged in as that member."""

    def logged_in(member: Member) -> Client:
        client = Client(enforce_csrf_checks=True)
        client.force_login(member.user)
        return client

    return logged_in


@pytest.fixture
def table_game(member: Member, other_member: Member, coordinator: Member, outsider: Member):
    """A makura-1.5 game in play today: Aoki deals East 1; Baba, Chiba, Endo."""
    return hanchan_start(
        ruleset_id="makura-1.5",
        members=[member, other_member, coordinator, outsider],
        played_on=club_today(),
        by=member,
    )
