"""The placement model refitted on a club's own confirmed games (docs/placement.md): which
games count, when a family is due, and the fit stored per club and family
(:class:`~scoring.models.PlacementFit`).

A game counts once it is finished, confirmed (it has a counted version) and entered hand by
hand; its ruleset family is its pinned ruleset's (:func:`scoring.placement.family_of`). A
family is due when more games count than its stored fit was made on by :data:`REFIT_EVERY`,
or by half the games a fit reads once there are more (a fit moves less as games add up, and
a club importing years of games refits a few times, not once a night).
"""

from __future__ import annotations

from collections import Counter

from django.db.models import Count

from scoring.models import Hanchan, PlacementFit, RulesetVersion
from scoring.placement import PlacementState, blend, family_of, fit, prior_for, states_of_hands

REFIT_EVERY = 20
# The latest games a fit reads at most: enough for the few parameters, and a bounded task.
FIT_GAMES = 600


def counted_by_family() -> Counter[str]:
    """The current club's counted games per family (two queries)."""
    per_version = dict(
        Hanchan.objects.filter(
            status=Hanchan.Status.FINISHED, counted_version__isnull=False, final_scores_only=False
        )
        .values_list("ruleset_version")
        .annotate(n=Count("id"))
        .values_list("ruleset_version", "n")
    )
    out: Counter[str] = Counter()
    for version in RulesetVersion.objects.filter(pk__in=per_version):
        out[family_of(version.ruleset())] += per_version[version.pk]
    return out


def due_families() -> list[str]:
    """The current club's families due a refit (see the module): three queries."""
    fitted = dict(PlacementFit.objects.values_list("family", "games"))
    due = []
    for family, games in counted_by_family().items():
        before = fitted.get(family, 0)
        if games - before >= max(REFIT_EVERY, min(before, FIT_GAMES) // 2):
            due.append(family)
    return sorted(due)


def club_games(family: str, limit: int | None = FIT_GAMES) -> list[list[PlacementState]]:
    """The states of the current club's latest ``limit`` (None: all) counted games of
    ``family``, oldest first (each game replayed by the engine from its stored hands)."""
    versions = [
        v.pk
        for v in RulesetVersion.objects.filter(
            pk__in=Hanchan.objects.values("ruleset_version").distinct()
        )
        if family_of(v.ruleset()) == family
    ]
    games = (
        Hanchan.objects.filter(
            status=Hanchan.Status.FINISHED,
            counted_version__isnull=False,
            final_scores_only=False,
            ruleset_version__in=versions,
        )
        .select_related("ruleset_version")
        .prefetch_related("hands")
        .order_by("-played_on", "-finished_at", "-pk")
    )
    out: list[list[PlacementState]] = []
    for game in games if limit is None else games[:limit]:
        hands = [e.data for e in sorted(game.hands.all(), key=lambda e: e.sequence)]
        out.append(states_of_hands(game.ruleset(), hands))
    out.reverse()
    return out


def refit(family: str) -> int:
    """Fit ``family`` on the current club's counted games, blend with the prior and store
    it; returns the number of games it was fitted on (0: none, nothing stored)."""
    games = club_games(family)
    if not games:
        return 0
    prior = prior_for(family)
    params = blend(fit(games, prior, source="club"), prior)
    counted = counted_by_family()[family]
    PlacementFit.objects.update_or_create(
        family=family, defaults={"params": params.to_json(), "games": counted}
    )
    return len(games)
