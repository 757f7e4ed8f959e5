"""The ratings follow the ledger: its ``games_counted`` signal enqueues
:func:`ratings.tasks.ratings_follow` once the ledger's transaction commits (a rolled-back
change rates nothing; a failing rating never undoes a ledger write)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import receiver

from clubsite.club_scope import current_club
from ratings.tasks import ratings_follow
from scoring.ledger import games_counted


@receiver(games_counted, dispatch_uid="ratings_follow")
def enqueue_ratings_follow(sender: Any, hanchan_ids: list[int], **kwargs: Any) -> None:
    """Enqueue the ratings' task for ``hanchan_ids`` after the commit, for the club whose
    ledger counted them (a worker runs it outside any request's scope)."""
    club_id = int(current_club().pk)
    transaction.on_commit(
        partial(ratings_follow.enqueue, list(hanchan_ids), club_id=club_id), robust=True
    )
