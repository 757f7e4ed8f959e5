"""Writing a :class:`~scoring.ledger.plan.Plan`: with :mod:`scoring.ledger.create`, the only
code that stores engine results.

Every row the engine's numbers end up in is written here or there, inside the caller's
transaction: the hands (``HandEntry``: hand, result, snapshot before), their per-seat facts
(``HandSeat``) and yaku (``WinYaku``), built by :mod:`scoring.ledger.rows`; the game's state,
status, version and fingerprint (``Hanchan``); the settlement and its facts per seat
(``Seat``); the history (``LedgerChange``); then the one confirmation
(:func:`scoring.ledger.confirmation.vouch`), which counts the game and keeps the members'
totals (:mod:`scoring.ledger.totals`). :mod:`scoring.ledger.services` locks, checks and calls
:func:`write_plan`; a new game is :func:`~scoring.ledger.create.create_games`'s.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from django.utils import timezone

from clubsite.models import Member
from scoring.ledger import confirmation
from scoring.ledger.fingerprint import game_fingerprint
from scoring.ledger.plan import (
    Correction,
    FinalScoresEntry,
    NewHand,
    Plan,
    Undo,
    Void,
)
from scoring.ledger.rows import (
    SETTLEMENT_FIELDS,
    fact_rows,
    hand_entry,
    member_ids,
    settle_seats,
    yaku_rows,
)
from scoring.models import (
    Hanchan,
    HandEntry,
    HandSeat,
    LedgerChange,
    Seat,
    WinYaku,
)


def write_plan(
    hanchan: Hanchan,
    plan: Plan,
    *,
    by: Member | None,
    stored: Sequence[HandEntry] = (),
    request_id: uuid.UUID | None = None,
    steward: bool = False,
    user_id: int | None = None,
) -> HandEntry | None:
    """Store ``plan`` (a new hand, a correction, an undo or a void) on ``hanchan``, which the
    caller has locked and checked (version, status).

    Args:
        by: the member making the change (``None``: a steward's account without a profile,
            or a command).
        stored: the game's hand entries in order, as the plan was made from (a correction
            and an undo need them; a new hand and a void do not).
        request_id: the entry request's id, stored with a new hand for idempotency.
        steward: the change is made with a steward's authority; with ``user_id`` (the
            login making it), it confirms the new version as a steward would.

    Returns:
        The new hand's entry for a :class:`NewHand`, else ``None``.
    """
    change = plan.change
    created = None
    if isinstance(change, Void):
        LedgerChange.objects.create(
            hanchan=hanchan,
            action=LedgerChange.Action.VOIDED,
            before={"status": hanchan.status},
            by=by,
        )
        hanchan.status = Hanchan.Status.VOIDED
        hanchan.version += 1
        hanchan.save(update_fields=["status", "version"])
        confirmation.vouch(hanchan, by, steward, user_id)
        return None
    if isinstance(change, NewHand):
        assert plan.last is not None
        created = hand_entry(hanchan, plan.last, by=by, request_id=request_id)
        created.save(force_insert=True)
        members = {hanchan.pk: member_ids(hanchan)}
        HandSeat.objects.bulk_create(fact_rows([created], members))
        yaku = yaku_rows([created], members)
        if yaku:  # most hands at the table carry no yaku: no query for them
            WinYaku.objects.bulk_create(yaku)
        LedgerChange.objects.create(
            hanchan=hanchan,
            action=LedgerChange.Action.RECORDED,
            sequence=plan.last.sequence,
            after=created.data,
            by=by,
        )
    elif isinstance(change, Correction):
        _write_correction(hanchan, plan, change, stored, by)
    elif isinstance(change, FinalScoresEntry):
        LedgerChange.objects.create(
            hanchan=hanchan,
            action=LedgerChange.Action.FINAL_SCORES,
            before=(hanchan.state or {}).get("final_scores"),
            after=plan.state["final_scores"],
            by=by,
        )
        hanchan.final_scores_only = True
    elif isinstance(change, Undo) and hanchan.final_scores_only:
        LedgerChange.objects.create(
            hanchan=hanchan,
            action=LedgerChange.Action.UNDONE,
            before={"final_scores": hanchan.state.get("final_scores")},
            by=by,
        )
        hanchan.final_scores_only = False
    elif isinstance(change, Undo):
        last = stored[-1]
        LedgerChange.objects.create(
            hanchan=hanchan,
            action=LedgerChange.Action.UNDONE,
            sequence=last.sequence,
            before={"hand": last.data, "result": last.result},
            by=by,
        )
        last.delete()
    else:
        raise ValueError(f"write_plan does not take {type(change).__name__}")
    _save_game(hanchan, plan)
    confirmation.vouch(hanchan, by, steward, user_id)
    return created


def _write_correction(
    hanchan: Hanchan,
    plan: Plan,
    change: Correction,
    stored: Sequence[HandEntry],
    by: Member | None,
) -> None:
    before = stored[change.sequence].data
    now = timezone.now()
    changed = []
    for entry, hand in zip(stored[plan.first :], plan.hands, strict=True):
        if entry.data != hand.data or entry.result != hand.result or entry.before != hand.before:
            # bulk_update does not touch auto_now fields.
            entry.data, entry.result, entry.before = hand.data, hand.result, hand.before
            entry.updated_at = now
            changed.append(entry)
    HandEntry.objects.bulk_update(changed, ["data", "result", "before", "updated_at"])
    members = {hanchan.pk: member_ids(hanchan)}
    HandSeat.objects.filter(hand__in=changed).delete()
    HandSeat.objects.bulk_create(fact_rows(changed, members))
    WinYaku.objects.filter(hand__in=changed).delete()
    WinYaku.objects.bulk_create(yaku_rows(changed, members))
    LedgerChange.objects.create(
        hanchan=hanchan,
        action=LedgerChange.Action.CORRECTED,
        sequence=change.sequence,
        before=before,
        after=plan.hands[0].data,
        by=by,
    )


def _save_game(hanchan: Hanchan, plan: Plan) -> None:
    """Store the game's new state, status and (when over, or no longer over) the settlement."""
    was_finished = hanchan.status == Hanchan.Status.FINISHED
    hanchan.state = plan.state
    hanchan.version += 1
    if plan.settlement is None:
        hanchan.status = Hanchan.Status.IN_PLAY
        hanchan.ended_by = ""
        hanchan.finished_at = None
    else:
        if not was_finished:
            hanchan.finished_at = timezone.now()
        hanchan.status = Hanchan.Status.FINISHED
        hanchan.ended_by = plan.settlement.ended_by
    hanchan.fingerprint = _stored_fingerprint(hanchan, plan)
    hanchan.save(
        update_fields=[
            "state",
            "version",
            "status",
            "ended_by",
            "finished_at",
            "final_scores_only",
            "fingerprint",
        ]
    )
    if plan.settlement is not None or was_finished:
        seats = list(hanchan.seats.all())
        settle_seats(seats, plan)
        Seat.objects.bulk_update(seats, SETTLEMENT_FIELDS)


def _stored_fingerprint(hanchan: Hanchan, plan: Plan) -> str:
    """The fingerprint of the game as written so far (its hands are stored before the game
    is saved): one query, only when the game is over. A game from an online log or a
    result line never comes here (its hands are its log's: ``check_changeable``), so the
    fingerprint of its kind (:mod:`scoring.ledger.fingerprint`) stays the one its import
    gave it."""
    if plan.settlement is None:
        return ""
    results = HandEntry.objects.filter(hanchan=hanchan).order_by("sequence")
    return game_fingerprint(
        played_on=hanchan.played_on,
        members=(
            None
            if hanchan.ruleset_version.service
            else [seat.member_id for seat in sorted(hanchan.seats.all(), key=lambda s: s.index)]
        ),
        hand_results=results.values_list("result", flat=True),
        final_scores=plan.state.get("final_scores"),
    )


__all__ = ["write_plan"]
