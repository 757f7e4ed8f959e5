"""The club's online lobbies: which Tenhou private lobby (``L1111``) or
Mahjong Soul friendly room the club plays its online evenings in, and under which club
ruleset their games count (:class:`clubsite.models.OnlineLobby`). Stewards keep the list
on ``/games/import/lobbies/``; an imported game of a listed lobby is stored under that
ruleset, the lobby's own rules as the game's overrides, and counts in the club's
standings (:func:`scoring.ledger.import_verified`). One transaction per action; bad input
changes nothing.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from clubsite.models import ONLINE_SERVICES, OnlineLobby, lobby_number
from clubsite.permissions import may_list_club_lobbies
from scoring.rulebook.choices import ruleset_choices

# mjai logs come from bots' matches, never from a lobby of the club's.
LOBBY_SERVICES = tuple(choice for choice in ONLINE_SERVICES if choice[0] != "mjai")


class OnlineLobbyForm(forms.Form):
    """One lobby: service, lobby id (``L1111``, ``C12345678``, a Mahjong Soul room id) and
    the club ruleset its games count under; a lobby listed already is refused."""

    service = forms.ChoiceField(label=gettext_lazy("Service"), choices=LOBBY_SERVICES)
    lobby = forms.CharField(
        label=gettext_lazy("Lobby"),
        max_length=40,
        strip=True,
        help_text=gettext_lazy("Tenhou: L1111 or C12345678; Mahjong Soul: the room's number."),
    )
    ruleset = forms.ChoiceField(label=gettext_lazy("Counts under"))
    note = forms.CharField(label=gettext_lazy("Note"), max_length=120, required=False)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["ruleset"].choices = ruleset_choices()  # type: ignore[attr-defined]

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        service, lobby = data.get("service"), data.get("lobby")
        if isinstance(service, str) and isinstance(lobby, str) and lobby:
            wanted = lobby_number(lobby)
            for row in OnlineLobby.objects.filter(service=service):
                if lobby_number(row.lobby) == wanted:
                    raise forms.ValidationError(
                        _("Lobby %(lobby)s is listed already (under %(ruleset)s).")
                        % {"lobby": row.lobby, "ruleset": row.ruleset_id}
                    )
        return data


def _steward_only(request: HttpRequest) -> None:
    if not may_list_club_lobbies(request.user):
        raise PermissionDenied(_("Only stewards keep the club's online lobbies."))


@require_http_methods(["GET", "POST"])
def online_lobbies_page(request: HttpRequest) -> HttpResponse:
    """``/games/import/lobbies/``: the club's lobbies and a form to add one
    (post/redirect/get); 403 for anyone but a steward."""
    _steward_only(request)
    if request.method == "POST":
        form = OnlineLobbyForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                with transaction.atomic():
                    OnlineLobby.objects.create(
                        service=data["service"],
                        lobby=data["lobby"],
                        ruleset_id=data["ruleset"],
                        note=data["note"],
                    )
            except IntegrityError:
                form.add_error(None, _("That lobby was just listed by another steward."))
            else:
                messages.success(request, _("Lobby added."))
                return redirect("online_lobbies")
    else:
        form = OnlineLobbyForm()
    labels = dict(ruleset_choices())
    lobbies = [
        (row, labels.get(row.ruleset_id, row.ruleset_id)) for row in OnlineLobby.objects.all()
    ]
    return render(request, "scoring/online_lobbies.html", {"form": form, "lobbies": lobbies})


@require_POST
def online_lobby_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Take a lobby off the list (games stored already keep their ruleset)."""
    _steward_only(request)
    get_object_or_404(OnlineLobby, pk=pk).delete()
    messages.success(request, _("Lobby removed: its games imported from now on count apart."))
    return redirect("online_lobbies")
