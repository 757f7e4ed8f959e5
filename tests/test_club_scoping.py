"""Every query of a club's rows goes through one scoping layer (docs/clubs.md): the default
manager of every club-owned model is ``clubsite.models.ClubManager`` (django-scopes' scope,
keyed by the club, on the row's own club or its parent's), a query outside any club's scope
is refused, and the few places that read past the scope (the admin, backups) are named here.

Two clubs side by side: each sees its own members, games, online logs and venues only, and
the same display name, online name or game may be in each once."""

from __future__ import annotations

import ast
import datetime
import random
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import IntegrityError, models, transaction
from django_scopes import ScopeError, scopes_disabled
from django_scopes.state import state

from clubsite.club_model import Club
from clubsite.club_scope import ClubNotChosen, club_scope, current_club, only_club
from clubsite.models import Member, OnlineName
from meetings.models import Venue
from scoring.ledger import DuplicateGame, hanchan_import
from scoring.models import CountedSeat, Hanchan, HandEntry
from scoring.upkeep.sample_games import sample_hands

ROOT = Path(__file__).resolve().parent.parent
APPS = ("clubsite", "scoring", "meetings", "tournaments", "ratings")

# Rows of the whole site, not of a club: the clubs themselves, the rulesets' stored versions
# (the built-in rules every club may use) and the password reset throttle (per address).
SITE_WIDE = {"clubsite.Club", "scoring.RulesetVersion", "clubsite.PasswordResetRequest"}

# Where code reads past the club's scope, and why: anything else that names these is a leak.
UNSCOPED_ALLOWED = {
    # The admin is the site admins': every club (a request under /admin/).
    "clubsite/middleware.py",
    # A backup and its drill copy every club's rows.
    "scoring/upkeep/restore_drill.py",
    # The site's clubs, looked up to choose a scope.
    "clubsite/club_scope.py",
    # A person's clubs: their memberships in every club, and their own figures in each.
    "clubsite/club_choice.py",
    "scoring/standings/across_clubs.py",
    # A login's own flags follow its memberships in every club.
    "clubsite/members.py",
    # The demo of several clubs loads only into a site whose clubs have no members yet.
    "meetings/management/commands/load_demo_clubs.py",
    # A calendar feed's secret names its member, and so its club, whatever the address.
    "meetings/feed_club.py",
    # A club's members' guest memberships in other clubs and the hosts' counted seats of
    # them (events between clubs), made again into the club's own rows.
    "scoring/ledger/guests.py",
    # A game linked from another club's pages: its own club, for someone who belongs there.
    "scoring/views/game_elsewhere.py",
}
UNSCOPED_NAMES = ("scopes_disabled", "with_scopes_disabled", "_base_manager")


def club_models() -> list[type[models.Model]]:
    return [m for m in apps.get_models() if m._meta.app_label in APPS]


def test_every_model_is_a_clubs_or_the_sites() -> None:
    """Each model of the project's apps is scoped to a club (by its own ``club`` or through
    its parent's) or is named site-wide above: a new model must say which."""
    unscoped = []
    for model in club_models():
        label = model._meta.label
        if label in SITE_WIDE:
            continue
        manager = model._default_manager
        if not hasattr(manager, "with_scopes_disabled"):
            unscoped.append(label)
    assert unscoped == []


@pytest.mark.django_db
def test_a_query_outside_every_scope_is_refused() -> None:
    """Outside any club's scope (the autouse scope set aside), a club's rows cannot be read."""
    previous = state.get()
    state.set({"_enabled": True})
    try:
        for model in club_models():
            if model._meta.label in SITE_WIDE:
                continue
            with pytest.raises(ScopeError):
                list(model.objects.all())  # type: ignore[attr-defined]
    finally:
        state.set(previous)


@pytest.mark.django_db
def test_each_model_reads_the_club_in_scope_only() -> None:
    """Every scoped model's query names the club of the scope (its own column, or its
    parent's through a join)."""
    club = only_club()
    with club_scope(club):
        for model in club_models():
            if model._meta.label in SITE_WIDE:
                continue
            sql = str(model.objects.all().query)  # type: ignore[attr-defined]
            assert '"club_id" = ' in sql.replace(f'"{model._meta.db_table}".', ""), model


def test_code_reads_past_the_scope_only_where_named() -> None:
    """``scopes_disabled``, ``with_scopes_disabled`` and ``_base_manager`` appear in the
    app code only in the modules allowed above."""
    found = set()
    for app in (*APPS, "benchmarks"):
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names = {
                node.attr if isinstance(node, ast.Attribute) else node.id
                for node in ast.walk(tree)
                if isinstance(node, ast.Attribute | ast.Name)
            }
            names |= {
                alias.name
                for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom)
                for alias in node.names
            }
            if names & set(UNSCOPED_NAMES):
                found.add(str(path.relative_to(ROOT)))
    assert found <= UNSCOPED_ALLOWED, sorted(found - UNSCOPED_ALLOWED)


# Where the app writes its own SQL, and why it stays in the club: anything else fails below.
RAW_SQL_ALLOWED = {
    # SELECT 1: is the database there.
    "clubsite/health.py",
    # The game with its seats in one statement: filtered by the club in scope.
    "scoring/ledger/loading.py",
    # Inserts of rows made in the club's scope, their club given.
    "scoring/ledger/bulk.py",
    # INSERT ... SELECT of a queryset of the scoped managers.
    "scoring/ledger/totals.py",
}


def test_own_sql_only_where_named() -> None:
    """``connection.cursor()`` and ``.raw(`` appear in the app code (not the benchmarks,
    which measure the whole database) only in the modules named above."""
    found = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            if ".cursor()" in text or ".raw(" in text.replace("form.raw(", "").replace(
                "self.raw(", ""
            ):
                found.add(str(path.relative_to(ROOT)))
    assert found == RAW_SQL_ALLOWED


@pytest.fixture
def two_clubs(db: None) -> tuple[Club, Club]:
    """The site's club and a second one: Makura and FUJI, say."""
    first = only_club()
    second = Club.objects.create(slug="fuji", name="Shinbashi FUJI Club")
    return first, second


def members_of(club: Club, names: list[str]) -> list[Member]:
    with club_scope(club):
        return [
            Member.objects.create(
                user=User.objects.create_user(f"{club.slug}-{name.lower()}"),
                display_name=name,
            )
            for name in names
        ]


def finished_game(members: list[Member], day: datetime.date) -> Hanchan:
    """The same seeded game (a club-game/1 record) for whichever members are given."""
    return hanchan_import(
        record={
            "format": "club-game/1",
            "ruleset": "makura-1.5",
            "players": [m.display_name for m in members],
            "hands": sample_hands(random.Random(20261129), "makura-1.5"),
        },
        members_by_name={m.display_name: m for m in members},
        played_on=day,
        steward=True,
    )


def test_each_club_sees_its_own_rows_only(two_clubs: tuple[Club, Club]) -> None:
    first, second = two_clubs
    mine = members_of(first, ["Aoki", "Baba", "Chiba", "Doi"])
    theirs = members_of(second, ["Aoki", "Baba", "Chiba", "Doi"])
    day = datetime.date(2026, 11, 1)
    with club_scope(first):
        game = finished_game(mine, day)
    with club_scope(second):
        other = finished_game(theirs, day)
        assert other.club_id == second.pk
        assert list(Member.objects.values_list("pk", flat=True).order_by("pk")) == [
            m.pk for m in theirs
        ]
        assert not Hanchan.objects.filter(pk=game.pk).exists()
        assert list(Hanchan.objects.values_list("pk", flat=True)) == [other.pk]
        assert set(CountedSeat.objects.values_list("member_id", flat=True)) == {
            m.pk for m in theirs
        }
        assert not HandEntry.objects.filter(hanchan=game).exists()
    with club_scope(first):
        assert list(Hanchan.objects.values_list("pk", flat=True)) == [game.pk]
        assert {m.club_id for m in Member.objects.all()} == {first.pk}
        assert CountedSeat.objects.count() == 4


def test_the_same_game_is_one_per_club(two_clubs: tuple[Club, Club]) -> None:
    """A game's fingerprint is refused twice within a club, not across clubs."""
    first, second = two_clubs
    mine = members_of(first, ["Aoki", "Baba", "Chiba", "Doi"])
    theirs = members_of(second, ["Aoki", "Baba", "Chiba", "Doi"])
    day = datetime.date(2026, 11, 1)
    with club_scope(first):
        finished_game(mine, day)
        with pytest.raises(DuplicateGame):
            finished_game(mine, day)
    with club_scope(second):
        # Equal names, scores and day: another club's game, not the first club's again.
        finished_game(theirs, day)
        assert Hanchan.objects.count() == 1


def test_names_are_unique_within_a_club_only(two_clubs: tuple[Club, Club]) -> None:
    first, second = two_clubs
    (aoki,) = members_of(first, ["Aoki"])
    (other_aoki,) = members_of(second, ["Aoki"])
    with club_scope(first):
        OnlineName.objects.create(member=aoki, service="tenhou", name="aoki-t")
        Venue.objects.create(name="Big", address="Tokyo")
        with pytest.raises(IntegrityError), transaction.atomic():
            Member.objects.create(user=User.objects.create_user("aoki2"), display_name="Aoki")
    with club_scope(second):
        OnlineName.objects.create(member=other_aoki, service="tenhou", name="aoki-t")
        Venue.objects.create(name="Big", address="Shinbashi")
        assert [v.address for v in Venue.objects.filter(name="Big")] == ["Shinbashi"]
    with scopes_disabled():
        assert OnlineName.objects.filter(name="aoki-t").count() == 2


def test_a_site_of_several_clubs_needs_a_chosen_one(two_clubs: tuple[Club, Club]) -> None:
    """Outside any scope, work on a site of two clubs is refused with a clear error, not
    done in the first club."""
    with pytest.raises(ClubNotChosen, match="--club SLUG"):
        only_club()
    first, second = two_clubs
    with club_scope(second):
        assert current_club() == second


@pytest.mark.django_db
def test_a_one_club_site_works_without_any_scope() -> None:
    """A command of a one-club site (manage.py's site scope): the club is the site's one."""
    from clubsite.club_scope import site_scope

    with site_scope():
        club = current_club()
        member: Any = Member.objects.create(
            user=User.objects.create_user("solo"), display_name="Solo"
        )
    assert member.club_id == club.pk == only_club().pk
