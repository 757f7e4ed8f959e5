"""The tournament pages: the list, a new tournament, the event page (players, the draw, rounds
with their tables and games, the live ranking, the steward's next step), "my next table",
the printable seating chart, the ranking as CSV and the event as an .ics entry. The steward's
desk (edit, cancel, delete) and member picker are in :mod:`tournaments.desk_views`.

Everyone logged in may look; stewards create and run events (every POST here is theirs);
participants enter their tables' games on the ledger's own table screen. Every action is a
POST of a real form answered with a redirect back to the event (post/redirect/get); a refused
action re-renders the page with its message and changes nothing (403 for a non-steward, 409
for a step the event is not ready for); a form with bad input comes back with its errors
(200).
"""

from __future__ import annotations

import csv
import datetime
from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from icalendar import Calendar
from icalendar import Event as CalendarEvent

from clubsite.club_links import club_url
from clubsite.formatting import MINUS, settlement_points
from clubsite.models import Member
from clubsite.permissions import may_run_tournaments
from clubsite.spreadsheet import safe_cell
from scoring.rulebook.choices import ruleset_choices
from scoring.rulebook.names import ruleset_label
from scoring.standings.periods import club_today
from tournaments import forms, services
from tournaments.clock_display import round_clock_context
from tournaments.display import EventView, event_view, phase_label
from tournaments.models import Event, Round

type View[**P] = Callable[Concatenate[HttpRequest, P], HttpResponse]


def steward_only[**P](view: View[P]) -> View[P]:
    """Refuse (403, nothing changed) anyone but a steward."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        if not may_run_tournaments(request.user):
            return HttpResponseForbidden(gettext("Only a steward runs tournaments."))
        return view(request, *args, **kwargs)

    return wrapper


@require_safe
def event_list(request: HttpRequest) -> HttpResponse:
    """Tournaments being played, coming up, and finished; to a guest of another club, the
    events they play in only (tournaments.guests)."""
    events = list(Event.objects.all())
    member = Member.for_user(request.user)
    if member is not None and member.is_guest:
        events = list(Event.objects.filter(participants__member=member))
    return render(
        request,
        "tournaments/list.html",
        {
            "running": [e for e in events if e.status == Event.Status.RUNNING],
            "coming": [e for e in events if e.status == Event.Status.OPEN],
            "finished": [e for e in events if e.status == Event.Status.FINISHED],
            "cancelled": [e for e in events if e.status == Event.Status.CANCELLED],
            "steward": may_run_tournaments(request.user),
            "year": club_today().year,
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
@steward_only
def event_new(request: HttpRequest) -> HttpResponse:
    """A steward creates a tournament from a format of seed 001 or a custom one."""
    form = forms.EventForm(
        request.POST or None,
        ruleset_choices=ruleset_choices(),
        initial={"starts_on": club_today(), "format": Event.Format.GP},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            event = services.event_create(
                name=data["name"],
                format_key=data["format"],
                ruleset_id=data["ruleset"],
                starts_on=data["starts_on"],
                ends_on=data.get("ends_on"),
                venue=data.get("venue") or "",
                by=Member.for_user(request.user),
                carry_over=bool(data.get("carry_over")),
                plan=data.get("plan"),
                tobi=form.tobi_choice,
            )
        except services.EventError as error:
            form.add_error(None, str(error))
        else:
            return redirect("tournaments:detail", pk=event.pk)
    return render(request, "tournaments/new.html", {"form": form})


@require_safe
def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The event page."""
    event = get_object_or_404(Event, pk=pk)
    return event_page(request, event)


def event_page(
    request: HttpRequest,
    event: Event,
    *,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    """The event page, with ``error`` (a refused step) shown at the top."""
    view = event_view(event)
    member = Member.for_user(request.user)
    steward = may_run_tournaments(request.user)
    context: dict[str, Any] = {
        "event": event,
        "ruleset_name": ruleset_label(event.ruleset_id),
        "view": view,
        "steward": steward,
        "error": error,
        "next_table": view.next_table_of(member),
        "my_tables": view.tables_of(member),
        "phase_rows": [
            (phase_label(p.phase, [v.phase for v in view.phases]), p) for p in view.phases
        ],
        "rows": view.rows(),
        "next_round": view.next_round(),
        "playing_round": view.playing_round(),
        "ready_to_advance": view.ready_to_advance(),
    }
    if steward and event.status == Event.Status.RUNNING:
        context["withdraw_form"] = forms.WithdrawForm(participants=view.participants)
    playing = context["playing_round"]
    if playing is not None and playing.phase.time_limited:
        context["round_clock"] = round_clock_context(playing.round)
    return render(request, "tournaments/detail.html", context, status=status)


def _event_action(request: HttpRequest, event: Event, action: Callable[[], object]) -> HttpResponse:
    """Run a steward's action; a refusal shows on the event page (409), nothing changed."""
    try:
        action()
    except services.EventError as error:
        return event_page(request, event, error=str(error), status=409)
    return redirect("tournaments:detail", pk=event.pk)


@require_POST
@steward_only
def event_draw(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    return _event_action(request, event, lambda: services.event_draw(event_id=event.pk))


@require_POST
@steward_only
def round_start(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Start a round; a time-limited round's clock runs for the form's ``minutes`` (empty:
    its phase's length)."""
    rnd = get_object_or_404(Round, event_id=pk, number=number)
    raw = request.POST.get("minutes", "").strip()
    try:
        minutes = int(raw) if raw else None
    except ValueError:
        return event_page(
            request, rnd.event, error=gettext("Give the round's length in minutes."), status=409
        )
    return _event_action(
        request, rnd.event, lambda: services.round_start(round_id=rnd.pk, minutes=minutes)
    )


@require_POST
@steward_only
def round_call_time(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    rnd = get_object_or_404(Round, event_id=pk, number=number)
    by = Member.for_user(request.user)
    return _event_action(
        request, rnd.event, lambda: services.round_call_time(round_id=rnd.pk, by=by)
    )


@require_POST
@steward_only
def event_advance(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    return _event_action(request, event, lambda: services.event_advance(event_id=event.pk))


@require_POST
@steward_only
def event_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    form = forms.WithdrawForm(request.POST, participants=list(event.participants.all()))
    if not form.is_valid():
        return event_page(
            request, event, error=gettext("Choose players who are still in."), status=409
        )
    numbers = form.cleaned_data["numbers"]
    return _event_action(
        request,
        event,
        lambda: services.participants_withdraw(event_id=event.pk, numbers=numbers),
    )


@require_safe
def my_table(request: HttpRequest, pk: int) -> HttpResponse:
    """A participant's next table, big enough to read across a room, and all their tables."""
    event = get_object_or_404(Event, pk=pk)
    view = event_view(event)
    member = Member.for_user(request.user)
    if view.participant_of(member) is None:
        raise Http404("not a participant")
    return render(
        request,
        "tournaments/my_table.html",
        {
            "event": event,
            "next_table": view.next_table_of(member),
            "my_tables": view.tables_of(member),
        },
    )


@require_safe
def seating_chart(request: HttpRequest, pk: int) -> HttpResponse:
    """The printable seating chart: every drawn round's tables, and each player's table per
    round."""
    event = get_object_or_404(Event, pk=pk)
    view = event_view(event)
    return render(
        request,
        "tournaments/chart.html",
        {"event": event, "view": view, "players": _player_chart(view)},
    )


def _player_chart(view: EventView) -> list[tuple[str, list[str]]]:
    """Per participant (by name), their "table-wind" in each drawn round, e.g. "3 S"."""
    where: dict[int, dict[int, str]] = {}
    for rnd in view.rounds:
        for table in rnd.tables:
            for seat in table.seats:
                where.setdefault(seat.number, {})[rnd.number] = (
                    f"{table.number} {str(seat.wind)[:1]}"
                )
    numbers = view.round_numbers
    # In the club's name order (by reading, as the member list sorts), for finding oneself.
    players = sorted(view.participants, key=lambda p: (p.member.furigana, p.member.display_name))
    return [
        (p.member.display_name, [where.get(p.number, {}).get(n, "–") for n in numbers])
        for p in players
    ]


def csv_points(points: int) -> str:
    """Points for a spreadsheet, as the standings' CSV writes them: thousands, a plain signed
    decimal a spreadsheet reads as a number (56000 -> "56.0", -21000 -> "-21.0"): no plus
    sign, an ASCII minus."""
    return settlement_points(points).replace(MINUS, "-").lstrip("+")


@require_safe
def ranking_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The ranking as CSV: place, name, each round's points, total, games, average rank;
    points in thousands with one decimal as the standings' CSV writes them (:func:`csv_points`).
    Where the final total leaves the preliminaries out (the Grand Champion, T-01), the finals
    and the preliminaries have a column each, as on the page, instead of the total."""
    event = get_object_or_404(Event, pk=pk)
    view = event_view(event)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    filename = f"tournament-{event.pk}-ranking.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")  # Excel reads UTF-8 (Japanese names) only with the mark.
    writer = csv.writer(response)
    split = view.split_totals
    totals = [gettext("Finals"), gettext("Preliminaries")] if split else [gettext("Total")]
    writer.writerow(
        [
            gettext("Place"),
            gettext("Player"),
            *[gettext("R%(n)d") % {"n": n} for n in view.round_numbers],
            *totals,
            gettext("Games"),
            gettext("Average rank"),
            gettext("Finalist"),
            gettext("Withdrawn"),
        ]
    )
    for place, row, points in view.rows():
        writer.writerow(
            [
                place,
                safe_cell(row.name),
                *[csv_points(p) if p is not None else "" for p in points],
                *(
                    [
                        csv_points(row.total) if row.finalist and row.counted_games else "",
                        csv_points(row.uncounted_total),
                    ]
                    if split
                    else [csv_points(row.ranked_total)]
                ),
                row.games,
                f"{float(row.average_rank):.2f}" if row.counted_games else "",
                # Without finals every row is a "finalist" to the ranking (all rank together);
                # the column says who plays or played the final, never a withdrawn player.
                "1" if view.ranking.has_finals and row.finalist and not row.withdrawn else "0",
                "1" if row.withdrawn else "0",
            ]
        )
    return response


@require_safe
def event_ics(request: HttpRequest, pk: int) -> HttpResponse:
    """The event as an all-day calendar entry (RFC 5545) from its first to its last day."""
    event = get_object_or_404(Event, pk=pk)
    url = club_url(event.club, "tournaments:detail", args=[event.pk])
    calendar = Calendar()
    calendar.add("prodid", "-//clubsite//tournaments//EN")
    calendar.add("version", "2.0")
    entry = CalendarEvent()
    entry.add("uid", f"tournament-{event.pk}@clubsite")
    entry.add("dtstamp", timezone.now().astimezone(datetime.UTC))
    entry.add("dtstart", event.starts_on)
    entry.add("dtend", event.ends_on + datetime.timedelta(days=1))
    entry.add("summary", f"{event.name} ({event.get_format_display()})")
    if event.venue:
        entry.add("location", event.venue)
    if event.status == Event.Status.CANCELLED:
        entry.add("status", "CANCELLED")  # a calendar that imported it strikes it out
    entry.add("description", url)
    entry.add("url", url)
    calendar.add_component(entry)
    response = HttpResponse(calendar.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{event.pk}.ics"'
    return response
