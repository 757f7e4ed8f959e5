"""The club's public face (docs/clubs.md): ``/c/<slug>/`` for a visitor shows what the club
publishes (its name, its text, its rules pages, next meetups without names, venues, public
boards, the join form) and a member keeps the games list; a member's public profile exists only
by their choice; and nothing else of a club answers a visitor: every URL of the demo club,
walked anonymously under its prefix, is refused (to the login, or 404) unless it is one of the
public pages, and none of those shows a member's name."""

from __future__ import annotations

import datetime
import re
from fractions import Fraction

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import resolve, reverse

from clubsite.club_model import Club
from clubsite.club_scope import club_scope, current_club
from clubsite.models import Member
from meetings.models import Meetup, Venue
from meetings.services import meetup_post
from scoring import standings as st
from scoring.standings.periods import club_today
from tests.test_every_url import Demo, demo, every_kwargs, url_of, walked_names
from tournaments.models import Event

pytestmark = pytest.mark.django_db

__all__ = ["demo"]

PUBLISH_ALL = {
    "public_text": "We play on Fridays.\n\nNew players welcome.",
    "public_rules": True,
    "public_venues": True,
    "public_meetups": True,
    "public_boards": True,
    "public_join": True,
}


def publish(club: Club, **values: object) -> None:
    for name, value in values.items():
        setattr(club, name, value)
    club.save(update_fields=list(values))


@pytest.fixture
def published(member: Member, coordinator: Member) -> dict[str, object]:
    """The site's club publishing everything: a venue, a call for players for tomorrow and
    the day after (coordinated by Chiba, Aoki applied), a public tournament and a members-only
    one."""
    club = current_club()
    publish(club, **PUBLISH_ALL)
    venue = Venue.objects.create(
        name="麻生ビック", address="札幌市北区北40条西4丁目", directions="麻生駅8番出口5分"
    )
    tomorrow = club_today() + datetime.timedelta(days=1)
    meetup = meetup_post(
        by=coordinator.user,
        dates=[tomorrow, tomorrow + datetime.timedelta(days=1)],
        venue=venue,
        ruleset_id="makura-1.5",
    )
    public = Event.objects.create(
        name="Spring open",
        format=Event.Format.CUSTOM,
        ruleset_id="makura-1.5",
        starts_on=tomorrow,
        ends_on=tomorrow,
        public=True,
    )
    private = Event.objects.create(
        name="Members' cup",
        format=Event.Format.CUSTOM,
        ruleset_id="makura-1.5",
        starts_on=tomorrow,
        ends_on=tomorrow,
    )
    return {"venue": venue, "meetup": meetup, "public": public, "private": private}


def test_a_visitor_sees_what_the_club_publishes_and_no_name(
    published: dict[str, object], member: Member, coordinator: Member
) -> None:
    club = current_club()
    publish(club, name="枕倶楽部")
    page = Client(headers={"accept-language": "en"}).get(f"/c/{club.slug}/")
    assert page.status_code == 200
    text = page.text
    assert "<h1>枕倶楽部</h1>" in text
    assert "<p>We play on Fridays.</p>" in text and "<p>New players welcome.</p>" in text
    assert f'href="/c/{club.slug}/accounts/login/?next=/c/{club.slug}/"' in text
    # Rules: the club's default and standard ruleset, under the prefix.
    assert re.findall(r'href="(/c/[^"]+/rulesets/[^"]+)"', text) == [
        f"/c/{club.slug}/rulesets/makura-1.5/"
    ]
    meetup = published["meetup"]
    assert isinstance(meetup, Meetup)
    meetups = text.split('id="public-meetups"')[1].split("</section>")[0]
    assert meetup.days_text() in meetups and "19:00 · 麻生ビック" in meetups
    assert "calling for players" in meetups
    venues = text.split('id="public-venues"')[1].split("</section>")[0]
    assert "札幌市北区北40条西4丁目" in venues and "麻生駅8番出口5分" in venues
    public, private = published["public"], published["private"]
    assert isinstance(public, Event) and isinstance(private, Event)
    assert f'href="/c/{club.slug}/tournaments/{public.pk}/board/">Spring open</a>' in text
    assert "Members&#x27; cup" not in text and "Members' cup" not in text
    assert f'action="/c/{club.slug}/join/"' in text
    # No member's name, nor how many applied.
    assert member.display_name not in text and coordinator.display_name not in text
    assert "applicant" not in text.lower()
    # The board linked answers the visitor; the members-only one sends to the login.
    assert Client().get(f"/c/{club.slug}/tournaments/{public.pk}/board/").status_code == 200
    assert Client().get(f"/c/{club.slug}/tournaments/{private.pk}/board/").status_code == 302


def test_a_club_that_publishes_nothing_shows_its_name_and_the_login(member: Member) -> None:
    club = current_club()
    publish(club, name="自宅麻雀")
    Venue.objects.create(name="Nakamura's", address="1-2-3 Home Street")
    page = Client().get(f"/c/{club.slug}/")
    assert page.status_code == 200
    assert "<h1>自宅麻雀</h1>" in page.text and 'id="public-login"' in page.text
    for section in ("public-text", "public-rules", "public-meetups", "public-venues", "join"):
        assert f'id="{section}"' not in page.text
    assert "1-2-3 Home Street" not in page.text
    # No join address, and the rules pages stay the members'.
    assert Client().get(f"/c/{club.slug}/join/").status_code == 404
    assert Client().post(f"/c/{club.slug}/join/", {"name": "X"}).status_code == 404
    rules = Client().get(f"/c/{club.slug}/rulesets/makura-1.5/")
    assert rules.status_code == 302 and "/accounts/login/" in rules["Location"]


def test_a_member_keeps_the_games_list_and_a_stranger_sees_the_public_page(
    published: dict[str, object], member: Member
) -> None:
    club = current_club()
    mine = Client()
    mine.force_login(member.user)
    home = mine.get(f"/c/{club.slug}/")
    assert home.status_code == 200 and 'id="public-page"' not in home.text
    assert resolve("/").func.__name__ == "club_home"
    # A login of another club only: the public page, with the join form but no login link.
    other = Club.objects.create(slug="fuji", name="FUJI")
    with club_scope(other):
        kimura = Member.objects.create(
            user=User.objects.create_user("kimura", password="x"), display_name="木村"
        )
    stranger = Client()
    stranger.force_login(kimura.user)
    page = stranger.get(f"/c/{club.slug}/")
    assert page.status_code == 200 and 'id="public-page"' in page.text
    assert 'id="join-form"' in page.text and 'id="public-login"' not in page.text
    # Its member pages stay 404 to him, as before.
    assert stranger.get(f"/c/{club.slug}/standings/").status_code == 404


def test_rules_pages_are_public_only_where_published(member: Member) -> None:
    club = current_club()
    visitor = Client()
    login = visitor.get(f"/c/{club.slug}/rulesets/makura-1.5/")
    assert login.status_code == 302
    publish(club, public_rules=True)
    page = visitor.get(f"/c/{club.slug}/rulesets/makura-1.5/")
    assert page.status_code == 200 and 'id="public-page"' not in page.text
    # The breadcrumb leads a visitor to the club's page, not to the members' ruleset list.
    assert f'<p class="breadcrumb"><a href="/c/{club.slug}/">' in page.text
    # A ruleset the club does not play stays the members'.
    assert visitor.get(f"/c/{club.slug}/rulesets/fuji-sanma/").status_code == 302
    members = Client()
    members.force_login(member.user)
    assert members.get(f"/c/{club.slug}/rulesets/fuji-sanma/").status_code == 200


def test_a_public_profile_exists_only_by_the_members_choice(
    member: Member, other_member: Member
) -> None:
    club = current_club()
    url = f"/c/{club.slug}/public/members/{member.pk}/"
    assert Client().get(url).status_code == 404
    others = Client()
    others.force_login(other_member.user)
    assert others.get(url).status_code == 404
    me = Client()
    me.force_login(member.user)
    own = me.get(f"/c/{club.slug}/members/{member.pk}/", headers={"accept-language": "en"})
    assert (
        'id="public-profile-box"' in own.text
        and "checked" not in own.text.split('id="public-profile-box"')[1].split(">")[0]
    )
    # Someone else's page has no such switch.
    assert 'id="public-profile-box"' not in me.get(f"/members/{other_member.pk}/").text
    answer = me.post(f"/c/{club.slug}/members/public-profile/", {"public": "1"})
    assert answer.status_code == 302
    assert answer["Location"] == f"/c/{club.slug}/members/{member.pk}/"
    member.refresh_from_db()
    assert member.public_profile is True
    page = Client().get(url, headers={"accept-language": "en"})
    assert page.status_code == 200
    assert '<h1 id="profile-name">Aoki</h1>' in page.text
    assert re.findall(r'class="profile-games">(\d+)<', page.text) == ["0", "0"]
    assert other_member.display_name not in page.text
    # Off again: gone.
    me.post(f"/c/{club.slug}/members/public-profile/", {})
    member.refresh_from_db()
    assert member.public_profile is False
    assert Client().get(url).status_code == 404
    # A login of no membership here cannot switch anything.
    nobody = Client(enforce_csrf_checks=False)
    nobody.force_login(User.objects.create_superuser("root", password="x"))
    assert (
        nobody.post(f"/c/{club.slug}/members/public-profile/", {"public": "1"}).status_code == 403
    )


def test_without_a_prefix_on_a_site_of_several_clubs(member: Member) -> None:
    """A visitor at ``/`` of a site of several clubs cannot be shown a club: to the login,
    as before; a member goes on to choose a club."""
    Club.objects.create(slug="north", name="North")
    first = Client().get("/")
    assert first.status_code == 302 and first["Location"].startswith("/accounts/login/")
    mine = Client()
    mine.force_login(member.user)
    assert mine.get("/")["Location"].startswith("/clubs/")
    north = Client().get("/c/north/")
    assert north.status_code == 200 and "<h1>North</h1>" in north.text


# -- nothing else is public ---------------------------------------------------------------


def test_only_the_public_pages_answer_a_visitor(demo: Demo, settings) -> None:
    """Every URL of the app, filled from the demo club (the Makura club's demo, its page
    published, Baba's profile public), asked for anonymously under the club's prefix: only
    the public pages answer 200; every other answers a redirect to the login, 404 or 405.
    None of the club's public pages shows a member's name (Baba's profile his own only)."""
    settings.DEBUG_PROPAGATE_EXCEPTIONS = False
    club = current_club()
    publish(club, **PUBLISH_ALL)
    baba = demo.other
    names = [m.display_name for m in Member.objects.all()]
    assert len(names) >= 12
    routes = dict(walked_names())
    kwargs = every_kwargs(demo)
    urls = sorted(
        {
            url_of(name, route, one)
            for name, route in routes.items()
            if not route.startswith("admin/")
            for one in kwargs.get(name, [{}])
        }
    )
    assert len(urls) > 200
    client = Client(raise_request_exception=False)
    answered = {}
    for url in urls:
        response = client.get(f"/c/{club.slug}{url}")
        answered[url] = response
        if response.status_code == 302:
            # To the login; a reset link to its own form (Django hides the token so); the
            # favicon to the app's icon; the language switch back to the public page.
            location = response["Location"]
            allowed = ("/accounts/login/", "/set-password/", "/static/icons/")
            assert any(part in location for part in allowed) or (
                url == "/i18n/setlang/" and location in ("/", f"/c/{club.slug}/")
            ), (url, location)
        else:
            assert response.status_code in (200, 404, 405), (url, response.status_code)
    open_pages = sorted(url for url, response in answered.items() if response.status_code == 200)
    feed = reverse("meetings:feed", kwargs=kwargs["meetings:feed"][0])
    # The reset form of a link no longer valid ("the link is no good"): a page of no club.
    reset = [url_of("password_reset_confirm", "", kwargs["password_reset_confirm"][1])]
    assert open_pages == sorted(
        [
            "/",  # the club's public page
            "/join/",  # the join address: the public page at its form
            "/rulesets/makura-1.5/",  # the club's default and standard ruleset, published
            f"/public/members/{baba.pk}/",  # Baba opted in
            # The site's pages of no club, open as before: the login and password reset, the
            # app's files, and a member's calendar feed (its secret token is the key).
            "/accounts/login/",
            "/accounts/password_reset/",
            "/accounts/password_reset/done/",
            "/accounts/reset/done/",
            *reset,
            "/sw.js",
            "/manifest.webmanifest",
            feed,
            # The offline panel's figures: a ruleset's, nobody's (scoring/views/offline_values).
            *[reverse("offline_values", kwargs=values) for values in kwargs["offline_values"]],
            # The value pads beside them (scoring/views/value_pads).
            *[reverse("value_pads", kwargs=values) for values in kwargs["value_pads"]],
        ]
    )
    public_text = answered["/"].content.decode()
    assert 'id="public-meetups"' in public_text and 'id="join-form"' in public_text
    for url in ("/", "/join/", "/rulesets/makura-1.5/"):
        text = answered[url].content.decode()
        assert [name for name in names if name in text] == [], url
    profile = answered[f"/public/members/{baba.pk}/"].content.decode()
    assert [name for name in names if name in profile] == [baba.display_name]
    year = st.player_page(baba.pk, st.year_period(club_today().year))
    all_time = st.player_page(baba.pk, st.all_time_period())
    assert all_time.game_count > 0
    assert re.findall(r'class="profile-games">(\d+)<', profile) == [
        str(year.game_count),
        str(all_time.game_count),
    ]
    ranks = re.findall(r'class="profile-rank">([\d.]+)<', profile)
    assert ranks[-1] == f"{float(Fraction(all_time.rank_sum, all_time.game_count)):.2f}"
