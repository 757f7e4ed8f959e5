"""A game with its seats in one query (issue 10 item 8), for the table screen and the ledger."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from scoring.ledger import LedgerError, hanchan_with_seats
from scoring.ledger.checks import locked_hanchan  # internal: what every write locks
from scoring.models import Hanchan


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
