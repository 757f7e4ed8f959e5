"""The winning hands of an mjlog, tile by tile, with Tenhou's own reading of each.

An ``<AGARI>`` holds the concealed tiles (``hai``, the winning tile included), the calls
(``m``, Tenhou's meld codes), the winning tile (``machi``), dora and ura dora indicators,
Tenhou's yaku (``yaku``: id and han pairs; ``yakuman``: ids) and ``ten`` (fu, points,
limit). :func:`winning_hands` gives each as :class:`scoring.tiles.evaluate.HandTiles` and
:class:`~scoring.tiles.evaluate.Situation` (the situational yaku taken from Tenhou's list,
as no tile shows them) beside Tenhou's han, fu and yaku, so the tile evaluation can be
checked against Tenhou on real hands.

Meld codes (Tenhou's client): bit 2 a chi, bit 3 a pon, bit 4 an added kan, bit 5 a kita;
otherwise a kan, closed when its low two bits (the discarder) are 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree

from scoring.tiles.evaluate import HandTiles, Meld, Situation
from scoring.tiles.notation import to_mpsz

# Tenhou's yaku ids (the log viewer's table) that name how the hand was won, not its tiles.
SITUATION_YAKU = {
    1: "riichi",
    2: "ippatsu",
    3: "chankan",
    4: "rinshan",
    5: "haitei",
    6: "houtei",
    21: "double_riichi",
    36: "renhou",
    37: "tenhou",
    38: "chiihou",
}
# Tenhou's yaku ids to the ``mahjong`` package's names.
TENHOU_YAKU = {
    0: "tsumo", 1: "riichi", 2: "ippatsu", 3: "chankan", 4: "rinshan", 5: "haitei",
    6: "houtei", 7: "pinfu", 8: "tanyao", 9: "iipeiko", 10: "seat_wind_east",
    11: "seat_wind_south", 12: "seat_wind_west", 13: "seat_wind_north",
    14: "round_wind_east", 15: "round_wind_south", 16: "round_wind_west",
    17: "round_wind_north", 18: "haku", 19: "hatsu", 20: "chun", 21: "daburu_riichi",
    22: "chiitoitsu", 23: "chantai", 24: "ittsu", 25: "sanshoku", 26: "sanshoku_douko",
    27: "sankantsu", 28: "toitoi", 29: "sanankou", 30: "shosangen", 31: "honroto",
    32: "ryanpeiko", 33: "junchan", 34: "honitsu", 35: "chinitsu", 36: "renhou",
    37: "tenhou", 38: "chiihou", 39: "daisangen", 40: "suuankou", 41: "suuankou_tanki",
    42: "tsuisou", 43: "ryuisou", 44: "chinroto", 45: "chuuren_poutou",
    46: "daburu_chuuren_poutou", 47: "kokushi", 48: "daburu_kokushi", 49: "daisuushi",
    50: "shosuushi", 51: "suukantsu", 52: "dora", 53: "ura_dora", 54: "aka_dora",
}  # fmt: skip
# The same ids as Tenhou writes their names in its tenhou.net/6 JSON (``"役牌 中(1飜)"``): the
# log viewer's table, index = id.
TENHOU_YAKU_NAMES = (
    "門前清自摸和", "立直", "一発", "槍槓", "嶺上開花", "海底摸月", "河底撈魚", "平和", "断幺九",
    "一盃口", "自風 東", "自風 南", "自風 西", "自風 北", "場風 東", "場風 南", "場風 西",
    "場風 北", "役牌 白", "役牌 發", "役牌 中", "両立直", "七対子", "混全帯幺九", "一気通貫",
    "三色同順", "三色同刻", "三槓子", "対々和", "三暗刻", "小三元", "混老頭", "二盃口",
    "純全帯幺九", "混一色", "清一色", "人和", "天和", "地和", "大三元", "四暗刻", "四暗刻単騎",
    "字一色", "緑一色", "清老頭", "九蓮宝燈", "純正九蓮宝燈", "国士無双", "国士無双１３面",
    "大四喜", "小四喜", "四槓子", "ドラ", "裏ドラ", "赤ドラ",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class TenhouWin:
    """One win of a log (``players`` at the table): the tiles and situation, and Tenhou's han
    (dora included), fu, yaku (package names, with han) and yakuman multiple."""

    players: int
    tiles: HandTiles
    situation: Situation
    han: int
    fu: int
    yaku: tuple[tuple[str, int], ...]
    yakuman: int


def decode_meld(code: int) -> Meld | None:
    """The call of a Tenhou meld code; ``None`` for a kita (a north set aside)."""
    if code & 0x4:
        base = (code & 0xFC00) >> 10
        base //= 3
        first = base // 7 * 9 + base % 7
        offsets = ((code >> 3) & 3, (code >> 5) & 3, (code >> 7) & 3)
        return Meld("chi", tuple((first + i) * 4 + offsets[i] for i in range(3)))
    if code & 0x18:
        base = (code & 0xFE00) >> 9
        kind = base // 3
        unused = (code >> 5) & 3
        if code & 0x8:
            return Meld("pon", tuple(kind * 4 + c for c in range(4) if c != unused))
        return Meld("kan", tuple(kind * 4 + c for c in range(4)))
    if code & 0x20:
        return None
    first_tile = (code & 0xFF00) >> 8
    kind = first_tile // 4
    return Meld("ankan" if code & 3 == 0 else "kan", tuple(kind * 4 + c for c in range(4)))


def winning_hands(root: ElementTree.Element) -> list[TenhouWin]:
    """Every win of a parsed mjlog, in order (each winner of a multiple ron)."""
    players = 4
    un = root.find("UN")
    if un is not None and un.get("n3", "") == "":
        players = 3
    wins = []
    oya = kyoku = 0
    for element in root:
        if element.tag == "INIT":
            seed = [int(x) for x in element.get("seed", "0").split(",")]
            kyoku = seed[0]
            oya = int(element.get("oya", "0"))
        elif element.tag == "AGARI":
            wins.append(_win(element, players, oya, kyoku))
    return wins


def _ints(value: str | None) -> list[int]:
    return [int(x) for x in value.split(",")] if value else []


def _win(element: ElementTree.Element, players: int, oya: int, kyoku: int) -> TenhouWin:
    who = int(element.get("who", "0"))
    tsumo = who == int(element.get("fromWho", "0"))
    codes = _ints(element.get("m"))
    decoded = [decode_meld(code) for code in codes]
    melds = tuple(m for m in decoded if m is not None)
    kita = sum(1 for m in decoded if m is None)
    pairs = _ints(element.get("yaku"))
    yakuman_ids = _ints(element.get("yakuman"))
    listed = set(pairs[0::2]) | set(yakuman_ids)
    situation = Situation(
        tsumo=tsumo,
        **{flag: yaku_id in listed for yaku_id, flag in SITUATION_YAKU.items()},
        seat_wind="ESWN"[(who - oya) % players],
        round_wind="ESWN"[kyoku // 4],
    )
    fu = _ints(element.get("ten"))[0]
    yaku = tuple((TENHOU_YAKU[i], han) for i, han in zip(pairs[0::2], pairs[1::2], strict=True))
    yaku += tuple((TENHOU_YAKU[i], 13) for i in yakuman_ids)
    return TenhouWin(
        players=players,
        tiles=HandTiles(
            concealed=tuple(_ints(element.get("hai"))),
            melds=melds,
            win_tile=int(element.get("machi", "0")),
            dora_indicators=tuple(_ints(element.get("doraHai"))),
            ura_indicators=tuple(_ints(element.get("doraHaiUra"))),
            kita=kita,
        ),
        situation=situation,
        han=sum(pairs[1::2]),
        fu=fu,
        yaku=yaku,
        yakuman=len(yakuman_ids),
    )


def win_description(element: ElementTree.Element) -> dict[str, Any]:
    """The ``yaku`` and ``tiles`` of an ``<AGARI>`` as a club record's win carries them
    (docs/game-record-format.md, extensions): Tenhou's yaku under the package's names, and
    the hand in mpsz (red fives as ``0``)."""
    pairs = _ints(element.get("yaku"))
    yakuman_ids = _ints(element.get("yakuman"))
    yaku = [
        {"name": TENHOU_YAKU[i], "han": han}
        for i, han in zip(pairs[0::2], pairs[1::2], strict=True)
        if han and i in TENHOU_YAKU
    ]
    yaku += [{"name": TENHOU_YAKU[i], "han": 13} for i in yakuman_ids if i in TENHOU_YAKU]
    melds = []
    for code in _ints(element.get("m")):
        meld = decode_meld(code)
        if meld is not None:
            melds.append({"type": meld.kind, "tiles": to_mpsz(meld.tiles)})
    win_tile = int(element.get("machi", "0"))
    tiles: dict[str, Any] = {"hand": to_mpsz(_ints(element.get("hai")))}
    if melds:
        tiles["melds"] = melds
    tiles["win_tile"] = to_mpsz([win_tile])
    return {"yaku": yaku, "tiles": tiles}
