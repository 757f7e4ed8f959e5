"""A site of several clubs: a page without a club's prefix leads to the person's clubs
(``/clubs/``, clubsite/club_choice.py; docs/clubs.md), and straight on when they have one."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from django_scopes import scopes_disabled

from clubsite.club_model import Club
from clubsite.club_scope import club_scope, only_club
from clubsite.members import membership_create
from clubsite.models import Member
from scoring.models import Seat
from tests.test_club_scoping import finished_game, members_of

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


def test_the_list_of_clubs_shows_each_clubs_own_figures(
    clubs: tuple[Club, Club], member: Member
) -> None:
    """The one view across a person's clubs: each club's games this year and average place
    on its own line, never added together (scoring/standings/across_clubs.py)."""
    home, fuji = clubs
    today = timezone.localdate()
    home_table = [member, *members_of(home, ["Baba", "Chiba", "Doi"])]
    fuji_table = [
        Member.objects.with_scopes_disabled().get(club=fuji, user=member.user),
        *members_of(fuji, ["Sato", "Suzuki", "Ito"]),
    ]
    with club_scope(home):
        first = finished_game(home_table, today)
        second = finished_game(home_table[::-1], today)
    with club_scope(fuji):
        there = finished_game(fuji_table, today)
    with scopes_disabled():
        ranks = [
            Seat.objects.get(hanchan=game, member__user=member.user).rank
            for game in (first, second)
        ]
        rank_there = Seat.objects.get(hanchan=there, member__user=member.user).rank
    client = Client()
    client.force_login(member.user)
    text = client.get("/clubs/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    average = Decimal(sum(ranks)) / 2
    assert f"{today.year}: 2 games, average place {average:.2f}" in text
    assert f"{today.year}: 1 game, average place {rank_there:.2f}" in text

    kita = Club.objects.create(slug="kita", name="Kita club")
    membership_create(member.user, club=kita, display_name="Aoki")
    text = client.get("/clubs/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"{today.year}: no games yet" in text
