"""Table confirmation on the pages: the confirm button and the games awaiting the viewer's
confirmation. The rules are the ledger's
(:mod:`scoring.ledger.confirmation`); the table screen's panel is
:mod:`scoring.views.confirmation_panel`.
"""

from __future__ import annotations

from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite.models import Member
from clubsite.permissions import may_keep_every_game
from scoring.entry.game_forms import GameVersionForm
from scoring.ledger import (
    LedgerError,
    StaleHanchan,
    confirmation_state,
    hanchan_confirm,
    waiting_games,
)
from scoring.models import Hanchan, Seat
from scoring.standings.periods import club_today
from scoring.views.access import (
    acting_member,
    hanchan_for_member,
    seats_of,
)
from scoring.views.table import (
    HtmxHttpRequest,
    render_table,
    table_changed,
)


def awaiting_viewer(request: HttpRequest) -> list[Hanchan]:
    """Games whose result waits for the viewer's confirmation: as a seated player (a tap
    still wanted from them), or, for a steward, every game only a steward can confirm.
    Two queries."""
    pending = (
        waiting_games()
        .select_related("ruleset_version")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("member")),
            "confirmations",
        )
        .order_by("-played_on", "-pk")
    )
    steward = may_keep_every_game(request.user)
    member = Member.for_user(request.user)
    if not steward:
        if member is None:
            return []
        pending = pending.filter(seats__member=member)
    today = club_today()
    games: list[Hanchan] = []
    for hanchan in pending[:50]:
        seats = seats_of(hanchan)
        state = confirmation_state(hanchan, seats, list(hanchan.confirmations.all()), today)
        viewer = None if member is None else member.pk
        if state.may_confirm(viewer, False) or (steward and state.steward_only):
            games.append(hanchan)
    return games


@require_POST
def game_confirm(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The tap "this result is right", a seated player's or a steward's, for the version
    the page was drawn at. A stale version re-draws the table (confirm what you saw)."""
    hanchan = hanchan_for_member(request, pk)
    form = GameVersionForm(request.POST)
    if not form.is_valid():
        return render_table(request, hanchan, update_all=True, notice=_("Nothing was confirmed."))
    try:
        counted = hanchan_confirm(
            hanchan_id=pk,
            expected_version=form.cleaned_data["version"],
            user_id=request.user.pk or 0,
            by=acting_member(request, hanchan),
            steward=may_keep_every_game(request.user),
        )
    except StaleHanchan as stale:
        return render_table(
            request, hanchan_for_member(request, pk), update_all=True, notice=str(stale)
        )
    except LedgerError as error:
        return render_table(request, hanchan, update_all=True, notice=str(error))
    if counted:
        return table_changed(request, pk, _("Confirmed: the result counts in the standings."))
    return table_changed(request, pk, _("Confirmed. Waiting for the others."))
