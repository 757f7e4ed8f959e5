"""Each game's placement chances for the pages (``[k][seat][place - 1]``, as
``scoring.placement_chances.game_chances`` gives them), read from what the ledger stored
rather than by playing the hands again: the engine's snapshot before each hand
(``HandEntry.before``), the game's state after the last one and, once finished, its settled
places (``Seat.rank``). A view never runs the engine: these are the model's reading of the
stored states (``scoring.placement.state_of`` on a restored game, no hand played). Hands
stored before snapshots were kept are replayed by ``game_chances`` instead.

The chances are kept in the cache under the game (its id and when it was made), its version
(a correction, an undo or a new hand makes a new one) and the time the club's model was
last fitted (a refit changes every game's chances): the game page, its chart drawn again
after a hand, and every member page listing the game compute them once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.cache import cache
from django.db.models import Max

from scoring.engine import Game
from scoring.models import Hanchan, HandEntry, PlacementFit, Seat
from scoring.placement import Params, chances_many, family_of, state_of
from scoring.placement_chances import game_chances, params_for
from scoring.stats.placement_swings import Chances
from scoring.views.charts import LineChart
from scoring.views.display import round_label
from scoring.views.game_charts import chances_chart

CHANCES_SECONDS = 24 * 60 * 60


def chances_of(hanchans: Sequence[Hanchan]) -> dict[int, Chances]:
    """Each game's chances by hand, by its id: from the cache where they are (one query for
    the club's last fit, one cache read for all), else from the stored states (three queries
    for all the games missing: their hands' snapshots, their seats, the fit per family) and
    kept."""
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
    chances = {h.pk: found[keys[h.pk]] for h in hanchans if keys[h.pk] in found}
    missing = [h for h in hanchans if h.pk not in chances]
    if missing:
        computed = stored_chances(missing)
        cache.set_many({keys[pk]: value for pk, value in computed.items()}, CHANCES_SECONDS)
        chances |= computed
    return chances


def stored_chances(hanchans: Sequence[Hanchan]) -> dict[int, Chances]:
    """The chances of ``hanchans`` (with their ruleset versions loaded) from their stored
    states; a game with a hand stored without its snapshot, or finished without its places,
    from ``game_chances``."""
    ids = [h.pk for h in hanchans]
    befores: dict[int, list[dict[str, Any] | None]] = {pk: [] for pk in ids}
    for hanchan_id, before in (
        HandEntry.objects.filter(hanchan_id__in=ids)
        .order_by("hanchan_id", "sequence")
        .values_list("hanchan_id", "before")
    ):
        befores[hanchan_id].append(before)
    ranks: dict[int, dict[int, int | None]] = {pk: {} for pk in ids}
    for hanchan_id, index, rank in Seat.objects.filter(hanchan_id__in=ids).values_list(
        "hanchan_id", "index", "rank"
    ):
        ranks[hanchan_id][index] = rank
    params: dict[tuple[int | None, str], Params] = {}
    out: dict[int, Chances] = {}
    for hanchan in hanchans:
        ruleset = hanchan.ruleset()
        n = ruleset.players
        snapshots = [s for s in befores[hanchan.pk] if s is not None]
        finished = hanchan.status == Hanchan.Status.FINISHED
        places = ranks[hanchan.pk]
        if (
            not snapshots
            or len(snapshots) < len(befores[hanchan.pk])
            or (finished and (len(places) != n or None in places.values()))
        ):
            out[hanchan.pk] = game_chances(hanchan)
            continue
        states = [state_of(Game.restore(ruleset, snapshot)) for snapshot in snapshots]
        if not finished:
            states.append(state_of(hanchan.game(ruleset)))
        family = (hanchan.club_id, family_of(ruleset))
        if family not in params:
            params[family] = params_for(*family)
        by_hand: list[list[list[float]]] = chances_many(params[family], states).tolist()
        if finished:
            by_hand.append(
                [[1.0 if places[s] == p + 1 else 0.0 for p in range(n)] for s in range(n)]
            )
        out[hanchan.pk] = by_hand
    return out


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
