"""Tiles in mpsz notation (``"234m067p11z"``), as the hand-value contract writes them, to the
``mahjong`` package's 136-tile ids.

A tile type is 0–33: 1m–9m, 1p–9p, 1s–9s, then 1z–7z (East, South, West, North, haku, hatsu,
chun). Each type has four copies, ids ``type * 4 + copy``. ``0`` in mpsz is a red five; the
red five of each suit is copy 0 of its five (ids 16, 52 and 88, the package's
``FIVE_RED_*``), so a plain ``5`` takes that copy only as its fourth. One :class:`TileSet`
hands out the copies of a whole hand (concealed tiles, melds, winning tile), so a hand never
holds a fifth copy of a tile nor more red fives of a suit than the set has: one each by
default, the copies after the first for a set with more (003 L91-94, two red 5p are ids
52 and 53; 004 L22, three red 5p and three red 5s).

Two marked tiles of 004's set (docs/game-record-format.md, "Extensions"):

- a **gold five** (``gold_fives``; 004 L22-23 "赤3・金1", one gold 5p and one gold 5s) is the
  last copy of its five (ids 55 and 91). Such a set has no plain five of that suit, so a plain
  ``5`` names the gold five; a second ``5`` of the suit takes a red copy, which every other five
  of that set is (a five entered without its colour counts as the one it must be).
- the **白ポッチ** (the white dragon with a dot, ``white_pocchi``; 004 L39) is written ``0z``
  (``0`` marks the special copy, as in ``0m``/``0p``/``0s``: a marked ``5z``). It is copy 0 of
  haku (id 124); a plain ``5z`` takes it only as its fourth haku. A set without it refuses
  ``0z``.
"""

from __future__ import annotations

import re

SUITS = "mpsz"
RED_FIVES = {"m": 16, "p": 52, "s": 88}
_RED_IDS = frozenset(RED_FIVES.values())
HAKU = 31
POCCHI_ID = HAKU * 4
_GROUP = re.compile(r"([0-9]+)([mpsz])")


class TileError(ValueError):
    """Tiles that are not mpsz notation, or more copies of a tile than a set has."""


def tile_types(text: str) -> list[tuple[int, bool]]:
    """``(type, marked)`` of each tile in ``text``, in order: ``"05m"`` -> ``[(4, True), (4,
    False)]``; ``marked`` is a red five (``0m``/``0p``/``0s``) or the 白ポッチ (``0z``, type 31).

    Raises:
        TileError: not mpsz notation (digits followed by their suit), or an honour other than
            1z to 7z and 0z.
    """
    if not isinstance(text, str):
        raise TileError(f"{text!r} is not a string of tiles")
    compact = text.replace(" ", "")
    if compact and _GROUP.sub("", compact):
        raise TileError(f"{text!r} is not mpsz notation (e.g. 234m067p11z)")
    out = []
    for digits, suit in _GROUP.findall(compact):
        base = SUITS.index(suit) * 9
        for digit in digits:
            number = int(digit)
            if suit == "z" and number > 7:
                raise TileError(f"{digit}z: honours are 1z to 7z (0z the 白ポッチ)")
            marked = number == 0
            out.append((base + (4 if marked else number - 1), marked))
    return out


def type_name(tile_type: int) -> str:
    """``"5m"`` for type 4, ``"7z"`` for 33."""
    return f"{tile_type % 9 + 1}{SUITS[tile_type // 9]}"


def red_ids(red_fives: tuple[str, ...] | list[str] = ("m", "p", "s")) -> frozenset[int]:
    """The 136 ids of a set's red fives, ``red_fives`` one suit letter per red five:
    ``("m", "p", "p", "s")`` -> ``{16, 52, 53, 88}`` (copy 0 of each five first, the package's
    red five).

    Raises:
        TileError: a suit other than m, p, s, or more than four red fives of a suit.
    """
    return _five_ids(red_fives, "red", first=True)


def gold_ids(gold_fives: tuple[str, ...] | list[str] = ()) -> frozenset[int]:
    """The 136 ids of a set's gold fives, ``gold_fives`` one suit letter per gold five: the
    last copies of each five, ``("p", "s")`` -> ``{55, 91}`` (004 L22-23).

    Raises:
        TileError: a suit other than m, p, s, or more than four gold fives of a suit.
    """
    return _five_ids(gold_fives, "gold", first=False)


def _five_ids(suits: tuple[str, ...] | list[str], colour: str, *, first: bool) -> frozenset[int]:
    ids: set[int] = set()
    for suit in set(suits):
        if suit not in RED_FIVES:
            raise TileError(f"{suit!r}: {colour} fives are m, p or s")
        count = list(suits).count(suit)
        if count > 4:
            raise TileError(f"{suit}: a set has four fives of a suit")
        base = RED_FIVES[suit]
        ids.update(range(base, base + count) if first else range(base + 4 - count, base + 4))
    return frozenset(ids)


class TileSet:
    """The copies handed out so far in one hand: each call takes the next free copy.
    ``red_fives``, ``gold_fives``: the set's red and gold fives, one suit letter each
    (:func:`red_ids`, :func:`gold_ids`); ``pocchi``: the set has the 白ポッチ (``0z``).

    Raises:
        TileError: a suit other than m, p, s, or more red and gold fives of a suit than four.
    """

    def __init__(
        self,
        red_fives: tuple[str, ...] | list[str] = ("m", "p", "s"),
        gold_fives: tuple[str, ...] | list[str] = (),
        *,
        pocchi: bool = False,
    ) -> None:
        self._used: set[int] = set()
        self._red = red_ids(red_fives)
        self._gold = gold_ids(gold_fives)
        if self._red & self._gold:
            raise TileError("a set has four fives of a suit, red and gold together")
        self._pocchi = pocchi

    def take(self, tile_type: int, marked: bool) -> int:
        """A free copy of ``tile_type`` (a red five, or the 白ポッチ, when ``marked``), as a
        136 id.

        Raises:
            TileError: the hand already has four of the tile, or every red five of the suit,
                or the 白ポッチ where the set has none or twice.
        """
        suit = SUITS[tile_type // 9]
        if marked and tile_type == HAKU:
            if not self._pocchi:
                raise TileError("0z: this set has no 白ポッチ (a white dragon with a dot)")
            if POCCHI_ID in self._used:
                raise TileError("0z: a set has one 白ポッチ")
            self._used.add(POCCHI_ID)
            return POCCHI_ID
        if marked:
            reds = sorted(i for i in self._red if i // 4 == tile_type)
            for tile_id in reds:
                if tile_id not in self._used:
                    self._used.add(tile_id)
                    return tile_id
            if not reds:
                raise TileError(f"0{suit}: this set has no red five of that suit")
            if len(reds) == 1:
                raise TileError(f"0{suit}: a hand has one red five of each suit")
            raise TileError(f"0{suit}: this set has {len(reds)} red fives of that suit")
        # Plain tiles leave the marked copies for last: a plain five takes the gold one, then a
        # red one, only where the set has no plain copy left (every other five of 004's set is
        # red), and a plain haku the 白ポッチ only as the fourth haku.
        marked_ids = self._red | ({POCCHI_ID} if self._pocchi else set())
        copies = sorted(
            range(tile_type * 4, tile_type * 4 + 4),
            key=lambda i: (i in marked_ids, i in self._gold),
        )
        for tile_id in copies:
            if tile_id not in self._used:
                self._used.add(tile_id)
                return tile_id
        raise TileError(f"{type_name(tile_type)}: more than four of the same tile")

    def take_all(self, text: str) -> list[int]:
        """136 ids for every tile of ``text``."""
        return [self.take(t, marked) for t, marked in tile_types(text)]


def to_mpsz(tile_ids: list[int] | tuple[int, ...]) -> str:
    """136 ids as mpsz, sorted by suit and number, red fives as ``0``: ``[16, 17, 20]`` ->
    ``"056m"``."""
    groups: dict[str, list[str]] = {suit: [] for suit in SUITS}
    for tile_id in sorted(tile_ids, key=lambda i: (i // 4, i not in _RED_IDS)):
        kind = tile_id // 4
        suit = SUITS[kind // 9]
        groups[suit].append("0" if tile_id in _RED_IDS else str(kind % 9 + 1))
    return "".join("".join(digits) + suit for suit, digits in groups.items() if digits)
