"""A game and its seats in one query (issue 10 item 8: a hand costs a fixed, small number of
SQL statements).

Every view of the table screen and every ledger write needs the game, its ruleset version
and its seated members. Reading the seats with the game joined (3 or 4 rows) gives all of it
in one statement instead of two; the seats are then put where ``prefetch_related("seats")``
would put them, so ``hanchan.seats.all()`` reads them without a query.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models.query import QuerySet

from scoring.models import Hanchan, Seat


def with_seats(hanchan: Hanchan, seats: Sequence[Seat]) -> Hanchan:
    """``hanchan`` with ``seats`` (in seat order) as its prefetched seats, each seat's
    ``hanchan`` the same object. Returns ``hanchan``."""
    # What Django's prefetch_related does with what it read: the results on a queryset marked
    # as done, kept in Model._prefetched_objects_cache under the relation's name.
    cached: QuerySet[Seat] = hanchan.seats.all()
    cached._result_cache = list(seats)
    setattr(cached, "_prefetch_done", True)  # noqa: B010
    prefetched = getattr(hanchan, "_prefetched_objects_cache", None)
    if prefetched is None:
        prefetched = {}
        setattr(hanchan, "_prefetched_objects_cache", prefetched)  # noqa: B010
    prefetched["seats"] = cached
    for seat in seats:
        seat.hanchan = hanchan
    return hanchan


def hanchan_with_seats(pk: int, *, lock: bool = False, online: bool = False) -> Hanchan | None:
    """The game ``pk`` with its ruleset version, its seats and their members, in one query;
    ``None`` when there is no such game.

    Args:
        lock: lock the game's row (``SELECT … FOR UPDATE OF`` the game, on PostgreSQL) for
            the rest of the transaction, as every ledger write does.
        online: also load the game's :class:`~scoring.models.OnlineGame` (``None`` if it was
            entered here), for the table screen.
    """
    related = ["member", "hanchan__ruleset_version"]
    if online:
        related.append("hanchan__online")
    seats_query = Seat.objects.filter(hanchan_id=pk).select_related(*related).order_by("index")
    if lock:
        seats_query = seats_query.select_for_update(of=("hanchan",))
    seats = list(seats_query)
    if not seats:
        return None
    return with_seats(seats[0].hanchan, seats)
