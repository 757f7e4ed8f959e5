"""Which games a player's figures read: one ruleset family (4- or
3-player) and a period, as a :class:`scoring.stats.counts.Selection`.

A 3rd place means something else at a 3-player table than at a 4-player one, so figures are
never mixed across families (docs/player-stats.md, "One family at a time").
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from scoring.engine import Ruleset, ruleset_from_mapping
from scoring.engine.hand_value import basic_points, legal_fu, ron_value, tsumo_shares
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
    plays 3-player games under rules that are not its standard 4-player ones). With them,
    the least win and the least ron any of the chosen versions pays (:func:`least_win`,
    :func:`least_ron`; 0 when none is chosen), the floor of a mean win or deal-in value's
    interval. One query.

    Raises:
        BadArguments: ``family`` is neither 4 nor 3.
    """
    if family not in FAMILIES:
        raise BadArguments(f"a ruleset family has 4 or 3 players, not {family}")
    stored: dict[str, list[int]] = {}
    parameters_of: dict[int, dict[str, object]] = {}
    for pk, ruleset_id, service, parameters in RulesetVersion.objects.values_list(
        "pk", "ruleset_id", "service", "parameters"
    ).order_by("ruleset_id", "service", "pk"):
        if int(parameters["players"]) == family:
            key = f"{ruleset_id}@{service}" if service else ruleset_id
            stored.setdefault(key, []).append(pk)
            parameters_of[pk] = parameters
    if keys:
        chosen = [key for key in dict.fromkeys(keys) if key in stored]
    else:
        chosen = [key for key in standard_keys() if key in stored]
        if not chosen:
            chosen = [key for key in stored if not split_key(key)[1]]
    ids = tuple(pk for key in chosen for pk in stored[key])
    rulesets = [ruleset_from_mapping(parameters_of[pk]) for pk in ids]
    return Selection(
        tuple(chosen),
        ids,
        family,
        start,
        end,
        least_win=min((least_win(rs) for rs in rulesets), default=0),
        least_ron=min((least_ron(rs) for rs in rulesets), default=0),
    )


def _values(rs: Ruleset, tsumo: bool) -> list[tuple[bool, int]]:
    """``(dealer, basic points)`` of every han/fu a win of 1 to 4 han can carry under ``rs``
    (the same legal fu the pad and the engine use); 5 han and more are mangan and up."""
    values = []
    for han in range(1, 5):
        for fu in legal_fu(rs, han, tsumo) or [rs.fixed_fu]:
            b = basic_points(rs, han, fu)
            values += [(False, b), (True, b)]
    return values


def least_ron(rs: Ruleset) -> int:
    """The least a ron pays under ``rs`` (honba left out): a deal-in's value is never less
    (a double ron's is two of them, a pao ron's discarder pays half of a yakuman). Points."""
    return min(ron_value(rs, b, dealer) for dealer, b in _values(rs, tsumo=False))


def least_win(rs: Ruleset) -> int:
    """The least value a win receives under ``rs``, ron or tsumo (honba and deposits left
    out, as ``HandSeat.win_value``): a tsumo is the sum of what every other seat pays
    (3-player: two payers, ``sanma_tsumo`` deciding the absent North's share, X-01). Points."""
    payers = rs.players - 1
    tsumo = []
    for dealer, b in _values(rs, tsumo=True):
        from_dealer, from_other = tsumo_shares(rs, b, dealer)
        tsumo.append(from_dealer * payers if dealer else from_dealer + from_other * (payers - 1))
    return min(least_ron(rs), *tsumo)
