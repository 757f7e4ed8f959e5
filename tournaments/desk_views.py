"""The steward's event desk (issue 21 item 1): edit an event (name, days and venue always; the
format and its rules while no round has started), cancel it (its games stay in the ledger,
marked on the event page) or delete it (no game played), and the member picker for its
players: one member a row with the reading, a search by name or reading (a GET of the form
that carries the ticks, so it works without JavaScript; htmx swaps the list in place), and
the number ticked.

Stewards only (403 for anyone else, nothing changed). Each write is one service call, one
transaction; bad input comes back as the form with its errors (200), a refused step as the
desk with why (409).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from clubsite.htmx import wants_fragment
from clubsite.models import Member
from scoring.ruleset_choices import ruleset_choices
from tournaments import forms, services
from tournaments.models import Event
from tournaments.views import event_page, steward_only


@require_http_methods(["GET", "HEAD", "POST"])
@steward_only
def event_participants(request: HttpRequest, pk: int) -> HttpResponse:
    """The member picker: every member one per row (name and reading), a search by name or
    reading (a GET of the same form, keeping the ticks; htmx swaps the list in place), the
    number ticked. Saving enters exactly the ticked members."""
    event = get_object_or_404(Event, pk=pk)
    if event.status != Event.Status.OPEN:
        return event_page(
            request,
            event,
            error=gettext("The tournament has started: its players are set."),
            status=409,
        )
    members = list(Member.objects.order_by("furigana", "display_name"))
    if request.method == "POST":
        form = forms.ParticipantsForm(request.POST, members=Member.objects.all())
        if form.is_valid():
            chosen = sorted(
                form.cleaned_data["members"], key=lambda m: (m.furigana, m.display_name)
            )
            try:
                services.participants_set(event_id=event.pk, members=chosen)
            except services.EventError as error:
                form.add_error(None, str(error))
            else:
                return redirect("tournaments:detail", pk=event.pk)
        ticked = _keys(request.POST.getlist("members"))
        query = request.POST.get("q", "")
    else:
        form = forms.ParticipantsForm(members=Member.objects.none())
        # A search carries the ticks made so far (``picked``); the first visit shows those saved.
        if "picked" in request.GET:
            ticked = _keys(request.GET.getlist("members"))
        else:
            ticked = set(event.participants.values_list("member_id", flat=True))
        query = request.GET.get("q", "")
    shown = forms.members_matching(members, query)
    shown_keys = {m.pk for m in shown}
    context = {
        "event": event,
        "form": form,
        "query": query,
        "shown": shown,
        "ticked": ticked,
        "hidden_ticked": [m for m in members if m.pk in ticked and m.pk not in shown_keys],
        "ticked_count": sum(1 for m in members if m.pk in ticked),
        "member_count": len(members),
        "table_size": event.table_size,
    }
    template = "tournaments/players.html"
    if wants_fragment(request):
        template += "#picker-list"
    return render(request, template, context)


def _keys(values: list[str]) -> set[int]:
    return {int(v) for v in values if v.isdigit()}


@require_http_methods(["GET", "HEAD", "POST"])
@steward_only
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The event desk: name, days and venue; the format while no round has started; and the
    ways out, cancelling it (its games stay) or deleting it (no game played)."""
    event = get_object_or_404(Event, pk=pk)
    started = event.round_started()
    format_locked = event.format_locked(round_started=started)
    form = forms.EventEditForm(
        request.POST or None,
        ruleset_choices=ruleset_choices(),
        initial=forms.event_initial(event),
        format_locked=format_locked,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        rules: dict[str, Any] = {}
        if not format_locked:
            rules = {
                "format_key": data["format"],
                "ruleset_id": data["ruleset"],
                "carry_over": bool(data.get("carry_over")),
                "plan": data.get("plan"),
                "tobi": form.tobi_choice,
            }
        try:
            services.event_edit(
                event_id=event.pk,
                name=data["name"],
                starts_on=data["starts_on"],
                ends_on=data.get("ends_on"),
                venue=data.get("venue") or "",
                public=bool(data.get("public")),
                **rules,
            )
        except services.EventError as error:
            form.add_error(None, str(error))
        else:
            return redirect("tournaments:detail", pk=event.pk)
    return _edit_page(request, event, form, started=started)


def _edit_page(
    request: HttpRequest,
    event: Event,
    form: forms.EventEditForm,
    *,
    started: bool,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "tournaments/edit.html",
        {
            "event": event,
            "form": form,
            "started": started,
            "drawn": event.rounds.exists(),
            "error": error,
            "can_cancel": event.cancellable,
        },
        status=status,
    )


def _desk_refusal(request: HttpRequest, event: Event, error: str) -> HttpResponse:
    """A refused cancel or delete: the desk again with why (409), nothing changed."""
    started = event.round_started()
    form = forms.EventEditForm(
        ruleset_choices=ruleset_choices(),
        initial=forms.event_initial(event),
        format_locked=True,
    )
    return _edit_page(request, event, form, started=started, error=error, status=409)


@require_POST
@steward_only
def event_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    try:
        services.event_cancel(event_id=event.pk)
    except services.EventError as error:
        return _desk_refusal(request, event, str(error))
    return redirect("tournaments:detail", pk=event.pk)


@require_POST
@steward_only
def event_delete(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    try:
        services.event_delete(event_id=event.pk)
    except services.EventError as error:
        return _desk_refusal(request, event, str(error))
    messages.success(
        request, gettext("The tournament “%(name)s” is deleted.") % {"name": event.name}
    )
    return redirect("tournaments:list")
