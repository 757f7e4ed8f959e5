"""The rows a plan's numbers end up in, built from it (nothing here writes): a hand's entry,
its per-seat facts (``HandSeat``) and yaku (``WinYaku``), a game's status and its seats'
settlement. :mod:`scoring.ledger.write` and :mod:`scoring.ledger.create` store them."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

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


def member_ids(hanchan: Hanchan) -> list[int]:
    """The members in seat order (prefetched seats when the caller has them)."""
    seats = sorted(hanchan.seats.all(), key=lambda seat: seat.index)
    return [seat.member_id for seat in seats]


def yaku_rows(entries: Sequence[HandEntry], members: dict[int, list[int]]) -> list[WinYaku]:
    """The ``WinYaku`` rows of ``entries`` (``members``: per game id, member ids by seat)."""
    return [
        WinYaku(
            hand=entry,
            hanchan_id=entry.hanchan_id,
            member_id=members[entry.hanchan_id][fact.seat],
            seat=fact.seat,
            name=fact.name,
            han=fact.han,
            yakuman=fact.yakuman,
        )
        for entry in entries
        for fact in yaku_facts(entry.data)
    ]


def fact_rows(entries: Sequence[HandEntry], members: dict[int, list[int]]) -> list[HandSeat]:
    """The ``HandSeat`` rows of ``entries`` (``members``: per game id, member ids by seat)."""
    return [
        HandSeat(
            hand=entry,
            hanchan_id=entry.hanchan_id,
            member_id=members[entry.hanchan_id][facts.seat],
            seat=facts.seat,
            outcome=facts.outcome,
            dealer=facts.dealer,
            delta=facts.delta,
            won=facts.won,
            tsumo=facts.tsumo,
            dealt_in=facts.dealt_in,
            riichi=facts.riichi,
            chombo=facts.chombo,
            win_value=facts.win_value,
            tenpai=facts.tenpai,
            deal_in_value=facts.deal_in_value,
            fed_by_id=None if facts.fed_by is None else members[entry.hanchan_id][facts.fed_by],
        )
        for entry in entries
        for facts in hand_facts(entry.data, entry.result)
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
