"""A game and its seats in one query (so that a hand costs a fixed, small number
of SQL statements).

Every view of the table screen and every ledger write needs the game, its ruleset version
and its seated members. Reading the seats with the game joined (3 or 4 rows) gives all of it
in one statement instead of two; the seats are then put where ``prefetch_related("seats")``
would put them, so ``hanchan.seats.all()`` reads them without a query.

The statement is written once per database and kind: compiling the ORM's
four-join ``select_related`` took twice as long as running it, on every tap of a hand. The
rows become model instances through Django's public ``Model.from_db`` and each field's
database converters, as a queryset's would (``tests/test_ledger_loading.py`` compares them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, router
from django.db.models import Model
from django.db.models.query import QuerySet
from django.db.transaction import TransactionManagementError

from clubsite.club_scope import current_club
from clubsite.models import Member
from scoring.models import Hanchan, OnlineGame, RulesetVersion, Seat


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
    """The game ``pk`` of the club in scope (``clubsite.club_scope.current_club``) with its
    ruleset version, its seats and their members, in one query; ``None`` when the club has no
    such game.

    Args:
        lock: lock the game's row (``SELECT … FOR UPDATE OF`` the game, on PostgreSQL) for
            the rest of the transaction, as every ledger write does.
        online: also load the game's :class:`~scoring.models.OnlineGame` (``None`` if it was
            entered here), for the table screen.

    Raises:
        TransactionManagementError: ``lock`` outside a transaction.
    """
    alias = (router.db_for_write(Seat) if lock else router.db_for_read(Seat)) or DEFAULT_DB_ALIAS
    statement = _statement(alias, lock=lock, online=online)
    connection = connections[alias]
    if lock and connection.get_autocommit():
        # As the ORM's select_for_update: a lock outside a transaction would hold nothing.
        raise TransactionManagementError(
            "select_for_update cannot be used outside of a transaction."
        )
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, [pk, current_club().pk])
        rows = cursor.fetchall()
    if not rows:
        return None
    hanchan: Hanchan | None = None
    seats = []
    for row in rows:
        seat, member, game, version, *origin = statement.instances(alias, row)
        if hanchan is None:
            assert isinstance(game, Hanchan)
            hanchan = game
            hanchan.ruleset_version = version  # type: ignore[assignment]
            if online:
                # As select_related leaves it: None reads as "no online origin", no query.
                Hanchan.online.related.set_cached_value(hanchan, origin[0])
                if origin[0] is not None:
                    origin[0].hanchan = hanchan  # type: ignore[attr-defined]
        assert isinstance(seat, Seat)
        seat.member = member  # type: ignore[assignment]
        seats.append(seat)
    assert hanchan is not None
    return with_seats(hanchan, seats)


Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class _Part:
    """One model's columns in the statement: its attribute names, and per column the
    database converters and the column expression they are called with."""

    model: type[Model]
    names: list[str]
    converters: list[tuple[list[Converter], Any]]


@dataclass(frozen=True)
class _Statement:
    sql: str
    parts: list[_Part]

    def instances(self, alias: str, row: Sequence[Any]) -> list[Model | None]:
        """The row's instances, one per part (None: a LEFT JOIN that found nothing)."""
        connection = connections[alias]
        found: list[Model | None] = []
        start = 0
        for part in self.parts:
            values = list(row[start : start + len(part.names)])
            start += len(part.names)
            if part.model is OnlineGame and values[0] is None:
                found.append(None)
                continue
            for index, (converters, column) in enumerate(part.converters):
                for convert in converters:
                    values[index] = convert(values[index], column, connection)
            found.append(part.model.from_db(alias, part.names, values))
        return found


_STATEMENTS: dict[tuple[str, bool, bool], _Statement] = {}
# The models of a row, in order; each table appears once, under its own name.
_JOINED: tuple[type[Model], ...] = (Seat, Member, Hanchan, RulesetVersion, OnlineGame)


def _statement(alias: str, *, lock: bool, online: bool) -> _Statement:
    """The game-with-seats statement for database ``alias``, written once per process."""
    key = (alias, lock, online)
    statement = _STATEMENTS.get(key)
    if statement is not None:
        return statement
    connection = connections[alias]
    quote = connection.ops.quote_name
    columns: list[str] = []
    parts: list[_Part] = []
    for model in _JOINED:
        table = model._meta.db_table
        if model is OnlineGame and not online:
            continue
        fields = [field for field in model._meta.concrete_fields if field.column]
        converters = []
        for field in fields:
            col = field.get_col(table)
            converters.append(
                (connection.ops.get_db_converters(col) + col.get_db_converters(connection), col)
            )
        parts.append(_Part(model, [field.attname for field in fields], converters))
        columns += [f"{quote(table)}.{quote(str(field.column))}" for field in fields]

    def column(model: type[Model], name: str) -> str:
        return f"{quote(model._meta.db_table)}.{quote(name)}"

    def join(kind: str, model: type[Model], left: str, right: str) -> str:
        return f" {kind} JOIN {quote(model._meta.db_table)} ON {left} = {right}"

    sql = (
        f"SELECT {', '.join(columns)} FROM {quote(Seat._meta.db_table)}"
        + join("INNER", Member, column(Member, "id"), column(Seat, "member_id"))
        + join("INNER", Hanchan, column(Hanchan, "id"), column(Seat, "hanchan_id"))
        + join(
            "INNER",
            RulesetVersion,
            column(RulesetVersion, "id"),
            column(Hanchan, "ruleset_version_id"),
        )
    )
    if online:
        sql += join(
            "LEFT OUTER", OnlineGame, column(OnlineGame, "hanchan_id"), column(Hanchan, "id")
        )
    # The game is read in the club in scope only, as every query of the club's rows is
    # (clubsite.models.ClubManager): another club's game id finds nothing.
    sql += (
        f" WHERE {column(Seat, 'hanchan_id')} = %s AND {column(Hanchan, 'club_id')} = %s"
        f" ORDER BY {column(Seat, 'index')}"
    )
    if lock and connection.features.has_select_for_update:
        if connection.features.has_select_for_update_of:
            sql += f" FOR UPDATE OF {quote(Hanchan._meta.db_table)}"
        else:
            sql += " FOR UPDATE"
    statement = _STATEMENTS[key] = _Statement(sql, parts)
    return statement
