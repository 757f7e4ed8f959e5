"""Manners warnings (seed 004 L140-163, seed 001 L1-35): a steward notes, at
a game, a warning against one of its players, or agari-houki in a severe case; the game's
page of warnings lists them, and the member page lists a member's for stewards only."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubsite.models import Member
from clubsite.permissions import may_note_manners
from scoring.models import MannersWarning
from scoring.views.access import acting_member, hanchan_for_manners, seats_of


class MannersWarningForm(forms.Form):
    """Who (a player seated at the game), how severe, and what happened (one line, at most
    300 characters, printable text only: PostgreSQL refuses a NUL byte)."""

    member = forms.TypedChoiceField(label=_("Player"), coerce=int)
    severity = forms.ChoiceField(
        label=_("Severity"),
        choices=MannersWarning.Severity.choices,
        widget=forms.RadioSelect,
        initial=MannersWarning.Severity.WARNING,
    )
    note = forms.CharField(label=_("What happened"), max_length=300, strip=True)

    def __init__(self, *args: Any, players: list[Member], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = {member.pk: member for member in players}
        self.fields["member"].choices = [  # type: ignore[attr-defined]
            (member.pk, member.display_name) for member in players
        ]

    def clean_note(self) -> str:
        note: str = self.cleaned_data["note"]
        # Django's CharField already refuses a NUL byte; a control character (a tab, a line
        # break) has no place in one line either.
        if not note.isprintable():
            raise forms.ValidationError(
                gettext("Write the note on one line, without control characters.")
            )
        return note


def game_manners(request: HttpRequest, pk: int) -> HttpResponse:
    """The warnings noted at game ``pk`` and the form to note one (stewards only; 403 for
    anyone else, 404 for no such game). A POST validates before writing and writes one row."""
    hanchan = hanchan_for_manners(request, pk)
    players = [seat.member for seat in seats_of(hanchan)]
    form = MannersWarningForm(request.POST or None, players=players)
    if request.method == "POST" and form.is_valid():
        noted_by = acting_member(request, hanchan)
        if noted_by is None:
            raise PermissionDenied(gettext("Only stewards with a member profile note warnings."))
        with transaction.atomic():
            MannersWarning.objects.create(
                member=form.players[form.cleaned_data["member"]],
                hanchan=hanchan,
                noted_by=noted_by,
                severity=form.cleaned_data["severity"],
                note=form.cleaned_data["note"],
            )
        messages.success(request, gettext("The warning was noted."))
        return redirect("game_manners", pk)
    warnings = hanchan.manners_warnings.select_related("member", "noted_by")
    return render(
        request,
        "scoring/game_manners.html",
        {"hanchan": hanchan, "form": form, "warnings": list(warnings)},
        status=400 if request.method == "POST" else 200,
    )


def member_warnings(viewer: Any, member: Member) -> list[MannersWarning] | None:
    """A member's warnings, newest first, for a steward (``None`` for anyone else: the member
    page shows no such section)."""
    if not may_note_manners(viewer):
        return None
    return list(member.manners_warnings.select_related("hanchan", "noted_by"))
