"""The one read of what counts: every reader of results asks here.

A game's result *counts* once a version of it is confirmed (:mod:`scoring.ledger.confirmation`):
its ``CountedSeat`` rows are the counted result, and they stay in force while a later change
waits for confirmation. Standings, champions, member pages, the yaku records, tournament
rankings and the qualification races read these, never ``Hanchan.status`` on their own; a
finished game that is not confirmed yet is *waiting*, and pages show it as such with who
must confirm (:func:`waiting_states`).

A game is *settled* when its current version is final: a finished game counted at its
current version, or a voided one whose void needs no confirmation (it never counted) or was
confirmed. A tournament round is over when every table's game is settled.

Points are integers in points (each game's settlement, uma and oka included).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db.models import Exists, F, OuterRef, Q, QuerySet

from scoring.ledger.confirmation import ConfirmationState, policy, state_of
from scoring.models import Confirmation, CountedSeat, Hanchan, Seat, WinYaku

FINISHED = Hanchan.Status.FINISHED
VOIDED = Hanchan.Status.VOIDED


def counted_results() -> QuerySet[CountedSeat]:
    """Every seat's counted result (``CountedSeat``: points, rank, final score, per-hand
    sums), of every game that counts. Filter it further (date, ruleset version, member,
    ``hanchan__event_table__round__event`` for a tournament)."""
    return CountedSeat.objects.all()


def counted_games() -> QuerySet[Hanchan]:
    """The games whose confirmed result is in force (they have counted results)."""
    return Hanchan.objects.filter(Exists(CountedSeat.objects.filter(hanchan=OuterRef("pk"))))


def counted_yaku() -> QuerySet[WinYaku]:
    """The yaku of wins in games that count (``WinYaku``), for the yaku records. A game with
    a correction waiting keeps counting, with the yaku of its hands as they now stand."""
    return WinYaku.objects.filter(
        Exists(CountedSeat.objects.filter(hanchan=OuterRef("hanchan_id")))
    )


def settled(prefix: str = "") -> Q:
    """A filter for games whose current version is final (see the module's docstring);
    ``prefix`` reaches the game from another model, e.g. ``"hanchan__"`` on a tournament
    table."""
    counted_now = Q(**{f"{prefix}counted_version": F(f"{prefix}version")})
    return Q(counted_now, **{f"{prefix}status": FINISHED}) | Q(
        counted_now | Q(**{f"{prefix}counted_version__isnull": True}),
        **{f"{prefix}status": VOIDED},
    )


def waiting_games(*, never_counted: bool = False) -> QuerySet[Hanchan]:
    """The games with a result waiting for confirmation: finished and not counted at their
    current version, or a void of a counted game not yet confirmed (as :func:`is_waiting`).

    ``never_counted``: only those no version of which was ever confirmed, whose result
    counts nowhere yet (a correction waiting on a counted game is left out: its confirmed
    result still counts)."""
    not_now = ~Q(counted_version=F("version")) | Q(counted_version__isnull=True)
    games = Hanchan.objects.filter(
        Q(status=FINISHED) | Q(status=VOIDED, counted_version__isnull=False), not_now
    )
    if never_counted:
        games = games.filter(counted_version__isnull=True)
    return games


def has_counted_version(hanchan: Hanchan) -> bool:
    """Whether a version of ``hanchan`` was confirmed: its confirmed result is in force (a
    finished game's, while a later correction, undo or void waits) or its void was
    confirmed. No query."""
    return hanchan.counted_version is not None


def counts_current_version(hanchan: Hanchan) -> bool:
    """Whether ``hanchan``'s current version is the confirmed one: the game counts as it
    stands (or, voided, its void was confirmed); nothing about it waits. No query."""
    return hanchan.counted_version == hanchan.version


def is_settled(hanchan: Hanchan) -> bool:
    """Whether ``hanchan``'s current version is final (as :func:`settled`). No query."""
    if hanchan.status == FINISHED:
        return hanchan.counted_version == hanchan.version
    if hanchan.status == VOIDED:
        return hanchan.counted_version in (None, hanchan.version)
    return False


def is_waiting(hanchan: Hanchan) -> bool:
    """Whether ``hanchan`` has a result (a finish, a correction, a void of a counted game)
    that waits for confirmation. No query."""
    return hanchan.status in (FINISHED, VOIDED) and not is_settled(hanchan)


def is_finished_waiting(hanchan: Hanchan) -> bool:
    """Whether ``hanchan`` is finished and its current result does not count yet (its first
    result or a correction waiting for confirmation). A void waiting for confirmation is
    :func:`is_waiting` but not this. No query."""
    return hanchan.status == FINISHED and not is_settled(hanchan)


def waiting_states(
    hanchans: Iterable[Hanchan], today: datetime.date
) -> dict[int, ConfirmationState]:
    """The confirmation state of each waiting game among ``hanchans`` (by game id): who has
    confirmed, whose confirmation is still wanted, whether only a steward can confirm. The
    games' ruleset versions must be loaded with them. Two queries (seats and confirmations
    of the waiting games), none when nothing waits; the club's confirmation rule is read once
    (:func:`scoring.ledger.confirmation.policy`)."""
    waiting = {h.pk: h for h in hanchans if is_waiting(h)}
    if not waiting:
        return {}
    rule = policy()
    seats: dict[int, list[Seat]] = {pk: [] for pk in waiting}
    for seat in Seat.objects.filter(hanchan_id__in=list(waiting)):
        seats[seat.hanchan_id].append(seat)
    confirmations: dict[int, list[Confirmation]] = {pk: [] for pk in waiting}
    for row in Confirmation.objects.filter(hanchan_id__in=list(waiting)):
        if row.version == waiting[row.hanchan_id].version:
            confirmations[row.hanchan_id].append(row)
    return {
        pk: state_of(hanchan, seats[pk], confirmations[pk], today, rule)
        for pk, hanchan in waiting.items()
    }
