"""Table confirmation: when a game's result counts in standings.

A finished game counts only once its current version is confirmed: by every other seated
player (the club's default), by one other seated player, or by a steward, as the current
club's ``confirmation`` says (``"every_other"``, ``"one_other"``, ``"steward"``,
``"none"``). Games dated before yesterday (club time zone) and games started by a member
who does not play need a steward whatever the setting. The player who makes a change
vouches for it (an implicit confirmation); a steward's change, a steward's tap, an import
by command and any change made by no member at all (a command or script run on the server)
confirm with a steward's authority. Every path into the ledger goes through this one rule:
table games, final-score sheets, tournament tables and online uploads (the uploader vouches
for their own seat; an online game is dated by its log, so the date rule leaves it to its
players).

A change to a counted game (a correction, an undo, a void) is pending until confirmed
again: the counted result (``CountedSeat``) stays in force meanwhile, and the history keeps
both. Counting writes ``CountedSeat`` from the seats' settlement and the ``HandSeat`` facts,
then brings the members' totals up to date (:mod:`scoring.ledger.totals`).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from clubsite.club_scope import current_club
from clubsite.dates import club_today
from clubsite.models import Member
from scoring.ledger import guests, totals
from scoring.ledger.bulk import insert_objects, insert_rows
from scoring.ledger.rows import FACT_FIELDS, SEAT_SUMS, seat_sums
from scoring.models import Confirmation, CountedSeat, Hanchan, HandSeat, LedgerChange, Seat

POLICIES = ("every_other", "one_other", "steward", "none")

# Sent inside the transaction that changes what counts (a game counted, a counted game's
# correction or void confirmed), with ``hanchan_ids``: the games whose counted result changed.
# Readers that keep figures of their own (the ratings) follow the ledger through it.
games_counted = Signal()


def policy() -> str:
    """The current club's confirmation policy (``Club.confirmation``, one of
    :data:`POLICIES`; a new club starts with ``CLUB_CONFIRMATION``). No query inside a club's
    scope (:func:`clubsite.club_scope.current_club`).

    Raises:
        ValueError: a value not in :data:`POLICIES`.
    """
    value = current_club().confirmation
    if value not in POLICIES:
        raise ValueError(f"A club's confirmation must be one of {POLICIES}, not {value!r}")
    return str(value)


@dataclass(frozen=True, slots=True)
class ConfirmationState:
    """Where a game stands with confirmation.

    ``pending``: the current version is not the counted one and has something to count (a
    finished result, or a void of a counted game); ``steward_only``: only a steward can
    confirm it, ``why`` says why (``"policy"``, ``"old_date"``, ``"not_a_player"``);
    ``confirmed_by``: member ids of the seated players who confirmed this version;
    ``waiting_for``: member ids of the seated players whose confirmation is still wanted
    (empty where one more suffices or a steward is needed); ``counted``: some version of
    the game counts now; ``seated``: the players' member ids in seat order.
    """

    pending: bool
    steward_only: bool
    why: str
    confirmed_by: tuple[int, ...]
    waiting_for: tuple[int, ...]
    counted: bool
    seated: tuple[int, ...]

    def may_confirm(self, member_id: int | None, is_steward: bool) -> bool:
        """Whether this person's tap would be a confirmation that is still wanted: a
        steward's, or a seated player's who has not confirmed this version (unless only a
        steward can)."""
        if not self.pending:
            return False
        if is_steward:
            return True
        return (
            not self.steward_only
            and member_id in self.seated
            and member_id not in self.confirmed_by
        )


def state_of(
    hanchan: Hanchan,
    seats: Sequence[Seat],
    confirmations: Sequence[Confirmation],
    today: datetime.date,
    rule: str | None = None,
) -> ConfirmationState:
    """The confirmation state of ``hanchan`` (its ``seats`` and its ``confirmations`` of any
    version), on the club-local date ``today``, under the club's confirmation ``rule``
    (default :func:`policy`; a caller with many games reads it once). No query inside a
    club's scope or with ``rule`` given (else one, for the club's policy)."""
    seated = [seat.member_id for seat in sorted(seats, key=lambda s: s.index)]
    counted = hanchan.counted_version is not None
    pending = hanchan.counted_version != hanchan.version and (
        hanchan.status == Hanchan.Status.FINISHED
        or (hanchan.status == Hanchan.Status.VOIDED and counted)
    )
    rule = policy() if rule is None else rule
    why = _steward_only(hanchan, seated, today, rule)
    current = [c for c in confirmations if c.version == hanchan.version]
    confirmed = tuple(m for m in seated if any(c.member_id == m for c in current))
    waiting: tuple[int, ...] = ()
    if pending and not why and rule == "every_other":
        waiting = tuple(m for m in seated if m not in confirmed)
    return ConfirmationState(
        pending=pending,
        steward_only=bool(why),
        why=why,
        confirmed_by=confirmed,
        waiting_for=waiting,
        counted=counted,
        seated=tuple(seated),
    )


def _steward_only(hanchan: Hanchan, seated: Sequence[int], today: datetime.date, rule: str) -> str:
    if rule == "steward":
        return "policy"
    # A table game dated before yesterday is a backdated entry; an online game carries the
    # date its log gives, re-scored hand by hand, so its players confirm it as any table.
    if hanchan.played_on < today - datetime.timedelta(days=1) and not _online(hanchan):
        return "old_date"
    if hanchan.created_by_id is not None and hanchan.created_by_id not in seated:
        return "not_a_player"
    return ""


def _online(hanchan: Hanchan) -> bool:
    """An imported online game (its ruleset version is an online service's). Every caller
    loads the version with the game."""
    return bool(hanchan.ruleset_version.service)


def is_confirmed(
    hanchan: Hanchan, state: ConfirmationState, confirmations: Sequence[Confirmation]
) -> bool:
    """Whether the current version of ``hanchan`` (its ``state`` from :func:`state_of` and its
    ``confirmations`` of any version) has the confirmations the club's :func:`policy` asks
    for."""
    rule = policy()
    if rule == "none":
        return True
    current = [c for c in confirmations if c.version == hanchan.version]
    if any(c.as_steward for c in current):
        return True
    if state.steward_only:
        return False
    if rule == "one_other":
        return len(state.confirmed_by) >= 2
    return len(state.confirmed_by) == len(state.seated)


def confirm(
    hanchan: Hanchan,
    *,
    member: Member | None,
    user_id: int | None,
    as_steward: bool,
    implicit: bool,
    today: datetime.date,
    seats: Sequence[Seat] | None = None,
) -> bool:
    """Record a confirmation of the current version (inside the caller's transaction) and
    count the version if it now has what it needs. Returns whether it counted. ``seats``: the
    game's seats when the caller has them loaded.

    The caller has checked that this person may confirm (see :func:`state_of`).
    """
    exists = Confirmation.objects.filter(hanchan=hanchan, version=hanchan.version)
    if user_id is None or not exists.filter(user_id=user_id).exists():
        Confirmation.objects.create(
            hanchan=hanchan,
            version=hanchan.version,
            user_id=user_id,
            member=member,
            as_steward=as_steward,
            implicit=implicit,
        )
    if not implicit:
        LedgerChange.objects.create(
            hanchan=hanchan,
            action=LedgerChange.Action.CONFIRMED,
            after={"version": hanchan.version, "as_steward": as_steward},
            by=member,
        )
    return settle(hanchan, today=today, by=member, seats=seats)


def settle(
    hanchan: Hanchan,
    *,
    today: datetime.date,
    by: Member | None,
    seats: Sequence[Seat] | None = None,
) -> bool:
    """Count the current version of ``hanchan`` if it is pending and confirmed. Returns
    whether it counted. ``seats``: the game's seats when the caller has them loaded."""
    seats = list(hanchan.seats.all()) if seats is None else list(seats)
    confirmations = list(hanchan.confirmations.filter(version=hanchan.version))
    state = state_of(hanchan, seats, confirmations, today)
    if not state.pending or not is_confirmed(hanchan, state, confirmations):
        return False
    count(hanchan, seats, by=by)
    return True


def count(hanchan: Hanchan, seats: Sequence[Seat], *, by: Member | None) -> None:
    """Make the current version of ``hanchan`` the counted one: ``CountedSeat`` rows from its
    settlement and hand facts (none for a voided game), the totals brought up to date. A
    guest's seat (an event between clubs) is marked so, and counted in the guest's own club
    too if it chooses so (:mod:`scoring.ledger.guests`)."""
    CountedSeat.objects.filter(hanchan=hanchan).delete()
    visiting = guests.guest_seats(seats)
    rows: list[CountedSeat] = []
    if hanchan.status == Hanchan.Status.FINISHED:
        rows = counted_seats([hanchan], {hanchan.pk: list(seats)})
        for row in rows:
            row.guest = row.member_id in visiting
        CountedSeat.objects.bulk_create(rows)
    Hanchan.objects.filter(pk=hanchan.pk).update(counted_version=hanchan.version)
    hanchan.counted_version = hanchan.version
    LedgerChange.objects.create(
        hanchan=hanchan,
        action=LedgerChange.Action.COUNTED,
        after={"version": hanchan.version, "status": hanchan.status},
        by=by,
    )
    _refresh_totals([hanchan], seats)
    if visiting:
        guests.count_guests(hanchan, rows, visiting)


def vouch(hanchan: Hanchan, by: Member | None, steward: bool, user_id: int | None) -> None:
    """The one who made a change (``by``, or ``user_id`` for a login without a member) vouches
    for its result: their implicit confirmation of a finished game's new version, for their
    own seat; a ``steward``'s, or a change made by no one (a command), counts it at once. A
    hand of a game in play has nothing to confirm. Inside the caller's transaction."""
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
        confirm(
            hanchan,
            member=by,
            user_id=user_id if user_id is not None else (by.user_id if by else None),
            as_steward=authority,
            implicit=True,
            today=today,
            seats=seats,
        )
    else:
        settle(hanchan, today=today, by=by, seats=seats)


def count_new(
    hanchans: Sequence[Hanchan],
    seats: dict[int, list[Seat]],
    sums: dict[tuple[int, int], tuple[int, ...]],
) -> None:
    """Count new finished games that come with a steward's authority (an import by command,
    the history seeding; ``counted_version`` already set on them): their ``CountedSeat``
    rows, a steward's confirmation each, the members' totals. A fixed number of queries
    whatever the number of games. ``seats``: each game's seats by game id; ``sums``: each
    seat's sums over the facts just written (:func:`scoring.ledger.rows.seat_sums`)."""
    insert_rows(CountedSeat, COUNTED_FIELDS, counted_values(hanchans, seats, sums))
    insert_objects(
        Confirmation,
        (Confirmation(hanchan=h, version=h.version, as_steward=True) for h in hanchans),
    )
    _refresh_totals(hanchans, [seat for game_seats in seats.values() for seat in game_seats])


@dataclass(slots=True)
class _Pending:
    """What a batch (:func:`one_refresh`) has counted so far: the roll-ups' keys and games."""

    members: set[int] = field(default_factory=set)
    months: set[datetime.date] = field(default_factory=set)
    versions: set[int] = field(default_factory=set)
    hanchan_ids: list[int] = field(default_factory=list)


_pending: ContextVar[_Pending | None] = ContextVar("ledger_pending_totals", default=None)


@contextmanager
def one_refresh() -> Iterator[None]:
    """One transaction in which the games counted bring the members' totals up to date
    once, at the end, and :data:`games_counted` is sent once for all of them (an import of
    many logs: the roll-up refresh was a quarter of each log's store). Nested, the outer
    block refreshes. A game counted in a savepoint that rolled back adds only keys whose
    rows are recomputed from what counts (so unchanged) and is left out of the signal.

    Raises whatever the block raises; then nothing of it is written."""
    if _pending.get() is not None:
        yield
        return
    pending = _Pending()
    token = _pending.set(pending)
    reset = False
    try:
        with transaction.atomic():
            yield
            _pending.reset(token)
            reset = True
            if pending.hanchan_ids:
                # Games whose savepoint rolled back are gone: only the stored ones are told.
                stored = set(
                    Hanchan.objects.filter(pk__in=pending.hanchan_ids).values_list("pk", flat=True)
                )
                totals.refresh(pending.members, pending.months, pending.versions)
                ids = [pk for pk in dict.fromkeys(pending.hanchan_ids) if pk in stored]
                games_counted.send(sender=Hanchan, hanchan_ids=ids)
    finally:
        if not reset:
            _pending.reset(token)


def _refresh_totals(hanchans: Sequence[Hanchan], seats: Sequence[Seat]) -> None:
    """The one place the members' totals follow what counts (:mod:`scoring.ledger.totals`);
    :data:`games_counted` tells the other readers. Inside :func:`one_refresh`, both wait
    for the end of the block."""
    members = {seat.member_id for seat in seats}
    months = {h.played_on.replace(day=1) for h in hanchans}
    versions = {h.ruleset_version_id for h in hanchans}
    pending = _pending.get()
    if pending is not None:
        pending.members |= members
        pending.months |= months
        pending.versions |= versions
        pending.hanchan_ids.extend(h.pk for h in hanchans)
        return
    totals.refresh(members, months, versions)
    games_counted.send(sender=Hanchan, hanchan_ids=[h.pk for h in hanchans])


# The columns of a counted seat, in the order of :func:`counted_values`.
COUNTED_FIELDS = ("club_id", "hanchan_id", "member_id", "ruleset_version_id", "played_on", "seat",
                  "players", "final_score", "rank", "points", "busted", "last_place",
                  "ended_by", *SEAT_SUMS, "final_scores_only", "chips", "uma_ep")  # fmt: skip


def counted_values(
    hanchans: Sequence[Hanchan],
    seats: dict[int, list[Seat]],
    sums: dict[tuple[int, int], tuple[int, ...]],
) -> list[tuple[Any, ...]]:
    """The ``CountedSeat`` values (:data:`COUNTED_FIELDS`) of finished games: their seats'
    settlement (points, chips and ep as integers) and ``sums``, each seat's sums over the
    game's facts (:func:`scoring.ledger.rows.seat_sums`; a game of final scores only has
    none: zeros). Nothing is read."""
    none = (0,) * len(SEAT_SUMS)
    rows = []
    for hanchan in hanchans:
        game_seats = seats[hanchan.pk]
        for seat in game_seats:
            assert seat.final_score is not None and seat.rank is not None
            assert seat.points is not None
            rows.append(
                (
                    hanchan.club_id,
                    hanchan.pk,
                    seat.member_id,
                    hanchan.ruleset_version_id,
                    hanchan.played_on,
                    seat.index,
                    len(game_seats),
                    seat.final_score,
                    seat.rank,
                    seat.points,
                    bool(seat.busted),
                    bool(seat.last_place),
                    hanchan.ended_by,
                    *sums.get((hanchan.pk, seat.index), none),
                    hanchan.final_scores_only,
                    seat.chips or 0,
                    seat.uma_ep or 0,
                )
            )
    return rows


def counted_seats(hanchans: Sequence[Hanchan], seats: dict[int, list[Seat]]) -> list[CountedSeat]:
    """``CountedSeat`` rows (unsaved) of finished games, from their seats' settlement and
    their ``HandSeat`` facts as stored. One query."""
    facts = HandSeat.objects.filter(hanchan__in=[h.pk for h in hanchans]).values_list(*FACT_FIELDS)
    return [
        CountedSeat(**dict(zip(COUNTED_FIELDS, values, strict=True)))
        for values in counted_values(hanchans, seats, seat_sums(facts))
    ]
