"""Reads of the standings pages from a read replica (docs/capacity.md).

With ``DATABASE_REPLICA_URL`` set, ``settings.DATABASES`` has a second alias, ``replica`` (a
PostgreSQL streaming replica of the default database), and ``CLUB_READ_REPLICA`` names it.
The standings pages (``REPLICA_PAGES``, by URL name: the standings, their CSV, the champions,
the yaku records, the what-if re-scoring) read from it: read-only pages over the whole
history, the heaviest reads of a club night, which may lag a replica's second behind.
Everything else reads the default database, and every write goes there whatever the page:
the table screen, the confirmations, logins and sessions (a session written a moment ago
must be found) never see a lagging copy. Without a replica everything uses the default
database, as before.

:class:`ReplicaReadsMiddleware` marks the view of such a page (after the login middleware has
read the session and the user from the default database); :class:`ReplicaRouter`, in
``DATABASE_ROUTERS``, sends the marked view's reads to the replica.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.db.models import Model
from django.http import HttpRequest, HttpResponse

DEFAULT = "default"
# The URL names of the pages read from the replica (scoring/urls.py).
REPLICA_PAGES = frozenset({"standings", "standings_export", "champions", "yaku_records", "what_if"})

_reading_replica: ContextVar[bool] = ContextVar("clubsite_reading_replica", default=False)


@contextmanager
def replica_reads() -> Iterator[None]:
    """Within the block, reads go to the replica (when one is configured)."""
    token = _reading_replica.set(True)
    try:
        yield
    finally:
        _reading_replica.reset(token)


def read_alias() -> str:
    """The alias reads go to here and now: ``CLUB_READ_REPLICA`` inside
    :func:`replica_reads` when it is set, else ``default``."""
    replica = settings.CLUB_READ_REPLICA
    return replica if replica and _reading_replica.get() else DEFAULT


class ReplicaRouter:
    """Django's database router: reads to :func:`read_alias`, writes to the default database;
    migrations run on the default database only (a replica copies them)."""

    def db_for_read(self, model: type[Model], **hints: Any) -> str:
        return read_alias()

    def db_for_write(self, model: type[Model], **hints: Any) -> str:
        return DEFAULT

    def allow_relation(self, first: Model, second: Model, **hints: Any) -> bool:
        return True  # the replica holds the same rows

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db != settings.CLUB_READ_REPLICA


class ReplicaReadsMiddleware:
    """Runs the view of a ``REPLICA_PAGES`` page inside :func:`replica_reads`. Last in
    ``MIDDLEWARE``, so that the session and the user are read before, from the default
    database, and the mark is lifted before any other middleware handles the response."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., HttpResponse],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> HttpResponse | None:
        match = request.resolver_match
        if match is None or match.namespace or match.url_name not in REPLICA_PAGES:
            return None
        with replica_reads():
            return view(request, *args, **kwargs)
