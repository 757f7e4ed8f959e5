"""Writing a :class:`~scoring.ledger.plan.Plan`: the only code that stores engine results.

Every row the engine's numbers end up in is written here, inside the caller's transaction:
the hands (``HandEntry``: hand, result, snapshot before), their per-seat facts (``HandSeat``),
the game's state, status and version (``Hanchan``), the settlement and its facts per seat
(``Seat``), the history (``LedgerChange``) and the members' running totals
(:mod:`scoring.ledger.totals`). :mod:`scoring.services` locks, checks and calls these;
the history seeding calls :func:`create_games` with many games at once.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.dates import club_today
from clubsite.models import Member
from scoring.ledger import confirmation, totals
from scoring.ledger.confirmation import counted_seats
from scoring.ledger.errors import LedgerError
from scoring.ledger.facts import hand_facts, settlement_facts, yaku_facts
from scoring.ledger.fingerprint import DuplicateGame, game_fingerprint
from scoring.ledger.plan import (
    Correction,
    FinalScoresEntry,
    NewHand,
    Plan,
    PlannedHand,
    Undo,
    Void,
)
from scoring.models import (
    Confirmation,
    CountedSeat,
    Hanchan,
    HandEntry,
    HandSeat,
    LedgerChange,
    RulesetVersion,
    Seat,
    WinYaku,
)


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game to create with :func:`create_games`: its ``plan`` (a :class:`Record` plan,
    perhaps of no hands), the pinned ``version``, the ``members`` in seat order and the
    descriptive fields of ``Hanchan``."""

    plan: Plan
    version: RulesetVersion
    members: Sequence[Member]
    played_on: date
    overrides: dict[str, Any]
    venue: str = ""
    table_name: str = ""
    by: Member | None = None
    steward: bool = False
    # A true twin of a game already stored (``import_games --allow-duplicate``).
    allow_duplicate: bool = False

    def authority(self, confirmed: bool) -> bool:
        """Whether the game comes with a steward's authority: ``confirmed`` for the whole
        batch, a steward's act (``steward``), or no member at all (a command or the system,
        as :func:`_vouch` reads a change made by no one)."""
        return confirmed or self.steward or self.by is None


def create_games(games: Sequence[NewGame], *, confirmed: bool = False) -> list[Hanchan]:
    """Create the games with their seats, hands, facts, settlements and "started" history.

    Every new game goes through the one confirmation (:mod:`scoring.ledger.confirmation`,
    issue 19 item 3): one with a steward's authority (``confirmed`` for the whole batch, as
    the history seeding; ``NewGame.steward``, as an import by a steward; ``by`` None, as a
    command) counts at once when finished; otherwise its ``by`` vouches for their own seat
    (when seated) and the game waits for the others' confirmations like a table game.

    A finished game already in the ledger (its fingerprint, :mod:`scoring.ledger.fingerprint`,
    on a game not voided, or twice in ``games``) is refused unless ``allow_duplicate``.

    A fixed number of bulk inserts whatever the number of games (the history seeding stores
    a whole club night at once), plus a few queries per finished game that waits. Returns
    the hanchans in the order of ``games``.

    Raises:
        DuplicateGame: a finished game that is stored already; nothing is written.
    """
    fingerprints = [_new_fingerprint(game) for game in games]
    _refuse_duplicates(games, fingerprints)
    now = timezone.now()
    hanchans = Hanchan.objects.bulk_create(
        Hanchan(
            ruleset_version=game.version,
            overrides=game.overrides,
            played_on=game.played_on,
            venue=game.venue,
            table_name=game.table_name,
            status=_status(game.plan),
            version=1 if game.plan.hands else 0,
            state=game.plan.state,
            ended_by=game.plan.ended_by or "",
            created_by=game.by,
            finished_at=None if game.plan.settlement is None else now,
            counted_version=(
                (1 if game.plan.hands else 0)
                if game.authority(confirmed) and game.plan.settlement is not None
                else None
            ),
            final_scores_only="final_scores" in game.plan.state,
            fingerprint=fingerprint,
        )
        for game, fingerprint in zip(games, fingerprints, strict=True)
    )
    seats: list[Seat] = []
    entries: list[HandEntry] = []
    changes: list[LedgerChange] = []
    for hanchan, game in zip(hanchans, games, strict=True):
        game_seats = [Seat(hanchan=hanchan, index=i, member=m) for i, m in enumerate(game.members)]
        _settle(game_seats, game.plan)
        seats.extend(game_seats)
        entries.extend(_entry(hanchan, hand, by=game.by) for hand in game.plan.hands)
        changes.append(
            LedgerChange(
                hanchan=hanchan,
                action=LedgerChange.Action.STARTED,
                after={
                    "players": [m.pk for m in game.members],
                    "ruleset": game.version.ruleset_id,
                },
                by=game.by,
            )
        )
    Seat.objects.bulk_create(seats)
    LedgerChange.objects.bulk_create(changes)
    HandEntry.objects.bulk_create(entries, batch_size=2000)
    members = {h.pk: [m.pk for m in g.members] for h, g in zip(hanchans, games, strict=True)}
    HandSeat.objects.bulk_create(_facts(entries, members), batch_size=4000)
    WinYaku.objects.bulk_create(_yaku(entries, members), batch_size=4000)
    counted = [h for h in hanchans if h.counted_version is not None]
    if counted:
        seats_of: dict[int, list[Seat]] = {h.pk: [] for h in counted}
        for seat in seats:
            if seat.hanchan_id in seats_of:
                seats_of[seat.hanchan_id].append(seat)
        CountedSeat.objects.bulk_create(counted_seats(counted, seats_of), batch_size=4000)
        Confirmation.objects.bulk_create(
            Confirmation(hanchan=h, version=h.version, as_steward=True) for h in counted
        )
        totals.refresh(
            {seat.member_id for game_seats in seats_of.values() for seat in game_seats},
            {h.played_on.replace(day=1) for h in counted},
            {h.ruleset_version_id for h in counted},
        )
    for hanchan, game in zip(hanchans, games, strict=True):
        if hanchan.status == Hanchan.Status.FINISHED and hanchan.counted_version is None:
            _vouch(hanchan, game.by, steward=False, user_id=game.by.user_id if game.by else None)
    return hanchans


def _new_fingerprint(game: NewGame) -> str:
    if game.plan.settlement is None:
        return ""
    return game_fingerprint(
        played_on=game.played_on,
        members=None if game.version.service else [m.pk for m in game.members],
        hand_results=[hand.result for hand in game.plan.hands],
        final_scores=game.plan.state.get("final_scores"),
    )


def _refuse_duplicates(games: Sequence[NewGame], fingerprints: Sequence[str]) -> None:
    checked = {
        fp for game, fp in zip(games, fingerprints, strict=True) if fp and not game.allow_duplicate
    }
    if not checked:
        return
    stored = (
        Hanchan.objects.filter(fingerprint__in=checked)
        .exclude(status=Hanchan.Status.VOIDED)
        .order_by("pk")
        .first()
    )
    if stored is not None:
        raise DuplicateGame(stored)
    seen: set[str] = set()
    for game, fingerprint in zip(games, fingerprints, strict=True):
        if not fingerprint:
            continue
        if fingerprint in seen and not game.allow_duplicate:
            raise LedgerError(_("the same game twice in one import: nothing stored"), "fingerprint")
        seen.add(fingerprint)


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
        _vouch(hanchan, by, steward, user_id)
        return None
    if isinstance(change, NewHand):
        assert plan.last is not None
        created = _entry(hanchan, plan.last, by=by, request_id=request_id)
        created.save(force_insert=True)
        members = {hanchan.pk: _member_ids(hanchan)}
        HandSeat.objects.bulk_create(_facts([created], members))
        yaku = _yaku([created], members)
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
    _vouch(hanchan, by, steward, user_id)
    return created


def _vouch(hanchan: Hanchan, by: Member | None, steward: bool, user_id: int | None) -> None:
    """The one who made a change vouches for its result: their implicit confirmation of a
    finished game's new version (a steward's counts it at once; see
    :mod:`scoring.ledger.confirmation`). A hand of a game in play has nothing to confirm."""
    counted = hanchan.counted_version is not None
    if hanchan.status != Hanchan.Status.FINISHED and not (
        hanchan.status == Hanchan.Status.VOIDED and counted
    ):
        return
    today = club_today()
    seats = list(hanchan.seats.all())
    seated = [seat.member_id for seat in seats]
    # A change made by no member comes from a command or the system (an import, the
    # history seeding, a script run by a steward): it carries a steward's authority.
    authority = steward or (by is None and user_id is None)
    if authority or (by is not None and by.pk in seated):
        confirmation.confirm(
            hanchan,
            member=by,
            user_id=user_id if user_id is not None else (by.user_id if by else None),
            as_steward=authority,
            implicit=True,
            today=today,
            seats=seats,
        )
    else:
        confirmation.settle(hanchan, today=today, by=by, seats=seats)


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
    members = {hanchan.pk: _member_ids(hanchan)}
    HandSeat.objects.filter(hand__in=changed).delete()
    HandSeat.objects.bulk_create(_facts(changed, members))
    WinYaku.objects.filter(hand__in=changed).delete()
    WinYaku.objects.bulk_create(_yaku(changed, members))
    LedgerChange.objects.create(
        hanchan=hanchan,
        action=LedgerChange.Action.CORRECTED,
        sequence=change.sequence,
        before=before,
        after=plan.hands[0].data,
        by=by,
    )


def _entry(
    hanchan: Hanchan,
    hand: PlannedHand,
    *,
    by: Member | None,
    request_id: uuid.UUID | None = None,
) -> HandEntry:
    return HandEntry(
        hanchan=hanchan,
        sequence=hand.sequence,
        data=hand.data,
        result=hand.result,
        before=hand.before,
        request_id=request_id,
        entered_by=by,
    )


def _member_ids(hanchan: Hanchan) -> list[int]:
    """The members in seat order (prefetched seats when the caller has them)."""
    seats = sorted(hanchan.seats.all(), key=lambda seat: seat.index)
    return [seat.member_id for seat in seats]


def _yaku(entries: Sequence[HandEntry], members: dict[int, list[int]]) -> list[WinYaku]:
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


def _facts(entries: Sequence[HandEntry], members: dict[int, list[int]]) -> list[HandSeat]:
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
        )
        for entry in entries
        for facts in hand_facts(entry.data, entry.result)
    ]


def _status(plan: Plan) -> str:
    return Hanchan.Status.IN_PLAY if plan.settlement is None else Hanchan.Status.FINISHED


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
        _settle(seats, plan)
        Seat.objects.bulk_update(seats, _SETTLEMENT_FIELDS)


def _stored_fingerprint(hanchan: Hanchan, plan: Plan) -> str:
    """The fingerprint of the game as written so far (its hands are stored before the game
    is saved): one query, only when the game is over."""
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


_SETTLEMENT_FIELDS = ["final_score", "rank", "points", "chips", "uma_ep", "busted", "last_place"]


def _settle(seats: Sequence[Seat], plan: Plan) -> None:
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
