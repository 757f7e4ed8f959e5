"""Each seat's chances of each final place after every hand: plain Python (numpy, no Django).

- :func:`state_of`, :func:`states_of_hands`, :class:`PlacementState` — the table after a
  hand as the model reads it (scores in the ruleset's typical hand, hands left, dealer
  turns left, the tie rule), from the engine;
- :class:`Params`, :func:`chances`, :func:`chances_many`, :func:`blend` — the model
  (:mod:`scoring.placement.model`);
- :func:`fit` — its parameters fitted on finished games; :func:`prior_for` — the prior
  fitted on simulated games (:mod:`scoring.placement.priors`);
- :mod:`scoring.placement.evaluation` — log-loss, Brier score and calibration against the
  baselines (docs/placement.md).
"""

from .fitting import fit
from .model import Params, blend, chances, chances_many
from .priors import prior_for
from .states import FAMILIES, PlacementState, family_of, hand_unit, state_of, states_of_hands

__all__ = [
    "FAMILIES",
    "Params",
    "PlacementState",
    "blend",
    "chances",
    "chances_many",
    "family_of",
    "fit",
    "hand_unit",
    "prior_for",
    "state_of",
    "states_of_hands",
]
