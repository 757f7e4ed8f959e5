"""The scratch PostgreSQL database of a benchmark that runs the site against one (hand entry,
the capacity run, the fault runs, the online store): created before the run, dropped (with
its connections) after; and the environment that points the site at it, as production runs
it."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Mapping


def create_database(server: str, name: str, *, who: str, variable: str) -> bool:
    """Create database ``name`` on ``server`` (a ``postgres://`` URL without a database);
    False, with a line on standard error naming ``who`` and the environment ``variable``
    that picks another name, if it exists already."""
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        try:
            conn.execute(f'CREATE DATABASE "{name}"')
        except psycopg.errors.DuplicateDatabase:
            print(
                f"{who}: database {name} exists already; drop it or set {variable}",
                file=sys.stderr,
            )
            return False
    return True


def drop_database(server: str, name: str) -> None:
    """Drop database ``name`` on ``server``, ending its connections."""
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def bench_environment(
    server: str,
    db_name: str,
    *,
    secret_prefix: str,
    tasks_backend: str | None = None,
    environ: Mapping[str, str] = os.environ,
) -> dict[str, str]:
    """The environment variables (name to value) that run the site on database ``db_name``
    of ``server`` (a ``postgres://`` URL without a database) as production does, DEBUG off,
    for clients on the loopback::

        DATABASE_URL             f"{server}/{db_name}"
        DJANGO_SETTINGS_MODULE   environ's, else "clubsite.settings"
        DJANGO_DEBUG             "0"
        DJANGO_SECRET_KEY        environ's, else secret_prefix + 32 random hex digits
        DJANGO_ALLOWED_HOSTS     "127.0.0.1,testserver"
        CLUB_TASKS_BACKEND       tasks_backend (only when given; else the settings' default,
                                 "database" with DEBUG off, or environ's)
        DJANGO_SECURE_SSL_REDIRECT, DJANGO_SESSION_COOKIE_SECURE, DJANGO_CSRF_COOKIE_SECURE
                                 "0"

    ``environ`` (the running process's by default) is only read: its settings module and
    secret key are kept, every other name here is overwritten; ``{}`` for fresh ones."""
    variables = {
        "DATABASE_URL": f"{server}/{db_name}",
        "DJANGO_SETTINGS_MODULE": environ.get("DJANGO_SETTINGS_MODULE", "clubsite.settings"),
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": environ.get("DJANGO_SECRET_KEY", secret_prefix + uuid.uuid4().hex),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,testserver",
    }
    if tasks_backend is not None:
        variables["CLUB_TASKS_BACKEND"] = tasks_backend
    # Served over plain HTTP on the loopback: no HTTPS redirect, no secure-only cookies.
    for name in ("SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE"):
        variables[f"DJANGO_{name}"] = "0"
    return variables


def use_bench_environment(
    server: str, db_name: str, *, secret_prefix: str, tasks_backend: str | None = None
) -> None:
    """Set :func:`bench_environment`'s variables in this process's environment (before
    ``django.setup()``; a server started with a copy of it gets them too)."""
    os.environ.update(
        bench_environment(server, db_name, secret_prefix=secret_prefix, tasks_backend=tasks_backend)
    )
