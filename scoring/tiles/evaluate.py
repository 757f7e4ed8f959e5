"""A winning hand's han, fu and yaku from its tiles, under a built-in ruleset (issue 13).

The ``mahjong`` package reads the hand (:mod:`scoring.tiles.package_reading`), the clubs'
house rules adjust and check that reading (:mod:`scoring.tiles.house_rules`), and this module
counts the result. The payment is the engine's (``scoring.engine``): this module gives the
hand's value the club record takes (``han``/``fu`` or a limit), never points of its own.

The hand's types and the package's configuration are importable from here, the tiles' public
module.

Pure Python: no Django import. Tile ids are the package's 136 ids
(:mod:`scoring.tiles.notation`).
"""

from __future__ import annotations

from scoring.engine import Ruleset, basic_points

from . import house_rules
from .hand import HandRefused, HandTiles, HandValue, Meld, RawValue, Situation
from .package_reading import package_config, package_meld

__all__ = [
    "HandRefused",
    "HandTiles",
    "HandValue",
    "Meld",
    "Situation",
    "evaluate",
    "finish",
    "package_config",
    "package_meld",
]

_LIMIT_OF_BASIC = {2000: "mangan", 3000: "haneman", 4000: "baiman", 6000: "sanbaiman"}


def evaluate(
    ruleset: Ruleset, tiles: HandTiles, situation: Situation, *, honba: int = 0
) -> HandValue:
    """The value of a winning hand under ``ruleset``, its house rules applied
    (:mod:`scoring.tiles.house_rules`); ``honba`` for a ruleset's 2-han minimum.

    Raises:
        HandRefused: no winning hand, no yaku, the winning tile not in the hand, a situation
            the tiles contradict (riichi with an open hand, ...), or a hand the ruleset does
            not allow (atozuke where forbidden, below its han minimum, renhou where there is
            none).
    """
    raw = house_rules.read(ruleset, tiles, situation)
    raw = house_rules.adjust(ruleset, tiles, situation, raw)
    value = finish(ruleset, raw)
    house_rules.check(ruleset, tiles, situation, value, honba=honba)
    return value


def finish(ruleset: Ruleset, raw: RawValue) -> HandValue:
    """Han, yakuman multiple and limit of a (house-rule adjusted) reading."""
    yakuman_han = sum(y.han for y in raw.yaku if y.name in raw.yakuman_names)
    if yakuman_han:
        yaku = tuple(y for y in raw.yaku if y.name in raw.yakuman_names)
        han = yakuman_han
        yakuman = min(yakuman_han // 13, ruleset.yakuman_max)
    else:
        yaku = raw.yaku
        han = sum(y.han for y in yaku)
        yakuman = 1 if han >= ruleset.counted_yakuman_han else 0
    if yakuman:
        limit: str | None = "yakuman"
    else:
        limit = _LIMIT_OF_BASIC.get(basic_points(ruleset, han, raw.fu))
    return HandValue(
        han=han,
        fu=raw.fu,
        yaku=yaku,
        yakuman=yakuman,
        limit=limit,
        fu_details=raw.fu_details,
    )
