"""Writes to the hanchan ledger: start, record a hand, correct, undo, void, import.

Each function is one transaction and validates everything through the engine before writing:
bad input raises :class:`LedgerError` (or a subclass) and changes nothing. Points are computed
by the engine only (``scoring.engine``), never here.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.models import Member
from scoring.engine import (
    Game,
    HandResult,
    RecordError,
    Ruleset,
    Settlement,
    apply_overrides,
    load_ruleset,
    parse_hand,
)
from scoring.models import Hanchan, HandEntry, LedgerChange, RulesetVersion, Seat


class LedgerError(Exception):
    """An action the ledger refuses. ``field`` names the input at fault (or is empty);
    ``str(error)`` is a message for the person at the table."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class StaleHanchan(LedgerError):
    """The game changed since the client loaded it (another phone entered a hand first)."""

    def __init__(self, hanchan: Hanchan) -> None:
        super().__init__(
            _("This hand was already entered from another phone. Here is the current table.")
        )
        self.hanchan = hanchan


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
    seated = list(members)
    if len(seated) != ruleset.players:
        raise LedgerError(
            _("This ruleset needs %(n)d players.") % {"n": ruleset.players}, "players"
        )
    if len({m.pk for m in seated}) != len(seated):
        raise LedgerError(_("A player cannot sit at two seats."), "players")
    if draw_seats:
        (rng or random.SystemRandom()).shuffle(seated)
    with transaction.atomic():
        hanchan = Hanchan.objects.create(
            ruleset_version=RulesetVersion.current(ruleset_id),
            overrides=dict(overrides or {}),
            played_on=played_on,
            venue=venue,
            table_name=table_name,
            state=game_state_json(Game(ruleset)),
            created_by=by,
        )
        Seat.objects.bulk_create(
            Seat(hanchan=hanchan, index=i, member=m) for i, m in enumerate(seated)
        )
        LedgerChange.objects.create(
            hanchan=hanchan,
            action=LedgerChange.Action.STARTED,
            after={"players": [m.pk for m in seated], "ruleset": ruleset_id},
            by=by,
        )
    return hanchan


def hand_record(
    *,
    hanchan_id: int,
    hand: Mapping[str, Any],
    expected_version: int,
    request_id: uuid.UUID,
    by: Member | None = None,
) -> Recorded:
    """Record the next hand of a game in play.

    Idempotent: a request whose ``request_id`` was already recorded returns that entry and
    changes nothing (a double tap, a resent form). ``expected_version`` is the game version
    the client saw; if another phone recorded a hand since, :class:`StaleHanchan` is raised
    and nothing is written. The number of queries does not depend on how many hands the game
    already has: the engine state is restored from the game row, not replayed.

    Raises:
        LedgerError: the game is not in play, or the hand is impossible here (``field`` is
            the record key at fault, e.g. ``wins[0].fu``).
        StaleHanchan: the game moved on since ``expected_version``.
    """
    try:
        with transaction.atomic():
            return _record(hanchan_id, hand, expected_version, request_id, by)
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
) -> Recorded:
    hanchan = _locked(hanchan_id)
    if hanchan.version != expected_version:
        # Either this very request was recorded already (a double tap), or another phone
        # moved the game on.
        done = HandEntry.objects.filter(hanchan=hanchan, request_id=request_id).first()
        if done is not None:
            return Recorded(done, created=False)
    _check_playable(hanchan, expected_version)
    ruleset = hanchan.ruleset()
    game = hanchan.game(ruleset)
    sequence = game.hands_played
    parsed = _parse(hand, ruleset, sequence)
    try:
        result = game.play(parsed)
    except RecordError as error:
        raise _refusal(error) from None
    entry = HandEntry.objects.create(
        hanchan=hanchan,
        sequence=sequence,
        data=parsed.to_json(),
        result=hand_result_json(result),
        request_id=request_id,
        entered_by=by,
    )
    _save_game(hanchan, game)
    LedgerChange.objects.create(
        hanchan=hanchan,
        action=LedgerChange.Action.RECORDED,
        sequence=sequence,
        after=entry.data,
        by=by,
    )
    return Recorded(entry, created=True)


def hand_correct(
    *,
    hanchan_id: int,
    sequence: int,
    hand: Mapping[str, Any],
    expected_version: int,
    by: Member | None = None,
) -> Hanchan:
    """Replace hand ``sequence`` (0-based) and recompute every hand after it.

    A finished game may be corrected too: if the correction means the game is no longer
    over, it goes back to "in play". The old hand is kept in the history.

    Raises:
        LedgerError: no such hand, a voided game, or the correction makes this or a later
            hand impossible (the message names the hand).
        StaleHanchan: the game changed since ``expected_version``.
    """
    with transaction.atomic():
        hanchan, entries = _locked_with_hands(hanchan_id, expected_version)
        if not 0 <= sequence < len(entries):
            raise LedgerError(_("There is no such hand."), "sequence")
        ruleset = hanchan.ruleset()
        before = entries[sequence].data
        hands = [e.data for e in entries]
        hands[sequence] = _parse(hand, ruleset, sequence).to_json()
        game = _replay(ruleset, hands, changed=sequence)
        changed = []
        now = timezone.now()
        for entry, data, result in zip(entries, hands, game.results, strict=True):
            result_json = hand_result_json(result)
            if entry.data != data or entry.result != result_json:
                # bulk_update does not touch auto_now fields.
                entry.data, entry.result, entry.updated_at = data, result_json, now
                changed.append(entry)
        HandEntry.objects.bulk_update(changed, ["data", "result", "updated_at"])
        _save_game(hanchan, game)
        LedgerChange.objects.create(
            hanchan=hanchan,
            action=LedgerChange.Action.CORRECTED,
            sequence=sequence,
            before=before,
            after=hands[sequence],
            by=by,
        )
    return hanchan


def hand_undo_last(*, hanchan_id: int, expected_version: int, by: Member | None = None) -> Hanchan:
    """Take back the last hand (kept in the history); a finished game goes back in play.

    Raises:
        LedgerError: no hand to undo, or a voided game.
        StaleHanchan: the game changed since ``expected_version``.
    """
    with transaction.atomic():
        hanchan, entries = _locked_with_hands(hanchan_id, expected_version)
        if not entries:
            raise LedgerError(_("There is no hand to undo."))
        last = entries.pop()
        game = _replay(hanchan.ruleset(), [e.data for e in entries], changed=None)
        LedgerChange.objects.create(
            hanchan=hanchan,
            action=LedgerChange.Action.UNDONE,
            sequence=last.sequence,
            before={"hand": last.data, "result": last.result},
            by=by,
        )
        last.delete()
        _save_game(hanchan, game)
    return hanchan


def hanchan_void(*, hanchan_id: int, expected_version: int, by: Member | None = None) -> Hanchan:
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
        LedgerChange.objects.create(
            hanchan=hanchan,
            action=LedgerChange.Action.VOIDED,
            before={"status": hanchan.status},
            by=by,
        )
        Hanchan.objects.filter(pk=hanchan.pk).update(
            status=Hanchan.Status.VOIDED, version=F("version") + 1
        )
        hanchan.refresh_from_db()
    return hanchan


def hanchan_import(
    *,
    record: Mapping[str, Any],
    members_by_name: Mapping[str, Member],
    played_on: date,
    by: Member | None = None,
) -> Hanchan:
    """Store a whole game record (../shared/game-record-format.md) as a hanchan.

    ``members_by_name`` maps each of the record's player names to a member. The record is
    replayed through the engine first; the hanchan, its hands and settlement are then
    written. Must run inside the caller's transaction when several records go together.

    Raises:
        LedgerError: an invalid record (message as ``replay`` prints it), or a player name
            with no member.
    """
    from scoring.engine import replay_record

    try:
        replay = replay_record(record)
    except RecordError as error:
        raise LedgerError(error.line(), error.key) from None
    try:
        members = [members_by_name[name] for name in replay.players]
    except KeyError as missing:
        raise LedgerError(_("No member is called %(name)s.") % {"name": missing.args[0]}) from None
    meta = {key: str(record.get(key, "")) for key in ("venue", "table")}
    hanchan = hanchan_start(
        ruleset_id=replay.ruleset.id,
        members=members,
        played_on=played_on,
        venue=meta["venue"][:120],
        table_name=meta["table"][:40],
        overrides=record.get("overrides") or None,
        by=by,
    )
    game = Game(replay.ruleset)
    entries = []
    for sequence, (hand, result) in enumerate(zip(replay.hands, replay.results, strict=True)):
        game.play(hand)
        entries.append(
            HandEntry(
                hanchan=hanchan,
                sequence=sequence,
                data=hand.to_json(),
                result=hand_result_json(result),
                entered_by=by,
            )
        )
    HandEntry.objects.bulk_create(entries)
    _save_game(hanchan, game)
    return hanchan


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
    return {
        "format": "club-game/1",
        "ruleset": hanchan.ruleset_version.ruleset_id,
        "overrides": overrides,
        "players": [seat.member.display_name for seat in seats],
        "hands": [entry.data for entry in sorted(hanchan.hands.all(), key=lambda e: e.sequence)],
        "date": hanchan.played_on.isoformat(),
        "venue": hanchan.venue,
        "table": hanchan.table_name,
    }


# -- internals -------------------------------------------------------------------------------


def _with_overrides(base: Ruleset, overrides: Mapping[str, Any] | None) -> Ruleset:
    if not overrides:
        return base
    try:
        return apply_overrides(base, overrides)
    except RecordError as error:
        raise LedgerError(error.message, error.key) from None


def _locked(hanchan_id: int) -> Hanchan:
    try:
        return (
            Hanchan.objects.select_for_update().select_related("ruleset_version").get(pk=hanchan_id)
        )
    except Hanchan.DoesNotExist:
        raise LedgerError(_("There is no such game.")) from None


def _locked_with_hands(hanchan_id: int, expected_version: int) -> tuple[Hanchan, list[HandEntry]]:
    """A game that may still be changed (not voided, at the expected version), locked, and
    its hands in order."""
    hanchan = _locked(hanchan_id)
    if hanchan.status == Hanchan.Status.VOIDED:
        raise LedgerError(_("This game was voided."))
    _check_version(hanchan, expected_version)
    return hanchan, list(hanchan.hands.order_by("sequence"))


def _check_version(hanchan: Hanchan, expected_version: int) -> None:
    if hanchan.version != expected_version:
        raise StaleHanchan(hanchan)


def _check_playable(hanchan: Hanchan, expected_version: int) -> None:
    if hanchan.status != Hanchan.Status.IN_PLAY:
        raise LedgerError(_("This game is over: no more hands can be entered."))
    _check_version(hanchan, expected_version)


def _parse(hand: Mapping[str, Any], ruleset: Ruleset, index: int) -> Any:
    try:
        return parse_hand(hand, ruleset.players, index)
    except RecordError as error:
        raise _refusal(error) from None


def _refusal(error: RecordError) -> LedgerError:
    return LedgerError(error.message, error.key)


def _replay(ruleset: Ruleset, hands: list[dict[str, Any]], changed: int | None) -> Game:
    """Replay stored hands; a refusal names the hand (1-based, as people count them)."""
    game = Game(ruleset)
    for index, data in enumerate(hands):
        try:
            game.play(parse_hand(data, ruleset.players, index))
        except RecordError as error:
            if changed is not None and index != changed:
                message = _("This correction makes hand %(n)d impossible: %(why)s") % {
                    "n": index + 1,
                    "why": error.message,
                }
                raise LedgerError(message, error.key) from None
            raise _refusal(error) from None
    return game


def hand_result_json(result: HandResult) -> dict[str, Any]:
    """A hand's engine result as ``HandEntry.result`` stores it: the replay-output hand plus
    ``payments`` (who paid whom) and ``chips`` where any moved."""
    data = result.to_json()
    data["payments"] = [p.to_json() for p in result.payments]
    if any(result.chips):
        data["chips"] = list(result.chips)
    return data


def game_state_json(game: Game) -> dict[str, Any]:
    """What ``Hanchan.state`` keeps: the engine snapshot (while in play) and the table view
    (round, dealer, honba, deposits, scores, all_last, hands_played)."""
    table = game.state()
    return {
        "game": None if game.ended_by is not None else game.snapshot(),
        "table": {
            "round": table.round,
            "dealer": table.dealer,
            "honba": table.honba,
            "deposits": table.deposits,
            "scores": list(table.scores),
            "all_last": table.all_last,
            "hands_played": table.hands_played,
        },
    }


def _save_game(hanchan: Hanchan, game: Game) -> None:
    """Store the game's new state, status and (when over) the settlement per seat."""
    settlement = game.settlement
    was_finished = hanchan.status == Hanchan.Status.FINISHED
    hanchan.state = game_state_json(game)
    hanchan.version += 1
    if settlement is None:
        hanchan.status = Hanchan.Status.IN_PLAY
        hanchan.ended_by = ""
        hanchan.finished_at = None
    else:
        if hanchan.status != Hanchan.Status.FINISHED:
            hanchan.finished_at = timezone.now()
        hanchan.status = Hanchan.Status.FINISHED
        hanchan.ended_by = settlement.ended_by
    hanchan.save(update_fields=["state", "version", "status", "ended_by", "finished_at"])
    if settlement is not None or was_finished:
        _save_settlement(hanchan, settlement)


def _save_settlement(hanchan: Hanchan, settlement: Settlement | None) -> None:
    seats = list(hanchan.seats.all())
    for seat in seats:
        i = seat.index
        if settlement is None:
            seat.final_score = seat.rank = seat.points = seat.chips = seat.uma_ep = None
        else:
            seat.final_score = settlement.scores[i]
            seat.rank = settlement.ranks[i]
            seat.points = settlement.points[i]
            seat.chips = None if settlement.chips is None else settlement.chips[i]
            seat.uma_ep = None if settlement.uma_ep is None else settlement.uma_ep[i]
    Seat.objects.bulk_update(seats, ["final_score", "rank", "points", "chips", "uma_ep"])
