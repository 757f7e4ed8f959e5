"""Isolation you can prove: every page of the site walked as a member of another club.

The demo club (``manage.py load_demo``, as tests/test_every_url.py fills it) and a second
club beside it, FUJI, with one member of its own. Every page of the demo club, under its
``/c/<slug>/`` prefix, asked for by FUJI's member: 404 wherever a login is needed (a page
of a club one is not in is as absent as a page that does not exist). Then every page with
the demo club's ids, asked for under FUJI's own prefix: no page shows a row of the demo club
(a game, member, meetup or event id of one club under another is 404 or refused, never
shown). Docs: docs/clubs.md.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import resolve

from clubsite.club_model import Club
from clubsite.club_scope import club_scope, only_club
from clubsite.models import Member
from tests.test_every_url import Demo, demo, every_kwargs, url_of, walked_names

pytestmark = pytest.mark.django_db

__all__ = ["demo"]


def app_urls(demo: Demo) -> list[str]:
    """Every path of the app's own pages (not the admin's), filled from the demo club."""
    routes = dict(walked_names())
    kwargs = every_kwargs(demo)
    return sorted(
        {
            url_of(name, route, one)
            for name, route in routes.items()
            if not route.startswith("admin/")
            for one in kwargs.get(name, [{}])
        }
    )


def needs_login(path: str) -> bool:
    return bool(getattr(resolve(path).func, "login_required", True))


@pytest.fixture
def fuji(demo: Demo) -> tuple[Club, Member]:
    """A second club with one member, Sato, in no other club."""
    club = Club.objects.create(slug="fuji", name="Shinbashi FUJI Club")
    with club_scope(club):
        sato = Member.objects.create(
            user=User.objects.create_user("sato", password="sato-password"),
            display_name="Sato",
        )
    return club, sato


def test_every_page_of_another_club_is_404(demo: Demo, fuji: tuple[Club, Member], settings):
    settings.DEBUG_PROPAGATE_EXCEPTIONS = False
    home = only_club_of(demo)
    _club, sato = fuji
    client = Client(raise_request_exception=False)
    client.force_login(sato.user)
    urls = app_urls(demo)
    assert len(urls) > 200
    wrong = []
    for url in urls:
        if not needs_login(url):
            continue
        response = client.get(f"/c/{home.slug}{url}")
        if response.status_code != 404:
            wrong.append(f"{url}: {response.status_code}")
    assert wrong == []


def test_the_demo_clubs_ids_are_not_found_under_another_club(
    demo: Demo, fuji: tuple[Club, Member], settings
):
    """Sato in his own club, asking for the demo club's games, members, meetups and events
    by their ids: never a page that shows them."""
    settings.DEBUG_PROPAGATE_EXCEPTIONS = False
    club, sato = fuji
    client = Client(raise_request_exception=False)
    client.force_login(sato.user)
    with_ids = [url for url in app_urls(demo) if any(ch.isdigit() for ch in url)]
    assert len(with_ids) > 50
    names = [demo.member.display_name, demo.other.display_name, demo.steward.display_name]
    shown = []
    for url in with_ids:
        response = client.get(f"/c/{club.slug}{url}")
        if response.status_code >= 500:
            shown.append(f"{url}: {response.status_code}")
        elif response.status_code == 200:
            text = response.content.decode(errors="replace")
            if any(name in text for name in names):
                shown.append(f"{url}: shows the demo club's members")
    assert shown == []


def test_a_member_sees_their_club_under_its_prefix(demo: Demo, settings) -> None:
    """The demo club's own member under its prefix: the page answers, and its links stay
    under the prefix."""
    home = only_club_of(demo)
    client = Client()
    client.force_login(demo.member.user)
    response = client.get(f"/c/{home.slug}/standings/")
    assert response.status_code == 200
    text = response.content.decode()
    assert f'href="/c/{home.slug}/games/' in text or f'href="/c/{home.slug}/' in text
    assert 'href="/static/' in text or "/static/" in text
    assert client.get("/c/no-such-club/standings/").status_code == 404


def only_club_of(demo: Demo) -> Club:
    club: Club = demo.member.club
    return club


def test_the_site_club_is_the_demo_club(demo: Demo) -> None:
    assert only_club().pk == demo.member.club_id


def test_a_guest_of_an_event_opens_that_event_only(
    demo: Demo, fuji: tuple[Club, Member], settings
) -> None:
    """FUJI's Sato entered as a guest in the demo club's tournament (an event between
    clubs): of every page of the demo club that needs a login, he opens only that event's
    pages, the list of his events and the rulesets; every other page is 404, as to anyone
    outside the club."""
    from tournaments.guests import EVENT_PAGES
    from tournaments.models import Participant

    settings.DEBUG_PROPAGATE_EXCEPTIONS = False
    home = only_club_of(demo)
    _club, sato = fuji
    guest = Member.objects.create(
        user=sato.user, display_name="Sato (FUJI)", role=Member.Role.GUEST, home=sato
    )
    Participant.objects.create(event=demo.event, member=guest, number=99)
    client = Client(raise_request_exception=False)
    client.force_login(sato.user)
    anyone = {"tournaments:list", "ruleset_list", "ruleset_detail", "hand_value"}
    wrong, opened = [], []
    for url in app_urls(demo):
        if not needs_login(url):
            continue
        match = resolve(url)
        his = match.view_name in anyone or (
            match.view_name in EVENT_PAGES and match.kwargs.get("pk") == demo.event.pk
        )
        status = client.get(f"/c/{home.slug}{url}").status_code
        if his:
            opened.append(match.view_name)
            # (A round not drawn is 404 to everyone.)
            if status == 404 and match.kwargs.get("number", demo.round.number) == demo.round.number:
                wrong.append(f"{url}: 404 to the event's guest")
        elif status != 404:
            wrong.append(f"{url}: {status}")
    assert wrong == []
    assert {"tournaments:detail", "tournaments:chart", "tournaments:list"} <= set(opened)
