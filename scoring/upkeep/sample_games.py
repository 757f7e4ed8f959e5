"""Deterministic, plausible game records: for benchmarks, demo data and synthetic history.

Hands are drawn at random but always legal: each is tried on the engine before it is kept.
"""

from __future__ import annotations

import random
from typing import Any

from scoring.engine import (
    Game,
    RecordError,
    available_rulesets,
    game_of_record,
    load_ruleset,
    parse_hand,
)

_HAN_FU = [(1, 30), (1, 40), (2, 30), (2, 40), (3, 30), (3, 40), (4, 30), (2, 25), (1, 50)]
_LIMITS = ["mangan", "mangan", "haneman", "baiman"]


def _random_hand(rng: random.Random, game: Game) -> dict[str, Any]:
    rs = game.ruleset
    n = rs.players
    roll = rng.random()
    riichi = sorted(rng.sample(range(n), rng.choice((0, 0, 1, 1, 2))))
    riichi = [s for s in riichi if game.scores[s] >= max(rs.riichi_min_score, 1000)]

    def value() -> dict[str, Any]:
        if rng.random() < 0.15:
            return {"limit": rng.choice(_LIMITS)}
        han, fu = rng.choice(_HAN_FU)
        return {"han": han, "fu": fu} if rs.fu_scoring else {"han": han}

    if roll < 0.5:
        loser, winner = rng.sample(range(n), 2)
        return {
            "result": "ron",
            "loser": loser,
            "wins": [{"winner": winner, **value()}],
            "riichi": [s for s in riichi if s != loser],
        }
    if roll < 0.8:
        return {
            "result": "tsumo",
            "wins": [{"winner": rng.randrange(n), **value()}],
            "riichi": riichi,
        }
    tenpai = sorted(set(riichi) | set(rng.sample(range(n), rng.randrange(n))))
    return {"result": "draw", "tenpai": tenpai, "riichi": riichi}


def sample_hands(
    rng: random.Random, ruleset_id: str, in_play_after: int | None = None
) -> list[dict[str, Any]]:
    """The hands of one game under ``ruleset_id``, drawn from ``rng``.

    A complete game by default; with ``in_play_after=k``, the first ``k`` hands of a game
    that is still in play after them.
    """
    rs = load_ruleset(ruleset_id)
    limit = 300 if in_play_after is None else in_play_after
    while True:
        game = Game(rs)
        hands: list[dict[str, Any]] = []
        while game.ended_by is None and len(hands) < limit:
            raw = _random_hand(rng, game)
            if in_play_after is None and game.is_all_last() and rng.random() < 0.3:
                raw["dealer_stops"] = rs.agari_yame or rs.tenpai_yame
            try:
                game.play(parse_hand(raw, rs.players, len(hands)))
            except RecordError:
                continue
            hands.append(raw)
        if (game.ended_by is None) == (in_play_after is not None):
            return hands


def sample_records(ruleset_id: str, count: int, seed: int = 20261122) -> list[dict[str, Any]]:
    """``count`` complete game records under ``ruleset_id``, the same for the same seed."""
    rng = random.Random(seed)
    players = ["Aoki", "Baba", "Chiba", "Doi"][: load_ruleset(ruleset_id).players]
    return [
        {
            "format": "club-game/1",
            "ruleset": ruleset_id,
            "players": players,
            "hands": sample_hands(rng, ruleset_id),
        }
        for _ in range(count)
    ]


def sample_games_in_play(per_ruleset: int, seed: int, *, first: int = 1) -> list[Game]:
    """``per_ruleset`` games in play under each shipped ruleset, ``first`` to 12 hands in (as
    :func:`sample_hands` plays them), the tables the benchmarks of a table in play time."""
    rng = random.Random(seed)
    games = []
    for ruleset_id in sorted(available_rulesets()):
        players = ["Aoki", "Baba", "Chiba", "Doi"][: load_ruleset(ruleset_id).players]
        for _ in range(per_ruleset):
            hands = sample_hands(rng, ruleset_id, in_play_after=rng.randrange(first, 13))
            record = {"ruleset": ruleset_id, "players": players, "hands": hands}
            games.append(game_of_record(record))
    return games
