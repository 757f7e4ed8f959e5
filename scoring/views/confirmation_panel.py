"""Table confirmation and the change history as the table screen shows them:
view-models built from the ledger's rules (:mod:`scoring.ledger.confirmation`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _

from clubsite.models import Member
from scoring.ledger import (
    ConfirmationState,
    confirmation_state,
    counts_current_version,
    has_counted_version,
)
from scoring.models import Hanchan, HandEntry, LedgerChange, Seat
from scoring.standings.periods import club_today


@dataclass(frozen=True)
class ConfirmationPanel:
    """What the table screen says about confirmation.

    ``kind``: ``"counted"`` (this result counts), ``"awaiting"`` (a result waits for
    confirmation), ``"changed"`` (a counted game is being changed: the confirmed result
    still counts), or ``""`` (nothing to say: a game in play that never counted);
    ``confirmed``/``waiting``: display names; ``steward_only``: why only a steward can
    confirm, as a sentence (empty if players can); ``can_confirm``/``as_steward``: the
    viewer's button; ``still_counts``: a pending change leaves an earlier result counting.
    """

    kind: str
    confirmed: list[str]
    waiting: list[str]
    steward_only: str
    can_confirm: bool
    as_steward: bool
    still_counts: bool


STEWARD_ONLY_REASONS = {
    "policy": lambda: _("The club's rules: a steward confirms every result."),
    "old_date": lambda: _("This game is dated before yesterday: a steward confirms it."),
    "not_a_player": lambda: _("This game was started by a member who does not play in it: "
                              "a steward confirms it."),
}  # fmt: skip


def state_for(hanchan: Hanchan, seats: Sequence[Seat]) -> ConfirmationState:
    """The game's confirmation state (one query for this version's confirmations)."""
    confirmations = list(hanchan.confirmations.filter(version=hanchan.version))
    return confirmation_state(hanchan, seats, confirmations, club_today())


def confirmation_panel(
    hanchan: Hanchan, seats: Sequence[Seat], *, user_id: int | None, steward: bool
) -> ConfirmationPanel | None:
    """The panel for ``hanchan`` (its ``seats`` in order, members loaded) as the viewer
    (login ``user_id``, a ``steward`` or not) sees it; ``None`` for a game in play that
    never counted (no query then)."""
    if hanchan.status == Hanchan.Status.IN_PLAY and not has_counted_version(hanchan):
        return None
    names = {seat.member_id: seat.member.display_name for seat in seats}
    state = state_for(hanchan, seats)
    viewer = next((s.member_id for s in seats if s.member.user_id == user_id), None)
    if state.pending:
        kind = "awaiting"
    elif counts_current_version(hanchan):
        kind = "counted"
    elif state.counted:
        kind = "changed"
    else:
        return None
    return ConfirmationPanel(
        kind=kind,
        confirmed=[names[m] for m in state.confirmed_by],
        waiting=[names[m] for m in state.waiting_for],
        steward_only=STEWARD_ONLY_REASONS[state.why]() if state.why else "",
        can_confirm=state.may_confirm(viewer, steward),
        as_steward=steward and viewer not in state.waiting_for,
        still_counts=state.counted and not counts_current_version(hanchan),
    )


@dataclass(frozen=True)
class HistoryRow:
    """One change of a game: when, who, what (a sentence), and the hand it touched."""

    at: datetime
    who: str
    what: str


ACTION_TEXT: dict[str, Callable[[int], str]] = {
    LedgerChange.Action.STARTED: lambda n: _("started the game"),
    LedgerChange.Action.RECORDED: lambda n: _("entered hand %(n)d") % {"n": n},
    LedgerChange.Action.CORRECTED: lambda n: _("corrected hand %(n)d") % {"n": n},
    LedgerChange.Action.UNDONE: lambda n: _("undid hand %(n)d") % {"n": n},
    LedgerChange.Action.FINISHED: lambda n: _("finished the game"),
    LedgerChange.Action.VOIDED: lambda n: _("voided the game"),
    LedgerChange.Action.FINAL_SCORES: lambda n: _("entered the final scores"),
    LedgerChange.Action.TIME_CALLED: lambda n: _("called time"),
    LedgerChange.Action.CONFIRMED: lambda n: _("confirmed the result"),
    LedgerChange.Action.COUNTED: lambda n: _("the result counts in the standings"),
}


def history_rows(hanchan: Hanchan) -> list[HistoryRow]:
    """Every change of the game, newest first (one query)."""
    changes = hanchan.changes.select_related("by").order_by("-at", "-pk")
    return [
        _history_row(change.action, change.sequence, change.at, change.by) for change in changes
    ]


def recorded_row(entry: HandEntry) -> HistoryRow:
    """The history's line for a hand just recorded, from its entry (no query): the same words
    as :func:`history_rows` gives the change written with it."""
    return _history_row(
        LedgerChange.Action.RECORDED, entry.sequence, entry.entered_at, entry.entered_by
    )


def _history_row(action: str, sequence: int | None, at: datetime, by: Member | None) -> HistoryRow:
    text = ACTION_TEXT.get(action)
    number = (sequence or 0) + 1
    return HistoryRow(
        at=at,
        who=by.display_name if by is not None else _("a steward"),
        what=text(number) if text is not None else _action_label(action),
    )


def _action_label(action: str) -> str:
    """An action without a sentence of its own: its translated name, never the stored key."""
    try:
        return str(LedgerChange.Action(action).label)
    except ValueError:
        return _("changed the game")
