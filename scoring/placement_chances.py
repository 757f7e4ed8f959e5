"""Each player's chances of each final place after every hand of a stored game: the
placement model (:mod:`scoring.placement`) read with its club's fitted parameters
(:class:`~scoring.models.PlacementFit`, else the family's prior from simulation).

The game page, the end screen and the charts read :func:`game_chances`; the numbers are
floats (probabilities, never points).
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.engine import Ruleset
from scoring.models import Hanchan, PlacementFit, Seat
from scoring.placement import (
    Params,
    PlacementState,
    blend,
    chances,
    chances_many,
    family_of,
    prior_for,
    state_of,
    states_of_hands,
)

Chances = list[list[list[float]]]


def params_for(club_id: int | None, family: str) -> Params:
    """The parameters of club ``club_id``'s ``family``: its stored fit (already blended
    with the prior), else the prior. One query, whatever the scope (the game's own club)."""
    row = (
        None
        if club_id is None
        else (
            PlacementFit.objects.with_scopes_disabled()
            .filter(club_id=club_id, family=family)
            .values_list("params", flat=True)
            .first()
        )
    )
    prior = prior_for(family)
    if row is None:
        return prior
    fitted = Params.from_json(row)
    return fitted if fitted.source in ("blend", "club") else blend(fitted, prior)


def game_states(game: Hanchan) -> list[PlacementState]:
    """The states of ``game`` before its first hand and after each stored hand, in order
    (engine replay of the stored hands: no figures of the page are read)."""
    ruleset = game.ruleset()
    hands = [entry.data for entry in game.hands.order_by("sequence")]
    return states_of_hands(ruleset, hands)


def game_chances(game: Hanchan) -> Chances:
    """Each seat's chance of each final place, ``[k][seat][place - 1]``: ``k = 0`` before
    the first hand, ``k = i`` after the game's ``i``-th stored hand. Each seat's chances and
    each place's chances sum to 1. For a finished game the last entry is its exact places
    (1.0 and 0.0, the ruleset's tie rule, as settled); a game entered as final scores only
    has that entry alone.

    Raises:
        scoring.engine.RecordError: a stored hand the engine refuses (never for a hand the
            ledger stored).
    """
    ruleset = game.ruleset()
    n = ruleset.players
    if game.final_scores_only:
        ranks = {seat.index: seat.rank for seat in game.seats.all()}
        if len(ranks) != n or None in ranks.values():
            return []
        return [[[1.0 if ranks[s] == p + 1 else 0.0 for p in range(n)] for s in range(n)]]
    states = game_states(game)
    params = params_for(game.club_id, family_of(ruleset))
    chances: Chances = chances_many(params, states).tolist()
    return chances


def current_chances(
    game: Hanchan, ruleset: Ruleset | None = None, seats: Sequence[Seat] | None = None
) -> list[list[float]] | None:
    """Each seat's chances ``[seat][place - 1]`` after the game's latest hand, from its
    stored state (no replay: as cheap at hand 30 as at hand 2; one query for the fit), or
    its exact places once finished (``seats``: the game's, loaded already); ``None`` for a
    voided game."""
    ruleset = ruleset or game.ruleset()
    n = ruleset.players
    if game.status == Hanchan.Status.VOIDED:
        return None
    if game.status == Hanchan.Status.FINISHED:
        ranks = {seat.index: seat.rank for seat in (seats or game.seats.all())}
        if len(ranks) != n or None in ranks.values():
            return None
        return [[1.0 if ranks[s] == p + 1 else 0.0 for p in range(n)] for s in range(n)]
    state = state_of(game.game(ruleset))
    return chances(params_for(game.club_id, family_of(ruleset)), state)
