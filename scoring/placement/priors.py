"""The prior per ruleset family: the model fitted on simulated games under the demo clubs'
rules (:mod:`scoring.placement.simulate`), kept in ``priors.json`` beside this module and
used wherever a club has few games of its own (:func:`scoring.placement.model.blend`).

``python -m scoring.placement.priors`` simulates and fits them again (about 10 s a family)
and writes the file.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from scoring.engine import load_ruleset

from .fitting import fit
from .model import Params
from .simulate import simulated_club
from .states import FAMILIES, states_of_hands

PATH = Path(__file__).with_name("priors.json")
# The ruleset each family's prior is simulated under, and the games and seed of it.
PRIOR_RULESETS = {"4p-hanchan": "makura-1.5", "4p-tonpuusen": "tenhou-4p-east", "3p": "sanma-float"}
PRIOR_GAMES = 400
PRIOR_SEED = 7
_START = Params(sigma=0.5, extra=0.5, dealer=0.05, tail=4.0)


@cache
def priors() -> dict[str, Params]:
    """The stored prior of every family in :data:`~scoring.placement.states.FAMILIES`."""
    data = json.loads(PATH.read_text(encoding="utf-8"))
    return {family: Params.from_json(data[family]) for family in FAMILIES}


def prior_for(family: str) -> Params:
    """The stored prior of ``family``.

    Raises:
        KeyError: not a family of :data:`~scoring.placement.states.FAMILIES`.
    """
    return priors()[family]


def simulate_prior(family: str, games: int = PRIOR_GAMES, seed: int = PRIOR_SEED) -> Params:
    """The prior of ``family`` fitted afresh on ``games`` simulated games."""
    rs = load_ruleset(PRIOR_RULESETS[family])
    states = [states_of_hands(rs, hands) for hands in simulated_club(rs, games, seed)]
    return fit(states, _START, source="simulation")


def main() -> None:
    """Fit every family's prior again and write :data:`PATH`."""
    out = {family: simulate_prior(family).to_json() for family in FAMILIES}
    PATH.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
