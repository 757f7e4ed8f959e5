"""All-last conditions in the value pad's values: the engine's
:func:`~scoring.engine.all_last_conditions` given the pad of the game's ruleset
(:func:`scoring.entry.pad_values.value_choices`), so that every value it prints is a button
of the pad (docs/all-last.md)."""

from __future__ import annotations

from typing import Any

from scoring.engine import AllLast, Game, all_last_conditions, game_of_record
from scoring.entry.pad_values import value_choices


def pad_conditions(game: Game) -> AllLast:
    """The all-last conditions of the hand ``game`` is about to play, in the pad's values.

    Raises:
        RecordError: ``game_over``: the game has ended.
    """
    # The pad's values are the same in every language; only their labels differ.
    values = [value for value, _label in value_choices(game.ruleset, "")]
    return all_last_conditions(game, values)


def record_conditions(record: Any) -> AllLast:
    """The all-last conditions of a game record's hand in play (docs/game-record-format.md).

    Raises:
        RecordError: the record is refused (as by ``replay``), or its game is over
            (``game_over``).
    """
    return pad_conditions(game_of_record(record))
