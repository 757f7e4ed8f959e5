"""The ratings' task (docs/tasks.md): the ledger says which games changed what counts, the
task rates them (:func:`ratings.updating.follow`) in a worker, or in the request with the
immediate backend."""

from __future__ import annotations

from django.db import DatabaseError
from django.tasks import task

from clubsite.club_scope import task_scope
from clubsite.task_retries import requeue
from ratings import updating


@task
def ratings_follow(
    hanchan_ids: list[int],
    *,
    club_id: int | None = None,
    attempt: int = 1,
    last_error: str = "",
) -> int:
    """Bring the ratings of club ``club_id`` (the club whose ledger counted them; None: the
    site's one club, a task queued before clubs) up to date with its games ``hanchan_ids``
    (ids: a task's arguments are JSON). Returns the number of games asked about, 0 when a
    database error (a deadlock, the connection lost) left it to a later attempt
    (``clubsite.task_retries``: ``attempt`` and ``last_error`` are the retries' own)."""
    try:
        with task_scope(club_id):
            updating.follow(hanchan_ids)
    except DatabaseError as error:
        again = requeue(
            ratings_follow,
            [hanchan_ids],
            # A task queued without its club is queued again so (the site's one club).
            kwargs=None if club_id is None else {"club_id": club_id},
            attempt=attempt + 1,
            error=error,
        )
        if again:
            return 0
        raise
    return len(hanchan_ids)
