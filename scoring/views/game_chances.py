"""Each game's placement chances for the pages, from
``scoring.placement_chances.game_chances``, kept in the cache under the game (its id and
when it was made), its version (a correction, an undo or a new hand makes a new one) and the
time the club's model was last fitted (a refit changes every game's chances): the game
page, its chart drawn again after a hand, and every member page listing the game compute
them once."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.cache import cache
from django.db.models import Max

from scoring.models import Hanchan, HandEntry, PlacementFit
from scoring.placement_chances import game_chances
from scoring.stats.placement_swings import Chances
from scoring.views.charts import LineChart
from scoring.views.display import round_label
from scoring.views.game_charts import chances_chart

CHANCES_SECONDS = 24 * 60 * 60


def chances_of(hanchans: Sequence[Hanchan]) -> dict[int, Chances]:
    """Each game's chances by hand (``[k][seat][place - 1]``) by its id: from the cache
    where they are (one query for the club's last fit, one cache read for all), computed
    and kept where not (``game_chances``: two queries and a replay a game)."""
    if not hanchans:
        return {}
    fitted = PlacementFit.objects.aggregate(at=Max("fitted_at"))["at"]
    stamp = fitted.timestamp() if fitted else 0
    # The time a game was made goes with its id: an id used again (a database restored
    # beside a cache that outlived it) is a different game.
    keys = {
        h.pk: f"placement-chances:{h.pk}:{h.created_at.timestamp()}:{h.version}:{stamp}"
        for h in hanchans
    }
    found = cache.get_many(list(keys.values()))
    chances: dict[int, Chances] = {}
    missing: dict[str, Chances] = {}
    for hanchan in hanchans:
        key = keys[hanchan.pk]
        if key in found:
            chances[hanchan.pk] = found[key]
        else:
            chances[hanchan.pk] = missing[key] = game_chances(hanchan)
    if missing:
        cache.set_many(missing, CHANCES_SECONDS)
    return chances


def game_chances_chart(
    hanchan: Hanchan, entries: Sequence[HandEntry], names: Sequence[str]
) -> LineChart | None:
    """The chart of each seat's chance of first place (``entries``: the hands, newest
    first); none before the first hand, nor for a voided game."""
    if not entries or hanchan.status == Hanchan.Status.VOIDED:
        return None
    return chances_chart(
        chances=chances_of([hanchan])[hanchan.pk],
        names=names,
        hand_labels=[round_label(entry.result["round"]) for entry in reversed(entries)],
    )
