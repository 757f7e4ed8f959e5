"""The dora a hand's tiles carry under a ruleset's set of tiles: its red fives
(``red_fives``: 003's yellow set has two red 5p, L91-94; 004's three red 5p and 5s, L22), its
gold fives (``gold_fives``, ``gold_five_dora``: 004 L22-23 one gold 5p and 5s, F-06 one dora in
all), the fives that are all dora (``five_dora``: every 5p and 5s in 004, L22-23, F-06: one
dora each, a red or gold one no more) and the flowers set aside (``flowers``: 004 L17, L27,
F-23: one dora each). The tile a 白ポッチ stands for (004 L39, ``HandTiles.stand_in``) is no
red nor gold five, so none of these counts it.

The ``mahjong`` package counts the red fives of a standard set (one per suit, ids 16, 52, 88);
:func:`recount` puts the ruleset's own count in its place. Pure Python: no Django import.
"""

from __future__ import annotations

from scoring.engine import Ruleset

from .hand import HandTiles, RawValue, Yaku
from .notation import SUITS, gold_ids, red_ids

DORA_NAMES = frozenset({"dora", "aka_dora", "ura_dora"})


def all_tiles(tiles: HandTiles) -> tuple[int, ...]:
    """Every tile of the hand as 136 ids: concealed and called."""
    return (*tiles.concealed, *(t for m in tiles.melds for t in m.tiles))


def _coloured(tiles: HandTiles) -> tuple[int, ...]:
    """The hand's tiles but the one a 白ポッチ stands for (it has no colour)."""
    return tuple(t for t in all_tiles(tiles) if t != tiles.stand_in)


def red_count(ruleset: Ruleset, tiles: HandTiles) -> int:
    """Red fives in the hand, as the ruleset's set has them; a red five of a suit whose every
    five is a dora is counted by :func:`five_count` only."""
    reds = red_ids(ruleset.red_fives)
    five_suits = {SUITS.index(s) for s in ruleset.five_dora}
    return sum(1 for t in _coloured(tiles) if t in reds and t // 36 not in five_suits)


def gold_count(ruleset: Ruleset, tiles: HandTiles) -> int:
    """Dora of the hand's gold fives (``gold_five_dora`` each, 004 L22-23, F-06), less the
    five's own dora where every five of the suit is one (counted by :func:`five_count`)."""
    golds = gold_ids(ruleset.gold_fives)
    five_suits = {SUITS.index(s) for s in ruleset.five_dora}
    return sum(
        ruleset.gold_five_dora - (1 if t // 36 in five_suits else 0)
        for t in _coloured(tiles)
        if t in golds
    )


def five_count(ruleset: Ruleset, tiles: HandTiles) -> int:
    """Fives of the suits whose every five is a dora (004 L22-23)."""
    fives = {SUITS.index(s) * 9 + 4 for s in ruleset.five_dora}
    return sum(1 for t in _coloured(tiles) if t // 4 in fives)


def recount(ruleset: Ruleset, tiles: HandTiles, raw: RawValue) -> RawValue:
    """``raw`` with its red fives counted as the ruleset's set has them, every five of the
    ``five_dora`` suits, the gold fives and each flower added to its dora. A yakuman keeps no
    dora."""
    if raw.yakuman_names:
        return raw
    yaku = list(raw.yaku)
    extra_dora = five_count(ruleset, tiles) + gold_count(ruleset, tiles) + tiles.flowers
    if extra_dora:
        _put(yaku, "dora", extra_dora + sum(y.han for y in yaku if y.name == "dora"), ())
    _put(yaku, "aka_dora", red_count(ruleset, tiles), ("dora",))
    return RawValue(tuple(yaku), raw.yakuman_names, raw.fu, raw.fu_details)


def _put(yaku: list[Yaku], name: str, han: int, after: tuple[str, ...]) -> None:
    """Set ``name``'s han in place (0 removes it), or add it after the names ``after`` (the
    package's order: dora, aka_dora, ura_dora)."""
    index = next((i for i, y in enumerate(yaku) if y.name == name), None)
    if index is not None:
        if han:
            yaku[index] = Yaku(name, han)
        else:
            del yaku[index]
        return
    if not han:
        return
    position = len(yaku)
    for i, item in enumerate(yaku):
        if item.name in DORA_NAMES and item.name not in after:
            position = i
            break
    yaku.insert(position, Yaku(name, han))
