"""``manage.py load_demo_clubs``: the seeds' clubs on one site (``make run``), some people in
two of them."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django_scopes import scopes_disabled

from clubsite.club_model import Club
from clubsite.club_scope import club_scope
from clubsite.models import Member
from meetings.management.commands.load_demo import DEMO_PASSWORD
from meetings.models import Meetup
from scoring.models import Hanchan

# slug: (name, default ruleset, members, games, of them in play)
EXPECTED = {
    "club": ("枕倶楽部", "makura-1.5", 12, 6, 1),
    "sanma": ("三人麻雀クラブ", "sanma-float", 6, 4, 1),
    "home": ("自宅麻雀", "home-nashinashi", 5, 3, 1),
    "fuji": ("新橋 FUJIクラブ", "fuji-sanma", 6, 4, 1),
}


def load() -> str:
    out = io.StringIO()
    call_command("load_demo_clubs", "--force", stdout=out)
    return out.getvalue()


def row_counts() -> dict[str, int]:
    with scopes_disabled():
        return {
            "clubs": Club.objects.count(),
            "users": get_user_model().objects.count(),
            "members": Member.objects.count(),
            "games": Hanchan.objects.count(),
            "meetups": Meetup.objects.count(),
        }


@pytest.fixture
def clubs(db: None, settings) -> dict[str, Club]:
    settings.CLUB_SITE_URL = "http://127.0.0.1:8000"
    out = load()
    assert "http://127.0.0.1:8000/c/home/  自宅麻雀: 5 members, 3 games" in out
    return {club.slug: club for club in Club.objects.all()}


def test_each_club_has_its_name_rules_members_and_games(clubs: dict[str, Club]) -> None:
    assert set(clubs) == set(EXPECTED)
    for slug, (name, ruleset, members, games, in_play) in EXPECTED.items():
        club = clubs[slug]
        assert (club.name, club.default_ruleset, club.standard_rulesets) == (
            name,
            ruleset,
            [ruleset],
        )
        with club_scope(club):
            assert Member.objects.count() == members
            assert Hanchan.objects.count() == games
            assert Hanchan.objects.filter(status="in_play").count() == in_play
            rulesets = set(Hanchan.objects.values_list("ruleset_version__ruleset_id", flat=True))
            seated = {
                seat.member.club_id for game in Hanchan.objects.all() for seat in game.seats.all()
            }
        assert seated == {club.pk}
        expected = {"makura-1.5", "makura-1.3"} if slug == "club" else {ruleset}
        assert rulesets == expected
    with club_scope(clubs["club"]):
        assert Meetup.objects.count() == 3
    with club_scope(clubs["fuji"]):
        assert Meetup.objects.count() == 0


def test_people_in_two_clubs_are_one_login(clubs: dict[str, Club]) -> None:
    users = get_user_model().objects
    aoki = users.get(username="aoki")
    assert aoki.check_password(DEMO_PASSWORD)
    with scopes_disabled():
        roles = {(m.club.slug, m.role, m.display_name) for m in Member.objects.filter(user=aoki)}
        assert roles == {("club", "steward", "青木"), ("home", "member", "青木さん")}
        tanaka = users.get(username="tanaka")
        assert sorted(Member.objects.filter(user=tanaka).values_list("club__slug", flat=True)) == [
            "fuji",
            "sanma",
        ]
        twice = [
            username
            for username in users.values_list("username", flat=True)
            if Member.objects.filter(user__username=username).count() == 2
        ]
    assert sorted(twice) == ["aoki", "baba", "kanda", "tanaka"]
    assert users.filter(username="baba").count() == 1


def test_aoki_sees_both_clubs_standings_and_a_fuji_member_only_fuji(
    clubs: dict[str, Club],
) -> None:
    users = get_user_model().objects
    client = Client()
    client.force_login(users.get(username="aoki"))
    makura = client.get("/c/club/standings/")
    assert makura.status_code == 200
    assert "松本" in makura.content.decode() and "小野" not in makura.content.decode()
    home = client.get("/c/home/standings/")
    assert home.status_code == 200
    assert "小野" in home.content.decode() and "松本" not in home.content.decode()

    kimura = Client()
    kimura.force_login(users.get(username="kimura"))
    assert kimura.get("/c/club/standings/").status_code == 404
    assert kimura.get("/c/fuji/standings/").status_code == 200


def test_a_second_run_changes_nothing(clubs: dict[str, Club]) -> None:
    before = row_counts()
    assert before == {"clubs": 4, "users": 25, "members": 29, "games": 17, "meetups": 3}
    assert load() == "Members exist already: no demo clubs loaded.\n"
    assert row_counts() == before


@pytest.mark.django_db
def test_it_refuses_with_debug_off_unless_forced(settings) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        call_command("load_demo_clubs", stdout=io.StringIO())
    assert row_counts()["members"] == 0
