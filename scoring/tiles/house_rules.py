"""The clubs' own rules on top of the ``mahjong`` package's reading of a hand.

Each adjustment is a ruleset parameter (``scoring/rulesets/*.toml``, docs/rules-spec.md):

- ``double_wind_pair_fu``: a pair of the seat wind that is also the round wind is 2 fu under
  Makura (§45e "連風牌…も2符"), 4 fu under Tenhou and the home game (H-11 a); the package
  counts 4, so 2 is taken off before the fu are rounded up.
- ``chiitoitsu_four_of_a_kind``: four of a tile as two pairs of chiitoitsu (002 S(2) L112,
  004 L33); the package does not read such a hand, so it is valued here: 25 fu, chiitoitsu
  and the yaku a chiitoitsu can have.
- ``renhou``: ``6han`` (002 Y L143, S-20) makes the package's 5-han renhou worth 6.
- ``local_yaku`` (004): ``north_yakuhai`` (L26, a north pung is a yakuhai for everyone),
  ``sanpuu`` (L60, F-15: three different wind pungs), ``shousharin`` (L59: any honitsu
  chiitoitsu, in place of the two); ``daisharin`` (L56) is the package's. Their han are the
  engine's local yaku table (:data:`scoring.engine.local_yaku.LOCAL_YAKU`).
- ``atozuke`` false (003 L264–L292): every winning tile of the hand must give a yaku, and an
  open hand whose only yaku are yakuhai must have made its first call on one of them or hold
  one closed; otherwise the hand is refused. (A reading of the home rules' text: yaku that
  span the whole hand — toitoi, honitsu, chanta, ittsu, sanshoku … — are taken as tied to
  every call.)
- ``two_han_minimum_from_honba`` (003 L106): from that honba a win needs 2 han without dora.

The seeds' own valuations (each a ruleset parameter; Tenhou's presets keep the package's reading):

- yakuman as the seeds value them (:mod:`scoring.tiles.yakuman_rules`): double yakuman,
  yakuman that never combine, manzu honitsu and suurenkou (004 L54, L57), 13-futou;
- ``sanrenkou`` (004 L61): three pungs of one suit in a row, read as pungs where that
  pays more than the package's best reading;
- a local yaku as a hand's only yaku (004 L26: an open hand with a north pung and nothing
  else): the package refuses a hand without its own yaku, so such a hand is read with a
  stand-in yaku of no fu (haitei or houtei) that is then taken off;
- ``pinfu_tsumo`` where 20 fu do not exist (004 L24, 003 L608): pinfu stays and the tsumo
  adds 2 fu (30 fu), instead of the package's dropping the pinfu;
- ``rinshan_tsumo_fu`` false (002 K(3) L66): a rinshan win adds no tsumo fu;
- ``rinshan_haitei``, ``riichi_kinds_combine``, ``ryuuiisou_needs_hatsu``: in the package's
  configuration (:func:`scoring.tiles.package_reading.package_config`);
- the set's dora (:mod:`scoring.tiles.dora_rules`): red fives as the set has them, every five
  of 004's 5p and 5s, flowers.

Pure Python: no Django import.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from scoring.engine import Ruleset

from . import dora_rules, yakuman_rules
from .hand import HandRefused, HandTiles, HandValue, RawValue, Situation, Yaku, local_yaku
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
    chiitoitsu (:func:`chiitoitsu_with_four`); 13-futou where the ruleset has it; the
    sanrenkou reading where it pays more; a hand whose only yaku is local read with a
    stand-in (see the module's list).

    Raises:
        HandRefused: as :func:`package_reading`.
    """
    futou = yakuman_rules.shiisanputa(ruleset, tiles, situation)
    if futou is not None:
        return futou
    try:
        raw = _reading(ruleset, tiles, situation, ())
    except HandRefused as refused:
        if refused.reason == "hand_not_winning" and ruleset.chiitoitsu_four_of_a_kind:
            quad = chiitoitsu_with_four(ruleset, tiles, situation)
            if quad is not None:
                return quad
        if refused.reason != "no_yaku" or "sanrenkou" not in ruleset.local_yaku:
            raise
        raw = None
    if "sanrenkou" in ruleset.local_yaku and (raw is None or not raw.yakuman_names):
        for run in yakuman_rules.pung_runs(tiles, 3):
            reading = _sanrenkou_reading(ruleset, tiles, situation, run)
            if reading is not None and (raw is None or _worth(reading) > _worth(raw)):
                raw = reading
    if raw is None:
        raise HandRefused("no_yaku", "the hand has no yaku")
    return raw


def _reading(
    ruleset: Ruleset,
    tiles: HandTiles,
    situation: Situation,
    closed_pungs: tuple[tuple[int, ...], ...],
) -> RawValue:
    """The package's reading; a hand without the package's yaku read again with a stand-in
    yaku (haitei on a tsumo, houtei on a ron; neither adds fu), taken off, where a local yaku
    may be its yaku (004 L26, L60, L61). :func:`check` refuses it if none is."""
    try:
        return package_reading(ruleset, tiles, situation, closed_pungs=closed_pungs)
    except HandRefused as refused:
        local = {"north_yakuhai", "sanpuu", "sanrenkou"} & set(ruleset.local_yaku)
        if refused.reason != "no_yaku" or not local:
            raise
    stand_in = "haitei" if situation.tsumo else "houtei"
    if situation.tsumo:
        trial = dataclasses.replace(situation, haitei=True)
    else:
        trial = dataclasses.replace(situation, houtei=True)
    raw = package_reading(ruleset, tiles, trial, closed_pungs=closed_pungs)
    return dataclasses.replace(raw, yaku=tuple(y for y in raw.yaku if y.name != stand_in))


def _sanrenkou_reading(
    ruleset: Ruleset, tiles: HandTiles, situation: Situation, run: tuple[int, ...]
) -> RawValue | None:
    """The hand read with ``run`` (three types) held as pungs, plus sanrenkou (004 L61,
    F-15; its han the local yaku table's); ``None`` where that reading is no hand or a yakuman."""
    called = {m.tiles[0] // 4 for m in tiles.melds if m.kind != "chi"}
    pungs = []
    for kind in run:
        if kind not in called:
            pungs.append(tuple([t for t in tiles.concealed if t // 4 == kind][:3]))
    try:
        raw = _reading(ruleset, tiles, situation, tuple(pungs))
    except HandRefused:
        return None
    if raw.yakuman_names:
        return None
    yaku = list(raw.yaku)
    win_kind = tiles.win_tile // 4
    ronned = not situation.tsumo and win_kind in run and win_kind not in called
    if ronned and any(y.name == "sanankou" for y in yaku):
        # The pung the ron completed is no concealed pung (the package took it as one).
        closed = yakuman_rules.pung_types(dataclasses.replace(tiles, melds=()))
        ankan = sum(1 for m in tiles.melds if m.kind == "ankan")
        if sum(1 for k in closed if k != win_kind) + ankan < 3:
            yaku = [y for y in yaku if y.name != "sanankou"]
    position = next((i for i, y in enumerate(yaku) if y.name in DORA), len(yaku))
    yaku.insert(position, local_yaku("sanrenkou", tiles))
    return dataclasses.replace(raw, yaku=tuple(yaku))


def _worth(raw: RawValue) -> tuple[int, int]:
    return sum(y.han for y in raw.yaku), raw.fu


def adjust(ruleset: Ruleset, tiles: HandTiles, situation: Situation, raw: RawValue) -> RawValue:
    """``raw`` with the ruleset's yakuman, fu, local yaku and dora applied (see the module's
    list)."""
    if "daisharin" in ruleset.local_yaku and _seven_pairs_of_one_suit(ruleset, tiles):
        # 004 L56: any chinitsu chiitoitsu, whatever reading (ryanpeikou) pays more.
        daisharin = local_yaku("daisharin", tiles)
        return RawValue((daisharin,), frozenset({"daisharin"}), 25, (("base", 25),))
    raw = yakuman_rules.apply(ruleset, tiles, raw)
    if raw.yakuman_names:
        return raw
    yaku = list(raw.yaku)
    fu = raw.fu
    details = raw.fu_details
    if ruleset.double_wind_pair_fu == 2 and any(r == "double_valued_pair" for r, _ in details):
        details = tuple((r, 2 if r == "double_valued_pair" else f) for r, f in details)
        fu = _round_up(sum(f for _, f in details))
    if situation.tsumo and not ruleset.pinfu_tsumo_20fu and any(y.name == "pinfu" for y in yaku):
        # No 20 fu (003 L608, H-10): the tsumo adds its 2 fu; pinfu stays where the ruleset
        # has pinfu on a tsumo (004 L24), and goes where it has not.
        details = (*details, ("tsumo", 2))
        fu = _round_up(sum(f for _, f in details))
        if not ruleset.pinfu_tsumo:
            yaku = [y for y in yaku if y.name != "pinfu"]
    if situation.rinshan and not ruleset.rinshan_tsumo_fu and ("tsumo", 2) in details:
        # 002 K(3) L66: "嶺上開花によるあがりにはツモ符の加符はつかない".
        details = tuple(d for d in details if d != ("tsumo", 2))
        fu = _round_up(sum(f for _, f in details))
    if ruleset.renhou == "6han":
        yaku = [Yaku(y.name, 6) if y.name == "renhou" else y for y in yaku]
    pungs = _pung_types(tiles)
    if "north_yakuhai" in ruleset.local_yaku and NORTH in pungs:
        yaku.append(local_yaku("north_yakuhai", tiles))
    if "sanpuu" in ruleset.local_yaku and len(pungs & set(WIND_TYPES)) == 3:
        yaku.append(local_yaku("sanpuu", tiles))
    names = {y.name for y in yaku}
    if "shousharin" in ruleset.local_yaku and {"chiitoitsu", "honitsu"} <= names:
        yaku = [y for y in yaku if y.name not in ("chiitoitsu", "honitsu")]
        yaku.insert(0, local_yaku("shousharin", tiles))
    adjusted = dataclasses.replace(raw, yaku=tuple(yaku), fu=fu, fu_details=details)
    return dora_rules.recount(ruleset, tiles, adjusted)


def check(
    ruleset: Ruleset, tiles: HandTiles, situation: Situation, value: HandValue, *, honba: int
) -> None:
    """Refuse a hand the ruleset does not allow (no yaku but dora, atozuke, the 2-han
    minimum, more nuki dora than the set has).

    Raises:
        HandRefused: ``no_yaku``, ``atozuke``, ``two_han_minimum``, ``no_kita`` or
            ``too_many_flowers``.
    """
    if tiles.kita and not ruleset.nuki_north:
        raise HandRefused("no_kita", "the ruleset sets no north aside as a nuki dora")
    if tiles.flowers > ruleset.flowers:
        raise HandRefused(
            "too_many_flowers", f"the ruleset's set has {ruleset.flowers} flower tiles"
        )
    if not value.yakuman and not any(y.name not in DORA for y in value.yaku):
        # A hand read with a stand-in yaku (see :func:`read`) whose local yaku did not come.
        raise HandRefused("no_yaku", "the hand has no yaku")
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
            daisharin = local_yaku("daisharin", tiles)
            return RawValue((daisharin,), frozenset({"daisharin"}), 25, (("base", 25),))
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
