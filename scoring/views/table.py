"""The table screen's pieces shared by the game and hand views: who may keep score, the page
context, previews through the engine, and full-page or htmx-fragment responses.

The table screen has five regions, each a template partial of ``scoring/game_detail.html``:
``status`` (round, honba, deposits and scores, or the end screen), ``entry`` (the hand form),
``hands`` (the chart and the hand list), ``actions`` (undo, void, export) and ``history``
(the game's changes, for its players and stewards). An htmx request gets the region it asked
for; a write also updates the other regions out of band, except that a new hand adds its row
and its history line to the page's and marks the chart to be drawn again when seen.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django_htmx.middleware import HtmxDetails

from clubsite.formatting import format_points, settlement_points
from clubsite.htmx import wants_fragment
from clubsite.permissions import is_steward
from scoring.engine import Ruleset, TableState, dealer_win_streak, is_paarenchan_next
from scoring.hand_form import HandForm, hand_form_data
from scoring.ledger import (
    Correction,
    LedgerError,
    NewHand,
    plan_for,
    state_before,
    stored_game,
)
from scoring.models import Hanchan, HandEntry, OnlineGame, Seat
from scoring.offline_data import offline_data, offline_values
from scoring.views.access import (
    hanchan_for_member,
    may_keep_score,
    seats_of,
)
from scoring.views.charts import LineChart, hand_scores_chart
from scoring.views.confirmation_panel import (
    HistoryRow,
    confirmation_panel,
    history_rows,
    recorded_row,
)
from scoring.views.display import (
    Cell,
    EndRow,
    FinalLine,
    HandRow,
    NextHand,
    Preview,
    TableView,
    ended_by_label,
    game_ruleset_title,
    hand_extras,
    hand_summary,
    honba_label,
    rank_label,
    round_label,
    sign_class,
    signed_count,
)

TEMPLATE = "scoring/game_detail.html"


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def tile_labels() -> str:
    """The words of the tile keyboard (static/js/tiles.js), as JSON for a data attribute."""
    return json.dumps(
        {
            "hand": _("Hand"),
            "chi": _("Chi"),
            "pon": _("Pon"),
            "kan": _("Open kan"),
            "ankan": _("Closed kan"),
            "dora": _("Dora indicator"),
            "ura": _("Ura indicator"),
            "win": _("Winning tile: tap a tile of the hand"),
            "back": _("Back"),
            "clear": _("Clear"),
            "check": _("Value the tiles"),
            "ippatsu": _("Ippatsu"),
            "double_riichi": _("Double riichi"),
            "haitei": _("Haitei"),
            "houtei": _("Houtei"),
            "rinshan": _("Rinshan kaihou"),
            "chankan": _("Chankan"),
            "tenhou": pgettext("yaku", "Tenhou"),
            "chiihou": _("Chiihou"),
            "renhou": _("Renhou"),
            "calls": _("Calls"),
            "indicators": _("Indicators"),
        },
        ensure_ascii=False,
    )


def offline_labels() -> dict[str, str]:
    """The words of the offline hand panel (static/js/offline.js), in the reader's language."""
    return {
        "offline": _(
            "No connection. Enter the hand here: it is kept on this phone and sent when the "
            "connection returns."
        ),
        "ron": _("Ron"),
        "tsumo": _("Tsumo"),
        "draw": _("Draw"),
        "loser": _("Who dealt in?"),
        "winner": _("Who won?"),
        "tenpai": _("Who was tenpai?"),
        "riichi": _("Riichi"),
        "value": _("Value"),
        "confirm": _("Keep it to send"),
        "waiting": _("waiting to send"),
        "estimated": _("estimated: the hand before it is not sent yet"),
        "conflict": _(
            "While this phone was offline, another phone entered hands in this game. Your hand "
            "waiting to send:"
        ),
        "after": _("Record it after them"),
        "discard": _("Discard it"),
        "refused": _("The server refused this hand:"),
        "olderCopy": _(
            "This copy of the page was saved before the latest hands: they are on the server "
            "and come back with the connection. Enter the next hand here."
        ),
        "otherLogin": _(
            "Kept on this phone while someone else was logged in: it is sent when they log in "
            "again here."
        ),
    }


def online_origin(hanchan: Hanchan) -> OnlineGame | None:
    """Where an imported online game came from; ``None`` for a game entered here (no query
    for a game from :func:`~scoring.views.access.hanchan_for_member`)."""
    try:
        return hanchan.online
    except OnlineGame.DoesNotExist:
        return None


def names_of(hanchan: Hanchan) -> list[str]:
    return [seat.member.display_name for seat in seats_of(hanchan)]


# -- the hand form --------------------------------------------------------------------------------


def new_hand_form(
    hanchan: Hanchan, ruleset: Ruleset, data: Any = None, *, strict: bool = False
) -> HandForm:
    """The form for the next hand; a fresh request id and the version it was drawn at."""
    table = hanchan.state["table"]
    return HandForm(
        data,
        ruleset=ruleset,
        names=names_of(hanchan),
        dealer=table["dealer"],
        all_last=table["all_last"],
        strict=strict,
        round_wind=table["round"][:1],
        honba=table["honba"],
        paarenchan=is_paarenchan_next(paarenchan_streak(hanchan, ruleset)),
        initial={"request_id": uuid.uuid4(), "version": hanchan.version},
    )


def paarenchan_streak(hanchan: Hanchan, ruleset: Ruleset) -> int:
    """The next hand's dealer's wins in a row (:func:`scoring.engine.dealer_win_streak`),
    where the ruleset has paarenchan (Makura §44f). Read only when the honba could hold such a
    streak (every win of a dealer who keeps the deal adds one), so a usual hand costs no query."""
    table = hanchan.state["table"]
    # A streak of n wins has put at least n honba on the table.
    if not ruleset.paarenchan or not is_paarenchan_next(table["honba"]):
        return 0
    entries = list(hanchan.hands.order_by("sequence").only("data", "result"))
    return dealer_win_streak(
        [entry.data for entry in entries], [entry.result for entry in entries], table["dealer"]
    )


def preview_next_hand(hanchan: Hanchan, form: HandForm) -> Preview | None:
    """The ledger's plan of the form's hand, shown before confirming; nothing is written."""
    if form.hand is None:
        return None
    try:
        planned = plan_for(hanchan, NewHand(form.hand))
    except LedgerError as error:
        form.add_record_error(error.field, str(error))
        return None
    assert planned.last is not None
    preview = Preview.of(planned.last.result, form.names, planned.ended_by)
    if planned.settlement is None:
        after = NextHand.of(hanchan.state["table"], planned.state["table"], form.names)
        return replace(preview, next=after)
    settlement = planned.settlement
    final = [
        FinalLine(
            rank=rank_label(settlement.ranks[seat]),
            name=form.names[seat],
            score=format_points(settlement.scores[seat]),
            points=Cell(
                settlement_points(settlement.points[seat]), sign_class(settlement.points[seat])
            ),
        )
        for seat in sorted(range(len(form.names)), key=lambda s: (settlement.ranks[s], s))
    ]
    return replace(preview, final=final)


def table_before(hanchan: Hanchan, entries: Sequence[HandEntry], sequence: int) -> TableState:
    """The table just before hand ``sequence`` (0-based), for the correction form."""
    return state_before(stored_game(hanchan, entries), sequence)


def correction_form(
    ruleset: Ruleset,
    before: TableState,
    names: Sequence[str],
    version: int,
    data: Any,
    *,
    strict: bool = False,
) -> HandForm:
    return HandForm(
        data,
        ruleset=ruleset,
        names=names,
        dealer=before.dealer,
        all_last=before.all_last,
        strict=strict,
        round_wind=before.round[:1],
        honba=before.honba,
        initial={"version": version},
    )


def stored_hand_form(
    ruleset: Ruleset, before: TableState, names: Sequence[str], version: int, entry: HandEntry
) -> HandForm:
    """The correction form filled in with the hand as stored."""
    data = hand_form_data(entry.data)
    data["version"] = str(version)
    return correction_form(ruleset, before, names, version, data)


def preview_correction(
    hanchan: Hanchan, entries: Sequence[HandEntry], sequence: int, form: HandForm
) -> Preview | None:
    """The corrected hand's payments, once the ledger has checked every later hand still
    plays; nothing is written."""
    if form.hand is None:
        return None
    try:
        planned = plan_for(hanchan, Correction(sequence, form.hand), entries)
    except LedgerError as error:
        form.add_record_error("" if error.later_hand else error.field, str(error))
        return None
    preview = Preview.of(planned.hands[0].result, form.names, None)
    if planned.settlement is not None:
        last_round = planned.hands[-1].result["round"]
        return Preview(
            preview.payments,
            preview.seats,
            preview.deposits_after,
            ended_by_label(planned.settlement.ended_by, last_round),
        )
    return preview


# -- the page ------------------------------------------------------------------------------------


def hand_rows(
    entries: Sequence[HandEntry], names: Sequence[str], ruleset: Ruleset
) -> list[HandRow]:
    """The hand list, in the order of ``entries`` (the page shows the latest first)."""
    return [
        HandRow(
            number=entry.sequence + 1,
            round=round_label(entry.result["round"]),
            honba=honba_label(entry.result["honba"]) if entry.result["honba"] else "",
            summary=hand_summary(
                entry.data,
                entry.result,
                names,
                fu_scoring=ruleset.fu_scoring,
                nagashi=ruleset.nagashi,
            ),
            extras=hand_extras(entry.data, names),
            deltas=[Cell.delta(d) for d in entry.result["deltas"]],
        )
        for entry in entries
    ]


def end_rows(seats: Sequence[Seat]) -> list[EndRow]:
    ranked = sorted(seats, key=lambda seat: (seat.rank or 0, seat.index))
    return [
        EndRow(
            rank=seat.rank or 0,
            rank_label=rank_label(seat.rank or 0),
            name=seat.member.display_name,
            member_id=seat.member_id,
            score=_points(seat.final_score),
            points=Cell(settlement_points(seat.points or 0), sign_class(seat.points or 0)),
            chips="" if seat.chips is None else signed_count(seat.chips),
            uma_ep="" if seat.uma_ep is None else signed_count(seat.uma_ep),
        )
        for seat in ranked
    ]


def _points(points: int | None) -> str:
    return "" if points is None else format_points(points)


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
    """Everything the table screen shows. ``form`` defaults to an empty form for the next
    hand (for players and staff, while the game is in play); ``editing`` is the number
    (1-based) of the hand the form corrects. ``notice`` tells what just happened: a write
    that went through (``notice_is_success``), or why nothing was written. ``entry_only``:
    just what the hand-entry region needs (a preview swaps that region alone, so it reads
    neither the hand list nor the chart nor the confirmations); ``new_entry``: a hand just
    recorded while the game goes on, whose row and history line are added to the page's,
    with no query for the rest of the list, the history or the chart."""
    seats = seats_of(hanchan)
    names = [seat.member.display_name for seat in seats]
    ruleset = hanchan.ruleset()
    can_keep = may_keep_score(request.user, seats)
    in_play = hanchan.status == Hanchan.Status.IN_PLAY
    if form is None and in_play and can_keep:
        form = new_hand_form(hanchan, ruleset)
    if editing is None:
        form_action = reverse("hand_create", args=[hanchan.pk])
        preview_action = reverse("hand_preview", args=[hanchan.pk])
    else:
        form_action = reverse("hand_edit", args=[hanchan.pk, editing])
        preview_action = reverse("hand_edit_preview", args=[hanchan.pk, editing])
    online = online_origin(hanchan)
    context: dict[str, Any] = {
        "hanchan": hanchan,
        "ruleset": ruleset,
        "names": names,
        "tile_labels": tile_labels(),
        "can_keep": can_keep,
        # An online game's hands are its log's (issue 12): it may be voided, not changed.
        "can_change": can_keep and online is None,
        "online": online,
        "in_play": in_play,
        "form": form if (in_play or editing is not None) and can_keep else None,
        "preview": preview,
        "notice": notice,
        "notice_is_success": notice_is_success,
        "editing": editing,
        "form_action": form_action,
        "preview_action": preview_action,
    }
    if entry_only:
        return context
    entries = [new_entry] if new_entry is not None else list(hanchan.hands.order_by("-sequence"))
    hands = hand_rows(entries, names, ruleset)
    finished = hanchan.status == Hanchan.Status.FINISHED
    last_round = entries[0].result["round"] if entries else ""
    context |= {
        "ruleset_name": game_ruleset_title(
            hanchan.ruleset_version.name, hanchan.ruleset_version.ruleset_id, hanchan.overrides
        ),
        "table": TableView.of(hanchan.state["table"], names),
        "finished": finished,
        "voided": hanchan.status == Hanchan.Status.VOIDED,
        "hands": hands,
        "last_hand": hands[0] if hands else None,
        "end_rows": end_rows(seats) if finished else [],
        "has_chips": finished and any(seat.chips is not None for seat in seats),
        "has_ep": finished and any(seat.uma_ep is not None for seat in seats),
        "ended_by": ended_by_label(hanchan.ended_by, last_round) if finished else "",
        "seat_count": len(seats),
        "member_ids": [seat.member_id for seat in seats],
        "confirmation": confirmation_panel(
            hanchan, seats, user_id=request.user.pk, steward=is_steward(request.user)
        ),
        "history": _history(hanchan, can_keep, new_entry),
        "chart_later": new_entry is not None,
        "score_chart": None if new_entry is not None else game_scores_chart(hanchan, entries),
        "offline": (
            offline_data(
                ruleset,
                hanchan.state["table"],
                names=names,
                version=hanchan.version,
                action=reverse("hand_create", args=[hanchan.pk]),
                labels=offline_labels(),
                user=request.user.pk,
                where=" ".join(
                    [
                        round_label(hanchan.state["table"]["round"]),
                        honba_label(hanchan.state["table"]["honba"]),
                        _("Deposits"),
                        format_points(hanchan.state["table"]["deposits"]),
                    ]
                ),
            )
            if in_play and can_keep and online is None and editing is None
            else None
        ),
        "offline_values": (
            offline_values(ruleset) if in_play and can_keep and online is None else None
        ),
    }
    return context


def _history(hanchan: Hanchan, can_keep: bool, new_entry: HandEntry | None) -> list[HistoryRow]:
    if not can_keep:
        return []
    return [recorded_row(new_entry)] if new_entry is not None else history_rows(hanchan)


def game_scores_chart(hanchan: Hanchan, entries: Sequence[HandEntry]) -> LineChart | None:
    """The chart of the seats' scores hand by hand; ``entries`` newest first."""
    return hand_scores_chart(
        scores_by_hand=[
            (round_label(entry.result["round"]), entry.result["scores"])
            for entry in reversed(entries)
        ],
        names=[seat.member.display_name for seat in seats_of(hanchan)],
        start=hanchan.ruleset().start_points,
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
