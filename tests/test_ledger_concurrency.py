"""Two phones at one table at the same moment, on PostgreSQL (the ledger locks a game
with its seats in one ``SELECT … FOR UPDATE OF`` the game).

Each phone is a thread with its own database connection; a barrier lets both write at once.
SQLite serialises whole transactions, so these run where the locking matters.
"""

from __future__ import annotations

import contextvars
import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from clubsite.models import Member
from scoring.ledger import Recorded, StaleHanchan, hand_record
from scoring.models import Hanchan, HandEntry

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]

DRAW = {"result": "draw", "tenpai": [0]}
RON = {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]}


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run ``calls`` in threads released together; each one's result or exception."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # noqa: BLE001 - the test looks at what each phone got
            results[index] = error
        finally:
            connections.close_all()

    # Each thread runs in the caller's club scope, as each phone's request runs in its page's
    # (a new thread starts with no context of its own).
    threads = [
        threading.Thread(target=contextvars.copy_context().run, args=(run, i, call))
        for i, call in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def record(game: Hanchan, hand: dict[str, Any], request_id: uuid.UUID, by: Member) -> Callable:
    return lambda: hand_record(
        hanchan_id=game.pk, hand=hand, expected_version=0, request_id=request_id, by=by
    )


def test_two_phones_entering_different_hands_at_once_record_one(
    table_game: Hanchan, member: Member, other_member: Member
) -> None:
    results = at_once(
        record(table_game, DRAW, uuid.uuid4(), member),
        record(table_game, RON, uuid.uuid4(), other_member),
    )
    recorded = [r for r in results if isinstance(r, Recorded)]
    stale = [r for r in results if isinstance(r, StaleHanchan)]
    assert len(recorded) == 1 and len(stale) == 1, results
    entry = HandEntry.objects.get(hanchan=table_game)
    assert entry.pk == recorded[0].entry.pk
    table_game.refresh_from_db()
    assert table_game.version == 1


def test_a_double_tap_reaching_two_workers_at_once_records_once(
    table_game: Hanchan, member: Member
) -> None:
    request_id = uuid.uuid4()
    results = at_once(
        record(table_game, RON, request_id, member),
        record(table_game, RON, request_id, member),
    )
    assert all(isinstance(r, Recorded) for r in results), results
    assert sorted(r.created for r in results) == [False, True]
    assert results[0].entry.pk == results[1].entry.pk
    assert HandEntry.objects.filter(hanchan=table_game).count() == 1
    table_game.refresh_from_db()
    assert table_game.version == 1
    assert table_game.state["table"]["scores"] == [25000, 28900, 21100, 25000]
