"""The clubs' own rules on top of the ``mahjong`` package's reading of a hand (issue 13).

Each adjustment is a ruleset parameter (``scoring/rulesets/*.toml``, docs/rules-spec.md):

- ``double_wind_pair_fu``: a pair of the seat wind that is also the round wind is 2 fu under
  Makura (§45e "連風牌…も2符"), 4 fu under Tenhou and the home game (H-11 a); the package
  counts 4, so 2 is taken off before the fu are rounded up.
- ``chiitoitsu_four_of_a_kind``: four of a tile as two pairs of chiitoitsu (002 S(2) L112,
  004 L33); the package does not read such a hand, so it is valued here: 25 fu, chiitoitsu
  and the yaku a chiitoitsu can have.
- ``renhou``: ``6han`` (002 Y L143, S-20) makes the package's 5-han renhou worth 6.
- ``local_yaku`` (004): ``north_yakuhai`` (L26, a north pung is a yakuhai for everyone),
  ``sanpuu`` (L60, F-15: three different wind pungs, 2 han), ``shousharin`` (L59: any
  honitsu chiitoitsu is 6 han, in place of the two); ``daisharin`` (L56) is the package's.
- ``atozuke`` false (003 L264–L292): every winning tile of the hand must give a yaku, and an
  open hand whose only yaku are yakuhai must have made its first call on one of them or hold
  one closed; otherwise the hand is refused. (A reading of the home rules' text: yaku that
  span the whole hand — toitoi, honitsu, chanta, ittsu, sanshoku … — are taken as tied to
  every call.)
- ``two_han_minimum_from_honba`` (003 L106): from that honba a win needs 2 han without dora.

Pure Python: no Django import.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from scoring.engine import Ruleset

from .hand import HandRefused, HandTiles, HandValue, RawValue, Situation, Yaku
from .package_reading import package_reading

NORTH = 30
WIND_TYPES = (27, 28, 29, 30)
YAKUHAI = {
    "haku": (31,),
    "hatsu": (32,),
    "chun": (33,),
    "seat_wind_east": (27,),
    "seat_wind_south": (28,),
    "seat_wind_west": (29,),
    "seat_wind_north": (30,),
    "round_wind_east": (27,),
    "round_wind_south": (28,),
    "round_wind_west": (29,),
    "round_wind_north": (30,),
    "north_yakuhai": (30,),
}
DORA = frozenset({"dora", "aka_dora", "ura_dora"})


def read(ruleset: Ruleset, tiles: HandTiles, situation: Situation) -> RawValue:
    """The package's reading of the hand (:func:`package_reading`), or, where the ruleset
    allows four of a tile in a chiitoitsu and the package finds no winning hand, that
    chiitoitsu (:func:`chiitoitsu_with_four`).

    Raises:
        HandRefused: as :func:`package_reading`.
    """
    try:
        return package_reading(ruleset, tiles, situation)
    except HandRefused as refused:
        if refused.reason == "hand_not_winning" and ruleset.chiitoitsu_four_of_a_kind:
            quad = chiitoitsu_with_four(ruleset, tiles, situation)
            if quad is not None:
                return quad
        raise


def adjust(ruleset: Ruleset, tiles: HandTiles, situation: Situation, raw: RawValue) -> RawValue:
    """``raw`` with the ruleset's fu and local yaku applied (see the module's list)."""
    if "daisharin" in ruleset.local_yaku and _seven_pairs_of_one_suit(ruleset, tiles):
        # 004 L56: any chinitsu chiitoitsu, whatever reading (ryanpeikou) pays more.
        return RawValue((Yaku("daisharin", 13),), frozenset({"daisharin"}), 25, (("base", 25),))
    if raw.yakuman_names:
        return raw
    yaku = list(raw.yaku)
    fu = raw.fu
    details = raw.fu_details
    if ruleset.double_wind_pair_fu == 2 and any(r == "double_valued_pair" for r, _ in details):
        details = tuple((r, 2 if r == "double_valued_pair" else f) for r, f in details)
        fu = _round_up(sum(f for _, f in details))
    if ruleset.renhou == "6han":
        yaku = [Yaku(y.name, 6) if y.name == "renhou" else y for y in yaku]
    pungs = _pung_types(tiles)
    if "north_yakuhai" in ruleset.local_yaku and NORTH in pungs:
        yaku.append(Yaku("north_yakuhai", 1))
    if "sanpuu" in ruleset.local_yaku and len(pungs & set(WIND_TYPES)) == 3:
        yaku.append(Yaku("sanpuu", 2))
    names = {y.name for y in yaku}
    if "shousharin" in ruleset.local_yaku and {"chiitoitsu", "honitsu"} <= names:
        yaku = [y for y in yaku if y.name not in ("chiitoitsu", "honitsu")]
        yaku.insert(0, Yaku("shousharin", 6))
    return dataclasses.replace(raw, yaku=tuple(yaku), fu=fu, fu_details=details)


def check(
    ruleset: Ruleset, tiles: HandTiles, situation: Situation, value: HandValue, *, honba: int
) -> None:
    """Refuse a hand the ruleset does not allow (atozuke, the 2-han minimum).

    Raises:
        HandRefused: ``atozuke`` or ``two_han_minimum``.
    """
    if not ruleset.atozuke and not value.yakuman:
        _check_atozuke(ruleset, tiles, situation, value)
    minimum_from = ruleset.two_han_minimum_from_honba
    if minimum_from and honba >= minimum_from and not value.yakuman:
        without_dora = sum(y.han for y in value.yaku if y.name not in DORA)
        if without_dora < 2:
            raise HandRefused(
                "two_han_minimum",
                f"from {minimum_from} honba a win needs 2 han without dora",
            )


def _check_atozuke(
    ruleset: Ruleset, tiles: HandTiles, situation: Situation, value: HandValue
) -> None:
    names = {y.name for y in value.yaku if y.name not in DORA}
    if tiles.melds and names and names <= set(YAKUHAI):
        fixed = {t for name in names for t in YAKUHAI[name]}
        first = tiles.melds[0]
        first_is_yakuhai = first.kind != "chi" and first.tiles[0] // 4 in fixed
        closed = Counter(t // 4 for t in tiles.concealed)
        held = any(closed[t] >= 3 for t in fixed) or any(
            m.kind == "ankan" and m.tiles[0] // 4 in fixed for m in tiles.melds
        )
        if not (first_is_yakuhai or held):
            raise HandRefused("atozuke", "atozuke: the first call is not part of the yaku")
    if situation.riichi or situation.double_riichi or situation.open_riichi:
        return
    waiting = list(tiles.concealed)
    waiting.remove(tiles.win_tile)
    for tile_type in range(34):
        if tile_type == tiles.win_tile // 4:
            continue
        other = _free_copy(tile_type, waiting, tiles)
        if other is None:
            continue
        trial = dataclasses.replace(tiles, concealed=(*waiting, other), win_tile=other)
        try:
            read(ruleset, trial, situation)
        except HandRefused as refused:
            if refused.reason == "no_yaku":
                raise HandRefused(
                    "atozuke", "atozuke: another winning tile of this hand gives no yaku"
                ) from None


def chiitoitsu_with_four(
    ruleset: Ruleset, tiles: HandTiles, situation: Situation
) -> RawValue | None:
    """Chiitoitsu that holds four of a tile as two pairs (rulesets that allow it), or
    ``None`` when the tiles are no such hand."""
    if tiles.melds:
        return None
    counts = Counter(t // 4 for t in tiles.concealed)
    if len(tiles.concealed) != 14 or any(c % 2 for c in counts.values()):
        return None
    if not any(c == 4 for c in counts.values()):
        return None
    types = set(counts)
    suits = {t // 9 for t in types if t < 27}
    honours = any(t >= 27 for t in types)
    terminal_or_honour = all(t >= 27 or t % 9 in (0, 8) for t in types)
    if all(t >= 27 for t in types):
        return RawValue((Yaku("tsuisou", 13),), frozenset({"tsuisou"}), 25, (("base", 25),))
    yaku = []
    if situation.double_riichi:
        yaku.append(Yaku("daburu_riichi", 2))
    elif situation.riichi or situation.open_riichi:
        yaku.append(Yaku("riichi", 1))
    if situation.ippatsu:
        yaku.append(Yaku("ippatsu", 1))
    if situation.tsumo:
        yaku.append(Yaku("tsumo", 1))
    if situation.haitei:
        yaku.append(Yaku("haitei", 1))
    if situation.houtei:
        yaku.append(Yaku("houtei", 1))
    yaku.append(Yaku("chiitoitsu", 2))
    if all(t < 27 and t % 9 not in (0, 8) for t in types):
        yaku.append(Yaku("tanyao", 1))
    if terminal_or_honour:
        yaku.append(Yaku("honroto", 2))
    if len(suits) == 1 and not honours:
        if "daisharin" in ruleset.local_yaku:
            return RawValue((Yaku("daisharin", 13),), frozenset({"daisharin"}), 25, (("base", 25),))
        yaku.append(Yaku("chinitsu", 6))
    elif len(suits) == 1:
        yaku.append(Yaku("honitsu", 3))
    dora = sum(_dora_count(t, tiles.dora_indicators, ruleset) for t in tiles.concealed)
    red = sum(1 for t in tiles.concealed if t in (16, 52, 88))
    ura = 0
    if situation.riichi or situation.double_riichi or situation.open_riichi:
        ura = sum(_dora_count(t, tiles.ura_indicators, ruleset) for t in tiles.concealed)
    dora += tiles.kita
    for name, han in (("dora", dora), ("aka_dora", red), ("ura_dora", ura)):
        if han:
            yaku.append(Yaku(name, han))
    return RawValue(tuple(yaku), frozenset(), 25, (("base", 25),))


def _dora_count(tile: int, indicators: tuple[int, ...], ruleset: Ruleset) -> int:
    kind = tile // 4
    return sum(1 for i in indicators if _next_tile(i // 4, ruleset.players) == kind)


def _next_tile(kind: int, players: int) -> int:
    if kind >= 27:
        if kind <= 30:
            return 27 + (kind - 27 + 1) % 4
        return 31 + (kind - 31 + 1) % 3
    suit, number = divmod(kind, 9)
    if players == 3 and suit == 0:
        # 3-player: 2m-8m are out; the 1m indicator points to 9m and 9m to 1m.
        return 8 if number == 0 else 0
    return suit * 9 + (number + 1) % 9


def _seven_pairs_of_one_suit(ruleset: Ruleset, tiles: HandTiles) -> bool:
    if tiles.melds or len(tiles.concealed) != 14:
        return False
    counts = Counter(t // 4 for t in tiles.concealed)
    if any(c % 2 for c in counts.values()):
        return False
    if any(c == 4 for c in counts.values()) and not ruleset.chiitoitsu_four_of_a_kind:
        return False
    return len({t // 9 for t in counts}) == 1 and all(t < 27 for t in counts)


def _pung_types(tiles: HandTiles) -> set[int]:
    """Honour types held as a pung or kan (called, or three in the closed hand)."""
    closed = Counter(t // 4 for t in tiles.concealed)
    found = {t for t, c in closed.items() if t >= 27 and c >= 3}
    found |= {m.tiles[0] // 4 for m in tiles.melds if m.kind != "chi" and m.tiles[0] // 4 >= 27}
    return found


def _free_copy(tile_type: int, held: list[int], tiles: HandTiles) -> int | None:
    used = {*held, *(t for m in tiles.melds for t in m.tiles), *tiles.dora_indicators}
    for tile_id in range(tile_type * 4, tile_type * 4 + 4):
        if tile_id not in used:
            return tile_id
    return None


def _round_up(fu: int) -> int:
    return -(-fu // 10) * 10
