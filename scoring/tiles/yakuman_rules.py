"""Yakuman as each seed values them, on top of the ``mahjong`` package's reading
(which reads every yakuman single):

- ``double_yakuman``: the hands a ruleset counts double (26 han): 13-sided kokushi, suuankou
  tanki, junsei chuuren, daisuushii (Makura 1.3 §43 L352-356, 1.5 L285-289; 003 L559-560).
- ``lone_yakuman``: tenhou, chiihou, renhou and 13-futou never combine with another yakuman
  (Makura 1.3 §43 L360, 1.5 L291-295 "但し、天和 地和 人和 十三不塔との複合はなし";
  rules-spec M-21, corrected 2026-11-29: "keep the larger value, never add"): their value is
  never added to the other yakuman the tiles make; the hand keeps the better of the two, the
  lone yakuman (×1) or the others together (capped at ``yakuman_max``). Chiihou with
  suuankou tanki (a double yakuman) is ×2, chiihou with daisangen ×1 (the chiihou kept).
- local yakuman the tiles show (``local_yaku``): ``manzu_honitsu`` (004 L54, F-15: every tile
  manzu or an honour, with manzu), ``suurenkou`` (004 L57: four pungs of one suit in a row),
  ``shiisanputa`` (13-futou, Makura §43 L350: on the first draw, 14 tiles with one pair and
  no set nor two tiles of a suit within two of each other). They combine with the package's
  yakuman as real yakuman do (004 L52).

Pure Python: no Django import.
"""

from __future__ import annotations

from collections import Counter

from scoring.engine import Ruleset
from scoring.engine.local_yaku import YAKUMAN_HAN

from .dora_rules import all_tiles
from .hand import HandTiles, RawValue, Situation, Yaku, local_yaku

# The package's ids of the hands a ruleset may count double.
DOUBLE_NAMES = {
    "kokushi_13_sided": "daburu_kokushi",
    "suuankou_tanki": "suuankou_tanki",
    "junsei_chuuren": "daburu_chuuren_poutou",
    "daisuushii": "daisuushi",
}
LONE_NAMES = {
    "tenhou": ("tenhou",),
    "chiihou": ("chiihou",),
    "renhou": ("renhou_yakuman", "renhou"),
    "shiisanputa": ("shiisanputa",),
}


def local_yakuman(ruleset: Ruleset, tiles: HandTiles) -> tuple[Yaku, ...]:
    """The local yakuman of ``ruleset`` that a winning hand's tiles show."""
    found = []
    kinds = [t // 4 for t in all_tiles(tiles)]
    if (
        "manzu_honitsu" in ruleset.local_yaku
        and any(k < 9 for k in kinds)
        and all(k < 9 or k >= 27 for k in kinds)
        and any(k >= 27 for k in kinds)
    ):
        found.append(local_yaku("manzu_honitsu", tiles))
    if "suurenkou" in ruleset.local_yaku and longest_pung_run(tiles) >= 4:
        found.append(local_yaku("suurenkou", tiles))
    return tuple(found)


def pung_types(tiles: HandTiles) -> Counter[int]:
    """Tile types the hand can hold as a pung or kan: called pon/kan, closed kan, or three
    or more in the concealed tiles."""
    found: Counter[int] = Counter()
    for meld in tiles.melds:
        if meld.kind != "chi":
            found[meld.tiles[0] // 4] += 1
    closed = Counter(t // 4 for t in tiles.concealed)
    for kind, count in closed.items():
        if count >= 3:
            found[kind] += 1
    return found


def pung_runs(tiles: HandTiles, length: int) -> list[tuple[int, ...]]:
    """Runs of ``length`` suited types in a row that the hand can hold as pungs while the
    rest of its tiles still make sets and one pair (004 L57, L61)."""
    pungs = pung_types(tiles)
    runs = []
    for start in range(27):
        run = tuple(range(start, start + length))
        if run[-1] >= 27 or run[-1] // 9 != start // 9:
            continue
        if not all(pungs[k] for k in run):
            continue
        rest = Counter(t // 4 for t in tiles.concealed)
        for kind in run:
            if not any(m.kind != "chi" and m.tiles[0] // 4 == kind for m in tiles.melds):
                rest[kind] -= 3
        if _sets_and_pair(rest):
            runs.append(run)
    return runs


def longest_pung_run(tiles: HandTiles) -> int:
    """The longest run of pungs in a row of one suit the hand can be read with (0-4)."""
    for length in (4, 3):
        if pung_runs(tiles, length):
            return length
    return 0


def _sets_and_pair(counts: Counter[int]) -> bool:
    tiles = sorted(k for k, c in counts.items() for _ in range(c))
    if len(tiles) % 3 != 2:
        return False
    for pair in set(tiles):
        if counts[pair] >= 2:
            rest = counts.copy()
            rest[pair] -= 2
            if _sets(rest):
                return True
    return False


def _sets(counts: Counter[int]) -> bool:
    kinds = sorted(k for k, c in counts.items() if c > 0)
    if not kinds:
        return True
    first = kinds[0]
    if counts[first] >= 3:
        rest = counts.copy()
        rest[first] -= 3
        if _sets(rest):
            return True
    if first < 27 and first % 9 <= 6 and counts[first + 1] > 0 and counts[first + 2] > 0:
        rest = counts.copy()
        for kind in (first, first + 1, first + 2):
            rest[kind] -= 1
        return _sets(rest)
    return False


def shiisanputa(ruleset: Ruleset, tiles: HandTiles, situation: Situation) -> RawValue | None:
    """13-futou (Makura §43 L350), where the ruleset has it: on the first draw (tenhou or
    chiihou), no call, 14 tiles of which one pair and no two of a suit within two of each
    other; ``None`` for any other hand."""
    if "shiisanputa" not in ruleset.local_yaku or tiles.melds:
        return None
    if not (situation.tenhou or situation.chiihou) or not situation.tsumo:
        return None
    counts = Counter(t // 4 for t in tiles.concealed)
    if len(tiles.concealed) != 14 or sorted(counts.values()) != [1] * 12 + [2]:
        return None
    for suit in range(3):
        numbers = sorted(k for k in counts if k // 9 == suit)
        if any(b - a <= 2 for a, b in zip(numbers, numbers[1:], strict=False)):
            return None
    return RawValue((local_yaku("shiisanputa", tiles),), frozenset({"shiisanputa"}), 0, ())


def apply(ruleset: Ruleset, tiles: HandTiles, raw: RawValue) -> RawValue:
    """``raw`` with the ruleset's local yakuman, double yakuman and lone yakuman applied."""
    local = local_yakuman(ruleset, tiles)
    if local:
        kept = tuple(y for y in raw.yaku if y.name in raw.yakuman_names)
        raw = RawValue(
            (*kept, *local),
            raw.yakuman_names | {y.name for y in local},
            raw.fu,
            raw.fu_details,
        )
    if not raw.yakuman_names:
        return raw
    doubled = {DOUBLE_NAMES[name] for name in ruleset.double_yakuman}
    yaku = [
        Yaku(y.name, 2 * YAKUMAN_HAN) if y.name in doubled and y.name in raw.yakuman_names else y
        for y in raw.yaku
    ]
    lone_names = {name for key in ruleset.lone_yakuman for name in LONE_NAMES[key]}
    lone = [y for y in yaku if y.name in lone_names and y.name in raw.yakuman_names]
    others = [y for y in yaku if y.name in raw.yakuman_names and y.name not in lone_names]
    if lone and (others or len(lone) > 1):
        # M-21: "複合はなし" forbids adding, as 複合しない does everywhere in the seeds (七対子
        # and 二盃口 §44c): the better of the two values, the lone yakuman on a tie.
        worth_of_others = min(sum(y.han for y in others), ruleset.yakuman_max * YAKUMAN_HAN)
        yaku = others if worth_of_others > lone[0].han else [lone[0]]
    return RawValue(tuple(yaku), frozenset(y.name for y in yaku), raw.fu, raw.fu_details)
