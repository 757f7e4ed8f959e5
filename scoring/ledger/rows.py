"""The rows a plan's numbers end up in, built from it (nothing here writes): a hand's entry,
its per-seat facts (``HandSeat``) and yaku (``WinYaku``), a game's status and its seats'
settlement. :mod:`scoring.ledger.write` and :mod:`scoring.ledger.create` store them."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from clubsite.models import Member
from scoring.ledger.facts import hand_facts, settlement_facts, yaku_facts
from scoring.ledger.plan import Plan, PlannedHand
from scoring.models import Hanchan, HandEntry, HandSeat, Seat, WinYaku


def hand_entry(
    hanchan: Hanchan,
    hand: PlannedHand,
    *,
    by: Member | None,
    request_id: uuid.UUID | None = None,
) -> HandEntry:
    """The ``HandEntry`` row of a planned hand, entered by ``by`` (with ``request_id``)."""
    return HandEntry(
        hanchan=hanchan,
        sequence=hand.sequence,
        data=hand.data,
        result=hand.result,
        before=hand.before,
        request_id=request_id,
        entered_by=by,
    )


# The columns of a new hand's entry, in the order of :func:`entry_values`.
ENTRY_FIELDS = ("hanchan_id", "sequence", "data", "result", "before", "request_id",
                "entered_by_id", "entered_at", "updated_at")  # fmt: skip


def entry_values(
    hanchan_id: int, hand: PlannedHand, by_id: int | None, at: datetime.datetime
) -> tuple[Any, ...]:
    """The ``HandEntry`` values (:data:`ENTRY_FIELDS`) of a planned hand of a new game,
    entered by member ``by_id`` at ``at`` (as :func:`hand_entry`, with no request id)."""
    return (hanchan_id, hand.sequence, hand.data, hand.result, hand.before, None, by_id, at, at)


def member_ids(hanchan: Hanchan) -> list[int]:
    """The members in seat order (prefetched seats when the caller has them)."""
    seats = sorted(hanchan.seats.all(), key=lambda seat: seat.index)
    return [seat.member_id for seat in seats]


# The columns of a hand's facts and yaku rows, in the order of the values below: the one
# definition of what goes where, whether the rows are model instances (a hand at the table)
# or plain tuples written in bulk (an import: :func:`scoring.ledger.bulk.insert_rows`).
FACT_FIELDS = ("hand_id", "hanchan_id", "member_id", "seat", "outcome", "dealer", "delta",
               "won", "tsumo", "dealt_in", "riichi", "chombo", "win_value", "tenpai",
               "deal_in_value", "fed_by_id")  # fmt: skip
YAKU_FIELDS = ("hand_id", "hanchan_id", "member_id", "seat", "name", "han", "yakuman")


def fact_values(
    hand_id: int, hanchan_id: int, data: Any, result: Any, members: Sequence[int]
) -> list[tuple[Any, ...]]:
    """The ``HandSeat`` values (:data:`FACT_FIELDS`) of one hand, stored as ``hand_id`` of
    game ``hanchan_id`` (``data`` and ``result`` as stored, ``members`` its member ids by
    seat)."""
    return [
        (
            hand_id,
            hanchan_id,
            members[facts.seat],
            facts.seat,
            facts.outcome,
            facts.dealer,
            facts.delta,
            facts.won,
            facts.tsumo,
            facts.dealt_in,
            facts.riichi,
            facts.chombo,
            facts.win_value,
            facts.tenpai,
            facts.deal_in_value,
            None if facts.fed_by is None else members[facts.fed_by],
        )
        for facts in hand_facts(data, result)
    ]


# A seat's sums over a game's facts, in the order of ``CountedSeat``'s and the roll-ups'
# per-hand columns (:data:`scoring.ledger.totals.HAND_SUMS`).
SEAT_SUMS = ("hands", "wins", "tsumo_wins", "deal_ins", "riichi", "chombo", "win_points")
_F = {name: i for i, name in enumerate(FACT_FIELDS)}


def seat_sums(facts: Iterable[Sequence[Any]]) -> dict[tuple[int, int], tuple[int, ...]]:
    """Each seat's sums (:data:`SEAT_SUMS`) over ``facts`` (``HandSeat`` values in the order
    of :data:`FACT_FIELDS`), by ``(hanchan_id, seat)``: a chombo hand is no hand of its own,
    so ``hands`` and ``riichi`` leave it out; ``win_points`` adds up ``win_value`` (points).
    The one definition of what a counted seat sums, for a game counted at the table (its
    facts read back) and for an import (its facts as written)."""
    hanchan, seat, outcome = _F["hanchan_id"], _F["seat"], _F["outcome"]
    won, tsumo, dealt_in = _F["won"], _F["tsumo"], _F["dealt_in"]
    riichi, chombo, win_value = _F["riichi"], _F["chombo"], _F["win_value"]
    sums: dict[tuple[int, int], list[int]] = {}
    for row in facts:
        key = (row[hanchan], row[seat])
        total = sums.get(key)
        if total is None:
            total = sums[key] = [0] * len(SEAT_SUMS)
        played = row[outcome] != "chombo"
        total[0] += played
        total[1] += bool(row[won])
        total[2] += bool(row[tsumo])
        total[3] += bool(row[dealt_in])
        total[4] += played and bool(row[riichi])
        total[5] += bool(row[chombo])
        total[6] += row[win_value]
    return {key: tuple(total) for key, total in sums.items()}


def yaku_values(
    hand_id: int, hanchan_id: int, data: Any, members: Sequence[int]
) -> list[tuple[Any, ...]]:
    """The ``WinYaku`` values (:data:`YAKU_FIELDS`) of one hand, as :func:`fact_values`."""
    return [
        (hand_id, hanchan_id, members[fact.seat], fact.seat, fact.name, fact.han, fact.yakuman)
        for fact in yaku_facts(data)
    ]


def yaku_rows(entries: Sequence[HandEntry], members: dict[int, list[int]]) -> list[WinYaku]:
    """The ``WinYaku`` rows of ``entries`` (``members``: per game id, member ids by seat)."""
    return [
        WinYaku(**dict(zip(YAKU_FIELDS, values, strict=True)))
        for entry in entries
        for values in yaku_values(entry.pk, entry.hanchan_id, entry.data, members[entry.hanchan_id])
    ]


def fact_rows(entries: Sequence[HandEntry], members: dict[int, list[int]]) -> list[HandSeat]:
    """The ``HandSeat`` rows of ``entries`` (``members``: per game id, member ids by seat)."""
    return [
        HandSeat(**dict(zip(FACT_FIELDS, values, strict=True)))
        for entry in entries
        for values in fact_values(
            entry.pk, entry.hanchan_id, entry.data, entry.result, members[entry.hanchan_id]
        )
    ]


def status_of(plan: Plan) -> str:
    """The game's status after ``plan``: finished once it has a settlement."""
    return Hanchan.Status.IN_PLAY if plan.settlement is None else Hanchan.Status.FINISHED


SETTLEMENT_FIELDS = ["final_score", "rank", "points", "chips", "uma_ep", "busted", "last_place"]


def settle_seats(seats: Sequence[Seat], plan: Plan) -> None:
    """Put the plan's settlement (or none) on the seats, with its facts."""
    settlement = plan.settlement
    facts = None if settlement is None else settlement_facts(plan.ruleset, settlement)
    for seat in seats:
        i = seat.index
        if settlement is None or facts is None:
            seat.final_score = seat.rank = seat.points = seat.chips = seat.uma_ep = None
            seat.busted = seat.last_place = None
            continue
        seat.final_score = settlement.scores[i]
        seat.rank = settlement.ranks[i]
        seat.points = settlement.points[i]
        seat.chips = None if settlement.chips is None else settlement.chips[i]
        seat.uma_ep = None if settlement.uma_ep is None else settlement.uma_ep[i]
        seat.busted = facts.busted[i]
        seat.last_place = facts.last_place[i]
