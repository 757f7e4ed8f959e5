"""The regions of the table screen as view-models, each the context of its
partial of ``templates/scoring/game_detail.html``:

- ``entry`` (:func:`entry_region`): the hand form and its view-model
  (:class:`scoring.views.entry_region.EntryView`), the preview, the notice;
- ``status`` (:func:`status_region`): round, honba, deposits and scores, what each player
  needs from the hand that can end the game (:mod:`scoring.views.all_last_panel`), or the end
  screen, the confirmations, the offline panel's data;
- ``hands`` (:func:`hands_region`): the chart and the hand list, and ``actions`` (undo, void,
  export), which reads the last hand;
- ``history`` (:func:`history_region`): the game's changes, for its players and stewards.

Each region reads what every region shares (:class:`TablePage`: one load of the game with
its seats) and queries only what it shows: a preview builds the entry region alone, a hand
just recorded adds its own row and history line without reading the rest of the list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubsite.formatting import format_points, settlement_points
from clubsite.permissions import may_keep_every_game
from scoring.engine import Ruleset
from scoring.entry.hand_form import HandForm
from scoring.entry.offline_data import offline_data
from scoring.models import Hanchan, HandEntry, OnlineGame, Seat
from scoring.placement_chances import current_chances
from scoring.views.access import may_keep_score, names_of, seats_of
from scoring.views.all_last_panel import all_last_rows, can_end_game
from scoring.views.charts import LineChart
from scoring.views.confirmation_panel import (
    HistoryRow,
    confirmation_panel,
    history_rows,
    recorded_row,
)
from scoring.views.display import (
    Cell,
    EndRow,
    HandRow,
    Preview,
    TableScores,
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
from scoring.views.entry_region import EntryView
from scoring.views.game_chances import game_chances_chart
from scoring.views.game_charts import hand_marks, hand_scores_chart
from scoring.views.hand_forms import new_hand_form
from scoring.views.offline_values import offline_values_url, value_pads_url
from scoring.views.table_labels import offline_labels, tile_flags, tile_labels


def online_origin(hanchan: Hanchan) -> OnlineGame | None:
    """Where an imported online game came from; ``None`` for a game entered here (no query
    for a game from :func:`~scoring.views.access.hanchan_for_member`)."""
    try:
        return hanchan.online
    except OnlineGame.DoesNotExist:
        return None


@dataclass(frozen=True)
class TablePage:
    """What every region reads: the game (loaded with its seats and members), the names in
    seat order, its ruleset, where it came from, and what the viewer may do."""

    hanchan: Hanchan
    seats: list[Seat]
    names: list[str]
    ruleset: Ruleset
    online: OnlineGame | None
    can_keep: bool
    user_id: int | None
    steward: bool

    @classmethod
    def of(cls, request: HttpRequest, hanchan: Hanchan) -> TablePage:
        seats = seats_of(hanchan)
        return cls(
            hanchan=hanchan,
            seats=seats,
            names=[seat.member.display_name for seat in seats],
            ruleset=hanchan.ruleset(),
            online=online_origin(hanchan),
            can_keep=may_keep_score(request.user, seats),
            user_id=request.user.pk,
            steward=may_keep_every_game(request.user),
        )

    @property
    def in_play(self) -> bool:
        return self.hanchan.status == Hanchan.Status.IN_PLAY

    @property
    def can_change(self) -> bool:
        """Hands may be corrected: an online game's hands are its log's: it may
        be voided, not changed."""
        return self.can_keep and self.online is None

    def context(self) -> dict[str, Any]:
        """What every partial reads."""
        return {
            "hanchan": self.hanchan,
            "ruleset": self.ruleset,
            "names": self.names,
            "can_keep": self.can_keep,
            "can_change": self.can_change,
            "online": self.online,
            "in_play": self.in_play,
            "voided": self.hanchan.status == Hanchan.Status.VOIDED,
            "seat_count": len(self.seats),
        }


def entry_region(
    page: TablePage,
    *,
    form: HandForm | None = None,
    preview: Preview | None = None,
    notice: str = "",
    notice_is_success: bool = False,
    editing: int | None = None,
) -> dict[str, Any]:
    """The hand-entry region. ``form`` defaults to an empty form for the next hand (for
    players and staff, while the game is in play); ``editing`` is the number (1-based) of the
    hand the form corrects. ``notice`` tells what just happened: a write that went through
    (``notice_is_success``), or why nothing was written."""
    hanchan = page.hanchan
    if form is None and page.in_play and page.can_keep:
        form = new_hand_form(hanchan, page.ruleset)
    if editing is None:
        form_action = reverse("hand_create", args=[hanchan.pk])
        preview_action = reverse("hand_preview", args=[hanchan.pk])
    else:
        form_action = reverse("hand_edit", args=[hanchan.pk, editing])
        preview_action = reverse("hand_edit_preview", args=[hanchan.pk, editing])
    shown = form if (page.in_play or editing is not None) and page.can_keep else None
    return {
        "form": shown,
        "entry": EntryView(shown) if shown is not None else None,
        "tile_labels": tile_labels(),
        "tile_flags": tile_flags(),
        "preview": preview,
        "notice": notice,
        "notice_is_success": notice_is_success,
        "editing": editing,
        "form_action": form_action,
        "preview_action": preview_action,
    }


def status_region(
    page: TablePage, entries: Sequence[HandEntry], *, editing: int | None = None
) -> dict[str, Any]:
    """The table's status: round, honba, deposits and scores while in play, the ranking
    once finished (``entries``: the hands newest first, or just the one recorded), the
    confirmations, and the offline panel's data where this phone may enter hands."""
    hanchan = page.hanchan
    table = hanchan.state["table"]
    finished = hanchan.status == Hanchan.Status.FINISHED
    last_round = entries[0].result["round"] if entries else ""
    offline = None
    if page.in_play and page.can_change and editing is None:
        offline = offline_data(
            page.ruleset,
            table,
            names=page.names,
            version=hanchan.version,
            action=reverse("hand_create", args=[hanchan.pk]),
            labels=offline_labels(),
            user=page.user_id,
            where=" ".join(
                [
                    round_label(table["round"]),
                    honba_label(table["honba"]),
                    _("Deposits"),
                    format_points(table["deposits"]),
                ]
            ),
        )
    snapshot = (hanchan.state or {}).get("game")
    all_last = (
        all_last_rows(page.ruleset, snapshot, table, page.names)
        if page.in_play and snapshot is not None and can_end_game(page.ruleset, table)
        else []
    )
    return {
        "table": TableScores.of(table, page.names),
        "all_last": all_last,
        "finished": finished,
        "end_rows": end_rows(page.seats) if finished else [],
        "has_chips": finished and any(seat.chips is not None for seat in page.seats),
        "has_ep": finished and any(seat.uma_ep is not None for seat in page.seats),
        "ended_by": ended_by_label(hanchan.ended_by, last_round) if finished else "",
        "member_ids": [seat.member_id for seat in page.seats],
        "confirmation": confirmation_panel(
            hanchan, page.seats, user_id=page.user_id, steward=page.steward
        ),
        "offline": offline,
    }


def _percent(chance: float) -> str:
    """A chance as a whole percentage; never 0% or 100% for what is not certain."""
    if 0 < chance < 0.005:
        return "<1%"
    if 0.995 < chance < 1:
        return ">99%"
    return f"{round(chance * 100)}%"


def chance_rows(
    hanchan: Hanchan, ruleset: Ruleset, seats: Sequence[Seat], names: Sequence[str]
) -> dict[str, Any] | None:
    """Each player's chances of each final place after the latest hand
    (:func:`scoring.placement_chances.current_chances`), as the page shows them beside the
    chart: the places' labels, a row of percentages per seat and whether the game is over
    (the chances are its places); None for a voided game."""
    chances = current_chances(hanchan, ruleset, seats)
    if chances is None:
        return None
    return {
        "places": [rank_label(p + 1) for p in range(len(chances))],
        "rows": [
            {"name": name, "cells": [_percent(c) for c in row]}
            for name, row in zip(names, chances, strict=True)
        ],
        "finished": hanchan.status == Hanchan.Status.FINISHED,
    }


def hands_region(page: TablePage, entries: Sequence[HandEntry], *, added: bool) -> dict[str, Any]:
    """The hand list (``entries`` newest first) and the charts; with ``added``, ``entries`` is
    just the hand recorded, whose row the page adds to its list (no query for the rest).
    While the game is in play the charts are not drawn with the page but when they are seen
    (:func:`scoring.views.games.game_chart`): the table screen's first load stays within its
    8 KB at hand 30 (``benchmarks.hand_entry``)."""
    hands = hand_rows(entries, page.names, page.ruleset)
    later = added or (page.in_play and bool(hands))
    return {
        "hands": hands,
        "last_hand": hands[0] if hands else None,
        "chart_later": later,
        "score_chart": None if later else game_scores_chart(page.hanchan, entries),
        "chances_chart": None if later else game_chances_chart(page.hanchan, entries, page.names),
        "chances": None
        if later
        else chance_rows(page.hanchan, page.ruleset, page.seats, page.names),
    }


def history_region(page: TablePage, added: HandEntry | None) -> dict[str, Any]:
    """The game's history for its players and stewards (just the line of ``added``, a hand
    recorded now, which the page adds to its list)."""
    history: list[HistoryRow] = []
    if page.can_keep:
        history = [recorded_row(added)] if added is not None else history_rows(page.hanchan)
    return {"history": history}


def page_only(page: TablePage) -> dict[str, Any]:
    """What only the whole page shows (its title, the addresses of the engine's figures and
    of the value pads the phone draws)."""
    hanchan = page.hanchan
    context: dict[str, Any] = {
        "ruleset_name": game_ruleset_title(
            hanchan.ruleset_version.name, hanchan.ruleset_version.ruleset_id, hanchan.overrides
        ),
        "offline_values_url": None,
        "value_pads_url": None,
    }
    if page.in_play and page.can_change:
        address = (
            hanchan.ruleset_version_id,
            hanchan.overrides or None,
            page.ruleset,
            get_language() or settings.LANGUAGE_CODE,
        )
        context["offline_values_url"] = offline_values_url(*address)
        context["value_pads_url"] = value_pads_url(*address)
    return context


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


def game_scores_chart(hanchan: Hanchan, entries: Sequence[HandEntry]) -> LineChart | None:
    """The chart of the seats' scores hand by hand, with each seat's riichi, wins and
    deal-ins marked; ``entries`` newest first."""
    played = list(reversed(entries))
    return hand_scores_chart(
        scores_by_hand=[
            (round_label(entry.result["round"]), entry.result["scores"]) for entry in played
        ],
        names=names_of(hanchan),
        start=hanchan.ruleset().start_points,
        marks_by_hand=[hand_marks(entry.data) for entry in played],
    )
