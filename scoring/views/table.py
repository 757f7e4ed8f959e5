"""The table screen's responses, shared by the game and hand views: the whole page, or for
htmx the region asked for (and after a write every other region out of band).

The table screen has five regions, each a template partial of ``scoring/game_detail.html``
with its own view-model (:mod:`scoring.views.table_regions`): ``status`` (round, honba,
deposits and scores, or the end screen), ``entry`` (the hand form), ``hands`` (the chart and
the hand list), ``actions`` (undo, void, export) and ``history`` (the game's changes, for its
players and stewards). An htmx request gets the region it asked for; a write also updates the
other regions out of band, except that a new hand adds its row and its history line to the
page's and marks the chart to be drawn again when seen.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django_htmx.middleware import HtmxDetails

from clubsite.htmx import wants_fragment
from scoring.entry.hand_form import HandForm
from scoring.models import Hanchan, HandEntry
from scoring.views.access import hanchan_for_member
from scoring.views.display import Preview
from scoring.views.next_entry import next_entry_html, reusable
from scoring.views.table_regions import (
    TablePage,
    entry_region,
    hands_region,
    history_region,
    page_only,
    status_region,
)

__all__ = ["HtmxHttpRequest", "render_table", "table_changed", "table_context", "wants_fragment"]

TEMPLATE = "scoring/game_detail.html"


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def table_context(
    request: HttpRequest,
    hanchan: Hanchan,
    *,
    form: HandForm | None = None,
    preview: Preview | None = None,
    notice: str = "",
    notice_is_success: bool = False,
    editing: int | None = None,
    entry_only: bool = False,
    new_entry: HandEntry | None = None,
) -> dict[str, Any]:
    """The context of the table screen's regions (:mod:`scoring.views.table_regions`).
    ``entry_only``: the entry region alone (a preview swaps that region alone, so it reads
    neither the hand list nor the chart nor the confirmations); ``new_entry``: a hand just
    recorded while the game goes on, whose row and history line are added to the page's,
    with no query for the rest of the list, the history or the chart. The other arguments
    are :func:`~scoring.views.table_regions.entry_region`'s."""
    page = TablePage.of(request, hanchan)
    fresh = form is None and preview is None and editing is None
    if fresh and notice and notice_is_success and reusable(request, page):
        # After a write, the next hand's form, filled in from the one drawn for the game.
        context = page.context() | {"entry_html": next_entry_html(request, page, notice)}
    else:
        context = page.context() | entry_region(
            page,
            form=form,
            preview=preview,
            notice=notice,
            notice_is_success=notice_is_success,
            editing=editing,
        )
    if entry_only:
        return context
    entries = [new_entry] if new_entry is not None else list(hanchan.hands.order_by("-sequence"))
    return (
        context
        | status_region(page, entries, editing=editing)
        | hands_region(page, entries, added=new_entry is not None)
        | history_region(page, new_entry)
        | page_only(page)
    )


def table_changed(request: HtmxHttpRequest, pk: int, notice: str) -> HttpResponse:
    """After a write: post/redirect/get for a page, the updated regions for htmx."""
    if wants_fragment(request):
        return render_table(
            request,
            hanchan_for_member(request, pk),
            update_all=True,
            notice=notice,
            notice_is_success=True,
        )
    messages.success(request, notice)
    return redirect("game_detail", pk)


def render_table(
    request: HtmxHttpRequest,
    hanchan: Hanchan,
    *,
    region: str = "entry",
    update_all: bool = False,
    new_entry: HandEntry | None = None,
    status: int = 200,
    **context: Any,
) -> HttpResponse:
    """The table screen; for htmx, its ``region`` (and, with ``update_all``, every other
    region out of band: after a write, the scores and the hand list changed too; with
    ``new_entry``, a hand just recorded while the game goes on, that hand's row alone)."""
    fragment = wants_fragment(request)
    entry_only = fragment and not update_all and region == "entry"
    added = (
        new_entry
        if fragment and new_entry is not None and hanchan.status == Hanchan.Status.IN_PLAY
        else None
    )
    if added is not None and added.sequence == 0:
        added = None  # the page shows "No hands yet", not a list to add a row to
    full = table_context(request, hanchan, entry_only=entry_only, new_entry=added, **context)
    if not fragment:
        return render(request, TEMPLATE, full, status=status)
    if added is not None:
        return render(request, "scoring/table_hand_added.html", full, status=status)
    if update_all:
        return render(request, "scoring/table_update.html", full, status=status)
    return render(request, f"{TEMPLATE}#{region}", full, status=status)
