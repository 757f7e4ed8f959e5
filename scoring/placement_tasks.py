"""The placement model's refit as a task (docs/tasks.md, docs/placement.md): once the
ledger's transaction that counted games commits (its ``games_counted`` signal), three queries
ask whether a family of that club is due (:func:`scoring.placement_fits.due_families`), and
only then is the task queued, for that club. The task asks again when it runs: a repeat
(two counts before the worker came) fits nothing twice."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import receiver
from django.tasks import task

from clubsite.club_model import Club
from clubsite.club_scope import club_scope, current_club, task_scope
from scoring import placement_fits
from scoring.ledger import games_counted


@task
def placement_refit(*, club_id: int | None = None) -> list[str]:
    """Refit every family of club ``club_id`` that is due (None: the site's one club).
    Returns the families fitted."""
    with task_scope(club_id):
        families = placement_fits.due_families()
        for family in families:
            placement_fits.refit(family)
    return families


def enqueue_if_due(club: Club) -> bool:
    """Queue :func:`placement_refit` for ``club`` if a family of it is due; says whether."""
    with club_scope(club):
        if not placement_fits.due_families():
            return False
    placement_refit.enqueue(club_id=int(club.pk))
    return True


@receiver(games_counted, dispatch_uid="placement_refit")
def enqueue_placement_refit(sender: Any, hanchan_ids: list[int], **kwargs: Any) -> None:
    """After the commit, :func:`enqueue_if_due` for the club in scope (a failure there never
    undoes the ledger's write)."""
    transaction.on_commit(partial(enqueue_if_due, current_club()), robust=True)
