"""The hanchan ledger: plan a change with the engine once, write the plan, confirm it, and
the one read of what counts (issue 19; docs/ledger.md).

- :mod:`scoring.ledger.plan`: :func:`plan` and the changes (:class:`NewHand`,
  :class:`Correction`, :class:`Undo`, :class:`Void`, :class:`Record`,
  :class:`FinalScoresEntry`).
- :mod:`scoring.ledger.create`: :func:`create_games` (every new game: a start, an import, the
  history seeding), with the one-game-once check (:mod:`scoring.ledger.fingerprint`).
- :mod:`scoring.ledger.write`: :func:`write_plan` (a hand, a correction, an undo, a void,
  final scores); :mod:`scoring.ledger.rows` builds the rows both store.
- :mod:`scoring.ledger.confirmation`: the one trust rule (who confirms, when a game counts),
  :func:`~scoring.ledger.confirmation.vouch` for every write.
- :mod:`scoring.ledger.counts`: the one read of what counts, for every reader.
- :mod:`scoring.ledger.totals`: the members' monthly and yearly totals of counted results.
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
