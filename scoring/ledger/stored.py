"""The JSON shapes the ledger stores: a hand's engine result and a game's state between hands.

``HandEntry.result`` and ``Hanchan.state`` hold these; every path that writes them (entry,
correction, undo, import, the history seeding) goes through :mod:`scoring.ledger`, which
builds them here, so the rows are the same whichever path wrote them.
"""

from __future__ import annotations

from typing import Any

from scoring.engine import Game, HandResult


def hand_result_json(result: HandResult) -> dict[str, Any]:
    """A hand's engine result as ``HandEntry.result`` stores it: the replay-output hand
    (docs/game-record-format.md: round, dealer, honba, deposits_before, deltas, scores,
    deposits_after; points) plus ``payments`` (``[{"payer", "payee", "amount", "reason"}]``,
    ``None`` for the table) and ``chips`` (per seat) where any moved."""
    data = result.to_json()
    data["payments"] = [p.to_json() for p in result.payments]
    if any(result.chips):
        data["chips"] = list(result.chips)
    return data


def game_state_json(game: Game) -> dict[str, Any]:
    """What ``Hanchan.state`` keeps: ``{"game": <engine snapshot, None once over>,
    "table": {round, dealer, honba, deposits, scores, all_last, hands_played}}``."""
    table = game.state()
    return {
        "game": None if game.ended_by is not None else game.snapshot(),
        "table": {
            "round": table.round,
            "dealer": table.dealer,
            "honba": table.honba,
            "deposits": table.deposits,
            "scores": list(table.scores),
            "all_last": table.all_last,
            "hands_played": table.hands_played,
        },
    }
