"""Writes to the hanchan ledger: start, record a hand, correct, undo, void, final scores, call
time, confirm (imports are :mod:`scoring.ledger.records` and :mod:`scoring.ledger.online`).
Everyone outside the ledger calls these through its façade, :mod:`scoring.ledger`.

Each function is one transaction: it locks the game, checks the version, plans the change
through the ledger's one pipeline (:func:`scoring.ledger.plan`, the engine played once over
the hands that change) and writes the plan (:mod:`scoring.ledger.write`). Bad input raises
:class:`LedgerError` (or a subclass) and changes nothing. Points come from the engine only.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubsite.dates import club_today
from clubsite.models import Member
from scoring.engine import (
    RecordError,
    load_ruleset,
    parse_hand,
)
from scoring.ledger import confirmation
from scoring.ledger.checks import (
    check_changeable,
    check_date,
    check_playable,
    check_seatable,
    check_version,
    locked_hanchan,
    seated_members,
    stored_game,
    time_up_marked,
    with_overrides,
)
from scoring.ledger.create import NewGame, create_games
from scoring.ledger.errors import LedgerError, StaleHanchan
from scoring.ledger.plan import (
    Correction,
    FinalScoresEntry,
    NewHand,
    Record,
    StoredGame,
    Undo,
    Void,
    plan,
)
from scoring.ledger.write import write_plan
from scoring.models import Hanchan, HandEntry, LedgerChange, RulesetVersion


@dataclass(frozen=True)
class Recorded:
    """The outcome of :func:`hand_record`: the entry, and whether this call created it
    (``False`` when the same request had already been recorded)."""

    entry: HandEntry
    created: bool


def hanchan_start(
    *,
    ruleset_id: str,
    members: Sequence[Member],
    played_on: date,
    venue: str = "",
    table_name: str = "",
    overrides: Mapping[str, Any] | None = None,
    draw_seats: bool = False,
    by: Member | None = None,
    rng: random.Random | None = None,
) -> Hanchan:
    """Start a game: pin the ruleset version, seat the players, store the opening state.

    Args:
        members: the players in seat order (``members[0]`` deals East 1), 4 or 3 as the
            ruleset requires. With ``draw_seats`` the order is drawn at random instead, as
            the seeds' seat draw does (002 G(7)).
        overrides: rule changes for this game only (e.g. ``{"tobi": False}`` for the GP).

    Raises:
        LedgerError: unknown ruleset, wrong number of players, a member twice, a
            deactivated member, bad overrides.
    """
    try:
        base = load_ruleset(ruleset_id)
    except KeyError:
        raise LedgerError(_("Unknown ruleset."), "ruleset") from None
    ruleset = with_overrides(base, overrides)
    seated = seated_members(ruleset, members)
    check_seatable(seated)
    check_date(played_on)
    if draw_seats:
        (rng or random.SystemRandom()).shuffle(seated)
    game = NewGame(
        plan=plan(StoredGame.new(ruleset), Record(())),
        version=RulesetVersion.current(ruleset_id),
        members=seated,
        played_on=played_on,
        overrides=dict(overrides or {}),
        venue=venue,
        table_name=table_name,
        by=by,
    )
    with transaction.atomic():
        return create_games([game])[0]


def hand_record(
    *,
    hanchan_id: int,
    hand: Mapping[str, Any],
    expected_version: int,
    request_id: uuid.UUID,
    by: Member | None = None,
    steward: bool = False,
    user_id: int | None = None,
) -> Recorded:
    """Record the next hand of a game in play.

    Idempotent: a request whose ``request_id`` was already recorded returns that entry and
    changes nothing (a double tap, a resent form). ``expected_version`` is the game version
    the client saw; if another phone recorded a hand since, :class:`StaleHanchan` is raised
    and nothing is written. The number of queries does not depend on how many hands the game
    already has: the engine starts from the snapshot stored with the game and plays one hand.

    Raises:
        LedgerError: the game is not in play, or the hand is impossible here (``field`` is
            the record key at fault, e.g. ``wins[0].fu``; ``cause`` the engine's refusal).
        StaleHanchan: the game moved on since ``expected_version``.
    """
    try:
        with transaction.atomic():
            return _record(hanchan_id, hand, expected_version, request_id, by, steward, user_id)
    except IntegrityError:
        # A concurrent request took this sequence number (or this request id) first; its
        # transaction is gone, so look in a fresh one.
        done = HandEntry.objects.filter(hanchan_id=hanchan_id, request_id=request_id).first()
        if done is not None:
            return Recorded(done, created=False)
        raise StaleHanchan(Hanchan.objects.get(pk=hanchan_id)) from None


def _record(
    hanchan_id: int,
    hand: Mapping[str, Any],
    expected_version: int,
    request_id: uuid.UUID,
    by: Member | None,
    steward: bool,
    user_id: int | None,
) -> Recorded:
    hanchan = locked_hanchan(hanchan_id)
    if hanchan.version != expected_version:
        # Either this very request was recorded already (a double tap), or another phone
        # moved the game on.
        done = HandEntry.objects.filter(hanchan=hanchan, request_id=request_id).first()
        if done is not None:
            return Recorded(done, created=False)
    check_playable(hanchan, expected_version)
    # T-07: once time is called, this hand, the one in play then, is the last.
    planned = plan(stored_game(hanchan), NewHand(time_up_marked(hanchan, hand)))
    entry = write_plan(
        hanchan, planned, by=by, request_id=request_id, steward=steward, user_id=user_id
    )
    assert entry is not None
    return Recorded(entry, created=True)


def hand_correct(
    *,
    hanchan_id: int,
    sequence: int,
    hand: Mapping[str, Any],
    expected_version: int,
    by: Member | None = None,
    steward: bool = False,
    user_id: int | None = None,
) -> Hanchan:
    """Replace hand ``sequence`` (0-based) and recompute every hand after it.

    A finished game may be corrected too: if the correction means the game is no longer
    over, it goes back to "in play". The old hand is kept in the history. A correction
    resent after it was stored (the same hand, the version moved by it) is not an error.

    Raises:
        LedgerError: no such hand, a voided game, or the correction makes this or a later
            hand impossible (the message names the hand; ``later_hand`` its number).
        StaleHanchan: the game changed since ``expected_version``.
    """
    with transaction.atomic():
        hanchan = locked_hanchan(hanchan_id)
        check_changeable(hanchan)
        entries = list(hanchan.hands.order_by("sequence"))
        if hanchan.version != expected_version:
            if _is_stored(hanchan, entries, sequence, hand):
                return hanchan
            raise StaleHanchan(hanchan)
        planned = plan(stored_game(hanchan, entries), Correction(sequence, hand))
        write_plan(hanchan, planned, by=by, stored=entries, steward=steward, user_id=user_id)
    return hanchan


def _is_stored(
    hanchan: Hanchan, entries: Sequence[HandEntry], sequence: int, hand: Mapping[str, Any]
) -> bool:
    """Hand ``sequence`` is stored exactly as ``hand`` (a correction arriving twice)."""
    if not 0 <= sequence < len(entries):
        return False
    try:
        wanted = parse_hand(hand, hanchan.ruleset().players, sequence).to_json()
    except RecordError:
        return False
    return entries[sequence].data == wanted


def hand_undo_last(
    *,
    hanchan_id: int,
    expected_version: int,
    by: Member | None = None,
    steward: bool = False,
    user_id: int | None = None,
) -> Hanchan:
    """Take back the last hand (kept in the history); a finished game goes back in play.

    Raises:
        LedgerError: no hand to undo, or a voided game.
        StaleHanchan: the game changed since ``expected_version``.
    """
    with transaction.atomic():
        hanchan = locked_hanchan(hanchan_id)
        check_changeable(hanchan)
        check_version(hanchan, expected_version)
        entries = list(hanchan.hands.order_by("sequence"))
        planned = plan(stored_game(hanchan, entries), Undo())
        write_plan(hanchan, planned, by=by, stored=entries, steward=steward, user_id=user_id)
    return hanchan


def hanchan_void(
    *,
    hanchan_id: int,
    expected_version: int,
    by: Member | None = None,
    steward: bool = False,
    user_id: int | None = None,
) -> Hanchan:
    """Void a game: it stays in the ledger with its hands but counts nowhere.

    Raises:
        LedgerError: already voided.
        StaleHanchan: the game changed since ``expected_version``.
    """
    with transaction.atomic():
        hanchan = locked_hanchan(hanchan_id)
        if hanchan.status == Hanchan.Status.VOIDED:
            raise LedgerError(_("This game was already voided."))
        check_version(hanchan, expected_version)
        write_plan(
            hanchan, plan(stored_game(hanchan), Void()), by=by, steward=steward, user_id=user_id
        )
    return hanchan


def hanchan_final_scores(
    *,
    hanchan_id: int,
    final_scores: Mapping[str, Any],
    expected_version: int,
    by: Member | None = None,
    steward: bool = False,
    user_id: int | None = None,
) -> Hanchan:
    """Enter a game without hands as final scores only: the raw score of
    each seat at the end, the deposits left on the table, who busted whom; settled by the
    engine under the game's ruleset (:mod:`scoring.engine.final_scores`). Entering them
    again replaces them; an undo takes them back. Per-hand statistics leave the game out.

    Args:
        final_scores: ``{"scores": [points per seat], "deposits": points, "tobi":
            [{"busted": seat, "by": seat}], "chips": [per seat]}`` (only ``scores`` needed).

    Raises:
        LedgerError: a voided game, a game with hands, or final scores the ruleset refuses
            (not one per seat, not in steps of 100, not adding up with the deposits to the
            ruleset's total, a bad tobi entry); ``field`` names the key.
        StaleHanchan: the game changed since ``expected_version``.
    """
    with transaction.atomic():
        hanchan = locked_hanchan(hanchan_id)
        check_changeable(hanchan)
        check_version(hanchan, expected_version)
        planned = plan(stored_game(hanchan), FinalScoresEntry(final_scores))
        write_plan(hanchan, planned, by=by, steward=steward, user_id=user_id)
    return hanchan


def hanchan_call_time(
    *, hanchan_id: int, by: Member | None = None, cancel: bool = False
) -> Hanchan:
    """Call time in a time-limited game (rules-spec T-07, the GP's preliminaries): the hand in
    play now is the last one. The next hand entered is recorded with ``time_up`` and the game
    then settles as usual. ``cancel`` takes the call back (a mistaken tap) before that hand.

    Raises:
        LedgerError: the game is not in play.
    """
    with transaction.atomic():
        hanchan = locked_hanchan(hanchan_id)
        if hanchan.status != Hanchan.Status.IN_PLAY:
            raise LedgerError(_("This game is over: no more hands can be entered."))
        if hanchan.time_called != (not cancel):
            hanchan.time_called = not cancel
            hanchan.version += 1
            hanchan.save(update_fields=["time_called", "version"])
            LedgerChange.objects.create(
                hanchan=hanchan,
                action=LedgerChange.Action.TIME_CALLED,
                after={"time_called": hanchan.time_called},
                by=by,
            )
    return hanchan


def hanchan_confirm(
    *,
    hanchan_id: int,
    expected_version: int,
    user_id: int,
    by: Member | None,
    steward: bool,
) -> bool:
    """Confirm the result of a game as it stands at ``expected_version``: "this result is
    right", one tap on a seated player's own login, or a steward's (the
    rules in :mod:`scoring.ledger.confirmation`). Returns whether the game now counts.

    Raises:
        LedgerError: nothing to confirm (in play, already counted, a void of a game that
            never counted), already confirmed by this person, not seated and not a steward,
            or a game that only a steward can confirm.
        StaleHanchan: the game changed since ``expected_version`` (confirm what you saw).
    """
    with transaction.atomic():
        hanchan = locked_hanchan(hanchan_id)
        check_version(hanchan, expected_version)
        today = club_today()
        state = confirmation.state_of(
            hanchan,
            list(hanchan.seats.all()),
            list(hanchan.confirmations.filter(version=hanchan.version)),
            today,
        )
        if not state.pending:
            raise LedgerError(_("There is nothing to confirm in this game."))
        if not steward:
            member_id = None if by is None else by.pk
            if member_id not in state.seated:
                raise LedgerError(_("Only the players at this table and stewards may confirm."))
            if state.steward_only:
                raise LedgerError(_("Only a steward can confirm this game."))
            if member_id in state.confirmed_by:
                raise LedgerError(_("You have already confirmed this result."))
        return confirmation.confirm(
            hanchan, member=by, user_id=user_id, as_steward=steward, implicit=False, today=today
        )
