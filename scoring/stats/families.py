"""Which games a player's figures read (issue 23 item 1): one ruleset family (4- or
3-player) and a period, as a :class:`scoring.stats.counts.Selection`.

A 3rd place means something else at a 3-player table than at a 4-player one, so figures are
never mixed across families (docs/player-stats.md, "One family at a time").
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from scoring.models import RulesetVersion
from scoring.standings.counted import split_key, standard_keys
from scoring.stats.counts import BadArguments, Selection

FAMILIES = (4, 3)


def family_selection(
    family: int,
    keys: Sequence[str] | None = None,
    start: date | None = None,
    end: date | None = None,
) -> Selection:
    """The stored versions of the ``family``'s rulesets among the standings ``keys`` (a
    ruleset id, ``<id>@<service>`` for online games); keys of the other family are left out.
    Without ``keys``: the club's standard keys of that family (:func:`standard_keys`), or, if
    none of them is, every club ruleset of the family any game was stored under (the club
    plays 3-player games under rules that are not its standard 4-player ones). One query.

    Raises:
        BadArguments: ``family`` is neither 4 nor 3.
    """
    if family not in FAMILIES:
        raise BadArguments(f"a ruleset family has 4 or 3 players, not {family}")
    stored: dict[str, list[int]] = {}
    for pk, ruleset_id, service, parameters in RulesetVersion.objects.values_list(
        "pk", "ruleset_id", "service", "parameters"
    ).order_by("ruleset_id", "service", "pk"):
        if int(parameters["players"]) == family:
            key = f"{ruleset_id}@{service}" if service else ruleset_id
            stored.setdefault(key, []).append(pk)
    if keys:
        chosen = [key for key in dict.fromkeys(keys) if key in stored]
    else:
        chosen = [key for key in standard_keys() if key in stored]
        if not chosen:
            chosen = [key for key in stored if not split_key(key)[1]]
    ids = tuple(pk for key in chosen for pk in stored[key])
    return Selection(tuple(chosen), ids, family, start, end)
