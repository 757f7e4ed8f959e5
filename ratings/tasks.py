"""The ratings' task (docs/tasks.md): the ledger says which games changed what counts, the
task rates them (:func:`ratings.updating.follow`) in a worker, or in the request with the
immediate backend."""

from __future__ import annotations

from django.tasks import task

from ratings import updating


@task
def ratings_follow(hanchan_ids: list[int]) -> int:
    """Bring the ratings up to date with the games ``hanchan_ids`` (ids: a task's arguments
    are JSON). Returns the number of games asked about."""
    updating.follow(hanchan_ids)
    return len(hanchan_ids)
