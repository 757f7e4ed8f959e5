"""A site of several clubs: a page without a club's prefix leads to the person's clubs
(``/clubs/``, clubsite/club_choice.py; docs/clubs.md), and straight on when they have one."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from clubsite.club_model import Club
from clubsite.club_scope import club_scope, only_club
from clubsite.members import membership_create
from clubsite.models import Member

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs(member: Member) -> tuple[Club, Club]:
    """The site's club (Aoki's) and FUJI; Aoki is in both, as 青木 at FUJI."""
    home = only_club()
    fuji = Club.objects.create(slug="fuji", name="Shinbashi FUJI Club")
    membership_create(member.user, club=fuji, display_name="青木")
    return home, fuji


def test_a_page_without_a_club_asks_which(clubs: tuple[Club, Club], member: Member) -> None:
    home, fuji = clubs
    client = Client()
    client.force_login(member.user)
    response = client.get("/standings/")
    assert response.status_code == 302
    assert response["Location"] == "/clubs/?next=%2Fstandings%2F"
    page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    text = page.content.decode()
    assert f'href="/c/{home.slug}/standings/"' in text
    assert 'href="/c/fuji/standings/">Shinbashi FUJI Club</a>' in text
    assert "as 青木" in text
    # A page of no club links no club's pages.
    assert 'class="site-nav"' not in text
    # Each club's own page answers under its prefix.
    assert client.get("/c/fuji/standings/").status_code == 200
    assert client.get(f"/c/{home.slug}/standings/").status_code == 200


def test_a_person_in_one_club_goes_straight_on(clubs: tuple[Club, Club]) -> None:
    _home, fuji = clubs
    with club_scope(fuji):
        sato = Member.objects.create(user=User.objects.create_user("sato"), display_name="Sato")
    client = Client()
    client.force_login(sato.user)
    response = client.get("/clubs/?next=/standings/")
    assert response.status_code == 302
    assert response["Location"] == "/c/fuji/standings/"
    # Another site's address as next: the club's home page instead.
    response = client.get("/clubs/?next=https://example.org/")
    assert response["Location"] == "/c/fuji/"


def test_the_login_page_works_without_a_club(clubs: tuple[Club, Club]) -> None:
    page = Client().get("/accounts/login/")
    assert page.status_code == 200
    assert 'name="username"' in page.content.decode()


def test_the_header_names_the_club_of_the_page(clubs: tuple[Club, Club], member: Member) -> None:
    """A club's page says its club's name; the site's first club, still under the site's
    default name, says the site's own words (麻雀クラブ in Japanese)."""
    home, fuji = clubs
    client = Client()
    client.force_login(member.user)
    fuji_page = client.get("/c/fuji/standings/").content.decode()
    assert 'class="site-name" href="/c/fuji/">Shinbashi FUJI Club</a>' in fuji_page
    home_page = client.get(f"/c/{home.slug}/standings/").content.decode()
    assert f'class="site-name" href="/c/{home.slug}/">麻雀クラブ</a>' in home_page
