"""The steward's event desk: edit an event (name, days and venue always; the
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
from clubsite.names import quoted_names
from scoring.rulebook.choices import ruleset_choices
from tournaments import forms, guests, services, substitutions
from tournaments.models import Event
from tournaments.views import event_page, steward_only


@require_http_methods(["GET", "HEAD", "POST"])
@steward_only
def event_participants(request: HttpRequest, pk: int) -> HttpResponse:
    """The member picker: every member one per row (name and reading), a search by name or
    reading (a GET of the same form, keeping the ticks; htmx swaps the list in place), the
    number ticked. Saving enters exactly the ticked members. A deactivated member is neither
    listed nor counted; one entered before is named, left out on saving."""
    event = get_object_or_404(Event, pk=pk)
    if event.status != Event.Status.OPEN:
        return event_page(
            request,
            event,
            error=gettext("The tournament has started: its players are set."),
            status=409,
        )
    # The club's members and the event's guests (tournaments.guests): saving keeps both.
    members = list(guests.event_members(event).order_by("furigana", "display_name"))
    if request.method == "POST":
        form = forms.ParticipantsForm(request.POST, members=guests.event_members(event))
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
        "deactivated": quoted_names(
            event.participants.filter(member__active=False)
            .order_by("member__furigana", "member__display_name")
            .values_list("member__display_name", flat=True)
        ),
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


@require_http_methods(["GET", "HEAD"])
@steward_only
def event_substitutions(request: HttpRequest, pk: int) -> HttpResponse:
    """Substitutions: tick the players who leave and the members who come
    in (the first substitute takes the first leaver's place, ...; none: a withdrawal), see
    the rounds not started before and after the re-seat with their repeat meetings, then
    accept (:func:`event_substitutions_accept`). Showing it writes nothing. The event's log
    of substitutions below."""
    event = get_object_or_404(Event, pk=pk)
    return _substitutions_page(request, event, request.GET)


@require_POST
@steward_only
def event_substitutions_accept(request: HttpRequest, pk: int) -> HttpResponse:
    """Accept the proposal shown (its ``fingerprint``): one transaction; a refusal shows the
    page again with why (409), nothing changed."""
    event = get_object_or_404(Event, pk=pk)
    changes = _changes(request.POST)
    member = Member.for_user(request.user)
    try:
        substitutions.accept(
            event_id=event.pk,
            changes=changes,
            fingerprint=request.POST.get("fingerprint", ""),
            attempt=_attempt(request.POST.get("attempt", "")),
            by=member,
        )
    except services.EventError as error:
        return _substitutions_page(request, event, request.POST, error=str(error), status=409)
    messages.success(
        request, gettext("The substitution is made; the players are told their tables.")
    )
    return redirect("tournaments:substitutions", pk=event.pk)


def _attempt(raw: str) -> int | None:
    """The search's seed of the proposal shown (-1: seat for seat; ``None``: none given)."""
    try:
        return max(-1, int(raw))
    except ValueError:
        return None


def _changes(data: Any) -> list[substitutions.Change]:
    """The ticked leavers (participant numbers, in order) paired with the ticked substitutes
    (members, by reading): the first substitute for the first leaver, and so on."""
    leaving = sorted(_keys(data.getlist("leaving")))
    wanted = _keys(data.getlist("substitutes"))
    subs = list(Member.objects.filter(pk__in=wanted).order_by("furigana", "display_name"))
    return [
        substitutions.Change(number, subs[i] if i < len(subs) else None)
        for i, number in enumerate(leaving)
    ]


def _substitutions_page(
    request: HttpRequest, event: Event, data: Any, *, error: str = "", status: int = 200
) -> HttpResponse:
    participants = list(event.participants.select_related("member").order_by("number"))
    entered = {p.member_id for p in participants}
    running = event.status == Event.Status.RUNNING
    ticked_leaving = _keys(data.getlist("leaving"))
    ticked_subs = _keys(data.getlist("substitutes"))
    # The race's substitutes first, in their order (a Meijin's 補欠), then every other member.
    registered = substitutions.registered_substitutes(event) if running else []
    first = {m.pk for m in registered}
    outsiders = registered + [
        m
        for m in Member.objects.seatable().order_by("furigana", "display_name")
        if m.pk not in entered and m.pk not in first
    ]
    proposal = None
    if ticked_leaving and not error:
        try:
            proposal = substitutions.propose(event, _changes(data))
        except services.EventError as refused:
            error, status = str(refused), 409
    context = {
        "event": event,
        "running": running,
        "active": sorted(
            (p for p in participants if not p.withdrawn),
            # The ticked first: seen at once in a list that scrolls.
            key=lambda p: (
                p.number not in ticked_leaving,
                p.member.furigana,
                p.member.display_name,
            ),
        ),
        "outsiders": outsiders,
        "registered": registered,
        "ticked_leaving": ticked_leaving,
        "ticked_subs": ticked_subs,
        "proposal": proposal,
        "rounds": _side_by_side(proposal) if proposal is not None else [],
        "changes": _change_names(proposal) if proposal is not None else [],
        "max_added": substitutions.MAX_ADDED_REPEATS,
        "log": substitutions.history(event),
        "error": error,
    }
    return render(request, "tournaments/substitutions.html", context, status=status)


def _change_names(proposal: substitutions.Proposal) -> list[tuple[str, str]]:
    """Per change, the leaving player's name and the substitute's (empty: a withdrawal)."""
    return [
        (
            proposal.names[c.leaving],
            c.substitute.display_name if c.substitute is not None else "",
        )
        for c in proposal.changes
    ]


def _side_by_side(proposal: substitutions.Proposal) -> list[dict[str, Any]]:
    """Per pending round, its tables before and after as names; ``changed`` marks a seat
    whose table-mates changed (or a substitute)."""
    names = proposal.names
    incoming = set(proposal.numbers.values())
    leaving = {c.leaving for c in proposal.changes}
    rows = []
    for old, new in zip(proposal.before, proposal.after, strict=True):
        rows.append(
            {
                "number": old.number,
                "before": [
                    [{"name": names[p], "changed": p in leaving} for p in table]
                    for table in old.tables
                ],
                "after": [
                    [
                        {"name": names[p], "changed": p in incoming or p in proposal.moved}
                        for p in table
                    ]
                    for table in new.tables
                ],
            }
        )
    return rows
