"""Which rules a what-if takes from the other ruleset, and which stay the game's own
(docs/what-if.md).

A game is re-scored from its hands as entered: who won, on whose discard, with which han and
fu, who declared riichi, who was tenpai. What changes is how those hands are *paid* and how
the game is *settled*, as the other ruleset says: uma, oka, return (and the start points it
comes from), rounding, honba, deposits (riichi sticks, open riichi, penalties), tobi,
multi-ron, the payment grid (fu, kiriage, limits), chombo, pao, nagashi and chips. How the
game *runs* stays the game's own (length, extension rounds, all-last, renchan, abortive
draws, the riichi minimum): the hands were played that way, and another order of dealers
would make them other hands.

Parameter names are :class:`scoring.engine.Ruleset`'s (rules-spec §1B, §1D, §1F-§1H).
Pure Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine import Ruleset

# The other ruleset's rules a what-if applies, by the group the page names (rules-spec §).
TAKEN: Mapping[str, tuple[str, ...]] = {
    # §1B: the settlement of the final scores.
    "uma": ("uma", "uma_floating", "float_threshold", "uma_ep_points"),
    "oka": ("oka",),
    "return": ("start_points", "return_points"),
    "rounding": ("final_rounding", "top_takes_remainder", "tie_break", "box_under"),
    "tobi": ("tobi", "tobi_at_zero", "tobi_after_chombo", "tobi_payment"),
    # §1D: honba, riichi sticks and what else goes on the table.
    "honba": ("honba_ron", "honba_tsumo_each", "two_han_minimum_from_honba"),
    "deposits": (
        "riichi_stick",
        "open_riichi",
        "open_riichi_stick",
        "noten_total",
        "penalty_kinds",
        "penalty_amounts",
    ),
    "multi_ron": ("multi_ron_max", "multi_ron_honba", "multi_ron_deposits"),
    # §1G: the payment of a han and fu (the hand's han and fu are kept).
    "payments": (
        "fu_scoring",
        "fixed_fu",
        "pinfu_tsumo_20fu",
        "kiriage",
        "payment_rounding",
        "sanbaiman_han",
        "counted_yakuman_han",
        "yakuman_max",
        "sanma_tsumo",
    ),
    # §1F, §1H: chombo, pao, rinshan, nagashi and chips.
    "chombo": ("chombo_payment", "chombo_each", "chombo_riichi", "chombo_after_result"),
    "pao": ("pao", "pao_ron_honba", "rinshan_liability"),
    "nagashi": ("nagashi", "nagashi_honba", "nagashi_takes_deposits"),
    "chips": ("chips", "yakitori_chips"),
}

# What re-settles a game entered as final scores only: no hands, so only the settlement
# (uma, oka, return, rounding; tobi decides whether a bust ended it).
FINAL_SCORES_TAKEN: tuple[str, ...] = (
    *TAKEN["uma"],
    *TAKEN["oka"],
    *TAKEN["return"],
    *TAKEN["rounding"],
    *TAKEN["tobi"],
    *TAKEN["chips"],
)

ALL_TAKEN: tuple[str, ...] = tuple(name for names in TAKEN.values() for name in names)


def taken_overrides(other: Ruleset, names: tuple[str, ...] = ALL_TAKEN) -> dict[str, Any]:
    """``other``'s value of each parameter in ``names``, as record ``overrides`` (plain
    values: tuples become lists, as :meth:`Ruleset.parameters` gives them)."""
    parameters = other.parameters()
    return {name: parameters[name] for name in names}


def differences(game: Ruleset, other: Ruleset) -> dict[str, tuple[str, ...]]:
    """Per group of :data:`TAKEN`, the parameters whose values differ between the two
    rulesets (groups without a difference are left out), for the page to say what changes."""
    mine, theirs = game.parameters(), other.parameters()
    out = {}
    for group, names in TAKEN.items():
        changed = tuple(name for name in names if mine[name] != theirs[name])
        if changed:
            out[group] = changed
    return out
