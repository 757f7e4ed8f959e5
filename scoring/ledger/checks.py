"""What every write to the ledger checks first, and the stored game as the pipeline sees it:
the game locked, its version, whether it may still change, its players and its date."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from django.utils.translation import gettext as _

from clubsite.dates import club_today
from clubsite.models import Member, seating_refusal
from scoring.engine import (
    RecordError,
    Ruleset,
    apply_overrides,
)
from scoring.ledger.errors import LedgerError, StaleHanchan
from scoring.ledger.loading import hanchan_with_seats
from scoring.ledger.plan import (
    Change,
    Correction,
    NewHand,
    Plan,
    StoredGame,
    StoredHand,
    Undo,
    plan,
)
from scoring.models import Hanchan, HandEntry, OnlineGame


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
    if isinstance(change, NewHand):
        # The preview plans the hand as the write will record it: after a call of time, the
        # last (the table sees "time up" before the tap, not after).
        change = NewHand(time_up_marked(hanchan, change.hand))
    return plan(stored_game(hanchan, list(entries) if needs_hands else None), change)


def time_up_marked(hanchan: Hanchan, hand: Mapping[str, Any]) -> Mapping[str, Any]:
    """``hand`` as the ledger records it: once time is called in the game (rules-spec T-07),
    the next hand is the last, marked ``time_up`` (docs/game-record-format.md,
    "Extensions"); a hand that says ``time_up`` itself is left as it is."""
    if hanchan.time_called and isinstance(hand, Mapping) and "time_up" not in hand:
        return {**hand, "time_up": True}
    return hand


def with_overrides(base: Ruleset, overrides: Mapping[str, Any] | None) -> Ruleset:
    """``base`` with a game's ``overrides`` applied.

    Raises:
        LedgerError: an override the ruleset refuses (``field`` is ``overrides.<name>``).
    """
    if not overrides:
        return base
    try:
        return apply_overrides(base, overrides)
    except RecordError as error:
        raise LedgerError(error.message, error.key, cause=error) from None


def seated_members(ruleset: Ruleset, members: Sequence[Member]) -> list[Member]:
    """``members`` in seat order, checked against ``ruleset``.

    Raises:
        LedgerError: not the ruleset's number of players, or a member at two seats.
    """
    seated = list(members)
    if len(seated) != ruleset.players:
        raise LedgerError(
            _("This ruleset needs %(n)d players.") % {"n": ruleset.players}, "players"
        )
    if len({m.pk for m in seated}) != len(seated):
        raise LedgerError(_("A player cannot sit at two seats."), "players")
    return seated


def check_seatable(members: Sequence[Member]) -> None:
    """A game starts only with members whose login is active. A record of
    a game already played (an import) is not a seating and is not checked.

    Raises:
        LedgerError: a deactivated member among ``members`` (named).
    """
    refusal = seating_refusal(members)
    if refusal:
        raise LedgerError(refusal, "players")


# No club game is older than this; a date before it is a typing error.
EARLIEST_GAME = date(1950, 1, 1)


def check_date(played_on: date) -> None:
    """A game is played on a day between :data:`EARLIEST_GAME` and today (club time)."""
    if played_on > club_today():
        raise LedgerError(_("A game cannot be dated in the future."), "played_on")
    if played_on < EARLIEST_GAME:
        raise LedgerError(
            _("A game cannot be dated before %(year)d.") % {"year": EARLIEST_GAME.year},
            "played_on",
        )


def locked_hanchan(hanchan_id: int) -> Hanchan:
    """The game ``hanchan_id``, locked for this transaction, with its ruleset version and its
    seats (prefetched, with their members), in one query.

    Raises:
        LedgerError: there is no such game.
    """
    hanchan = hanchan_with_seats(hanchan_id, lock=True)
    if hanchan is None:
        raise LedgerError(_("There is no such game."))
    return hanchan


def check_changeable(hanchan: Hanchan) -> None:
    """Raises :class:`LedgerError` for a voided game (nothing about it changes any more) and
    for an imported online game: its hands are its log's, checked hand by hand on import;
    one imported wrongly is voided and imported again."""
    if hanchan.status == Hanchan.Status.VOIDED:
        raise LedgerError(_("This game was voided."))
    if OnlineGame.objects.filter(hanchan_id=hanchan.pk).exists():
        raise LedgerError(_("An online game keeps the hands of its log: void it to take it back."))


def check_version(hanchan: Hanchan, expected_version: int) -> None:
    """Raises :class:`StaleHanchan` when the game moved on since ``expected_version``."""
    if hanchan.version != expected_version:
        raise StaleHanchan(hanchan)


def check_playable(hanchan: Hanchan, expected_version: int) -> None:
    """Raises :class:`LedgerError` unless the game is in play, and :class:`StaleHanchan`
    when it moved on since ``expected_version``.
    """
    if hanchan.status != Hanchan.Status.IN_PLAY:
        raise LedgerError(_("This game is over: no more hands can be entered."))
    check_version(hanchan, expected_version)
