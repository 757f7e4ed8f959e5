"""The values a winner's pad may send, and their labels: ``"3-30"`` (han-fu), ``"6"`` (counted
han), a limit (``"mangan"`` ... ``"yakuman"``). Shared by the hand form (which parses a tap),
the pad's view-model (:mod:`scoring.entry.value_pad`, which draws the buttons), the tile entry
(:mod:`scoring.entry.tile_entry`, which turns an evaluation into a pad value) and the offline panel.
No Django forms here."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from django.utils.functional import Promise
from django.utils.translation import get_language

from scoring.engine import Ruleset
from scoring.rulebook.hand_labels import (
    FU_VALUES,
    GRID_HAN,
    LIMIT_LABELS,
    STORED_VALUE,
    han_fu_label,
    han_label,
    top_counted_han,
)

if TYPE_CHECKING:
    from scoring.tiles.evaluate import HandValue


@functools.lru_cache(maxsize=64)
def value_choices(rs: Ruleset, language: str) -> list[tuple[str, str | Promise]]:
    """The value choices of a pad under ``rs``, labelled in ``language`` (the active one):
    every han-fu of the grid (which of them a ron or a tsumo may have is the form's check),
    the counted han, the limits.

    Built once per ruleset and language: every hand-form POST builds a pad per seat. Callers
    must not change the list."""
    values: list[tuple[str, str | Promise]] = []
    first_counted = 1
    if rs.fu_scoring:
        first_counted = GRID_HAN + 1
        values += [
            (f"{han}-{fu}", han_fu_label(han, fu))
            for han in range(1, GRID_HAN + 1)
            for fu in FU_VALUES
        ]
    values += [(str(h), han_label(h)) for h in range(first_counted, top_counted_han(rs) + 1)]
    values += LIMIT_LABELS.items()
    return values


def active_value_choices(rs: Ruleset) -> list[tuple[str, str | Promise]]:
    """:func:`value_choices` in the active language."""
    return value_choices(rs, get_language() or "")


def stored_value_choice(
    rs: Ruleset, value: str, values: list[tuple[str, str | Promise]]
) -> list[tuple[str, str | Promise]]:
    """The value of a stored hand that no button offers, as one more choice (a hand of 15
    counted han, or 6 han with the fu an imported record gave): a correction keeps it.
    A hand below 5 han with fu rules still needs its fu: that one is not kept."""
    match = STORED_VALUE.fullmatch(value)
    if match is None or value in dict(values):
        return []
    han, fu = int(match[1]), match[2]
    if rs.fu_scoring and han <= GRID_HAN:
        return []
    return [(value, han_label(han) if fu is None else han_fu_label(han, int(fu)))]


def pad_value(value: HandValue, rs: Ruleset) -> str:
    """The pad's choice for a hand valued from its tiles: ``"3-30"`` (han-fu on the grid),
    a limit, ``"yakuman"``, or the counted han (``"6"``, and every han where fu do not
    count)."""
    if value.yakuman:
        return "yakuman"
    if rs.fu_scoring and value.han <= GRID_HAN:
        return f"{value.han}-{value.fu}"
    if value.limit is not None:
        return value.limit
    return str(value.han)


def value_label(value: str, rs: Ruleset) -> str:
    """A pad choice as the pad labels it (the choice itself when the pad has no such one)."""
    return str(dict(active_value_choices(rs)).get(value, value))
