"""A winning hand's han, fu and yaku from its tiles, under a built-in ruleset.

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

import dataclasses

from scoring.engine import Ruleset, basic_points
from scoring.engine.limits import LIMIT_OF_BASIC_POINTS, YAKUMAN_BASIC_POINTS

from . import house_rules
from .hand import HandRefused, HandTiles, HandValue, Meld, RawValue, Situation
from .notation import HAKU, POCCHI_ID
from .package_reading import package_config, package_meld

__all__ = [
    "HandRefused",
    "best_stand_in",
    "HandTiles",
    "HandValue",
    "Meld",
    "Situation",
    "evaluate",
    "finish",
    "package_config",
    "package_meld",
    "pocchi_is_wild",
]


def evaluate(
    ruleset: Ruleset, tiles: HandTiles, situation: Situation, *, honba: int = 0
) -> HandValue:
    """The value of a winning hand under ``ruleset``, its house rules applied
    (:mod:`scoring.tiles.house_rules`); ``honba`` for a ruleset's 2-han minimum.

    A 白ポッチ drawn as the winning tile by a player in riichi, where the ruleset makes it
    wild (``white_pocchi``, 004 L39 "白ポッチは、リーチ後、オールマイティ牌です"), stands for
    the tile that makes the hand worth most (:func:`best_stand_in`).

    Raises:
        HandRefused: no winning hand, no yaku, the winning tile not in the hand, a situation
            the tiles contradict (riichi with an open hand, ...), or a hand the ruleset does
            not allow (atozuke where forbidden, below its han minimum, renhou where there is
            none).
    """
    if pocchi_is_wild(ruleset, tiles, situation):
        return best_stand_in(ruleset, tiles, situation, honba=honba)
    return _evaluate(ruleset, tiles, situation, honba=honba)


def pocchi_is_wild(ruleset: Ruleset, tiles: HandTiles, situation: Situation) -> bool:
    """Whether the winning tile is a 白ポッチ that stands for any tile: the ruleset's
    ``white_pocchi`` is ``wild_after_riichi`` and the winner, in riichi (any kind), drew it
    (004 L39). Held before the riichi or won on by a ron, it is a haku."""
    return (
        ruleset.white_pocchi == "wild_after_riichi"
        and tiles.win_tile == POCCHI_ID
        and situation.tsumo
        and (situation.riichi or situation.double_riichi or situation.open_riichi)
    )


def best_stand_in(
    ruleset: Ruleset, tiles: HandTiles, situation: Situation, *, honba: int = 0
) -> HandValue:
    """The hand's value with its drawn 白ポッチ taken as the tile that pays most (004 L39
    "オールマイティ牌"): every tile type of the set (a 3-player set has no 2m-8m) of which a
    copy is left (a hand never holds five of a tile), the haku it is included. The tile it
    stands for counts as that tile for the sets, the yaku and the dora indicators, and as no
    red nor gold five (:mod:`scoring.tiles.dora_rules`). On equal value the lowest tile.

    Raises:
        HandRefused: no tile makes a hand the ruleset allows (the refusal of the 白ポッチ
            read as a haku).
    """
    used = {
        *tiles.concealed,
        *(t for m in tiles.melds for t in m.tiles),
        *tiles.dora_indicators,
        *tiles.ura_indicators,
    }
    best: tuple[tuple[int, int, int], HandValue] | None = None
    as_haku: HandRefused | None = None
    for tile_type in range(34):
        if ruleset.players == 3 and 1 <= tile_type <= 7:
            continue
        if tile_type == HAKU:
            trial = tiles
        else:
            free = [i for i in range(tile_type * 4, tile_type * 4 + 4) if i not in used]
            if not free:
                continue
            stand_in = free[-1]
            concealed = tuple(stand_in if t == POCCHI_ID else t for t in tiles.concealed)
            trial = dataclasses.replace(
                tiles, concealed=concealed, win_tile=stand_in, stand_in=stand_in
            )
        try:
            value = _evaluate(ruleset, trial, situation, honba=honba)
        except HandRefused as refused:
            if tile_type == HAKU:
                as_haku = refused
            continue
        worth = (_basic_points(ruleset, value), value.han, value.fu)
        if best is None or worth > best[0]:
            best = (worth, value)
    if best is None:
        assert as_haku is not None
        raise as_haku
    return best[1]


def _basic_points(ruleset: Ruleset, value: HandValue) -> int:
    if value.yakuman:
        return YAKUMAN_BASIC_POINTS * value.yakuman
    return basic_points(ruleset, value.han, value.fu if ruleset.fu_scoring else ruleset.fixed_fu)


def _evaluate(ruleset: Ruleset, tiles: HandTiles, situation: Situation, *, honba: int) -> HandValue:
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
        limit = LIMIT_OF_BASIC_POINTS.get(basic_points(ruleset, han, raw.fu))
    return HandValue(
        han=han,
        fu=raw.fu,
        yaku=yaku,
        yakuman=yakuman,
        limit=limit,
        fu_details=raw.fu_details,
    )
