"""The hanchan ledger's pipeline: plan a change with the engine once, then write the plan.

- :mod:`scoring.ledger.plan`: :func:`plan` and the changes (:class:`NewHand`,
  :class:`Correction`, :class:`Undo`, :class:`Void`, :class:`Record`,
  :class:`FinalScoresEntry`).
- :mod:`scoring.ledger.write`: :func:`write_plan`, :func:`create_games`.
- :mod:`scoring.ledger.facts`: the per-seat facts standings add up.
- :mod:`scoring.ledger.stored`: the JSON shapes stored with hands and games.
- :mod:`scoring.ledger.errors`: :class:`LedgerError`, :class:`StaleHanchan`.

:mod:`scoring.services` is the public write API (locking, versions, idempotency) built on it.
"""

from scoring.ledger.errors import LedgerError, StaleHanchan
from scoring.ledger.plan import (
    Change,
    Correction,
    FinalScoresEntry,
    NewHand,
    Plan,
    PlannedHand,
    Record,
    StoredGame,
    StoredHand,
    Undo,
    Void,
    plan,
)
from scoring.ledger.stored import game_state_json, hand_result_json

__all__ = [
    "Change",
    "Correction",
    "FinalScoresEntry",
    "LedgerError",
    "NewHand",
    "Plan",
    "PlannedHand",
    "Record",
    "StaleHanchan",
    "StoredGame",
    "StoredHand",
    "Undo",
    "Void",
    "game_state_json",
    "hand_result_json",
    "plan",
]
