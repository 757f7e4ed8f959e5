"""A game with its seats in one query, for the table screen and the ledger."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection, transaction
from django.db.models import Model
from django.test.utils import CaptureQueriesContext

from scoring.ledger import LedgerError, hanchan_with_seats
from scoring.ledger.checks import locked_hanchan  # internal: what every write locks
from scoring.models import Hanchan, OnlineGame, Seat


def test_a_game_its_ruleset_and_its_seated_members_come_in_one_query(table_game: Hanchan):
    with CaptureQueriesContext(connection) as queries:
        hanchan = hanchan_with_seats(table_game.pk, online=True)
        assert hanchan is not None
        seats = list(hanchan.seats.all())
        names = [seat.member.display_name for seat in seats]
        version = hanchan.ruleset_version.ruleset_id
        same = all(seat.hanchan is hanchan for seat in seats)
    assert len(queries) == 1
    assert names == ["Aoki", "Baba", "Chiba", "Endo"] and [s.index for s in seats] == [0, 1, 2, 3]
    assert version == "makura-1.5" and same
    assert hanchan.state == table_game.state and hanchan.version == table_game.version


def test_the_ledger_locks_the_game_and_reads_its_seats_in_one_query(table_game: Hanchan):
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        hanchan = locked_hanchan(table_game.pk)
        members = [seat.member_id for seat in hanchan.seats.all()]
    selects = [q["sql"] for q in queries if q["sql"].startswith("SELECT")]
    assert len(selects) == 1
    if connection.features.has_select_for_update:
        assert 'FOR UPDATE OF "scoring_hanchan"' in selects[0]
    assert members == [seat.member_id for seat in table_game.seats.order_by("index")]


def test_a_game_that_is_not_there(db):
    assert hanchan_with_seats(999_999) is None
    with pytest.raises(LedgerError), transaction.atomic():
        locked_hanchan(999_999)


def _fields(instance: Model) -> dict[str, object]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.mark.parametrize("imported", [False, True])
def test_the_written_statement_reads_what_the_orm_reads(table_game: Hanchan, imported: bool):
    """The statement written once per process gives the instances, field
    by field and converted (times, JSON, flags), that the ORM's select_related gives."""
    if imported:
        OnlineGame.objects.create(
            hanchan=table_game,
            service="tenhou",
            log_format="tenhou-json",
            log_id="2026112601gm-0009-0000-abcdef12",
            lobby="L1234",
            replay_url="https://tenhou.net/0/?log=2026112601gm-0009-0000-abcdef12",
        )
    hanchan = hanchan_with_seats(table_game.pk, online=True)
    assert hanchan is not None
    orm = list(
        Seat.objects.filter(hanchan_id=table_game.pk)
        .select_related("member", "hanchan__ruleset_version", "hanchan__online")
        .order_by("index")
    )
    assert _fields(hanchan) == _fields(orm[0].hanchan)
    assert _fields(hanchan.ruleset_version) == _fields(orm[0].hanchan.ruleset_version)
    for seat, expected in zip(hanchan.seats.all(), orm, strict=True):
        assert _fields(seat) == _fields(expected)
        assert _fields(seat.member) == _fields(expected.member)
    if imported:
        assert _fields(hanchan.online) == _fields(orm[0].hanchan.online)
        assert isinstance(hanchan.online.imported_at, datetime.datetime)
        assert hanchan.online.imported_at.tzinfo is not None
    else:
        with CaptureQueriesContext(connection) as queries, pytest.raises(OnlineGame.DoesNotExist):
            hanchan.online  # noqa: B018 (no online origin, known without a query)
        assert len(queries) == 0
    assert isinstance(hanchan.created_at, datetime.datetime)
    assert isinstance(hanchan.state, dict)
