"""The qualification races' pages: the current ranking, who is in and why,
who is on the bubble and how far behind, and the substitutes, updated as games are entered
(everything is read from the ledger on each visit). Everyone logged in may look."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring.standings import club_today
from tournaments.races import RACES, SEATS, STAND_INS, Entry, Race, setting

FIRST_YEAR = 1950


def reason_label(entry: Entry) -> str:
    """The reason of ``entry`` in the reader's language (the JSON keeps it in English)."""
    reason = entry.reason
    words = reason.split()
    if reason.startswith("top "):
        return _("top %(n)s of the ranking") % {"n": words[1]}
    if reason.startswith("second-half champion"):
        return _("second-half champion %(year)s") % {"year": words[-1]}
    if reason.startswith("first-half champion"):
        return _("first-half champion %(year)s") % {"year": words[-1]}
    if reason.startswith("monthly champion ") and reason[-7:-3].isdigit():
        return _("monthly champion %(month)s") % {"month": words[-1]}
    labels = {
        "previous year's winner": _("last year's winner"),
        "women's division": _("women's division (女流)"),
        "next in the ranking": _("next in the ranking"),
        STAND_INS["winner_in"]: _(
            "next in the ranking, in last year's winner's seat (the winner is already in)"
        ),
        STAND_INS["no_winner"]: _(
            "next in the ranking, in last year's winner's seat (no winner last year)"
        ),
        STAND_INS["woman_in"]: _(
            "next in the ranking, in the women's seat (no other woman in the race)"
        ),
        STAND_INS["no_woman"]: _("next in the ranking, in the women's seat (no woman in the race)"),
        "substitute": _("substitute"),
        "monthly champion not selected": _("monthly champion not selected"),
        "total points": _("total points"),
    }
    return str(labels.get(reason, reason))


@require_safe
def race_page(request: HttpRequest, race: str, year: int | None = None) -> HttpResponse:
    """The race ``race`` (``grand-champion`` or ``meijin``) of ``year`` (default: this
    year)."""
    today = club_today()
    year = today.year if year is None else year
    if race not in RACES or not FIRST_YEAR <= year <= today.year + 1:
        raise Http404("no such race")
    result: Race = RACES[race](year, today=today)
    return render(
        request,
        "tournaments/race.html",
        {
            "race": result,
            "race_key": race,
            "year": year,
            "qualified": [(entry, reason_label(entry)) for entry in result.qualified],
            "substitutes": [(entry, reason_label(entry)) for entry in result.substitutes],
            "bubble": result.bubble(),
            "title_points": setting("title_points"),
            "top": setting("grand_champion_top"),
            "in_ids": {entry.runner.member_id for entry in result.qualified},
            "decided": today > result.end,
            "seats": SEATS,
        },
    )
