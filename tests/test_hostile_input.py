"""Bad input never gets a 500 and never writes.

Every URL of the site is requested with hostile values in its query string, and every form
found on its pages is posted with hostile values in each of its fields (NUL bytes, very long
text, huge and negative numbers, wrong types, missing and duplicated fields). Nothing may
answer 500, and the ledger and the meetups must be exactly as they were.
"""

from __future__ import annotations

import datetime
import re
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from axes.models import AccessAttempt
from django.apps import apps
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubsite.models import Member
from scoring.ledger import hanchan_start, hand_record
from scoring.models import Hanchan
from scoring.standings import club_today

HOSTILE = [
    "\x00",
    "a\x00b",
    "x" * 5000,
    "9" * 4300,
    "-1",
    "-9999999999999999999999",
    "1e309",
    "NaN",
    "[]",
    "{}",
    "",
    " ",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "😀" * 50,
    "9999-12-31",
    "0000-00-00",
    "../../etc/passwd",
    "\r\n=cmd|' /C calc'!A0",
]

# Query parameters the pages read (filters, periods, sorting, the new-game form's redraws).
QUERY_NAMES = [
    "q", "ruleset", "period", "kind", "year", "month", "half", "start", "end", "sort", "order",
    "desc", "min_games", "page", "next", "player_0", "player_1", "player_2", "player_3",
    "played_on", "venue", "table_name", "draw_seats", "date", "language", "all",
]  # fmt: skip

SKIP_PREFIXES = ("/admin/", "/static/", "/i18n/")


@pytest.fixture
def world(member: Member, other_member: Member, coordinator: Member, staff_member: Member):
    """A game in play with a hand, a finished game, and a meetup recruiting."""
    players = [member, other_member, coordinator, staff_member]
    in_play = hanchan_start(
        ruleset_id="makura-1.5", members=players, played_on=club_today(), by=member
    )
    hand_record(
        hanchan_id=in_play.pk,
        hand={"result": "draw", "tenpai": [0]},
        expected_version=in_play.version,
        request_id=uuid.uuid4(),
        by=member,
    )
    finished = hanchan_start(
        ruleset_id="makura-1.5", members=players, played_on=club_today(), by=member
    )
    hand_record(
        hanchan_id=finished.pk,
        hand={"result": "ron", "loser": 2, "wins": [{"winner": 1, "limit": "yakuman"}]},
        expected_version=finished.version,
        request_id=uuid.uuid4(),
        by=member,
    )
    meetup = _meetup(coordinator)
    return {
        "pk": in_play.pk,
        "finished": finished.pk,
        "meetup": meetup,
        "member_id": member.pk,
        "number": 1,
        "ruleset_id": "makura-1.5",
        "token": _token(member),
    }


def _meetup(coordinator: Member) -> int:
    """A meetup recruiting for next week, called by ``coordinator``."""
    from meetings.models import Venue
    from meetings.services import meetup_post

    meetup = meetup_post(
        by=coordinator.user,
        dates=[club_today() + datetime.timedelta(days=7)],
        venue=Venue.objects.get_or_create(name="ビック", defaults={"address": "東京"})[0],
        ruleset_id="makura-1.5",
    )
    return meetup.pk


def _token(member: Member) -> str:
    """The member's private calendar feed token."""
    from meetings.models import MeetupProfile

    return MeetupProfile.objects.get_or_create(member=member)[0].calendar_token


def _paths(world: dict[str, Any]) -> Iterator[str]:
    """Every URL of the site with its arguments filled in from ``world``."""

    def walk(patterns: list[Any], prefix: str) -> Iterator[str]:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern):
                yield route

    for route in walk(get_resolver().url_patterns, ""):
        path = "/" + route.lstrip("^").rstrip("$")
        if any(path.startswith(p) for p in SKIP_PREFIXES):
            continue
        names = re.findall(r"<(?:\w+:)?(\w+)>", path)
        values = {name: world.get("meetup" if name == "pk" and "meetups" in path else name)
                  for name in names}  # fmt: skip
        if any(v is None for v in values.values()):
            continue
        for name, value in values.items():
            path = re.sub(rf"<(?:\w+:)?{name}>", str(value), path)
        yield path


def _ledger_state() -> list[tuple[str, int]]:
    """How many rows each model has, and every game's version and status."""
    counts = [
        (model._meta.label, model.objects.count())
        for model in apps.get_models()
        if model._meta.app_label in ("scoring", "meetings", "clubsite", "auth", "tournaments")
        # Reading the meetup pages remembers the viewer's language for their e-mails.
        and model._meta.label != "meetings.MeetupProfile"
    ]
    games = [(f"game{pk}", version) for pk, version in Hanchan.objects.values_list("pk", "version")]
    return counts + games


def _no_500(client: Client, method: str, path: str, data: Any, failures: list[str]) -> None:
    """Request ``path``; note it in ``failures`` (for one report of them all) on a 5xx."""
    response = getattr(client, method)(path, data)
    if response.status_code >= 500:
        failures.append(f"{method.upper()} {path} {str(data)[:120]!r}")


def test_no_url_answers_500_to_hostile_query_strings(world, client_for, staff_member):
    client = client_for(staff_member)  # a steward sees every page and every form
    client.raise_request_exception = False
    before = _ledger_state()
    paths = list(_paths(world))
    assert len(paths) > 20
    failures: list[str] = []
    for path in paths:
        for value in HOSTILE:
            _no_500(client, "get", path, dict.fromkeys(QUERY_NAMES, value), failures)
        repeated = {"q": HOSTILE[:5], "ruleset": HOSTILE[:5]}
        _no_500(client, "get", path, repeated, failures)
    assert failures == []
    assert _ledger_state() == before


def _forms(html: str) -> Iterator[tuple[str, list[str]]]:
    """(action, field names) of each POST form on a page."""
    for form in re.finditer(r"<form\b[^>]*>.*?</form>", html, re.DOTALL):
        tag = form.group(0)
        if not re.search(r'method="post"', tag[: tag.index(">")], re.IGNORECASE):
            continue
        action = re.search(r'action="([^"]*)"', tag[: tag.index(">")])
        names = sorted(set(re.findall(r'name="([^"]+)"', tag)) - {"csrfmiddlewaretoken"})
        yield (action.group(1) if action else ""), names


def test_no_form_answers_500_or_writes_with_hostile_values(world, client_for, staff_member):
    client = client_for(staff_member)
    client.raise_request_exception = False
    before = _ledger_state()
    posted = 0
    failures: list[str] = []
    for page in _paths(world):
        response = client.get(page)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]*)"', html)
        if token is None:
            continue
        for action, names in _forms(html):
            if not names:
                continue  # a button with no input (withdraw, call off): no bad input to give
            target = action or page
            if target.startswith(("/accounts/logout", "/i18n/")) or not target.startswith("/"):
                continue
            for value in HOSTILE:
                data: dict[str, Any] = dict.fromkeys(names, value)
                data["csrfmiddlewaretoken"] = token.group(1)
                _no_500(client, "post", target, data, failures)
                posted += 1
            # Every field missing, then every field twice with two different bad values.
            _no_500(client, "post", target, {"csrfmiddlewaretoken": token.group(1)}, failures)
            twice = {name: [HOSTILE[0], HOSTILE[3]] for name in names}
            twice["csrfmiddlewaretoken"] = token.group(1)
            _no_500(client, "post", target, twice, failures)
    assert posted > 50
    assert failures == []
    assert _ledger_state() == before


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(value=st.text(max_size=300))
def test_any_text_in_the_search_and_filters_is_harmless(value, client_for, staff_member, world):
    client = client_for(staff_member)
    client.raise_request_exception = False
    failures: list[str] = []
    for path in ("/games/new/", "/standings/", "/meetups/", f"/members/{world['member_id']}/"):
        _no_500(client, "get", path, {"q": value, "ruleset": value, "year": value}, failures)
    assert failures == []


# -- input that was a 500 before, and its kin ---------------------------------------------------

# Text that str.isdigit() takes for digits: int() refuses the first two and reads the next two;
# then digits too many for int() (Python's 4,300-digit limit), and a NUL.
NOT_A_SEAT = ["²", "①", "１", "٣", "9" * 5000, "\x00"]


def _csrf_token(client: Client, page: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]*)"', client.get(page).text)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize("seat", NOT_A_SEAT)
def test_a_seat_in_other_digits_is_refused_not_a_500(world, client_for, staff_member, seat):
    client = client_for(staff_member)
    client.raise_request_exception = False
    game = f"/games/{world['pk']}/"
    token = _csrf_token(client, game)
    version = str(Hanchan.objects.get(pk=world["pk"]).version)
    taps = [
        {"result": "ron", "loser": "0", "winners": seat},
        {"result": "ron", "loser": seat, "winners": "1"},
        {"result": "tsumo", "winner": seat},
        {"result": "ron", "loser": "0", "winners": ["1", seat], "value_1": "3-30"},
        {"result": "draw", "tenpai": seat},
        {"result": "draw", "riichi": seat},
    ]
    before = _ledger_state()
    failures: list[str] = []
    for path in ("hands/", "hands/preview/", "hands/1/edit/", "hands/1/preview/"):
        for tapped in taps:
            data = {**tapped, "csrfmiddlewaretoken": token, "version": version}
            data["request_id"] = str(uuid.uuid4())
            _no_500(client, "post", game + path, data, failures)
    assert failures == []
    assert _ledger_state() == before


@pytest.mark.parametrize("member_id", [*NOT_A_SEAT, "99999999999"])
def test_a_member_in_other_digits_on_the_yaku_page_is_nobody(client_for, member, member_id):
    client = client_for(member)
    response = client.get("/standings/yaku/", {"member": member_id})
    assert response.status_code == 200


@pytest.mark.parametrize("token", ["a\x00b", "\x00", "x" * 300, "²", "a b"])
def test_a_calendar_token_that_no_feed_has_is_404(db, token):
    client = Client()
    client.raise_request_exception = False
    assert client.get(f"/meetups/calendar/{quote(token)}.ics").status_code == 404


@pytest.mark.parametrize(
    ("username", "headers"),
    [
        ("x" * 256, {}),
        ("x" * 5000, {}),
        ("a\x00b", {}),
        ("aoki", {"HTTP_USER_AGENT": "phone\x00"}),
        ("aoki", {"HTTP_ACCEPT": "text/html\x00"}),
        ("aoki\x00", {"HTTP_USER_AGENT": "x" * 5000}),
    ],
)
@pytest.mark.parametrize("login", ["/accounts/login/", "/admin/login/"])
def test_a_made_up_login_is_a_failure_counted_not_a_500(member, login, username, headers):
    client = Client()
    client.raise_request_exception = False
    response = client.post(login, {"username": username, "password": "wrong"}, **headers)
    assert response.status_code == 200  # the login page again, with its error
    for attempt in AccessAttempt.objects.all():
        assert "\x00" not in attempt.username + attempt.user_agent + attempt.http_accept
        assert len(attempt.username) <= 150
    assert not client.session.get("_auth_user_id")


def test_behind_the_proxy_a_forwarded_address_that_is_none_is_not_taken(member, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    client = Client()
    client.raise_request_exception = False
    for forwarded in ("not-an-address", "203.0.113.5\x00", "x" * 300):
        response = client.post(
            "/accounts/login/",
            {"username": "aoki", "password": "wrong"},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_PROTO="https",
            HTTP_X_FORWARDED_FOR=forwarded,
        )
        assert response.status_code == 200
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"127.0.0.1"}


@pytest.mark.parametrize(
    "body",
    [
        b"1" * 5000,  # an integer too long for int()
        b'{"hand": "\\ud800"}',  # a lone surrogate, which the answer would quote
        b'{"\\ud800": 1}',
        b"[" * 5000,
        b"\xff\xfe",
    ],
)
def test_the_hand_value_endpoint_answers_400_to_what_is_no_json_text(member, body):
    client = Client()
    client.force_login(member.user)
    client.raise_request_exception = False
    response = client.post("/api/hand-value/", body, content_type="application/json")
    assert response.status_code == 400
    assert "error" in response.json()
