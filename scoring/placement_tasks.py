"""The placement model's refit as a task (docs/tasks.md, docs/placement.md): enqueued after
the ledger counts games (its ``games_counted`` signal, once the ledger's transaction
commits), for the club whose ledger counted them. The task refits only the families with
:data:`~scoring.placement_fits.REFIT_EVERY` more counted games than their fit, and asks
when it runs: a repeat (two counts before the worker came) fits nothing twice, and a count
that makes no family due costs the task three queries."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import receiver
from django.tasks import task

from clubsite.club_scope import current_club, task_scope
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


@receiver(games_counted, dispatch_uid="placement_refit")
def enqueue_placement_refit(sender: Any, hanchan_ids: list[int], **kwargs: Any) -> None:
    """Enqueue :func:`placement_refit` after the commit, for the club in scope (no query:
    the task decides what is due)."""
    club_id = int(current_club().pk)
    transaction.on_commit(partial(placement_refit.enqueue, club_id=club_id), robust=True)
