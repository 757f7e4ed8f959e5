"""The stewards' page of an event's guests (``/tournaments/<id>/guests/``): invite other
clubs, enter their active members as guests (listed under their own club's display names),
take a guest out, take an invitation back (:mod:`tournaments.guests`).

Stewards only (403 for anyone else, nothing changed). Each POST is one service call, one
transaction; a refused one shows the page again with why (409), nothing changed.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from tournaments import guests
from tournaments.models import Event
from tournaments.services import EventError
from tournaments.views import steward_only


def _number(value: str | None) -> int:
    return int(value) if value and value.isdigit() else 0


@require_http_methods(["GET", "HEAD", "POST"])
@steward_only
def event_guests(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's invited clubs with their members to pick, the guests entered, and the
    clubs that can be invited."""
    event = get_object_or_404(Event, pk=pk)
    error = ""
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "invite":
                guests.club_invite(event_id=event.pk, club_id=_number(request.POST.get("club")))
            elif action == "uninvite":
                guests.club_uninvite(event_id=event.pk, club_id=_number(request.POST.get("club")))
            elif action == "add":
                guests.guests_add(
                    event_id=event.pk,
                    home_member_ids=[
                        _number(v) for v in request.POST.getlist("members") if v.isdigit()
                    ],
                )
            elif action == "remove":
                guests.guest_remove(
                    event_id=event.pk, member_id=_number(request.POST.get("member"))
                )
            else:
                raise EventError(gettext("Nothing to do."))
        except EventError as refused:
            error = str(refused)
        else:
            return redirect("tournaments:guests", pk=event.pk)
    invited = guests.invited_clubs(event) if event.status == Event.Status.OPEN else []
    taken = {one.club.pk for one in invited}
    return render(
        request,
        "tournaments/guests.html",
        {
            "event": event,
            "error": error,
            "open": event.status == Event.Status.OPEN,
            "invited": invited,
            "guests": guests.guests_of(event),
            "invitable": [c for c in guests.invitable_clubs() if c.pk not in taken],
        },
        status=409 if error else 200,
    )
