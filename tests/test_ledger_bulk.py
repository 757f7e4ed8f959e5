"""Rows written in bulk without model instances (scoring.ledger.bulk): a
game created through them has the same seats, history, origin, hands, per-seat facts, yaku,
counted seats, confirmations and members' roll-ups as one whose rows go through
``bulk_create``, on SQLite (``executemany``) and PostgreSQL (``COPY``)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, models
from django.db.models import Count, Q, Sum
from django.test.utils import CaptureQueriesContext

from clubsite.models import Member
from scoring.ledger import import_logs
from scoring.ledger.bulk import insert_rows
from scoring.ledger.confirmation import counted_seats
from scoring.ledger.facts import hand_facts
from scoring.ledger.totals import ADDED, BEST_SHIFT, HAND_SUMS
from scoring.models import (
    Confirmation,
    CountedSeat,
    Hanchan,
    HandEntry,
    HandSeat,
    LedgerChange,
    MemberMonth,
    MemberYear,
    OnlineGame,
    Seat,
    WinYaku,
)
from scoring.online.reading import read_game_file
from scoring.online.verify import VerifiedGame, verify
from tests.test_online_store_cost import known_players

DATA = Path(__file__).resolve().parent / "data" / "online"
PLAYED_ON = datetime.date(2026, 1, 10)


def some_logs() -> list[VerifiedGame]:
    """Logs of each format with yaku, chombo-free draws and multi-hand games (a Tenhou JSON,
    mjlogs and an mjai log)."""
    paths = [
        *sorted((DATA / "mjlog-gz").glob("*.mjlog"))[:4],
        *sorted((DATA / "tenhou-json").glob("*.json"))[:2],
        *sorted((DATA / "mjai").glob("*"))[:1],
    ]
    games = []
    for path in paths:
        log = read_game_file(path.read_bytes(), path.name).log
        assert log is not None
        games.append(verify(log))
    return games


def orm_insert(
    model: type[models.Model], fields: Sequence[str], rows: Any, *, ids: bool = False
) -> list[int]:
    """What the ledger wrote before: a model instance per row, ``bulk_create``."""
    created = model._default_manager.bulk_create(
        [model(**dict(zip(fields, row, strict=True))) for row in rows]
    )
    return [obj.pk for obj in created] if ids else []


def written() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the games' hands, facts and yaku, ids replaced by (game's log, hand)."""
    log_of = dict(Hanchan.objects.values_list("pk", "online__log_id"))
    hand = {
        pk: (log_of[hanchan_id], sequence)
        for pk, hanchan_id, sequence in HandEntry.objects.values_list("pk", "hanchan", "sequence")
    }
    entries = sorted(
        (log_of[h], s, d, r, b, e)
        for h, s, d, r, b, e in HandEntry.objects.values_list(
            "hanchan", "sequence", "data", "result", "before", "entered_by"
        ).iterator()
        for d, r, b in [(repr(d), repr(r), repr(b))]
    )
    facts = sorted(
        (hand[row[0]], *row[2:])
        for row in HandSeat.objects.values_list(
            *(f.attname for f in HandSeat._meta.concrete_fields if f.attname != "id")
        )
    )
    yaku = sorted(
        (hand[row[0]], *row[2:])
        for row in WinYaku.objects.values_list(
            *(f.attname for f in WinYaku._meta.concrete_fields if f.attname != "id")
        )
    )
    counted = sorted(
        (log_of[row[0]], *row[1:])
        for row in CountedSeat.objects.values_list(
            *(f.attname for f in CountedSeat._meta.concrete_fields if f.attname != "id")
        )
    )
    confirmations = sorted(
        (log_of[h], *rest)
        for h, *rest in Confirmation.objects.values_list(
            "hanchan", "version", "user", "member", "as_steward", "implicit"
        )
    )
    rollups = sorted(
        (type(row).__name__, row.member_id, getattr(row, "month", None) or row.year,
         row.best >> BEST_SHIFT, *(getattr(row, name) for name in (*ADDED, *HAND_SUMS)))
        for model in (MemberMonth, MemberYear)
        for row in model.objects.all()
    )  # fmt: skip
    seats = sorted(
        (log_of[row[0]], *row[1:])
        for row in Seat.objects.values_list(
            *(f.attname for f in Seat._meta.concrete_fields if f.attname != "id")
        )
    )
    origins = sorted(
        OnlineGame.objects.values_list(
            "service", "log_format", "log_id", "lobby", "rule_label", "replay_url",
            "imported_by", "active",
        )
    )  # fmt: skip
    changes = sorted(
        (log_of[h], *rest)
        for h, *rest in LedgerChange.objects.values_list("hanchan", "action", "sequence", "by")
    )
    return {
        "seats": seats,
        "origins": origins,
        "changes": changes,
        "entries": entries,
        "facts": facts,
        "yaku": yaku,
        "counted": counted,
        "confirmations": confirmations,
        "rollups": rollups,
    }


def orm_insert_objects(model: type[models.Model], objs: Any) -> None:
    model._default_manager.bulk_create(list(objs))


@pytest.mark.django_db(transaction=False)
def test_an_import_writes_the_rows_bulk_create_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    games = some_logs()
    known_players(games)
    outcomes = import_logs(games, played_on=PLAYED_ON)
    assert all(isinstance(o, Hanchan) for o in outcomes)
    lean = written()
    assert len(lean["entries"]) > 50 and len(lean["facts"]) == 4 * len(lean["entries"])
    assert len(lean["yaku"]) > 50
    # Each fact where its name says, as the engine's facts of the stored hand give it.
    names = ("outcome", "dealer", "delta", "won", "tsumo", "dealt_in", "riichi", "chombo",
             "win_value", "tenpai", "deal_in_value")  # fmt: skip
    for entry in HandEntry.objects.prefetch_related("seat_facts"):
        rows = sorted(entry.seat_facts.all(), key=lambda row: row.seat)
        expected = hand_facts(entry.data, entry.result)
        assert [tuple(getattr(r, n) for n in names) for r in rows] == [
            tuple(getattr(f, n) for n in names) for f in expected
        ]
    assert len(lean["counted"]) == 4 * len(games) and len(lean["confirmations"]) == len(games)
    assert {row[0] for row in lean["rollups"]} == {"MemberMonth", "MemberYear"}
    Hanchan.objects.all().delete()
    MemberMonth.objects.all().delete()
    MemberYear.objects.all().delete()
    monkeypatch.setattr("scoring.ledger.create.insert_rows", orm_insert)
    monkeypatch.setattr("scoring.ledger.create.insert_objects", orm_insert_objects)
    monkeypatch.setattr("scoring.ledger.online.store.insert_objects", orm_insert_objects)
    monkeypatch.setattr("scoring.ledger.confirmation.insert_objects", orm_insert_objects)
    monkeypatch.setattr("scoring.ledger.confirmation.insert_rows", orm_insert)
    outcomes = import_logs(games, played_on=PLAYED_ON)
    assert all(isinstance(o, Hanchan) for o in outcomes)
    assert written() == lean


@pytest.mark.django_db
def test_insert_rows_is_one_statement_and_returns_ids_in_order(member: Member) -> None:
    games = some_logs()[:1]
    known_players(games)
    (hanchan,) = import_logs(games, played_on=PLAYED_ON)
    assert isinstance(hanchan, Hanchan)
    hands = list(HandEntry.objects.filter(hanchan=hanchan).order_by("sequence"))
    at = hands[0].entered_at
    rows = [
        (
            hanchan.pk,
            100 + i,
            {"result": "draw", "n": i},
            {"deltas": [0, 0, 0, 0]},
            None,
            None,
            member.pk,
            at,
            at,
        )  # fmt: skip
        for i in range(3)
    ]
    fields = ("hanchan_id", "sequence", "data", "result", "before", "request_id",
              "entered_by_id", "entered_at", "updated_at")  # fmt: skip
    ids = insert_rows(HandEntry, fields, rows, ids=True)
    stored = {e.pk: e for e in HandEntry.objects.filter(sequence__gte=100)}
    assert [stored[pk].sequence for pk in ids] == [100, 101, 102]
    assert [stored[pk].data for pk in ids] == [{"result": "draw", "n": i} for i in range(3)]
    assert all(stored[pk].before is None and stored[pk].entered_by == member for pk in ids)
    with CaptureQueriesContext(connection) as queries:
        insert_rows(
            WinYaku,
            ("hand_id", "hanchan_id", "member_id", "seat", "name", "han", "yakuman"),
            [(pk, hanchan.pk, member.pk, 0, "riichi", 1, False) for pk in ids],
        )
    assert len(queries) == 1
    assert list(
        WinYaku.objects.filter(hand__sequence__gte=100).values_list("hand__sequence", "name")
    ) == [(100, "riichi"), (101, "riichi"), (102, "riichi")]
    assert insert_rows(WinYaku, ("hand_id",), []) == []


@pytest.mark.django_db
def test_an_imports_counted_seats_are_those_its_stored_facts_give() -> None:
    """An import counts its seats from the facts it has just written (``seat_sums`` of the
    rows in memory); a game counted at the table reads them back (``counted_seats``): the
    same rows; and their sums are the facts' aggregate in SQL (a chombo hand is played again,
    so it is out of ``hands`` and ``riichi``)."""
    games = some_logs()
    known_players(games)
    assert all(isinstance(o, Hanchan) for o in import_logs(games, played_on=PLAYED_ON))
    hanchans = list(Hanchan.objects.order_by("pk"))
    seats = {h.pk: list(h.seats.order_by("index")) for h in hanchans}
    names = [f.attname for f in CountedSeat._meta.concrete_fields if f.attname != "id"]
    stored = sorted(CountedSeat.objects.values_list(*names))
    read_back = sorted(
        tuple(getattr(row, name) for name in names) for row in counted_seats(hanchans, seats)
    )
    assert stored == read_back
    aggregate = {
        (row.pop("hanchan_id"), row.pop("seat")): row
        for row in HandSeat.objects.values("hanchan_id", "seat")
        .annotate(
            hands=Count("pk", filter=~Q(outcome="chombo")),
            wins=Count("pk", filter=Q(won=True)),
            tsumo_wins=Count("pk", filter=Q(tsumo=True)),
            deal_ins=Count("pk", filter=Q(dealt_in=True)),
            riichi=Count("pk", filter=Q(riichi=True) & ~Q(outcome="chombo")),
            chombo=Count("pk", filter=Q(chombo=True)),
            win_points=Sum("win_value"),
        )
        .order_by()
    }
    for row in CountedSeat.objects.all():
        assert {name: getattr(row, name) for name in HAND_SUMS} == aggregate[
            (row.hanchan_id, row.seat)
        ]
    assert sum(row[names.index("hands")] for row in stored) > 4 * len(games)
    assert any(row[names.index("riichi")] for row in stored)
    assert sum(row[names.index("win_points")] for row in stored) > 0
