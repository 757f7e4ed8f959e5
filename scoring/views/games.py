"""Games: the list (the home page), starting a game, the table screen, export, undo, void."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from clubsite.club_scope import current_club
from clubsite.dates import club_today
from clubsite.formatting import settlement_points
from scoring.entry.game_forms import GameStartForm, UndoLastHandForm, VoidGameForm, member_options
from scoring.ledger import (
    LedgerError,
    StaleHanchan,
    hanchan_record,
    hanchan_start,
    hanchan_void,
    hand_undo_last,
    is_finished_waiting,
)
from scoring.models import Hanchan, Seat
from scoring.rulebook.choices import game_ruleset_choices
from scoring.views.access import (
    acting_member,
    actor,
    hanchan_for_keeper,
    hanchan_for_member,
    seats_of,
)
from scoring.views.confirmations import awaiting_viewer
from scoring.views.display import (
    Cell,
    TableScores,
    game_ruleset_title,
    sign_class,
)
from scoring.views.game_chances import game_chances_chart
from scoring.views.game_elsewhere import game_address_elsewhere
from scoring.views.table import (
    HtmxHttpRequest,
    render_table,
    table_changed,
    wants_fragment,
)
from scoring.views.table_regions import chance_rows, game_scores_chart

RECENT_FINISHED = 20


@dataclass(frozen=True)
class PlayerLine:
    name: str
    rank: int
    points: Cell


@dataclass(frozen=True)
class GameCard:
    """A game in the list: in play with its table, or finished with ranks and points."""

    pk: int
    played_on: date
    ruleset_name: str
    table_name: str
    venue: str
    table: TableScores | None
    players: list[PlayerLine]
    awaiting: bool = False
    confirmed_by: tuple[str, ...] = ()
    # The players in seat order, as one line (a game in play listed compactly).
    names: str = ""

    @classmethod
    def of(cls, hanchan: Hanchan) -> GameCard:
        seats = seats_of(hanchan)
        names = [seat.member.display_name for seat in seats]
        in_play = hanchan.status == Hanchan.Status.IN_PLAY
        awaiting = is_finished_waiting(hanchan)
        players = [
            PlayerLine(
                seat.member.display_name,
                seat.rank or 0,
                Cell(settlement_points(seat.points or 0), sign_class(seat.points or 0)),
            )
            for seat in sorted(seats, key=lambda s: (s.rank or 0, s.index))
        ]
        return cls(
            pk=hanchan.pk,
            played_on=hanchan.played_on,
            ruleset_name=game_ruleset_title(
                hanchan.ruleset_version.name, hanchan.ruleset_version.ruleset_id, hanchan.overrides
            ),
            table_name=hanchan.table_name,
            venue=hanchan.venue,
            table=TableScores.of(hanchan.state["table"], names) if in_play else None,
            players=[] if in_play else players,
            awaiting=awaiting,
            confirmed_by=_confirmed_by(hanchan, seats) if awaiting else (),
            names=pgettext("list separator", ", ").join(names),
        )


def _confirmed_by(hanchan: Hanchan, seats: list[Seat]) -> tuple[str, ...]:
    """Names of the seated players who confirmed the current version (prefetched)."""
    members = {c.member_id for c in hanchan.confirmations.all() if c.version == hanchan.version}
    return tuple(seat.member.display_name for seat in seats if seat.member_id in members)


@require_safe
def game_list(request: HttpRequest) -> HttpResponse:
    """Home: the viewer's own games in play (each a card with the scores), the games whose
    result waits for their confirmation, every other game in play one line each (a
    tournament's twenty tables made the page 5,558 px tall as cards), then
    the latest finished games (those not counted yet marked, with who confirmed)."""
    games = Hanchan.objects.select_related("ruleset_version").prefetch_related("seats__member")
    in_play = list(games.in_play().order_by("-played_on", "-created_at"))
    finished = (
        games.finished()
        .prefetch_related("confirmations")
        .order_by("-played_on", "-finished_at", "-pk")[:RECENT_FINISHED]
    )
    viewer = acting_member(request)

    def plays(hanchan: Hanchan) -> bool:
        return viewer is not None and any(s.member_id == viewer.pk for s in hanchan.seats.all())

    context = {
        "mine_in_play": [GameCard.of(h) for h in in_play if plays(h)],
        "awaiting_mine": [GameCard.of(h) for h in awaiting_viewer(request)],
        "others_in_play": [GameCard.of(h) for h in in_play if not plays(h)],
        "finished": [GameCard.of(h) for h in finished],
    }
    return render(request, "scoring/game_list.html", context)


@require_http_methods(["GET", "POST"])
def game_new(request: HtmxHttpRequest) -> HttpResponse:
    """Start a game. Changing the ruleset or the name filter redraws the seats (htmx GET of
    the ``seats`` region; without JavaScript the "Update" button posts ``refresh``)."""
    source = request.POST if request.method == "POST" else request.GET
    seats = [source.get(f"player_{seat}", "") for seat in range(4)]
    choices = game_ruleset_choices()
    members = member_options(source.get("q", ""), seats)
    member = acting_member(request)
    if request.method == "POST" and "refresh" not in request.POST:
        form = GameStartForm(
            request.POST, ruleset_choices=choices, members=members, user=request.user
        )
        if form.is_valid():
            data = form.cleaned_data
            try:
                hanchan = hanchan_start(
                    ruleset_id=data["ruleset"],
                    overrides=data["overrides"],
                    members=data["players"],
                    played_on=data["played_on"],
                    venue=data["venue"],
                    table_name=data["table_name"],
                    draw_seats=data["draw_seats"],
                    by=member,
                )
            except LedgerError as error:
                form.add_error(error.field if error.field in form.fields else None, str(error))
            else:
                if wants_fragment(request):
                    return HttpResponseClientRedirect(hanchan_url(hanchan))
                return redirect("game_detail", hanchan.pk)
        region = "game-form"
    else:
        initial = {
            "ruleset": current_club().default_ruleset,
            "played_on": club_today(),
            "player_0": member.pk if member is not None else None,
        }
        for key in ("ruleset", "played_on", "venue", "table_name", "draw_seats"):
            if key in source:
                initial[key] = source[key]
        initial.update({f"player_{seat}": pk for seat, pk in enumerate(seats) if pk})
        if "ruleset" in source and not any(seats):
            initial["player_0"] = None
        form = GameStartForm(
            initial=initial, ruleset_choices=choices, members=members, user=request.user
        )
        region = "seats"
    context = {"form": form, "query": source.get("q", "")}
    template = "scoring/game_new.html"
    if wants_fragment(request):
        template += f"#{region}"
    return render(request, template, context)


def hanchan_url(hanchan: Hanchan) -> str:
    return reverse("game_detail", args=[hanchan.pk])


@require_safe
def game_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The table screen: anyone logged in may look; players and staff get the hand form.
    An htmx request gets every region (e.g. "cancel" while correcting a hand)."""
    try:
        hanchan = hanchan_for_member(request, pk)
    except Http404:
        # A guest's game linked from their own club's pages: on to its own club's address.
        elsewhere = game_address_elsewhere(request.user, pk)
        if elsewhere is None:
            raise
        return HttpResponseRedirect(elsewhere)
    return render_table(request, hanchan, update_all=True)


@require_safe
def game_chart(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The charts of the game (scores and placement chances hand by hand, the chances now):
    to htmx the region alone, which the table screen draws where its charts are seen while
    the game is in play; otherwise a page of their own, the link the table screen shows in
    their place without JavaScript. 404 for a game the member may not see."""
    hanchan = hanchan_for_member(request, pk)
    entries = list(hanchan.hands.order_by("-sequence"))
    seats = seats_of(hanchan)
    names = [seat.member.display_name for seat in seats]
    context = {
        "hanchan": hanchan,
        "score_chart": game_scores_chart(hanchan, entries),
        "chances_chart": game_chances_chart(hanchan, entries, names),
        "chances": chance_rows(hanchan, hanchan.ruleset(), seats, names),
    }
    if wants_fragment(request):
        return render(request, "scoring/game_detail.html#score-chart", context)
    return render(request, "scoring/game_chart.html", context)


@require_safe
def game_record(request: HttpRequest, pk: int) -> HttpResponse:
    """The game as a club-game/1 record, to download."""
    hanchan = hanchan_for_member(request, pk)
    response = JsonResponse(
        hanchan_record(hanchan), json_dumps_params={"ensure_ascii": False, "indent": 2}
    )
    filename = f"game-{hanchan.pk}-{hanchan.played_on.isoformat()}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_POST
def hand_undo(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Take back the last hand (after the confirm step on the table screen)."""
    return _versioned_action(
        request,
        pk,
        UndoLastHandForm,
        hand_undo_last,
        refused=_("Nothing was undone."),
        done=_("The last hand was undone."),
    )


@require_POST
def game_void(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Void the game: it stays in the ledger, counting nowhere."""
    return _versioned_action(
        request,
        pk,
        VoidGameForm,
        hanchan_void,
        refused=_("Nothing was voided."),
        done=_("The game was voided."),
    )


def _versioned_action(
    request: HtmxHttpRequest,
    pk: int,
    form_class: type[UndoLastHandForm] | type[VoidGameForm],
    service: Callable[..., object],
    *,
    refused: str,
    done: str,
) -> HttpResponse:
    """A keeper's write that only needs the game version the page was drawn at: undo, void.
    A stale version or a refusal re-draws the table with the reason; nothing is written."""
    hanchan = hanchan_for_keeper(request, pk)
    form = form_class(request.POST)
    if not form.is_valid():
        return render_table(request, hanchan, update_all=True, notice=refused)
    try:
        service(
            hanchan_id=pk,
            expected_version=form.cleaned_data["version"],
            **actor(request, hanchan),
        )
    except StaleHanchan as stale:
        return render_table(
            request, hanchan_for_member(request, pk), update_all=True, notice=str(stale)
        )
    except LedgerError as error:
        return render_table(request, hanchan, update_all=True, notice=str(error))
    return table_changed(request, pk, done)
