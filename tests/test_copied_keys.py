"""The keys the ledger copies onto its derived rows (scoring.ledger.copied_keys):
the database checks them where they come from, not on the copies; every kind of
write keeps the copies equal to their sources, the check finds a copy that is not, and the
sources still protect what the copies name."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError

from clubsite.models import Member
from scoring.ledger import (
    copied_key_disagreements,
    hanchan_import,
    hanchan_void,
    hand_correct,
    import_logs,
)
from scoring.models import CountedSeat, Hanchan, HandSeat, WinYaku
from tests.conftest import make_member
from tests.test_ledger_bulk import PLAYED_ON, some_logs
from tests.test_online_store_cost import known_players

DAY = datetime.date(2026, 10, 14)
# A ron with riichi, a tsumo, a draw, a chombo and a yakuman ron that ends the game by tobi
# (Makura 1.5): facts with a discarder, yaku rows and counted seats.
HANDS: list[dict[str, Any]] = [
    {"result": "ron", "loser": 2, "riichi": [0], "wins": [{"winner": 0, "han": 3, "fu": 40}]},
    {"result": "tsumo", "wins": [{"winner": 1, "han": 2, "fu": 30}]},
    {"result": "draw", "tenpai": [0, 2]},
    {"result": "chombo", "offender": 3},
    {"result": "ron", "loser": 2, "wins": [{"winner": 3, "limit": "yakuman"}]},
]
NONE = {
    "HandSeat.hanchan": 0,
    "HandSeat.member": 0,
    "HandSeat.fed_by": 0,
    "WinYaku.hanchan": 0,
    "WinYaku.member": 0,
    "CountedSeat.member": 0,
    "CountedSeat.guest_copy": 0,
    "CountedSeat.ruleset_version": 0,
}


@pytest.fixture
def players(member: Member, other_member: Member, coordinator: Member, outsider: Member):
    return [member, other_member, coordinator, outsider]


def imported(
    players: list[Member], hands: list[dict[str, Any]], ruleset: str = "makura-1.5"
) -> Hanchan:
    return hanchan_import(
        record={
            "ruleset": ruleset,
            "players": [m.display_name for m in players],
            "hands": hands,
        },
        members_by_name={m.display_name: m for m in players},
        played_on=DAY,
    )


def test_every_kind_of_write_keeps_the_copies_equal_to_their_sources(players) -> None:
    games = some_logs()
    known_players(games)
    assert all(isinstance(o, Hanchan) for o in import_logs(games, played_on=PLAYED_ON))
    game = imported(players, HANDS)
    assert HandSeat.objects.filter(fed_by__isnull=False).exists()
    assert WinYaku.objects.filter(hanchan=game).exists()
    assert CountedSeat.objects.filter(hanchan=game).count() == 4
    assert copied_key_disagreements() == NONE
    game.refresh_from_db()
    hand_correct(
        hanchan_id=game.pk,
        sequence=4,
        hand={"result": "ron", "loser": 2, "wins": [{"winner": 0, "limit": "yakuman"}]},
        expected_version=game.version,
    )
    assert copied_key_disagreements() == NONE
    game.refresh_from_db()
    hanchan_void(hanchan_id=game.pk, expected_version=game.version)
    assert copied_key_disagreements() == NONE


def test_the_check_finds_a_copy_that_differs_from_its_source(players) -> None:
    game = imported(players, HANDS)
    other = imported(list(reversed(players)), HANDS[-1:], ruleset="makura-1.3")
    fact = HandSeat.objects.filter(hanchan=game, seat=0).first()
    assert fact is not None
    HandSeat.objects.filter(pk=fact.pk).update(member=players[1])
    HandSeat.objects.filter(pk=fact.pk + 1).update(hanchan=other)
    WinYaku.objects.filter(hanchan=game).update(member=players[0])
    winner = HandSeat.objects.filter(hanchan=game, fed_by__isnull=False).first()
    assert winner is not None
    stranger = make_member("fujii", "Fujii", "ふじい")
    HandSeat.objects.filter(pk=winner.pk).update(fed_by=stranger)
    CountedSeat.objects.filter(hanchan=game, seat=2).update(ruleset_version=other.ruleset_version)
    found = copied_key_disagreements()
    # The fact moved to the other game is not its seat's member there either (seats reversed).
    assert found["HandSeat.member"] == 2 and found["HandSeat.fed_by"] == 1
    assert found["HandSeat.hanchan"] == 1 and found["WinYaku.member"] >= 1
    assert found["CountedSeat.ruleset_version"] == 1
    assert found["WinYaku.hanchan"] == found["CountedSeat.member"] == 0


def test_the_sources_still_protect_what_the_copies_name(players) -> None:
    game = imported(players, HANDS)
    # Django protects through the copies as through any key...
    with pytest.raises(ProtectedError):
        players[3].delete()
    # ... and the database through the sources: a seated member cannot go, even by SQL.
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM clubsite_member WHERE id = %s", [players[3].pk])
        # The keys are deferred to the end of the transaction: checked now.
        connection.check_constraints()
    assert Member.objects.filter(pk=players[3].pk).exists()
    assert copied_key_disagreements() == NONE
    assert HandSeat.objects.filter(hanchan=game, member=players[3]).exists()
