"""The clock's pages: a table's clock, polled by each phone at the table
every 10 s (a small fragment from one query), the round's clock on the event page, and a
steward's extra time for one table.

The polls call time where it is due (:func:`tournaments.clock.call_due`): the clock needs no
worker awake at the minute a round ends, and the write happens once, through the ledger.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from clubsite.models import Member
from tournaments import clock
from tournaments.clock_display import TABLE_CLOCK_FIELDS, round_clock_context, table_clock_context
from tournaments.models import Round, Table
from tournaments.views import event_page, steward_only


@require_safe
def table_clock(request: HttpRequest, hanchan_id: int) -> HttpResponse:
    """The clock of the tournament table whose game is ``hanchan_id`` (404 for a game that
    is no tournament's); calls time there when it is due. ``?seen=`` is the state the phone
    showed."""
    table = (
        Table.objects.select_related("round__phase", "hanchan")
        .only(*TABLE_CLOCK_FIELDS)
        .filter(hanchan_id=hanchan_id)
        .first()
    )
    if table is None:
        raise Http404("not a tournament game")
    if table.round.phase.time_limited:
        clock.call_due([(table.round, table, table.hanchan)])
    return render(
        request,
        "tournaments/_table_clock.html",
        table_clock_context(table, seen=request.GET.get("seen", "")[:10]),
    )


@require_safe
def round_clock(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The round's clock on the event page (a fragment, polled while its games are played)."""
    rnd = get_object_or_404(Round.objects.select_related("phase"), event_id=pk, number=number)
    if rnd.started_at is None:
        raise Http404("round not started")
    return render(request, "tournaments/_round_clock.html", round_clock_context(rnd))


@require_POST
@steward_only
def extra_time(request: HttpRequest, pk: int, hanchan_id: int) -> HttpResponse:
    """A steward gives one table extra time (``minutes`` in the form); refused with the
    event page's message (409), nothing changed."""
    table = get_object_or_404(
        Table.objects.select_related("round__event"), round__event_id=pk, hanchan_id=hanchan_id
    )
    event = table.round.event
    try:
        minutes = int(request.POST.get("minutes", ""))
    except ValueError:
        return event_page(
            request, event, error=gettext("Give the extra time in minutes."), status=409
        )
    try:
        clock.table_extra_time(table_id=table.pk, minutes=minutes, by=Member.for_user(request.user))
    except clock.ClockError as error:
        return event_page(request, event, error=str(error), status=409)
    return redirect("tournaments:detail", pk=pk)
