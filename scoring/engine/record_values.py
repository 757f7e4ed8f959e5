"""Text and numbers no game record has, refused before anything else reads the record.

A record's text (player names, venue, table, yaku names, descriptive keys) ends up in the
ledger's text columns, and its numbers (seats, han, fu, chips, final scores) in its integer
columns or decide what goes there. PostgreSQL stores no NUL character, no database stores a
lone surrogate (JSON's ``"\\ud800"``), and no game has a number beyond ten million either way,
the bound of every ruleset number (:data:`~scoring.engine.ruleset_files.INT_LIMIT`): such a
record is refused here with one line, instead of failing in the database.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import RecordError
from .ruleset_files import INT_LIMIT


def check_record_values(record: Any) -> None:
    """Refuse a record holding text or a number that no game has.

    Args:
        record: a parsed JSON value (a game record, or anything else: only its text and its
            integers are looked at, in keys and values at any depth).

    Raises:
        RecordError: code ``text_not_storable`` for a text (or key) with a NUL character or
            a lone surrogate; ``number_out_of_range`` (params: limit) for an integer beyond
            ``INT_LIMIT`` either way. The key is the path to the value
            (``players[0]``, ``final_scores.scores[1]``), and a value inside a hand is
            attributed to that hand (``hand 3: wins[0].chips: ...``).
    """
    # Replays are a hot path: a plain scan first, the paths only to name a fault found.
    if not has_value_fault(record):
        return
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), record)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            if fault := _text_fault(value):
                hand_index, key = _where(path)
                raise RecordError(hand_index, key, f"text with {fault}", code="text_not_storable")
        elif isinstance(value, int) and not isinstance(value, bool):
            if not -INT_LIMIT <= value <= INT_LIMIT:
                hand_index, key = _where(path)
                raise RecordError(
                    hand_index,
                    key,
                    f"a number beyond {INT_LIMIT:,} either way",
                    code="number_out_of_range",
                    params={"limit": INT_LIMIT},
                )
        elif isinstance(value, Mapping):
            for name in value:
                if fault := _text_fault(str(name)):
                    hand_index, key = _where(path)
                    raise RecordError(
                        hand_index, key, f"a key with {fault}", code="text_not_storable"
                    )
            # Pushed last first, so that the first fault in the record is the one reported.
            stack.extend(((*path, str(name)), value[name]) for name in reversed(list(value)))
        elif isinstance(value, list | tuple):
            stack.extend(((*path, i), value[i]) for i in reversed(range(len(value))))


def has_value_fault(record: Any) -> bool:
    """Whether ``record`` holds, at any depth, what :func:`check_record_values` refuses.
    Exact types first (parsed JSON is dicts, lists, str and int), the ABCs only otherwise."""
    stack = [record]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is str:
            if "\x00" in value or (not value.isascii() and _text_fault(value)):
                return True
        elif kind is int:
            if not -INT_LIMIT <= value <= INT_LIMIT:
                return True
        elif kind is dict or isinstance(value, Mapping):
            for name in value:
                text = name if type(name) is str else str(name)
                if "\x00" in text or (not text.isascii() and _text_fault(text)):
                    return True
            stack.extend(value.values())
        elif kind is list or kind is tuple or isinstance(value, list | tuple):
            stack.extend(value)
        elif isinstance(value, str):
            stack.append(str(value))
        elif isinstance(value, int) and not isinstance(value, bool):
            stack.append(int(value))
    return False


def _text_fault(text: str) -> str | None:
    """What keeps ``text`` out of a database's text column, or None."""
    if "\x00" in text:
        return "a NUL character"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "a lone surrogate"
    return None


def _where(path: tuple[str | int, ...]) -> tuple[int | None, str]:
    """The hand index (None outside ``hands``) and the key of the value at ``path``:
    ``("hands", 3, "wins", 0, "chips")`` is hand 3's ``wins[0].chips``. A player's name is
    ``players``, the key of every refusal of the players (the ledger's field)."""
    hand_index = None
    if len(path) >= 2 and path[0] == "hands" and isinstance(path[1], int):
        hand_index, path = path[1], path[2:]
    if path[:1] == ("players",):
        path = path[:1]
    key = ""
    for part in path:
        key += f"[{part}]" if isinstance(part, int) else f".{part}" if key else part
    return hand_index, key or ("hand" if hand_index is not None else "record")
