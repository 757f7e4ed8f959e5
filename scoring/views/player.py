"""The player page: a member's games over a period, totals per month, the cumulative-points
and ranks charts (:mod:`scoring.views.charts`) and the per-hand figures."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from django.core.paginator import Paginator
from django.db.models import Q, StringAgg, Value
from django.db.models.functions import Concat
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubsite.formatting import format_points, format_thousands
from clubsite.models import ONLINE_SERVICES, Member
from scoring import standings as st
from scoring.rulebook.hand_labels import SEAT_WINDS
from scoring.views.charts import LineChart, value_chart
from scoring.views.display import Cell, rank_label
from scoring.views.manners import member_warnings
from scoring.views.standings_filters import (
    Filters,
    percent,
    period_label,
    points_cell,
    read_filters,
    ruleset_label,
    thousands_one_decimal,
    two_decimals,
    unit_cell,
    unit_label,
)
from scoring.views.table import HtmxHttpRequest

LAST_GAMES = 20
GAMES_PER_PAGE = 50
# Beyond this many games the cumulative chart shows one point per month, not per game; beyond
# this many months, one point per quarter (a phone's chart has room for about that many).
CHART_GAMES = 120
CHART_MONTHS = 48
# Beyond this many months the totals table has a line per year: ten years of months would be a
# table of 120 lines, and the page would grow with the club's history.
TABLE_MONTHS = 24


# -- the player page -----------------------------------------------------------------------


@dataclass(frozen=True)
class GameLine:
    hanchan_id: int
    played_on: date
    ruleset: str
    seat: str
    score: str
    rank: str
    points: Cell


@dataclass(frozen=True)
class MonthLine:
    label: str
    query: str
    games: int
    points: Cell
    average_rank: str


def period_lines(
    months: Sequence[st.MonthTotal], filters: Filters, *, by_year: bool
) -> list[MonthLine]:
    """The totals table, newest first: a line per month, or ``by_year`` a line per year (each
    linking to the member's page for that month or year)."""
    if not by_year:
        return [
            MonthLine(
                label=date_format(date(m.year, m.month, 1), "YEAR_MONTH_FORMAT"),
                query=filters.query(period=st.month_period(m.year, m.month)),
                games=m.games,
                points=points_cell(m.points),
                average_rank=two_decimals(m.average_rank),
            )
            for m in reversed(months)
        ]
    years: dict[int, list[int]] = {}
    for m in months:
        entry = years.setdefault(m.year, [0, 0, 0])
        entry[0] += m.games
        entry[1] += m.points
        entry[2] += m.rank_sum
    return [
        MonthLine(
            label=str(year),
            query=filters.query(period=st.year_period(year)),
            games=games,
            points=points_cell(points),
            average_rank=two_decimals(Fraction(rank_sum, games)),
        )
        for year, (games, points, rank_sum) in sorted(years.items(), reverse=True)
    ]


def seat_label(game: st.MemberGame) -> str:
    """Seat 0 dealt first: its wind in East 1."""
    return str(SEAT_WINDS[game.seat]) if game.seat < len(SEAT_WINDS) else str(game.seat + 1)


def cumulative_chart(stats: st.PlayerPage) -> LineChart | None:
    if not stats.cumulative:
        return None
    steps = list(stats.cumulative)
    by_month = stats.cumulative_by_month
    if by_month and len(steps) > CHART_MONTHS:
        by_quarter = {(s.played_on.year, (s.played_on.month - 1) // 3): s for s in steps}
        steps = list(by_quarter.values())
    # A step per game is labelled with its day; a step per month or quarter with its month.
    label, long_label = ("Y/n", "YEAR_MONTH_FORMAT") if by_month else ("n/j", "SHORT_DATE_FORMAT")
    series = [0, *(step.cumulative for step in steps)]
    final = stats.cumulative[-1].cumulative
    return value_chart(
        chart_id="cumulative-chart",
        title=_("Cumulative points"),
        description=_(
            "Points added up game by game over %(n)d games, ending at %(total)s "
            "(highest %(high)s, lowest %(low)s)."
        )
        % {
            "n": stats.game_count,
            "total": thousands_one_decimal(final),
            "high": thousands_one_decimal(max(series)),
            "low": thousands_one_decimal(min(series)),
        },
        series=[(_("Cumulative points"), series)],
        x_labels=["", *(date_format(s.played_on, label) for s in steps)],
        label_value=format_thousands,
        table_head=[_("Date"), _("Points"), _("Cumulative")],
        table_rows=[
            [
                date_format(s.played_on, long_label),
                thousands_one_decimal(s.points),
                thousands_one_decimal(s.cumulative),
            ]
            for s in steps
        ],
    )


def ranks_chart(stats: st.PlayerPage) -> LineChart | None:
    games = stats.last_games
    if not games:
        return None
    players = max(game.players for game in games)
    ranks = [game.rank for game in games]
    average = two_decimals(Fraction(sum(ranks), len(ranks)))
    return value_chart(
        chart_id="ranks-chart",
        title=_("Ranks in the last %(n)d games") % {"n": len(games)},
        description=_("Ranks from the oldest to the latest game: %(ranks)s (average %(avg)s).")
        % {"ranks": ", ".join(str(r) for r in ranks), "avg": average},
        series=[(_("Rank"), ranks)],
        x_labels=[date_format(g.played_on, "n/j") for g in games],
        label_value=rank_label,
        table_head=[_("Date"), _("Rank")],
        table_rows=[
            [date_format(g.played_on, "SHORT_DATE_FORMAT"), rank_label(g.rank)] for g in games
        ],
        include_zero=False,
        ticks_at=list(range(1, players + 1)),
        inverted=True,
    )


def hand_figures(hands: st.HandStats) -> list[tuple[str, str]]:
    average_value = hands.average_win_value
    return [
        (_("Hands played"), str(hands.hands)),
        (_("Win rate"), percent(hands.win_rate)),
        (_("Deal-in rate"), percent(hands.deal_in_rate)),
        (_("Riichi rate"), percent(hands.riichi_rate)),
        (
            _("Average win value"),
            "–" if average_value is None else format_points(st.round_half_away(average_value)),
        ),
        (_("Tsumo share of wins"), percent(hands.tsumo_share)),
        (_("Chombo"), str(hands.chombo)),
    ]


def default_player_period() -> st.Period:
    return st.year_period(st.club_today().year)


def online_names(joined: str) -> list[tuple[str, str]]:
    """``(service label, name)`` pairs from the member's joined ``service\tname`` lines."""
    services = dict(ONLINE_SERVICES)
    pairs = []
    for line in sorted(filter(None, joined.split("\n"))):
        service, _tab, name = line.partition("\t")
        pairs.append((str(services.get(service, service)), name))
    return pairs


@require_safe
def member_page(request: HtmxHttpRequest, member_id: int) -> HttpResponse:
    """A member's games, monthly totals, charts and per-hand statistics over a period
    (default: this year)."""
    # The member's online names come with the member, in the same query.
    member = get_object_or_404(
        Member.objects.annotate(
            online=StringAgg(
                Concat("online_names__service", Value("\t"), "online_names__name"),
                delimiter=Value("\n"),
                # Without names the outer join's one empty row would read as a nameless one.
                filter=Q(online_names__isnull=False),
                default=Value(""),
            )
        ),
        pk=member_id,
    )
    filters = read_filters(request.GET, default_player_period(), with_sort=False)
    stats = st.player_page(
        member.pk,
        filters.period,
        ruleset_ids=filters.ruleset_ids,
        last_games=LAST_GAMES,
        chart_games=CHART_GAMES,
    )
    # Newest first, a page at a time: an all-time page of a regular lists thousands of games.
    page = Paginator(stats.games, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    labels = {r: ruleset_label(r) for r in {g.ruleset_id for g in page.object_list}}
    games = [
        GameLine(
            hanchan_id=g.hanchan_id,
            played_on=g.played_on,
            ruleset=labels[g.ruleset_id],
            seat=seat_label(g),
            score=format_points(g.final_score),
            rank=rank_label(g.rank),
            points=points_cell(g.points),
        )
        for g in page.object_list
    ]
    by_year = len(stats.months) > TABLE_MONTHS
    months = period_lines(stats.months, filters, by_year=by_year)
    previous, following = filters.neighbours()
    context = {
        "member": member,
        "online_names": online_names(getattr(member, "online", "") or ""),
        "is_me": member.user_id == request.user.pk,
        "filters": filters,
        "form": filters.form,
        "period_label": period_label(filters.period),
        "previous": previous,
        "next": following,
        "quick_links": filters.quick_links(),
        "games": games,
        "games_page": page,
        "months": months,
        "months_by_year": by_year,
        "game_count": stats.game_count,
        "total": points_cell(stats.total_points),
        # The club's own units over the period, where the rulesets have them.
        "units": [
            (unit_label(unit), unit_cell(stats.uma_ep if unit == "ep" else stats.chips))
            for unit in stats.units
        ],
        "average_rank": (
            two_decimals(Fraction(stats.rank_sum, stats.game_count)) if stats.game_count else "–"
        ),
        "hands": hand_figures(stats.hands),
        "cumulative_chart": cumulative_chart(stats),
        "ranks_chart": ranks_chart(stats),
        "rulesets": [ruleset_label(r) for r in stats.ruleset_ids],
        # Stewards only: None hides the section.
        "manners_warnings": member_warnings(request.user, member),
    }
    return render(request, "scoring/member_detail.html", context)
