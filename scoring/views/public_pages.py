"""Scoring's part of the club's public face (``clubsite.public``, docs/clubs.md): the home
address that is the games list for members and the public page for visitors, the rules pages
a club publishes, and a member's public profile (their own figures, by their choice).

Each answers a visitor only with what the club or the member chose to publish; anything else
is what it was before there were public pages: a visitor is sent to log in, a logged-in
person who is no member of the club gets 404.
"""

from __future__ import annotations

import datetime
from fractions import Fraction

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.formats import date_format
from django.views.decorators.http import require_safe

from clubsite.club_model import Club
from clubsite.club_scope import current_club
from clubsite.models import Member
from clubsite.public import club_public_page, is_member_here, public_page
from scoring import standings as st
from scoring.engine import available_rulesets, load_ruleset
from scoring.rulebook.names import ruleset_title
from scoring.views.games import game_list
from scoring.views.standings_filters import (
    period_label,
    points_cell,
    ruleset_label,
    two_decimals,
)


@club_public_page
@require_safe
def club_home(request: HttpRequest) -> HttpResponse:
    """``/``: the games list (:func:`scoring.views.games.game_list`) for the club's members
    and the site's owner; the club's public page for anyone else."""
    if is_member_here(request):
        return game_list(request)
    return public_page(request)


def published_rulesets(club: Club) -> list[str]:
    """The rulesets whose rules pages ``club`` shows visitors: its default ruleset and its
    standard ones, in that order, each once; none unless the club publishes its rules."""
    if not club.public_rules:
        return []
    return list(dict.fromkeys([club.default_ruleset, *club.standard_rulesets]))


def visitor_refused(request: HttpRequest) -> HttpResponse:
    """A page the viewer may not see: a visitor is sent to log in; a logged-in person who is
    no member of the club finds nothing (404, as on every member page of another club)."""
    if request.user.is_authenticated:
        raise Http404("No such page.")
    return redirect_to_login(request.get_full_path())


def rules_page_allowed(request: HttpRequest, ruleset_id: str) -> bool:
    """Whether the viewer may read ruleset ``ruleset_id``'s rules page: a member (every
    ruleset), or anyone when the club publishes that ruleset's rules
    (:func:`published_rulesets`)."""
    return is_member_here(request) or ruleset_id in published_rulesets(current_club())


def average_rank(rank_sum: int, games: int) -> str:
    """The average rank to two decimals (``"2.25"``), or ``"–"`` without games."""
    return two_decimals(Fraction(rank_sum, games)) if games else "–"


@club_public_page
@require_safe
def public_profile(request: HttpRequest, member_id: int) -> HttpResponse:
    """``/public/members/<id>/``: the figures of a member who opted in (their own page's
    switch, ``Member.public_profile``): games, total, average rank this year and over all
    time, and this year's months. Their own name only, no one else's, no game's page. 404
    for anyone, members included, while the member has not opted in or is deactivated."""
    member = get_object_or_404(Member, pk=member_id, public_profile=True, active=True)
    year = st.year_period(st.club_today().year)
    figures = [
        st.player_page(member.pk, period, last_games=0, chart_games=0)
        for period in (year, st.all_time_period())
    ]
    periods = [
        {
            "label": period_label(stats.period),
            "games": stats.game_count,
            "total": points_cell(stats.total_points),
            "average_rank": average_rank(stats.rank_sum, stats.game_count),
            "rulesets": [ruleset_label(r) for r in stats.ruleset_ids],
        }
        for stats in figures
    ]
    months = [
        {
            "label": date_format(datetime.date(m.year, m.month, 1), "YEAR_MONTH_FORMAT"),
            "games": m.games,
            "points": points_cell(m.points),
            "average_rank": average_rank(m.rank_sum, m.games),
        }
        for m in figures[0].months
        if m.games
    ]
    context = {
        "member": member,
        "periods": periods,
        "months": months,
        "is_member": is_member_here(request),
    }
    return render(request, "scoring/public_profile.html", context)


def rules_section(club: Club) -> dict[str, object] | None:
    """The public page's rules section: ``rulesets``, ``(id, title)`` of each published
    ruleset (:func:`published_rulesets`); None when there is none."""
    known = set(available_rulesets())
    rulesets = [
        (ruleset_id, ruleset_title(load_ruleset(ruleset_id).name))
        for ruleset_id in published_rulesets(club)
        if ruleset_id in known
    ]
    return {"rulesets": rulesets} if rulesets else None
