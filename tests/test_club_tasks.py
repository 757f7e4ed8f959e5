"""A task runs as the club it was queued for (clubsite.club_scope.task_scope): a worker has
no request's scope, and on a site of several clubs it must not guess (docs/clubs.md)."""

from __future__ import annotations

import datetime

import pytest
from django_scopes import scopes_disabled
from django_scopes.state import state

from clubsite.club_model import Club
from clubsite.club_scope import ClubNotChosen, club_scope, only_club
from ratings.models import RatedGame, Rating
from ratings.tasks import ratings_follow
from tests.test_club_scoping import finished_game, members_of

pytestmark = pytest.mark.django_db


def test_the_ratings_task_rates_the_games_of_the_club_it_was_queued_for(
    django_capture_on_commit_callbacks, settings
) -> None:
    """With the database queue, the ledger queues the task with the game's club; run by a
    worker outside any scope, it rates that club's game only."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    home = only_club()
    fuji = Club.objects.create(slug="fuji", name="Shinbashi FUJI Club")
    theirs = members_of(fuji, ["Sato", "Suzuki", "Tanaka", "Ito"])
    with club_scope(fuji), django_capture_on_commit_callbacks(execute=True):
        game = finished_game(theirs, datetime.date(2026, 11, 1))
    from django_tasks_db.models import DBTaskResult

    queued = DBTaskResult.objects.get(task_path="ratings.tasks.ratings_follow")
    assert queued.args_kwargs["kwargs"]["club_id"] == fuji.pk

    previous = state.get()
    state.set({})
    try:
        # No scope at all, as in a worker: the club comes from the task's arguments.
        assert ratings_follow.call([game.pk], club_id=fuji.pk) == 1
        with pytest.raises(ClubNotChosen):
            ratings_follow.call([game.pk])
    finally:
        state.set(previous)
    with scopes_disabled():
        assert list(RatedGame.objects.values_list("club_id", flat=True)) == [fuji.pk]
        assert {r.club_id for r in Rating.objects.all()} == {fuji.pk}
        assert Rating.objects.count() == 4
    assert home.pk != fuji.pk
