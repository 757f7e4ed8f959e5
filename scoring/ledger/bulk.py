"""Many rows of one table written at once, without a model instance per row.

``bulk_create`` builds a model instance per row and prepares every field of every row; for
the thousands of per-seat and per-yaku rows of an import that was most of the store's time
(a batch of 92 online logs: 3,093 ``HandSeat`` rows took 0.27 s through ``bulk_create``,
0.05 s here). :func:`insert_rows` takes plain tuples of the values a model instance would
hold and writes them in one statement: PostgreSQL's ``COPY`` (the rows' ids drawn from the
table's own sequence when the caller needs them), else one ``executemany``; and
:func:`insert_objects` so writes unsaved instances. Only the ledger's writers call them
(:mod:`scoring.ledger.create`, ``confirmation``, ``online``), inside their
transaction; what they store is what ``bulk_create`` stores (``tests/test_ledger_bulk.py``).
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db import connections, models, router
from django.db.backends.base.base import BaseDatabaseWrapper

# Fields whose Python value is what the database stores: no preparation needed. Anything
# else (JSON, dates, UUIDs) goes through the field's own ``get_db_prep_save``.
_PLAIN = frozenset(
    {
        "AutoField",
        "BigAutoField",
        "BigIntegerField",
        "BooleanField",
        "CharField",
        "IntegerField",
        "PositiveIntegerField",
        "PositiveSmallIntegerField",
        "SmallIntegerField",
    }
)


def insert_rows(
    model: type[models.Model],
    fields: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    ids: bool = False,
) -> list[int]:
    """Insert ``rows`` into ``model``'s table, each a tuple of values for ``fields`` (field
    attnames: ``"hand_id"``, not ``"hand"``) as a model instance would hold them (ints,
    bools, strings, ``None``, dicts for a JSON field, aware datetimes). Defaults and
    ``auto_now`` are not applied: every column without a database default is in ``fields``.

    With ``ids`` the new rows' primary keys are returned in the order of ``rows`` (on
    PostgreSQL taken from the table's sequence first, then written with the rows; elsewhere
    by ``bulk_create``); else ``[]``. One ``COPY`` on PostgreSQL (and one query for the
    ids), one ``executemany`` elsewhere, each logged as one statement where queries are
    logged (``CaptureQueriesContext`` counts them).

    Raises:
        django.db.Error: as the database refuses a row (a constraint); the caller's
            transaction is then broken, as with ``bulk_create``.
    """
    rows = list(rows)
    if not rows:
        return []
    meta = model._meta
    connection = connections[router.db_for_write(model)]
    concrete = [_field(model, name) for name in fields]
    prepare = [_preparer(field, connection) for field in concrete]
    if connection.vendor != "postgresql":
        if ids:
            created = model._default_manager.using(connection.alias).bulk_create(
                [model(**dict(zip(fields, row, strict=True))) for row in rows]
            )
            return [obj.pk for obj in created]
        _executemany(connection, model, [str(f.column) for f in concrete], rows, prepare)
        return []
    new_ids: list[int] = []
    columns = [str(field.column) for field in concrete]
    pk_column = str(meta.pk.column) if meta.pk else "id"
    with connection.cursor() as cursor:
        if ids:
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                [meta.db_table, pk_column, len(rows)],
            )
            new_ids = [row[0] for row in cursor.fetchall()]
            columns = [pk_column, *columns]
        quote = connection.ops.quote_name
        sql = f"COPY {quote(meta.db_table)} ({', '.join(map(quote, columns))}) FROM STDIN"
        start = time.perf_counter()
        plain = not any(prepare)
        with cursor.cursor.copy(sql) as copy:
            for number, row in enumerate(rows):
                # Rows of plain values (the facts, the yaku) go as they are.
                values = row if plain else _prepared(prepare, row)
                copy.write_row([new_ids[number], *values] if ids else values)
        _log(connection, sql, time.perf_counter() - start)
    return new_ids


def insert_objects(model: type[models.Model], objs: Iterable[models.Model]) -> None:
    """Insert unsaved instances of ``model`` as :func:`insert_rows` (their ids are not set):
    for rows built as instances elsewhere (seats, history, confirmations, origins), without
    ``bulk_create``'s preparation of every field of every row. ``auto_now`` and
    ``auto_now_add`` fields are set as ``save()`` sets them.
    """
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    stamped = [
        f for f in fields if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    rows = []
    for obj in objs:
        for field in stamped:
            field.pre_save(obj, add=True)
        rows.append(tuple(getattr(obj, field.attname) for field in fields))
    insert_rows(model, [field.attname for field in fields], rows)


def _field(model: type[models.Model], attname: str) -> Any:
    """The concrete field of an attname (``hand_id`` is the field ``hand``)."""
    for field in model._meta.concrete_fields:
        if field.attname == attname:
            return field
    raise ValueError(f"{model.__name__} has no column {attname!r}")


def _preparer(field: Any, connection: BaseDatabaseWrapper) -> Callable[[Any], Any] | None:
    """``None`` for a field stored as its Python value, else its own preparation: on
    PostgreSQL a JSON field's value as JSON text, which ``COPY`` hands to ``jsonb`` as
    it is (what ``get_db_prep_save`` wraps for psycopg to dump the same way)."""
    if field.get_internal_type() in _PLAIN or field.is_relation:
        return None
    if connection.vendor == "postgresql" and isinstance(field, models.JSONField):
        return functools.partial(json.dumps, cls=field.encoder)
    return lambda value: field.get_db_prep_save(value, connection)


def _prepared(prepare: list[Callable[[Any], Any] | None], row: Sequence[Any]) -> list[Any]:
    """The row's values as the database takes them (``None`` is NULL whatever the field)."""
    return [v if p is None or v is None else p(v) for p, v in zip(prepare, row, strict=True)]


def _executemany(
    connection: BaseDatabaseWrapper,
    model: type[models.Model],
    columns: list[str],
    rows: list[Sequence[Any]],
    prepare: list[Callable[[Any], Any] | None],
) -> None:
    quote = connection.ops.quote_name
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(map(quote, columns))}) "
        f"VALUES ({', '.join(['%s'] * len(columns))})"
    )
    with connection.cursor() as cursor:
        cursor.executemany(
            sql,
            [_prepared(prepare, row) for row in rows],
        )


def _log(connection: BaseDatabaseWrapper, sql: str, duration: float) -> None:
    """Log a statement that bypassed Django's cursor wrapper, as the wrapper would."""
    if connection.queries_logged:
        connection.queries_log.append({"sql": sql, "time": f"{duration:.3f}"})
