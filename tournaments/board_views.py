"""The live board: a screen at the venue showing the current round's tables
with their state and the ranking so far, readable across a room at 1920x1080 and refreshing
itself (htmx, every :data:`BOARD_POLL_SECONDS`).

The ranking counts confirmed results only (:func:`tournaments.live_ranking.event_ranking`,
the ledger's counted results); a table's state is read with the ledger's counts API
(:func:`scoring.ledger.is_settled`, :func:`scoring.ledger.is_waiting`). An event marked
public shows its board without a login; any other, to members only.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from clubsite.htmx import wants_fragment
from scoring.ledger import is_settled, is_waiting
from scoring.models import Hanchan
from tournaments.clock_display import round_clock_context
from tournaments.display import EventView, RoundTable, RoundView, event_view, phase_label
from tournaments.models import Event, Round

BOARD_POLL_SECONDS = 20
"""How often the board refreshes itself (a screen on the wall: every 20 s is live enough)."""


@dataclass(frozen=True, slots=True)
class BoardTable:
    """A table on the board: the table, and its ``state``: ``"drawn"`` (the round has not
    started), ``"playing"``, ``"time_up"`` (time called: the hand in play is the last),
    ``"waiting"`` (a result waiting for confirmation), ``"confirmed"`` or ``"voided"``."""

    table: RoundTable
    state: str


def board_state(table: RoundTable) -> str:
    """The table's state on the board, from its game as the ledger counts it."""
    hanchan = table.hanchan
    if hanchan is None:
        return "drawn"
    if hanchan.status == Hanchan.Status.IN_PLAY:
        return "time_up" if hanchan.time_called else "playing"
    if is_waiting(hanchan):
        return "waiting"
    if is_settled(hanchan) and hanchan.status == Hanchan.Status.FINISHED:
        return "confirmed"
    return "voided"


def current_round(view: EventView) -> RoundView | None:
    """The round the board shows: the one being played, else the next drawn, else the last."""
    rounds = view.rounds
    return view.playing_round() or view.next_round() or (rounds[-1] if rounds else None)


LONG_RANKING = 16
"""Beyond this many players the ranking's type is smaller."""

RANKING_ROWS_PER_COLUMN = 20
"""Beyond this many players the ranking is shown in two columns (40 fit the screen)."""


def ranking_columns[T](rows: list[T]) -> list[list[T]]:
    """The ranking's rows in one column, or for a large field in two, the first half on the
    left, so that 40 players fit 1080 pixels' height."""
    if len(rows) <= RANKING_ROWS_PER_COLUMN:
        return [rows]
    half = (len(rows) + 1) // 2
    return [rows[:half], rows[half:]]


@login_not_required
@require_safe
def event_board(request: HttpRequest, pk: int) -> HttpResponse:
    """The live board of event ``pk``; an htmx poll gets its ``board`` region alone. A
    visitor without a login is sent to log in unless the event is public."""
    event = get_object_or_404(Event, pk=pk)
    if not event.public and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    clock_context = None
    started = (
        Round.objects.select_related("phase")
        .filter(event=event, started_at__isnull=False)
        .order_by("-number")
        .first()
    )
    if started is not None and started.phase.time_limited:
        # Calls time at the tables whose time ran out, before their states are read.
        clock_context = round_clock_context(started)
    view = event_view(event)
    shown = current_round(view)
    rows = view.rows()
    context = {
        "event": event,
        "view": view,
        "rnd": shown,
        "phase_name": (
            phase_label(shown.phase, [p.phase for p in view.phases]) if shown is not None else ""
        ),
        "tables": [BoardTable(t, board_state(t)) for t in shown.tables] if shown else [],
        # The clock of the round being played, not of a round drawn after it.
        "round_clock": (
            clock_context
            if shown is not None and started is not None and shown.round.pk == started.pk
            else None
        ),
        "ranking_columns": ranking_columns(rows),
        "long_ranking": len(rows) > LONG_RANKING,
        "poll_seconds": BOARD_POLL_SECONDS,
    }
    template = "tournaments/board.html"
    if wants_fragment(request):
        template += "#board"
    return render(request, template, context)
