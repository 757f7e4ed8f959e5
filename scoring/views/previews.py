"""The table screen's preview of a hand before it is confirmed: the ledger's plan of it
(:func:`scoring.ledger.plan_for`), shown as payments, the seats' scores after, the next hand
or the settlement; nothing is written. A refusal is put next to the field it names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from clubsite.formatting import format_points, settlement_points
from scoring.entry.hand_form import HandForm
from scoring.ledger import Correction, LedgerError, NewHand, plan_for
from scoring.models import Hanchan, HandEntry
from scoring.views.display import (
    Cell,
    FinalLine,
    NextHand,
    Preview,
    ended_by_label,
    rank_label,
    sign_class,
)


def preview_next_hand(hanchan: Hanchan, form: HandForm) -> Preview | None:
    """The ledger's plan of the form's hand, shown before confirming; nothing is written."""
    if form.hand is None:
        return None
    try:
        planned = plan_for(hanchan, NewHand(form.hand))
    except LedgerError as error:
        form.add_record_error(error.field, str(error))
        return None
    assert planned.last is not None
    preview = Preview.of(planned.last.result, form.names, planned.ended_by)
    if planned.settlement is None:
        after = NextHand.of(hanchan.state["table"], planned.state["table"], form.names)
        return replace(preview, next=after)
    settlement = planned.settlement
    final = [
        FinalLine(
            rank=rank_label(settlement.ranks[seat]),
            name=form.names[seat],
            score=format_points(settlement.scores[seat]),
            points=Cell(
                settlement_points(settlement.points[seat]), sign_class(settlement.points[seat])
            ),
        )
        for seat in sorted(range(len(form.names)), key=lambda s: (settlement.ranks[s], s))
    ]
    return replace(preview, final=final)


def preview_correction(
    hanchan: Hanchan, entries: Sequence[HandEntry], sequence: int, form: HandForm
) -> Preview | None:
    """The corrected hand's payments, once the ledger has checked every later hand still
    plays; nothing is written."""
    if form.hand is None:
        return None
    try:
        planned = plan_for(hanchan, Correction(sequence, form.hand), entries)
    except LedgerError as error:
        form.add_record_error("" if error.later_hand else error.field, str(error))
        return None
    preview = Preview.of(planned.hands[0].result, form.names, None)
    if planned.settlement is not None:
        last_round = planned.hands[-1].result["round"]
        return Preview(
            preview.payments,
            preview.seats,
            preview.deposits_after,
            ended_by_label(planned.settlement.ended_by, last_round),
            summary=preview.summary,
        )
    return preview
