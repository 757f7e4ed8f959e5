"""Simulated games under a club's rules: the prior's data where a club has few games, and the
simulated club of ``manage.py placement_eval``.

Each hand is drawn like a club's and tried on the engine before it is kept (so it is
legal under the ruleset): a ron 47% of the time, a tsumo 30%, an exhaustive draw 23%
(about the shares of club and online 4-player play); the winner and the discarder are
drawn with weights ``exp(skill)`` and ``exp(-skill)`` of each seat's player (0 for all in
the prior), the value from a spread of han and fu with a mangan or more in one win in
six. Riichi: each seat at most once a hand, 35% of the time. Integer points throughout:
the engine settles every hand.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from scoring.engine import Game, RecordError, Ruleset, parse_hand

_HAN_FU = [
    (1, 30, 10), (1, 40, 8), (2, 30, 10), (2, 40, 6), (2, 25, 2), (3, 30, 8), (3, 40, 4),
    (4, 30, 5), (1, 50, 2), (2, 50, 1), (3, 25, 1), (4, 25, 1),
]  # fmt: skip
_LIMITS = [("mangan", 12), ("haneman", 4), ("baiman", 2), ("sanbaiman", 0.4), ("yakuman", 0.2)]


def _value(rng: random.Random, rs: Ruleset) -> dict[str, Any]:
    if rng.random() < 0.17:
        limit = rng.choices([n for n, _ in _LIMITS], weights=[w for _, w in _LIMITS])[0]
        return {"limit": limit}
    han, fu, _w = rng.choices(_HAN_FU, weights=[w for *_, w in _HAN_FU])[0]
    return {"han": han, "fu": fu} if rs.fu_scoring else {"han": han}


def _weighted_seat(rng: random.Random, weights: Sequence[float], exclude: int = -1) -> int:
    seats = [s for s in range(len(weights)) if s != exclude]
    return rng.choices(seats, weights=[weights[s] for s in seats])[0]


def club_hand(rng: random.Random, game: Game, skill: Sequence[float]) -> dict[str, Any]:
    """One hand object (docs/game-record-format.md) drawn as the module says."""
    rs = game.ruleset
    n = rs.players
    riichi = [
        s
        for s in range(n)
        if rng.random() < 0.35 and game.scores[s] >= max(rs.riichi_min_score, 1000)
    ]
    roll = rng.random()
    if roll < 0.77:
        winner = _weighted_seat(rng, [math.exp(s) for s in skill])
        if roll < 0.47:
            loser = _weighted_seat(rng, [math.exp(-s) for s in skill], exclude=winner)
            return {
                "result": "ron",
                "loser": loser,
                "wins": [{"winner": winner, **_value(rng, rs)}],
                "riichi": riichi,
            }
        return {
            "result": "tsumo",
            "wins": [{"winner": winner, **_value(rng, rs)}],
            "riichi": riichi,
        }
    tenpai = sorted(set(riichi) | {s for s in range(n) if rng.random() < 0.4})
    return {"result": "draw", "tenpai": tenpai, "riichi": riichi}


def club_game(
    rng: random.Random, ruleset: Ruleset, skill: Sequence[float] | None = None
) -> list[dict[str, Any]]:
    """The hands of one complete game under ``ruleset``, drawn from ``rng``."""
    skill = list(skill) if skill is not None else [0.0] * ruleset.players
    while True:
        game = Game(ruleset)
        hands: list[dict[str, Any]] = []
        while game.ended_by is None and len(hands) < 200:
            raw = club_hand(rng, game, skill)
            if game.is_all_last() and (ruleset.agari_yame or ruleset.tenpai_yame):
                raw["dealer_stops"] = True
            try:
                game.play(parse_hand(raw, ruleset.players, len(hands)))
            except RecordError:
                raw.pop("dealer_stops", None)
                try:
                    game.play(parse_hand(raw, ruleset.players, len(hands)))
                except RecordError:
                    continue
            hands.append(raw)
        if game.ended_by is not None:
            return hands


def simulated_club(
    ruleset: Ruleset, games: int, seed: int, skill_sd: float = 0.0, members: int = 12
) -> list[list[dict[str, Any]]]:
    """``games`` complete games of a club of ``members`` players of skill drawn with sd
    ``skill_sd`` (0: all alike), seated by lot; the same for the same arguments."""
    rng = random.Random(seed)
    skills = [rng.gauss(0.0, skill_sd) if skill_sd else 0.0 for _ in range(members)]
    out = []
    for _ in range(games):
        table = rng.sample(range(members), ruleset.players)
        out.append(club_game(rng, ruleset, [skills[m] for m in table]))
    return out
