"""``/healthz`` for the process manager and the proxy: whether this
process can serve, as JSON, 200 when it can and 503 when it cannot.

Answered by :class:`HealthzMiddleware`, first in ``MIDDLEWARE``: before the host check, the
HTTPS redirect, sessions, logins and every limit, so that a probe on loopback
(``curl http://127.0.0.1:8000/healthz``) is answered whatever ``DJANGO_ALLOWED_HOSTS`` says,
and costs one or two small queries. It tells nothing about the site: no versions, no paths,
no error text, only each check's state::

    {"status": "ok", "database": "ok", "migrations": "ok", "worker": "ok"}

- ``database``: ``ok`` or ``unavailable`` (a ``SELECT 1`` failed);
- ``migrations``: ``ok``, ``pending`` (the code has migrations the database lacks), or
  ``unknown`` (no database);
- ``worker``: ``ok`` (a heartbeat within the last few minutes, ``clubsite.worker_health``),
  ``stale``, ``not used`` (``CLUB_TASKS_BACKEND=immediate``: no worker to wait for), or
  ``unknown``.

``status`` is ``ok`` (HTTP 200) when every check is ``ok`` or ``not used``, else
``unavailable`` (HTTP 503).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse

from clubsite.worker_health import worker_state

PATH = "/healthz"
HEALTHY = ("ok", "not used")

# Migrations do not come undone under a running process: once all are applied, the loader's
# reading of every migration file (tens of milliseconds) is not repeated.
_migrations_seen_applied = False


def database_state() -> str:
    """``ok`` when the default database answers a ``SELECT 1``, else ``unavailable``."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return "unavailable"
    return "ok"


def migrations_state() -> str:
    """``ok`` when every migration of the code is applied to the default database, else
    ``pending``."""
    global _migrations_seen_applied
    if _migrations_seen_applied:
        return "ok"
    executor = MigrationExecutor(connection)
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        return "pending"
    _migrations_seen_applied = True
    return "ok"


def health() -> dict[str, str]:
    """The checks of the module's description, by name, and the overall ``status``."""
    checks = {"database": database_state(), "migrations": "unknown", "worker": "unknown"}
    if checks["database"] == "ok":
        try:
            checks["migrations"] = migrations_state()
            checks["worker"] = worker_state()
        except DatabaseError:
            checks["database"] = "unavailable"
    status = "ok" if all(state in HEALTHY for state in checks.values()) else "unavailable"
    return {"status": status, **checks}


def healthz(request: HttpRequest) -> HttpResponse:
    """The answer to ``GET /healthz`` (``HEAD`` too): the JSON of :func:`health`, 200 or 503,
    never cached; 405 for other methods."""
    if request.method not in ("GET", "HEAD"):
        response = HttpResponse(status=405)
        response["Allow"] = "GET, HEAD"
        return response
    report = health()
    response = HttpResponse(
        json.dumps(report),
        content_type="application/json",
        status=200 if report["status"] == "ok" else 503,
    )
    response["Cache-Control"] = "no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


class HealthzMiddleware:
    """Answers ``/healthz`` (with or without a trailing slash) before any other middleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.rstrip("/") == PATH:
            return healthz(request)
        return self.get_response(request)
