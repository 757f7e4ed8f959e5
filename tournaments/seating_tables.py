"""Pairing tables made in advance by this project's own search (``python -m
tournaments.make_seating_tables``), for the sizes clubs use: 8 to 48 players at tables of 4
and 6 to 36 at tables of 3, over 2 to 10 rounds. A long search finds fewer repeat meetings
than a draw can afford to wait for; :func:`tournaments.seating.lot_rounds` relabels the
stored table by the seed's lot and chooses the seat winds, so every draw still differs.

The file ``seating_tables.json`` maps ``"<players>x<rounds>x<table size>"`` to rounds of
tables of player indices, in no particular seat order.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

TABLES_FILE = Path(__file__).with_name("seating_tables.json")


@functools.cache
def _tables() -> dict[str, list[list[list[int]]]]:
    if not TABLES_FILE.exists():
        return {}
    loaded: dict[str, list[list[list[int]]]] = json.loads(TABLES_FILE.read_text("utf-8"))
    return loaded


def table_key(players: int, rounds: int, table_size: int) -> str:
    return f"{players}x{rounds}x{table_size}"


def stored_table(players: int, rounds: int, table_size: int) -> list[list[list[int]]] | None:
    """A copy of the stored pairing table of this size, or ``None``."""
    rounds_of = _tables().get(table_key(players, rounds, table_size))
    if rounds_of is None:
        return None
    return [[list(table) for table in rnd] for rnd in rounds_of]
