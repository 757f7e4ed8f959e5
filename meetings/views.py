"""The meetup pages: the list, a meetup with its next action, the call form, the venues and the
calendar files.

Every action is a POST of a real form, answered with a redirect back to the meetup's page
(post/redirect/get); under htmx it is answered with the page's ``meetup`` fragment instead, which
replaces itself. A refused action shows its message on the page and changes nothing: status 403
(not yours to take) or 409 (not now) for a plain form, 200 under htmx, which swaps only 2xx.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, Concatenate

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.db.models import Prefetch, Q
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from clubsite.htmx import wants_fragment
from clubsite.models import Member
from clubsite.permissions import may_use_desk
from meetings import forms, services
from meetings.feed_club import feed_scope
from meetings.ical import calendar_of
from meetings.models import (
    ARRANGING,
    ON_THE_CALENDAR,
    Action,
    Application,
    Meetup,
    MeetupProfile,
    Refusal,
    RosterRow,
    State,
    Venue,
    format_day,
)
from meetings.services import MeetupError
from scoring.rulebook.names import ruleset_label

type View[**P] = Callable[Concatenate[HttpRequest, P], HttpResponse]

PAST_MEETUPS_LISTED = 20


def remembers_language[**P](view: View[P]) -> View[P]:
    """Record the language the member is using, for the e-mails they will get."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        member = Member.for_user(request.user)
        if member is not None:
            MeetupProfile.remember_language(member, translation.get_language())
        return view(request, *args, **kwargs)

    return wrapper


# The list


@dataclass(frozen=True)
class MeetupCard:
    """A meetup as the list shows it, with where the viewer stands."""

    meetup: Meetup
    applicants: int
    seated: int
    my_status: str


def card_for(meetup: Meetup, member: Member | None) -> MeetupCard:
    applications = meetup.applications_in_order()
    mine = meetup.application_of(member)
    if mine is None:
        status = "coordinator" if member is not None and meetup.coordinator == member else ""
    elif mine.awaiting_confirmation() and meetup.state == State.PROVISIONAL:
        status = "confirm"
    elif mine.seated:
        status = "seated"
    else:
        status = "applied"
    return MeetupCard(
        meetup=meetup,
        applicants=len(applications),
        seated=sum(1 for a in applications if a.seated),
        my_status=status,
    )


@require_safe
@remembers_language
def meetup_list(request: HttpRequest) -> HttpResponse:
    member = Member.for_user(request.user)
    meetups = Meetup.objects.listed().prefetch_related(
        "candidate_dates",
        Prefetch("applications", queryset=Application.objects.select_related("member")),
    )
    current = [card_for(m, member) for m in meetups.filter(state__in=ARRANGING)]
    past = [
        card_for(m, member)
        for m in meetups.exclude(state__in=ARRANGING).order_by("-date", "-pk")[:PAST_MEETUPS_LISTED]
    ]
    feed_url = ""
    if member is not None:
        token = MeetupProfile.of(member).calendar_token
        feed_url = request.build_absolute_uri(reverse("meetings:feed", args=[token]))
    context = {
        "open_calls": [c for c in current if c.meetup.state == State.RECRUITING],
        "coming_up": [c for c in current if c.meetup.state != State.RECRUITING],
        "past": past,
        "feed_url": feed_url,
    }
    return render(request, "meetings/list.html", context)


# Posting a call (T1)


@require_http_methods(["GET", "POST"])
@remembers_language
def meetup_new(request: HttpRequest) -> HttpResponse:
    if Member.for_user(request.user) is None:
        raise Http404(gettext("Only club members can post a meetup."))
    form = forms.MeetupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            meetup = services.meetup_post(
                by=request.user,
                dates=data["dates"],
                venue=data["venue"],
                ruleset_id=data["ruleset"],
                start_time=data["start_time"],
                tables=data["tables"],
                note=data["note"],
                coordinator_plays=data["coordinator_plays"],
            )
        except MeetupError as error:
            form.add_error(None, str(error))
        else:
            return redirect("meetings:detail", pk=meetup.pk)
    return render(request, "meetings/new.html", {"form": form})


# A meetup's page


@require_safe
@remembers_language
def meetup_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return meetup_page(request, pk)


def meetup_page(
    request: HttpRequest,
    pk: int,
    *,
    error: str = "",
    bound: dict[str, Form] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The meetup's page, or its ``meetup`` fragment under htmx; ``bound`` holds forms to show
    as submitted (with their errors) in place of fresh ones."""
    meetup = get_object_or_404(Meetup.objects.for_page(), pk=pk)
    viewer = request.user
    member = Member.for_user(viewer)
    allowed = meetup.allowed_actions(viewer)
    roster = meetup.roster_for(viewer)
    bound = bound or {}
    next_action = meetup.next_action_for(viewer)
    declarable = meetup.declarable_dates()
    lineup = [row for row in roster if row.application.seated]
    mine = meetup.application_of(member)
    context: dict[str, Any] = {
        "meetup": meetup,
        "error": error,
        "allowed": {str(action) for action in allowed},
        "is_manager": meetup.can_manage(viewer),
        "next_action": next_action,
        "mine": mine,
        # Where the viewer stands, unless the big button says it already or they are the
        # coordinator waiting for their own declaration.
        "show_my_status": mine is not None
        and next_action != Action.CONFIRM
        and (mine.seated or mine.member_id != meetup.coordinator_id),
        "my_position": next(
            (row.position for row in roster if mine and row.application.pk == mine.pk), None
        ),
        "lineup": lineup,
        "confirmed_count": sum(1 for row in lineup if row.application.confirmed_at),
        "tally": [
            (
                format_day(candidate.date),
                sum(1 for row in roster if row.application.can_make(candidate.date)),
            )
            for candidate in meetup.open_dates()
        ],
        "waiting": [row for row in roster if not row.application.seated],
        "roster": roster,
        "show_phones": meetup.phones_visible_to(viewer),
        "change_requests": meetup.open_change_requests(),
        "notices": list(meetup.notices.all()),
        "results": meetup.results() if meetup.state == State.REPORTED else [],
        "declare_first": declarable[0] if declarable else None,
        "declare_first_lineup": (meetup.default_lineup(declarable[0].date) if declarable else []),
        "declare_picks": declare_picks(meetup, roster) if Action.DECLARE in allowed else [],
        "apply_form": bound.get("apply") or forms.ApplyForm(meetup=meetup),
        "change_form": bound.get("change") or forms.ChangeRequestForm(),
        "move_form": bound.get("move")
        or forms.MoveForm(initial={"date": meetup.date, "start_time": meetup.start_time}),
        "report_form": (
            bound.get("report") or forms.ReportForm(meetup=meetup)
            if Action.REPORT in allowed
            else None
        ),
        "on_the_calendar": meetup.state in ON_THE_CALENDAR,
        "ruleset_name": ruleset_label(meetup.ruleset_id),
    }
    template = "meetings/detail.html#meetup" if wants_fragment(request) else "meetings/detail.html"
    return render(request, template, context, status=status)


@dataclass(frozen=True)
class DeclarePick:
    """One candidate date in the coordinator's "declare the line-up" form: every applicant,
    ticked if among the first who can make it."""

    date: datetime.date
    label: str
    rows: list[tuple[RosterRow, bool, bool]]  # (applicant, ticked, can make the date)
    enough: bool


def declare_picks(meetup: Meetup, roster: list[RosterRow]) -> list[DeclarePick]:
    picks = []
    for candidate in meetup.open_dates():
        first = {a.pk for a in meetup.default_lineup(candidate.date)}
        # A deactivated member is not offered a seat.
        rows = [
            (row, row.application.pk in first, row.application.can_make(candidate.date))
            for row in roster
            if row.application.seatable
        ]
        picks.append(
            DeclarePick(candidate.date, format_day(candidate.date), rows, enough=bool(first))
        )
    return picks


def act(request: HttpRequest, pk: int, change: Callable[[], object]) -> HttpResponse:
    """Run one transition and answer: the fresh fragment under htmx, else a redirect to the
    page; a refusal is shown on the page."""
    try:
        change()
    except MeetupError as error:
        return refuse(request, pk, Refusal(str(error), forbidden=error.forbidden))
    if wants_fragment(request):
        return meetup_page(request, pk)
    return redirect("meetings:detail", pk=pk)


def refuse(request: HttpRequest, pk: int, refusal: Refusal) -> HttpResponse:
    status = 200 if wants_fragment(request) else 403 if refusal.forbidden else 409
    return meetup_page(request, pk, error=refusal.message, status=status)


def act_on_form(
    request: HttpRequest,
    pk: int,
    action: Action,
    name: str,
    make_form: Callable[[Meetup], Form],
    change: Callable[[dict[str, Any]], object],
) -> HttpResponse:
    """An action that takes a form (change request, move, report): refused before the form
    is read when the viewer may not do it now; an invalid form comes back with its errors;
    otherwise ``change(cleaned_data)`` runs as :func:`act` does."""
    meetup = get_object_or_404(Meetup.objects.for_page(), pk=pk)
    if refused := checked(request, meetup, action):
        return refused
    form = make_form(meetup)
    if not form.is_valid():
        return invalid(request, pk, name, form)
    return act(request, pk, lambda: change(form.cleaned_data))


def checked(request: HttpRequest, meetup: Meetup, action: Action) -> HttpResponse | None:
    """The refusal page if the viewer may not take ``action`` now, before reading their form
    (someone else's button is refused as such, not answered with form errors)."""
    refusal = meetup.refusal(action, request.user)
    return None if refusal is None else refuse(request, meetup.pk, refusal)


def invalid(request: HttpRequest, pk: int, name: str, form: Form) -> HttpResponse:
    """The page again with the submitted form and its errors (status 200, so htmx swaps it)."""
    return meetup_page(request, pk, bound={name: form})


@require_POST
@remembers_language
def meetup_apply(request: HttpRequest, pk: int) -> HttpResponse:
    meetup = get_object_or_404(Meetup.objects.for_page(), pk=pk)
    if refused := checked(request, meetup, Action.APPLY):
        return refused
    form = forms.ApplyForm(request.POST, meetup=meetup)
    if not form.is_valid():
        return invalid(request, pk, "apply", form)
    return act(
        request,
        pk,
        lambda: services.meetup_apply(meetup_id=pk, by=request.user, dates=form.chosen_dates()),
    )


@require_POST
@remembers_language
def meetup_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    return act(request, pk, lambda: services.meetup_withdraw(meetup_id=pk, by=request.user))


@require_POST
@remembers_language
def meetup_declare(request: HttpRequest, pk: int) -> HttpResponse:
    meetup = get_object_or_404(Meetup.objects.for_page(), pk=pk)
    if refused := checked(request, meetup, Action.DECLARE):
        return refused
    form = forms.DeclareForm(request.POST, meetup=meetup)
    if not form.is_valid():
        errors = [str(message) for messages in form.errors.values() for message in messages]
        return meetup_page(request, pk, error=" ".join(errors))
    return act(
        request,
        pk,
        lambda: services.meetup_declare(
            meetup_id=pk,
            by=request.user,
            date=form.cleaned_data["date"],
            members=list(form.cleaned_data["members"]),
        ),
    )


@require_POST
@remembers_language
def meetup_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    return act(request, pk, lambda: services.meetup_confirm(meetup_id=pk, by=request.user))


@require_POST
@remembers_language
def meetup_finalize(request: HttpRequest, pk: int) -> HttpResponse:
    return act(request, pk, lambda: services.meetup_finalize(meetup_id=pk, by=request.user))


@require_POST
@remembers_language
def meetup_call_off(request: HttpRequest, pk: int) -> HttpResponse:
    return act(request, pk, lambda: services.meetup_call_off(meetup_id=pk, by=request.user))


@require_POST
@remembers_language
def meetup_request_change(request: HttpRequest, pk: int) -> HttpResponse:
    return act_on_form(
        request,
        pk,
        Action.REQUEST_CHANGE,
        "change",
        lambda meetup: forms.ChangeRequestForm(request.POST),
        lambda data: services.meetup_request_change(
            meetup_id=pk, by=request.user, kind=data["kind"], message=data["message"]
        ),
    )


@require_POST
@remembers_language
def meetup_rerecruit(request: HttpRequest, pk: int) -> HttpResponse:
    return act(request, pk, lambda: services.meetup_rerecruit(meetup_id=pk, by=request.user))


@require_POST
@remembers_language
def meetup_move(request: HttpRequest, pk: int) -> HttpResponse:
    return act_on_form(
        request,
        pk,
        Action.MOVE,
        "move",
        lambda meetup: forms.MoveForm(request.POST),
        lambda data: services.meetup_move(
            meetup_id=pk, by=request.user, date=data["date"], start_time=data["start_time"]
        ),
    )


@require_POST
@remembers_language
def meetup_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    return act(request, pk, lambda: services.meetup_cancel(meetup_id=pk, by=request.user))


@require_POST
@remembers_language
def meetup_mark_held(request: HttpRequest, pk: int) -> HttpResponse:
    return act(request, pk, lambda: services.meetup_mark_held(meetup_id=pk, by=request.user))


@require_POST
@remembers_language
def meetup_report(request: HttpRequest, pk: int) -> HttpResponse:
    return act_on_form(
        request,
        pk,
        Action.REPORT,
        "report",
        lambda meetup: forms.ReportForm(request.POST, meetup=meetup),
        lambda data: services.meetup_report(
            meetup_id=pk, by=request.user, hanchans=list(data["hanchans"]), note=data["note"]
        ),
    )


# Venues


@require_safe
def venue_list(request: HttpRequest) -> HttpResponse:
    context = {
        "venues": Venue.objects.all(),
        # The steward's desk edits venues (meetings.venue_desk), as it does members.
        "can_edit": may_use_desk(request.user),
    }
    return render(request, "meetings/venues.html", context)


# Calendars


def ics_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_safe
def meetup_ics(request: HttpRequest, pk: int) -> HttpResponse:
    """The .ics file of one meetup whose date everyone agreed on."""
    meetup = get_object_or_404(Meetup.objects.for_page().on_the_calendar(), pk=pk)
    return ics_response(calendar_of([meetup]), f"meetup-{meetup.pk}.ics")


@login_not_required
@require_safe
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """A member's confirmed meetups, for calendar apps: they fetch it without logging in, so the
    secret in its address is the only key (a new link makes the old one stop working)."""
    with feed_scope(token, getattr(request, "club", None)):
        profile = get_object_or_404(
            MeetupProfile.objects.select_related("member"), calendar_token=token
        )
        meetups = (
            Meetup.objects.for_page()
            .on_the_calendar()
            .filter(
                Q(applications__member=profile.member)
                & Q(applications__seated=True)
                & Q(applications__withdrawn_at__isnull=True)
            )
            .distinct()
        )
        with translation.override(profile.language or settings.LANGUAGE_CODE):
            content = calendar_of(meetups, name=gettext("Mahjong club meetups"))
    return ics_response(content, "meetups.ics")


@require_POST
def calendar_reset(request: HttpRequest) -> HttpResponse:
    """A new secret for the member's feed; the old address stops working."""
    member = Member.for_user(request.user)
    if member is None:
        raise Http404(gettext("Only club members have a calendar feed."))
    MeetupProfile.of(member).new_calendar_token()
    return redirect(reverse("meetings:list") + "#calendar")
