"""What if we had played under the other rules (docs/what-if.md): a
period's counted games re-scored under another ruleset of the same family, and each
member's standing both ways with the change.

The page computes directly, without the task queue: a season of about 1,300 hanchans is
read and replayed twice over in well under its 5 s target (``make bench``,
:mod:`benchmarks.whatif`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from scoring import standings as st
from scoring.engine import Ruleset, available_rulesets, load_ruleset
from scoring.standings.counted import counted_versions, display_names, split_key
from scoring.views.display import Cell
from scoring.views.standings_filters import (
    PeriodLink,
    period_label,
    points_cell,
    read_filters,
    ruleset_label,
)
from scoring.whatif.games import NOT_FINISHED, PENDING, PLAYERS_DIFFER, Refusal
from scoring.whatif.period import period_games
from scoring.whatif.rules import differences
from scoring.whatif.standings import WhatIf, what_if

# The groups of rules a what-if takes from the other ruleset (scoring.whatif.rules.TAKEN).
GROUP_LABELS: dict[str, Promise] = {
    "uma": gettext_lazy("uma"),
    "oka": gettext_lazy("oka"),
    "return": gettext_lazy("start and return points"),
    "rounding": gettext_lazy("rounding and ties"),
    "tobi": gettext_lazy("tobi (busting)"),
    "honba": gettext_lazy("honba"),
    "deposits": gettext_lazy("riichi sticks and deposits"),
    "multi_ron": gettext_lazy("multi-ron"),
    "payments": gettext_lazy("hand payments (kiriage, limits, fu)"),
    "chombo": gettext_lazy("chombo"),
    "pao": gettext_lazy("pao and rinshan liability"),
    "nagashi": gettext_lazy("nagashi mangan"),
    "chips": gettext_lazy("chips"),
}

# Refusals of the engine a hand as entered can meet under other rules, by code.
REFUSALS: dict[str, Promise] = {
    NOT_FINISHED: gettext_lazy("The hands end before the game would under these rules."),
    PENDING: gettext_lazy("A correction waits for confirmation: counted as it stands."),
    "no_open_riichi": gettext_lazy("These rules have no open riichi."),
    "fu_not_allowed": gettext_lazy("A fu these rules do not allow."),
    "fu_not_scored": gettext_lazy("A fu these rules do not allow."),
    "fu_needed": gettext_lazy("A fu these rules do not allow."),
    "fu_out_of_range": gettext_lazy("A fu these rules do not allow."),
    "two_han_minimum": gettext_lazy("A 1-han win where these rules want 2 han."),
    "sancha_ron_is_abort": gettext_lazy("A triple ron, an abortive draw under these rules."),
    "no_pao": gettext_lazy("These rules have no pao (liability for a yakuman)."),
    "no_nagashi": gettext_lazy("These rules have no nagashi mangan."),
    "no_such_penalty": gettext_lazy("These rules have no such penalty."),
    "no_chombo_after_result": gettext_lazy(
        "A chombo with a win or a draw, which these rules waive."
    ),
}


def refusal_text(refusal: Refusal) -> str:
    """Why a game cannot be re-scored, in the reader's language (by the refusal's code)."""
    if refusal.code == PLAYERS_DIFFER:
        return _("A %(players)d-player game: these rules are for %(other)d players.") % {
            "players": int(refusal.params.get("players", 0)),
            "other": int(refusal.params.get("other", 0)),
        }
    if refusal.code == "game_over":
        if refusal.params.get("ended_by") == "tobi":
            return _("A player busts earlier, so the game ends earlier.")
        return _("The game ends earlier under these rules.")
    if refusal.code == "too_many_ron_winners":
        return _("At most %(n)d players can win on one discard under these rules.") % {
            "n": int(refusal.params.get("max", 0))
        }
    text = REFUSALS.get(refusal.code)
    if text is not None:
        return str(text)
    return _("Not possible under these rules (%(reason)s).") % {"reason": refusal.message}


@dataclass(frozen=True)
class Row:
    """One member's line, formatted."""

    member_id: int
    name: str
    games: int
    before: Cell
    after: Cell
    change: Cell
    place_before: int
    place_after: int
    places_up: int  # 0 when the member stays or moves down
    places_down: int  # 0 when the member stays or moves up


@dataclass(frozen=True)
class RefusedRow:
    hanchan_id: int
    played_on: str
    hand: int | None  # 1-based
    reason: str


@dataclass(frozen=True)
class Choice:
    ruleset_id: str
    label: str
    current: bool


def rows_of(result: WhatIf) -> list[Row]:
    names = display_names(line.member_id for line in result.lines)
    return [
        Row(
            member_id=line.member_id,
            name=names.get(line.member_id, "?"),
            games=line.games,
            before=points_cell(line.before),
            after=points_cell(line.after),
            change=points_cell(line.change),
            place_before=line.place_before,
            place_after=line.place_after,
            places_up=max(line.places_up, 0),
            places_down=max(-line.places_up, 0),
        )
        for line in result.lines
    ]


def same_family(players: int) -> list[Ruleset]:
    """The built-in rulesets with ``players`` seats: the only ones a what-if offers."""
    rulesets = (load_ruleset(ruleset_id) for ruleset_id in available_rulesets())
    return [ruleset for ruleset in rulesets if ruleset.players == players]


def chosen_other(asked: str, offered: Sequence[Ruleset], own: Sequence[str]) -> Ruleset:
    """The ruleset asked for if it is offered; else the first offered that is none of the
    games' ``own`` rulesets (else the first offered)."""
    by_id = {ruleset.id: ruleset for ruleset in offered}
    if asked in by_id:
        return by_id[asked]
    return next((r for r in offered if r.id not in own), offered[0])


def keep_other(link: PeriodLink | None, other: Ruleset) -> PeriodLink | None:
    """A period link of the filters that keeps the ruleset re-scored under."""
    if link is None:
        return None
    return PeriodLink(link.label, f"{link.url}&{urlencode([('to', other.id)])}", link.current)


@require_safe
def what_if_page(request: HttpRequest) -> HttpResponse:
    """The period's standing of every member as counted and re-scored under another
    ruleset (``?to=<ruleset id>``; the standings' period and ruleset filters, default:
    this year)."""
    today = st.club_today()
    filters = read_filters(request.GET, st.year_period(today.year), with_sort=False)
    versions = counted_versions(filters.ruleset_ids)
    own = list(dict.fromkeys(versions.ruleset_of.values())) or list(versions.ruleset_ids)
    players = (
        next(iter(versions.players_of.values()), 0)
        or load_ruleset(split_key(versions.ruleset_ids[0])[0]).players
    )
    offered = same_family(players)
    other = chosen_other(request.GET.get("to", ""), offered, own)
    games = period_games(
        versions.ids, filters.period.start, filters.period.end, tournaments=filters.tournaments
    )
    result = what_if(games, other)
    previous, following = filters.neighbours()
    base = filters.params(sort=False)
    changes: dict[str, None] = {}
    for ruleset_id in own:
        for group in differences(load_ruleset(ruleset_id), other):
            changes[group] = None
    context = {
        "filters": filters,
        "tournament_filter": True,
        "form": filters.form,
        "period_label": period_label(filters.period),
        "previous": keep_other(previous, other),
        "next": keep_other(following, other),
        "quick_links": [keep_other(link, other) for link in filters.quick_links()],
        "rulesets": [ruleset_label(r) for r in own],
        "other": other,
        "other_label": ruleset_label(other.id),
        "choices": [Choice(r.id, ruleset_label(r.id), r.id == other.id) for r in offered],
        "hidden": base,
        # The period filters keep the ruleset re-scored under.
        "keep_params": [("to", other.id)],
        "changes": str(_(", ")).join(str(GROUP_LABELS[group]) for group in changes),
        "result": result,
        "rows": rows_of(result),
        "refused": [
            RefusedRow(
                item.game.hanchan_id,
                item.game.played_on.isoformat(),
                None if item.refusal.hand is None else item.refusal.hand + 1,
                refusal_text(item.refusal),
            )
            for item in result.refused
        ],
        "not_reproduced": [game.hanchan_id for game in result.not_reproduced],
    }
    return render(request, "scoring/whatif.html", context)
