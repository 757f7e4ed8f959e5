"""Writes to the hanchan ledger: start, record a hand, correct, undo, void, import.

Each function is one transaction: it locks the game, checks the version, plans the change
through the ledger's one pipeline (:func:`scoring.ledger.plan`, the engine played once over
the hands that change) and writes the plan (:mod:`scoring.ledger.write`). Bad input raises
:class:`LedgerError` (or a subclass) and changes nothing. Points come from the engine only.
"""

from __future__ import annotations

import random
import unicodedata
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubsite.models import Member
from scoring.engine import (
    RecordError,
    Ruleset,
    apply_overrides,
    load_ruleset,
    parse_hand,
    record_players,
    ruleset_of_record,
)
from scoring.engine.final_scores import KEY as FINAL_SCORES_KEY
from scoring.ledger import (
    Change,
    Correction,
    FinalScoresEntry,
    LedgerError,
    NewHand,
    Plan,
    Record,
    StaleHanchan,
    StoredGame,
    StoredHand,
    Undo,
    Void,
    confirmation,
    plan,
)
from scoring.ledger.write import NewGame, create_games, write_plan
from scoring.models import Hanchan, HandEntry, LedgerChange, RulesetVersion
from scoring.standings.periods import club_today

# The longest display name a member can have (clubsite.models.Member.display_name).
NAME_LIMIT = 60

__all__ = [
    "LedgerError",
    "Recorded",
    "StaleHanchan",
    "hand_correct",
    "hand_record",
    "hand_undo_last",
    "hanchan_call_time",
    "hanchan_confirm",
    "hanchan_final_scores",
    "hanchan_import",
    "hanchan_record",
    "hanchan_start",
    "hanchan_void",
    "plan_for",
    "prepare_import",
    "stored_game",
]


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
        LedgerError: unknown ruleset, wrong number of players, a member twice, bad overrides.
    """
    try:
        base = load_ruleset(ruleset_id)
    except KeyError:
        raise LedgerError(_("Unknown ruleset."), "ruleset") from None
    ruleset = _with_overrides(base, overrides)
    seated = _seated(ruleset, members)
    _check_date(played_on)
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
    hanchan = _locked(hanchan_id)
    if hanchan.version != expected_version:
        # Either this very request was recorded already (a double tap), or another phone
        # moved the game on.
        done = HandEntry.objects.filter(hanchan=hanchan, request_id=request_id).first()
        if done is not None:
            return Recorded(done, created=False)
    _check_playable(hanchan, expected_version)
    if hanchan.time_called and isinstance(hand, Mapping) and "time_up" not in hand:
        # T-07: time was called; this hand, the one in play then, is the last.
        hand = {**hand, "time_up": True}
    planned = plan(stored_game(hanchan), NewHand(hand))
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
        hanchan = _locked(hanchan_id)
        _check_changeable(hanchan)
        entries = list(hanchan.hands.order_by("sequence"))
        if hanchan.version != expected_version:
            if _is_stored(hanchan, entries, sequence, hand):
                return hanchan
            raise StaleHanchan(hanchan)
        planned = plan(stored_game(hanchan, entries), Correction(sequence, hand))
        write_plan(
            hanchan, planned, by=by, stored=entries, steward=steward, user_id=user_id
        )
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
        hanchan = _locked(hanchan_id)
        _check_changeable(hanchan)
        _check_version(hanchan, expected_version)
        entries = list(hanchan.hands.order_by("sequence"))
        planned = plan(stored_game(hanchan, entries), Undo())
        write_plan(
            hanchan, planned, by=by, stored=entries, steward=steward, user_id=user_id
        )
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
        hanchan = _locked(hanchan_id)
        if hanchan.status == Hanchan.Status.VOIDED:
            raise LedgerError(_("This game was already voided."))
        _check_version(hanchan, expected_version)
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
    """Enter a game without hands as final scores only (issue 11, item 6): the raw score of
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
        hanchan = _locked(hanchan_id)
        _check_changeable(hanchan)
        _check_version(hanchan, expected_version)
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
        hanchan = _locked(hanchan_id)
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
    right", one tap on a seated player's own login, or a steward's (issue 9, item 1; the
    rules in :mod:`scoring.ledger.confirmation`). Returns whether the game now counts.

    Raises:
        LedgerError: nothing to confirm (in play, already counted, a void of a game that
            never counted), already confirmed by this person, not seated and not a steward,
            or a game that only a steward can confirm.
        StaleHanchan: the game changed since ``expected_version`` (confirm what you saw).
    """
    with transaction.atomic():
        hanchan = _locked(hanchan_id)
        _check_version(hanchan, expected_version)
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


def prepare_import(
    *,
    record: Mapping[str, Any],
    members_by_name: Mapping[str, Member],
    played_on: date,
    by: Member | None = None,
    versions: dict[str, RulesetVersion] | None = None,
) -> NewGame:
    """Check a game record (docs/game-record-format.md) and plan it, without writing.

    The record's hands are played through the engine once, here. ``versions`` caches
    :meth:`RulesetVersion.current` per ruleset id (a caller importing many games).

    Raises:
        LedgerError: an invalid record (the message as ``replay`` prints it), a player name
            with no member, or a member at two seats.
    """
    try:
        ruleset = ruleset_of_record(record)
        players = record_players(record, ruleset)
        raw_hands = record.get("hands", [] if FINAL_SCORES_KEY in record else None)
        if not isinstance(raw_hands, list):
            raise RecordError(None, "hands", "must be a list of hands", code="hands_not_a_list")
    except RecordError as error:
        raise LedgerError(error.line(), error.key, cause=error) from None
    for name in players:
        if len(name) > NAME_LIMIT or any(unicodedata.category(c).startswith("C") for c in name):
            raise LedgerError(
                _("players: %(name)r is no member's name (at most %(n)d characters, no "
                  "control characters).") % {"name": name[:80], "n": NAME_LIMIT},
                "players",
            )
    try:
        members = [members_by_name[name] for name in players]
    except KeyError as missing:
        raise LedgerError(_("No member is called %(name)s.") % {"name": missing.args[0]}) from None
    seated = _seated(ruleset, members)
    _check_date(played_on)
    if FINAL_SCORES_KEY in record:
        if raw_hands:
            raise LedgerError(
                "final_scores: a record has hands or final scores, not both", FINAL_SCORES_KEY
            )
        planned = plan(StoredGame.new(ruleset), FinalScoresEntry(record[FINAL_SCORES_KEY]))
    else:
        planned = plan(StoredGame.new(ruleset), Record(raw_hands))
    if versions is None:
        versions = {}
    if ruleset.id not in versions:
        versions[ruleset.id] = RulesetVersion.current(ruleset.id)
    return NewGame(
        plan=planned,
        version=versions[ruleset.id],
        members=seated,
        played_on=played_on,
        overrides=dict(record.get("overrides") or {}),
        venue=str(record.get("venue", ""))[:120],
        table_name=str(record.get("table", ""))[:40],
        by=by,
    )


def hanchan_import(
    *,
    record: Mapping[str, Any],
    members_by_name: Mapping[str, Member],
    played_on: date,
    by: Member | None = None,
) -> Hanchan:
    """Store a whole game record (docs/game-record-format.md) as a hanchan.

    ``members_by_name`` maps each of the record's player names to a member. The record is
    played through the engine once (:func:`prepare_import`), then the hanchan, its hands,
    their facts and the settlement are written. An import is made by a steward running a
    command, so a finished game counts in standings at once (confirmed as a steward). Must
    run inside the caller's transaction when several records go together.

    Raises:
        LedgerError: as :func:`prepare_import`.
    """
    game = prepare_import(
        record=record, members_by_name=members_by_name, played_on=played_on, by=by
    )
    with transaction.atomic():
        return create_games([game], confirmed=True)[0]


def hanchan_record(hanchan: Hanchan) -> dict[str, Any]:
    """The game as a record (club-game/1) that replays to the stored result.

    Where the pinned ruleset version differs from today's built-in ruleset, the differences
    go into ``overrides`` together with the game's own overrides, so the export replays the
    same way after the club edits its rules.
    """
    current = load_ruleset(hanchan.ruleset_version.ruleset_id).parameters()
    pinned = hanchan.ruleset_version.parameters
    overrides = {
        name: value
        for name, value in pinned.items()
        if current.get(name) != value and name not in ("id", "name", "sources")
    }
    overrides.update(hanchan.overrides or {})
    seats = sorted(hanchan.seats.all(), key=lambda s: s.index)
    record: dict[str, Any] = {
        "format": "club-game/1",
        "ruleset": hanchan.ruleset_version.ruleset_id,
        "overrides": overrides,
        "players": [seat.member.display_name for seat in seats],
        "hands": [entry.data for entry in sorted(hanchan.hands.all(), key=lambda e: e.sequence)],
        "date": hanchan.played_on.isoformat(),
        "venue": hanchan.venue,
        "table": hanchan.table_name,
    }
    if hanchan.final_scores_only:
        record["final_scores"] = hanchan.state["final_scores"]
    return record


def stored_game(hanchan: Hanchan, entries: Sequence[HandEntry] | None = None) -> StoredGame:
    """What :func:`scoring.ledger.plan` needs of ``hanchan``: its ruleset and state, and
    ``entries`` (its hands in order) when the change needs them (a correction, an undo)."""
    state = hanchan.state or {}
    return StoredGame(
        ruleset=hanchan.ruleset(),
        snapshot=state.get("game"),
        hands_played=int(state.get("table", {}).get("hands_played", 0)),
        hands=None
        if entries is None
        else [StoredHand(e.data, e.result, e.before) for e in entries],
        final_scores=state.get("final_scores") if hanchan.final_scores_only else None,
    )


def plan_for(hanchan: Hanchan, change: Change, entries: Sequence[HandEntry] = ()) -> Plan:
    """Plan ``change`` on a stored game without writing (the table screen's preview).

    Raises:
        LedgerError: as :func:`scoring.ledger.plan`.
    """
    needs_hands = isinstance(change, Correction | Undo)
    return plan(stored_game(hanchan, list(entries) if needs_hands else None), change)


# -- internals -------------------------------------------------------------------------------


def _with_overrides(base: Ruleset, overrides: Mapping[str, Any] | None) -> Ruleset:
    if not overrides:
        return base
    try:
        return apply_overrides(base, overrides)
    except RecordError as error:
        raise LedgerError(error.message, error.key, cause=error) from None


def _seated(ruleset: Ruleset, members: Sequence[Member]) -> list[Member]:
    seated = list(members)
    if len(seated) != ruleset.players:
        raise LedgerError(
            _("This ruleset needs %(n)d players.") % {"n": ruleset.players}, "players"
        )
    if len({m.pk for m in seated}) != len(seated):
        raise LedgerError(_("A player cannot sit at two seats."), "players")
    return seated


# No club game is older than this; a date before it is a typing error.
EARLIEST_GAME = date(1950, 1, 1)


def _check_date(played_on: date) -> None:
    """A game is played on a day between :data:`EARLIEST_GAME` and today (club time)."""
    if played_on > club_today():
        raise LedgerError(_("A game cannot be dated in the future."), "played_on")
    if played_on < EARLIEST_GAME:
        raise LedgerError(
            _("A game cannot be dated before %(year)d.") % {"year": EARLIEST_GAME.year},
            "played_on",
        )


def _locked(hanchan_id: int) -> Hanchan:
    try:
        return (
            Hanchan.objects.select_for_update().select_related("ruleset_version").get(pk=hanchan_id)
        )
    except Hanchan.DoesNotExist:
        raise LedgerError(_("There is no such game.")) from None


def _check_changeable(hanchan: Hanchan) -> None:
    if hanchan.status == Hanchan.Status.VOIDED:
        raise LedgerError(_("This game was voided."))


def _check_version(hanchan: Hanchan, expected_version: int) -> None:
    if hanchan.version != expected_version:
        raise StaleHanchan(hanchan)


def _check_playable(hanchan: Hanchan, expected_version: int) -> None:
    if hanchan.status != Hanchan.Status.IN_PLAY:
        raise LedgerError(_("This game is over: no more hands can be entered."))
    _check_version(hanchan, expected_version)
