"""A member's placement swings over their latest games (:mod:`scoring.stats.placement_swings`),
a section of their page loaded when scrolled to, from each game's chances
(:func:`scoring.views.game_chances.chances_of`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubsite.models import Member
from scoring import standings as st
from scoring.models import Hanchan, HandEntry
from scoring.stats.placement_swings import Chances, GameSwing, game_swing, member_swings
from scoring.views.charts import LineChart
from scoring.views.display import rank_label, round_label
from scoring.views.game_chances import chances_of
from scoring.views.game_charts import comeback_chart, hand_marks, percent
from scoring.views.player import default_player_period
from scoring.views.standings_filters import read_filters
from scoring.views.table import HtmxHttpRequest

# The member's latest games read for their swings: the cost is this many games' chances
# (each from the cache, or computed once per version of the game).
SWING_GAMES = 20


@dataclass(frozen=True)
class SwingLine:
    """A game's swing as shown: links to the game at the hand of the lowest chance and at
    the hand that decided, with their round labels."""

    swing: GameSwing
    game_url: str
    place: str
    low_target: str
    low: str
    low_url: str
    low_when: str
    decided_url: str
    decided_when: str
    decided_from: str
    decided_to: str


def swing_line(swing: GameSwing, rounds: Sequence[str]) -> SwingLine:
    """``rounds``: the game's round codes in the order played (hand ``i`` is ``rounds[i-1]``)."""
    game_url = reverse("game_detail", args=[swing.hanchan_id])
    return SwingLine(
        swing=swing,
        game_url=game_url,
        place=rank_label(swing.place),
        low_target=(
            rank_label(1)
            if swing.place == 1
            else _("%(place)s or better") % {"place": rank_label(swing.place)}
        ),
        low=f"{percent(swing.low)}%",
        low_url=f"{game_url}#hand-{swing.low_after}" if swing.low_after else game_url,
        low_when=(
            _("after %(round)s") % {"round": round_label(rounds[swing.low_after - 1])}
            if swing.low_after
            else _("before the first hand")
        ),
        decided_url=f"{game_url}#hand-{swing.decided_hand}",
        decided_when=round_label(rounds[swing.decided_hand - 1]),
        decided_from=f"{percent(swing.decided_before)}%",
        decided_to=f"{percent(swing.decided_after)}%",
    )


def swings_context(member: Member, ruleset_ids: Sequence[str] | None) -> dict[str, Any]:
    """The member's swings over their latest :data:`SWING_GAMES` counted games with hands.

    Cost: six queries (the counted rulesets and games, the games, their hands' rounds, the
    club's last fit, the comeback's hands) and one cache read for every game's chances; a
    game not in the cache costs one ``game_chances`` more (a replay of its hands: about
    3 ms of CPU and two queries), once per version of the game."""
    games = st.member_games(member.pk, start=st.EARLIEST, end=st.LATEST, ruleset_ids=ruleset_ids)[
        -SWING_GAMES:
    ]
    # With their ruleset versions: game_chances reads each game's ruleset.
    hanchans = {
        h.pk: h
        for h in Hanchan.objects.select_related("ruleset_version").filter(
            pk__in=[g.hanchan_id for g in games]
        )
    }
    rounds: dict[int, list[str]] = {}
    for hanchan_id, code in (
        HandEntry.objects.filter(hanchan_id__in=list(hanchans))
        .order_by("hanchan_id", "sequence")
        .values_list("hanchan_id", "result__round")
    ):
        rounds.setdefault(hanchan_id, []).append(code)
    with_hands = [hanchans[g.hanchan_id] for g in games if g.hanchan_id in rounds]
    chances = chances_of(with_hands)
    swings = member_swings(
        game_swing(
            chances[g.hanchan_id],
            seat=g.seat,
            place=g.rank,
            hanchan_id=g.hanchan_id,
            played_on=g.played_on,
        )
        for g in reversed(games)
        if g.hanchan_id in chances
    )
    lines = {s.hanchan_id: swing_line(s, rounds[s.hanchan_id]) for s in swings.games}
    comeback = lines[swings.comeback.hanchan_id] if swings.comeback else None
    return {
        "member": member,
        "swing_lines": [lines[s.hanchan_id] for s in swings.games],
        "comeback": comeback,
        "comeback_chart": comeback and story_of(comeback, chances, rounds),
        "decider": lines[swings.decider.hanchan_id] if swings.decider else None,
    }


def story_of(
    line: SwingLine, chances: dict[int, Chances], rounds: dict[int, list[str]]
) -> LineChart | None:
    """The chart of the comeback: the member's chance of their place or better through the
    game, their riichi, wins and deal-ins marked (one query: the game's hands)."""
    swing = line.swing
    hands = HandEntry.objects.filter(hanchan_id=swing.hanchan_id).order_by("sequence")
    return comeback_chart(
        chances=chances[swing.hanchan_id],
        seat=swing.seat,
        place=swing.place,
        target=line.low_target,
        hand_labels=[round_label(code) for code in rounds[swing.hanchan_id]],
        marks_by_hand=[hand_marks(data) for data in hands.values_list("data", flat=True)],
    )


@require_safe
def member_swings_page(request: HtmxHttpRequest, member_id: int) -> HttpResponse:
    """A member's placement swings; htmx (the member page, when scrolled to) gets the
    section alone."""
    member = get_object_or_404(Member, pk=member_id)
    filters = read_filters(request.GET, default_player_period(), with_sort=False)
    context = swings_context(member, filters.ruleset_ids)
    template = "scoring/member_swings.html"
    if request.htmx and not request.htmx.boosted and not request.htmx.history_restore_request:
        template += "#swings"
    return render(request, template, context)
