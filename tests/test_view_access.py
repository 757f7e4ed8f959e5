"""One access call per object: a view loads its game and authorizes the
request together (:mod:`scoring.views.access`)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from clubsite.models import Member
from scoring.models import Hanchan
from scoring.views.access import actor, hanchan_for_keeper, hanchan_for_member


def request_of(member: Member | None):
    request = RequestFactory().post("/")
    request.user = member.user if member is not None else AnonymousUser()
    return request


def test_a_seated_player_and_a_steward_keep_the_score_and_an_outsider_does_not(
    table_game: Hanchan, member: Member, staff_member: Member
):
    outsider = Member.objects.create(
        user=type(member.user).objects.create_user("nobody", password="x"), display_name="Nobody"
    )
    with CaptureQueriesContext(connection) as queries:
        game = hanchan_for_keeper(request_of(member), table_game.pk)
    assert game == table_game and len(queries) == 1  # game, ruleset, seats: one query
    assert hanchan_for_keeper(request_of(staff_member), table_game.pk) == table_game
    with pytest.raises(PermissionDenied):
        hanchan_for_keeper(request_of(outsider), table_game.pk)
    with pytest.raises(PermissionDenied):
        hanchan_for_keeper(request_of(None), table_game.pk)
    # Seeing a game is any member's.
    assert hanchan_for_member(request_of(outsider), table_game.pk) == table_game


def test_no_such_game_is_404_for_everyone(table_game: Hanchan, staff_member: Member):
    missing = table_game.pk + 1000
    with pytest.raises(Http404):
        hanchan_for_member(request_of(staff_member), missing)
    with pytest.raises(Http404):
        hanchan_for_keeper(request_of(staff_member), missing)


def test_the_actor_is_the_seated_member_and_a_steward_acts_as_one(
    table_game: Hanchan, member: Member, staff_member: Member
):
    game = hanchan_for_keeper(request_of(member), table_game.pk)
    assert actor(request_of(member), game) == {
        "by": member,
        "steward": False,
        "user_id": member.user_id,
    }
    assert actor(request_of(staff_member), game)["steward"] is True
