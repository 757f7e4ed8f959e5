"""Shared fixtures: the club's personas and clients logged in as them.

Each persona is a `Member` whose user logs in with the password ``<username>-password``:

- ``member``: Aoki, an ordinary club member (the one whose phone number is on file);
- ``other_member``: Baba, another member, for "not your own" cases;
- ``coordinator``: Chiba, who will coordinate meetups (for now a member like any other);
- ``staff_member``: Doi, a club steward (their membership's role is ``steward``);
- ``outsider``: Endo, a logged-in member who is not seated at the table under test;
- ``staff``: the site's owner, a superuser's login without a membership, as
  ``createsuperuser`` would make (a steward in every club).
"""

import copy
import datetime
from collections.abc import Callable, Iterator
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.test.utils import override_settings
from django.utils import timezone, translation

from clubsite.club_scope import current_club
from clubsite.members import membership_create
from clubsite.models import Member
from scoring.ledger import hanchan_start
from scoring.standings.periods import club_today

pytest_plugins = ["tests.browser"]

# Modules whose tests share what a module-scoped fixture made and loaded (tests/browser.py):
# under pytest-xdist each of them runs whole on one worker, so it is made and loaded once.
WHOLE_ON_ONE_WORKER = frozenset(
    {
        "tests/test_browser_header.py",
        "tests/test_browser_narrow_pages.py",
        "tests/test_browser_tap_targets.py",
    }
)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``-n N`` (``--dist load``): each test to the next free worker, in the order pytest-django
    sorts them (the transactional tests, which empty every table, after the others), except
    that the modules of WHOLE_ON_ONE_WORKER go whole to one worker. (pytest-xdist's own
    ``loadgroup`` does not group under pytest 9, and ``loadscope`` keeps every module whole,
    which runs a module's transactional tests before other modules' tests that read the rows
    the migrations seed.)"""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class LoadKeepingModulesWhole(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module in WHOLE_ON_ONE_WORKER else nodeid

    # The scopes in the order collected, not the largest first.
    config.option.loadscopereorder = False
    return LoadKeepingModulesWhole(config, log)


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing() -> Iterator[None]:
    """MD5 instead of PBKDF2 at full strength, which takes about 0.4 s per password."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


def new_club_today() -> datetime.date:
    """Today where a new club is (``CLUB_TIME_ZONE``, which the site's club starts with): for
    a test module's constants, made before any database is open (``club_today()`` asks the
    club, whose row is in the database)."""
    return timezone.now().astimezone(ZoneInfo(settings.CLUB_TIME_ZONE)).date()


def make_member(
    username: str, display_name: str, furigana: str, *, phone: str = "", steward: bool = False
) -> Member:
    """A new login and its membership of the club of the test's scope; ``steward``: with the
    role ``steward`` (its login then staff, ``clubsite.members.login_flags_sync``)."""
    user = User.objects.create_user(username, password=f"{username}-password")
    return membership_create(
        user,
        club=current_club(),
        display_name=display_name,
        furigana=furigana,
        phone=phone,
        role=Member.Role.STEWARD if steward else Member.Role.MEMBER,
    )


# Each persona's username, display name, reading and extras: the fixtures below, and
# make_persona() for a fixture of a wider scope that makes them outside a test.
PERSONAS: dict[str, tuple[str, str, str, dict[str, Any]]] = {
    "member": ("aoki", "Aoki", "あおき", {"phone": "090-1234-5678"}),
    "other_member": ("baba", "Baba", "ばば", {}),
    "coordinator": ("chiba", "Chiba", "ちば", {}),
    "staff_member": ("doi", "Doi", "どい", {"steward": True}),
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
    """The site's owner, who runs the site and may use the admin, without a membership: a
    superuser's login, as ``createsuperuser`` makes one (a steward in every club)."""
    return User.objects.create_superuser("staff", password="staff-password")


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


@pytest.fixture(autouse=True)
def fresh_language() -> Iterator[None]:
    """Each test starts in the language a fresh process has (settings.LANGUAGE_CODE), whatever
    an earlier test in the same worker left active: a request through LocaleMiddleware or a
    translation.activate() stays active on the thread, and parallel workers run the tests in
    a different order on every run."""
    translation.deactivate()
    yield


@pytest.fixture(autouse=True, scope="module")
def module_site_club() -> Iterator[None]:
    """A module's own fixtures (a browser module's logged-in page, say) run in the site
    club's scope too, as :func:`site_club` runs each test: the club found afresh on every
    use (a callable scope value), since the database may be emptied between the tests."""
    from clubsite.club_model import Club
    from clubsite.club_scope import club_scope, only_club

    def first_club() -> Club:
        return Club.objects.order_by("pk").first() or only_club()

    with club_scope(first_club):  # type: ignore[arg-type]
        yield


@pytest.fixture(autouse=True)
def site_club() -> Iterator[None]:
    """Each test runs as a command or request of a one-club site does: in the scope of the
    site's club (clubsite.club_scope), looked up once, when the test first needs it: the first
    club (the migration's), even when the test has made a second one before it asks. A test
    of several clubs enters each other club's scope itself."""
    from django.utils.functional import SimpleLazyObject

    from clubsite.club_model import Club
    from clubsite.club_scope import club_scope, only_club

    def first_club() -> Club:
        return Club.objects.order_by("pk").first() or only_club()

    with club_scope(SimpleLazyObject(first_club)):  # type: ignore[arg-type]
        yield


class ClubChoicesSet:
    """The choices :func:`club_choices` gave; ``with`` it, they last to the block's end."""

    def __init__(self, restore: Callable[[], None]) -> None:
        self.restore = restore

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        self.restore()


@pytest.fixture
def club_choices(db: None) -> Iterator[Callable[..., ClubChoicesSet]]:
    """``club_choices(time_zone="UTC", confirmation="steward", ...)``: the site's club (the
    club of the test's scope, ``clubsite.club_scope.current_club``) takes these choices at
    once, in memory and in its row, for the rest of the test; ``with club_choices(...):``
    for the block only. What the club had comes back afterwards. The values are not
    checked (a test may give one the stewards' page refuses): ``scoring.club_choices``
    checks what a steward sends."""
    from clubsite.club_scope import current_club

    undo: list[Callable[[], None]] = []

    def put(values: dict[str, Any]) -> None:
        club = current_club()
        for name, value in values.items():
            setattr(club, name, value)
        club.save(update_fields=list(values))

    def choose(**values: Any) -> ClubChoicesSet:
        club = current_club()
        before = {name: copy.deepcopy(getattr(club, name)) for name in values}
        put(values)
        done = False

        def restore() -> None:
            nonlocal done
            if not done:
                done = True
                put(before)

        undo.append(restore)
        return ClubChoicesSet(restore)

    yield choose
    for restore in reversed(undo):
        restore()


@pytest.fixture
def every_club() -> Iterator[None]:
    """The test's own reads see every club's rows (a command or page enters its club's scope
    itself): for a test that checks what landed in which club."""
    from django_scopes import scopes_disabled

    with scopes_disabled():
        yield
