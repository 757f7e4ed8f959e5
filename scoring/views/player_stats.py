"""A member's figures with how sure each is, who fed whom, and two members head to head:
pages over :mod:`scoring.stats` (figures, feeding, head_to_head),
per ruleset family (4- or 3-player, in the path) and period (the player page's filters)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_safe

from clubsite.formatting import format_points, signed_points
from clubsite.models import Member
from scoring import standings as st
from scoring.stats.counts import Selection
from scoring.stats.families import FAMILIES, family_selection
from scoring.stats.feeding import feeding
from scoring.stats.figures import Figure, player_figures
from scoring.stats.head_to_head import Side, head_to_head, opponents
from scoring.stats.intervals import ALL_EQUAL, CONFIDENCE, MEAN_MIN_N, TOO_FEW, Estimate
from scoring.views.standings_filters import (
    Filters,
    percent,
    period_label,
    read_filters,
    ruleset_label,
    thousands_one_decimal,
    two_decimals,
)

LABELS = {
    "place_1": gettext_lazy("1st place"),
    "place_2": gettext_lazy("2nd place"),
    "place_3": gettext_lazy("3rd place"),
    "place_4": gettext_lazy("4th place"),
    "top_two": gettext_lazy("1st or 2nd"),
    "last_avoided": gettext_lazy("Last place avoided"),
    "average_placement": gettext_lazy("Average placement"),
    "points_per_game": gettext_lazy("Points per game"),
    "final_score": gettext_lazy("Average final score"),
    "bust": gettext_lazy("Bust rate"),
    "win": gettext_lazy("Win rate"),
    "tsumo_share": gettext_lazy("Tsumo share of wins"),
    "deal_in": gettext_lazy("Deal-in rate"),
    "riichi": gettext_lazy("Riichi rate"),
    "riichi_win": gettext_lazy("Win rate after riichi"),
    "riichi_deal_in": gettext_lazy("Deal-in rate after riichi"),
    "dealer_win": gettext_lazy("Win rate as dealer"),
    "non_dealer_win": gettext_lazy("Win rate as non-dealer"),
    "win_value": gettext_lazy("Average win value"),
    "deal_in_value": gettext_lazy("Average deal-in value"),
    "hand_balance": gettext_lazy("Average score change a hand"),
    "draw": gettext_lazy("Exhaustive draw rate"),
    "tenpai_at_draw": gettext_lazy("Tenpai at draws"),
    "chombo": gettext_lazy("Chombo rate"),
    "yakuman": gettext_lazy("Yakuman share of wins"),
    "best_renchan": gettext_lazy("Best renchan streak"),
}

# How a figure's value and bounds are written: rates as percentages, places with two
# decimals, settled points in the standings' unit, hand values and scores in points.
PLACES = {"average_placement"}
SETTLEMENTS = {"points_per_game", "margin"}
SIGNED = {"hand_balance"}
SCORES = {"final_score", "win_value", "deal_in_value"}


def rounded(value: Fraction | float) -> int:
    return st.round_half_away(Fraction(value))


def writer(key: str, kind: str) -> Callable[[Fraction | float], str]:
    """How the figure ``key`` of ``kind`` writes a value."""
    if kind == "rate":
        return lambda value: percent(Fraction(value))
    if key in PLACES:
        return lambda value: two_decimals(Fraction(value))
    if key in SETTLEMENTS:
        return lambda value: thousands_one_decimal(Fraction(value))
    if key in SIGNED:
        return lambda value: signed_points(rounded(value))
    if key in SCORES:
        return lambda value: format_points(rounded(value))
    return lambda value: str(rounded(value))


@dataclass(frozen=True)
class FigureLine:
    """A figure as a table row: its label, value, 95% range (or why there is none) and
    count ("k / n" for a rate, "n" for a mean or a record); ``ranged``: a range is shown."""

    key: str
    label: str
    value: str
    interval: str
    count: str
    ranged: bool = False


def missing_text(estimate: Estimate) -> str:
    """What the range's place says when a figure has none."""
    if estimate.missing == TOO_FEW:
        return _("too few for a range")
    if estimate.missing == ALL_EQUAL:
        return _("all the same so far: no range")
    return "–"


def estimate_line(key: str, label: str, kind: str, estimate: Estimate) -> FigureLine:
    write = writer(key, kind)
    value = "–" if estimate.value is None else write(estimate.value)
    ranged = estimate.low is not None and estimate.high is not None
    if estimate.low is None or estimate.high is None:
        interval = missing_text(estimate)
    else:
        interval = f"{write(estimate.low)} – {write(estimate.high)}"
    count = f"{estimate.total} / {estimate.n}" if kind == "rate" else str(estimate.n)
    return FigureLine(key, label, value, interval, count, ranged)


def ranges_note(lines: list[FigureLine]) -> str:
    """The page's plain-words reading of its ranges, counted from the ``lines`` it shows:
    95 of 100 such ranges hold the true value, so of this page's ``k``
    about ``k / 20`` miss it."""
    ranges = sum(1 for line in lines if line.ranged)
    if not ranges:
        return _("No figure here has a range yet: too few games or hands.")
    misses = rounded(Fraction(ranges) * (1 - Fraction(str(CONFIDENCE))))
    held = _(
        "Each range is worked out so that 95 of 100 such ranges hold the true value, "
        "the one many more games would show."
    )
    if misses == 0:
        count = ngettext(
            "This page shows %(ranges)d range: most likely it holds, but it may miss.",
            "This page shows %(ranges)d ranges: most likely all hold, but one may miss.",
            ranges,
        ) % {"ranges": ranges}
    else:
        # ``misses`` is at least 1 only from 10 ranges on: "ranges" is always plural here.
        count = ngettext(
            "Of the %(ranges)d ranges on this page, about %(misses)d probably misses the true "
            "value, and nothing says which.",
            "Of the %(ranges)d ranges on this page, about %(misses)d probably miss the true "
            "value, and nothing says which.",
            misses,
        ) % {"ranges": ranges, "misses": misses}
    return f"{held} {count}"


def figure_line(figure: Figure) -> FigureLine:
    return estimate_line(figure.key, str(LABELS[figure.key]), figure.kind, figure.estimate)


def family_links(
    url_name: str, args: tuple[int, ...], players: int, filters: Filters
) -> list[dict[str, object]]:
    """The 4-player and 3-player links, keeping the period."""
    labels = {4: _("4-player"), 3: _("3-player")}
    return [
        {
            "label": labels[family],
            "url": reverse(url_name, args=(*args, family)) + filters.filter_query,
            "current": family == players,
        }
        for family in FAMILIES
    ]


def chosen_filters(request: HttpRequest, players: int) -> Filters:
    if players not in FAMILIES:
        raise Http404("no such ruleset family")
    return read_filters(request.GET, st.year_period(st.club_today().year), with_sort=False)


def selection_of(filters: Filters, players: int) -> Selection:
    return family_selection(players, filters.ruleset_ids, filters.period.start, filters.period.end)


def period_context(filters: Filters) -> dict[str, object]:
    previous, following = filters.neighbours()
    return {
        "filters": filters,
        "form": filters.form,
        "period_label": period_label(filters.period),
        "previous": previous,
        "next": following,
        "quick_links": filters.quick_links(),
    }


@require_safe
def member_figures(request: HttpRequest, member_id: int, players: int = 4) -> HttpResponse:
    """A member's figures, each with its n and 95% interval, and who fed whom, over a
    period (default: this year) and ruleset family (``players``: 4 or 3)."""
    member = get_object_or_404(Member, pk=member_id)
    filters = chosen_filters(request, players)
    chosen = selection_of(filters, players)
    figures = player_figures(member.pk, chosen)
    lines = [(figure.level, figure_line(figure)) for figure in figures.figures]
    fed = feeding(member.pk, chosen)
    fed_rates = [
        (
            line,
            estimate_line("fed", "", "rate", line.fed),
            estimate_line("won", "", "rate", line.won),
        )
        for line in fed.lines
    ]
    fed_lines = [
        {"member_id": line.member_id, "name": line.name, "fed": fed_to, "won": won_off}
        for line, fed_to, won_off in fed_rates
    ]
    # The page's ranges, for its plain-words note: the figures' and who fed whom's.
    shown = [line for _level, line in lines]
    shown += [rate for _line, *rates in fed_rates for rate in rates]
    context = {
        **period_context(filters),
        "member": member,
        "players": players,
        "families": family_links("member_figures_family", (member.pk,), players, filters),
        "rulesets": [ruleset_label(key) for key in chosen.keys],
        "figures": figures,
        "total_points": thousands_one_decimal(figures.figure("points_per_game").estimate.total),
        "game_lines": [line for level, line in lines if level == "game"],
        "hand_lines": [line for level, line in lines if level == "hand"],
        "feeding": fed,
        "fed_lines": fed_lines,
        "ranges_note": ranges_note(shown),
        "mean_min_n": MEAN_MIN_N,
        "opponents": opponents(member.pk, chosen),
        "period_params": filters.params(sort=False),
    }
    return render(request, "scoring/stats/member_figures.html", context)


@require_safe
def head_to_head_pick(request: HttpRequest, member_id: int) -> HttpResponse:
    """The opponent picker's target: on to ``/members/<id>/vs/<opponent>/`` with the
    family and period; without a valid opponent, back to the member's figures."""
    member = get_object_or_404(Member, pk=member_id)
    query = request.GET.copy()
    opponent = query.pop("opponent", [""])[-1]
    players_text = query.pop("players", ["4"])[-1]
    players = int(players_text) if players_text in ("3", "4") else 4
    rest = f"?{urlencode(list(query.lists()), doseq=True)}" if query else ""
    if not opponent.isdigit() or int(opponent) == member.pk:
        back = reverse("member_figures_family", args=(member.pk, players))
        return HttpResponseRedirect(back + rest)
    target = reverse("head_to_head_family", args=(member.pk, int(opponent), players))
    return HttpResponseRedirect(target + rest)


@require_safe
def head_to_head_page(
    request: HttpRequest, member_id: int, other_id: int, players: int = 4
) -> HttpResponse:
    """Two members over their shared counted games and hands: who finished above whom, the
    points and deal-ins between them, each with its n and 95% interval."""
    if member_id == other_id:
        raise Http404("a head-to-head needs two members")
    members = Member.objects.in_bulk([member_id, other_id])
    if len(members) != 2:
        raise Http404("no such member")
    first, second = members[member_id], members[other_id]
    filters = chosen_filters(request, players)
    chosen = selection_of(filters, players)
    duel = head_to_head(first.pk, second.pk, chosen)

    def side_lines(side: Side) -> list[FigureLine]:
        return [
            estimate_line("average_placement", _("Average placement"), "mean", side.placement),
            estimate_line("points_per_game", _("Points per game"), "mean", side.points),
            estimate_line("deal_in", _("Deal-in rate"), "rate", side.deal_ins),
            estimate_line("fed", _("Of those, to the other"), "rate", side.fed),
            estimate_line("win_value", _("Average value of those"), "mean", side.fed_value),
        ]

    game_lines = [
        estimate_line(
            "above",
            _("%(name)s finished above") % {"name": first.display_name},
            "rate",
            duel.first_above,
        ),
        estimate_line(
            "margin",
            _("Points a game, %(name)s minus the other") % {"name": first.display_name},
            "mean",
            duel.margin,
        ),
    ]
    sides = [(first, side_lines(duel.first)), (second, side_lines(duel.second))]
    context = {
        **period_context(filters),
        "member": first,
        "other": second,
        "players": players,
        "families": family_links("head_to_head_family", (first.pk, second.pk), players, filters),
        "rulesets": [ruleset_label(key) for key in chosen.keys],
        "duel": duel,
        "game_lines": game_lines,
        "sides": sides,
        "ranges_note": ranges_note([*game_lines, *(line for _p, ls in sides for line in ls)]),
        "mean_min_n": MEAN_MIN_N,
        "opponents": opponents(first.pk, chosen),
        "period_params": filters.params(sort=False),
    }
    return render(request, "scoring/stats/head_to_head.html", context)
