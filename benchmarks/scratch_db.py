"""The scratch PostgreSQL database of a benchmark that runs the site against one (hand entry,
the capacity run, the fault runs): created before the run, dropped (with its connections)
after."""

from __future__ import annotations

import sys


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
