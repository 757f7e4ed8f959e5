"""The migrations to memberships (clubsite 0009 and 0010): every existing member keeps what
their login said, a staff login's member becomes a steward (role "steward") and an inactive
login's a deactivated member (active False); nothing is lost, and migrating back puts the
memberships' state on the logins again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("clubsite", "0008_clubs")]
AFTER = [("clubsite", "0010_memberships_from_logins")]

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    # The graph as it stands now, for the models of the state migrated to.
    executor.loader.build_graph()
    return executor


@pytest.fixture
def at_0008() -> Iterator[MigrationExecutor]:
    """The database migrated back to before memberships, and forward to the end afterwards
    (the tests after this one expect every migration applied)."""
    try:
        yield migrate(BEFORE)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


def test_the_logins_flags_become_the_memberships_and_go_back(
    at_0008: MigrationExecutor,
) -> None:
    apps = at_0008.loader.project_state(BEFORE).apps
    club_model = apps.get_model("clubsite", "Club")
    user_model = apps.get_model("auth", "User")
    member_model = apps.get_model("clubsite", "Member")
    club = club_model.objects.order_by("pk").first() or club_model.objects.create(
        slug="club", name="Mahjong club"
    )
    logins = {
        "aoki": {"is_staff": True, "is_active": True},
        "baba": {"is_staff": False, "is_active": True},
        "chiba": {"is_staff": False, "is_active": False},
        "doi": {"is_staff": True, "is_active": False},
        "owner": {"is_staff": True, "is_active": True, "is_superuser": True},
    }
    for username, flags in logins.items():
        user = user_model.objects.create(username=username, **flags)
        member_model.objects.create(
            club_id=club.pk, user=user, display_name=username.title(), phone=f"03-{username}"
        )
    # A login without a profile (createsuperuser's) has nothing to move.
    user_model.objects.create(username="root", is_staff=True, is_superuser=True)

    after = migrate(AFTER).loader.project_state(AFTER).apps
    members = after.get_model("clubsite", "Member").objects.order_by("display_name")
    assert list(
        members.values_list("user__username", "display_name", "phone", "role", "active")
    ) == [
        ("aoki", "Aoki", "03-aoki", "steward", True),
        ("baba", "Baba", "03-baba", "member", True),
        ("chiba", "Chiba", "03-chiba", "member", False),
        ("doi", "Doi", "03-doi", "steward", False),
        ("owner", "Owner", "03-owner", "steward", True),
    ]

    # Memberships changed since go back onto their logins; a superuser stays staff; a
    # deactivated steward is an inactive staff login again, as before.
    members.filter(display_name="Baba").update(role="steward")
    members.filter(display_name="Chiba").update(active=True)
    members.filter(display_name="Owner").update(role="member")
    back = migrate(BEFORE).loader.project_state(BEFORE).apps
    users = back.get_model("auth", "User").objects.order_by("username")
    assert list(users.values_list("username", "is_staff", "is_active")) == [
        ("aoki", True, True),
        ("baba", True, True),
        ("chiba", False, True),
        ("doi", True, False),
        ("owner", True, True),
        ("root", True, True),
    ]
    assert back.get_model("clubsite", "Member").objects.count() == 5
