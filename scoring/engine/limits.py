"""The limit table: each limit's name, its basic points and the han from which a counted hand
reaches it, declared once.

The standard table (rules-spec §0 [SK], "basic points"): mangan 2,000 from 5 han (or when
fu x 2^(han+2) reaches 2,000), haneman 3,000 from 6 han, baiman 4,000 from 8, sanbaiman
6,000 from 11, yakuman 8,000 from 13. A ruleset moves the last two (``sanbaiman_han``,
``counted_yakuman_han``: seed 004 counts 13 han a sanbaiman and 14 a yakuman); the engine's
payment (:func:`scoring.engine.hand_value.basic_points`) reads them from the ruleset and every
other figure from here, and so do the record's limits (:data:`LIMITS`), the tiles' limit of
a valued hand, nagashi and chombo paid as a mangan or more, and the online logs' candidate
values.

Pure Python: no Django import.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limit:
    """One limit: ``name`` (the record's ``limit``), ``basic_points`` (b, before the ron's
    4b or 6b and the tsumo's shares) and ``han`` (the counted han from which a hand reaches
    it in the standard table; a ruleset may move sanbaiman's and yakuman's)."""

    name: str
    basic_points: int
    han: int


LIMIT_TABLE: tuple[Limit, ...] = (
    Limit("mangan", 2000, 5),
    Limit("haneman", 3000, 6),
    Limit("baiman", 4000, 8),
    Limit("sanbaiman", 6000, 11),
    Limit("yakuman", 8000, 13),
)
LIMITS = tuple(limit.name for limit in LIMIT_TABLE)
LIMIT_BASIC_POINTS = {limit.name: limit.basic_points for limit in LIMIT_TABLE}
# The limit of a counted hand's basic points (a yakuman is a multiple, not a value of b).
LIMIT_OF_BASIC_POINTS = {
    limit.basic_points: limit.name for limit in LIMIT_TABLE if limit.name != "yakuman"
}
MANGAN_BASIC_POINTS = LIMIT_BASIC_POINTS["mangan"]
YAKUMAN_BASIC_POINTS = LIMIT_BASIC_POINTS["yakuman"]


def counted_limit(
    han: int, *, sanbaiman_han: int | None = None, counted_yakuman_han: int | None = None
) -> Limit | None:
    """The limit a counted hand of ``han`` han reaches by its han alone (``None`` below
    mangan's): the highest one reached, sanbaiman and yakuman from a ruleset's han where
    given, else from the standard table's."""
    if han < LIMIT_TABLE[0].han:
        return None
    moved = {"sanbaiman": sanbaiman_han, "yakuman": counted_yakuman_han}
    for limit in reversed(LIMIT_TABLE):
        least = moved.get(limit.name)
        if han >= (limit.han if least is None else least):
            return limit
    raise AssertionError("unreachable: mangan's han is reached")
