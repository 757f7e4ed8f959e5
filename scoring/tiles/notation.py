"""Tiles in mpsz notation (``"234m067p11z"``), as the hand-value contract writes them, to the
``mahjong`` package's 136-tile ids (issue 13).

A tile type is 0–33: 1m–9m, 1p–9p, 1s–9s, then 1z–7z (East, South, West, North, haku, hatsu,
chun). Each type has four copies, ids ``type * 4 + copy``. ``0`` in mpsz is a red five; the
red five of each suit is copy 0 of its five (ids 16, 52 and 88, the package's
``FIVE_RED_*``), so a plain ``5`` takes that copy only as its fourth. One :class:`TileSet`
hands out the copies of a whole hand (concealed tiles, melds, winning tile), so a hand never
holds a fifth copy of a tile nor more red fives of a suit than the set has: one each by
default, the copies after the first for a set with more (issue 20: 003 L91-94, two red 5p are
ids 52 and 53).
"""

from __future__ import annotations

import re

SUITS = "mpsz"
RED_FIVES = {"m": 16, "p": 52, "s": 88}
_RED_IDS = frozenset(RED_FIVES.values())
_GROUP = re.compile(r"([0-9]+)([mpsz])")


class TileError(ValueError):
    """Tiles that are not mpsz notation, or more copies of a tile than a set has."""


def tile_types(text: str) -> list[tuple[int, bool]]:
    """``(type, red)`` of each tile in ``text``, in order: ``"05m"`` -> ``[(4, True), (4,
    False)]``.

    Raises:
        TileError: not mpsz notation (digits followed by their suit), an honour above 7z, or
            a red honour.
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
            if suit == "z" and not 1 <= number <= 7:
                raise TileError(f"{digit}z: honours are 1z to 7z")
            red = number == 0
            out.append((base + (4 if red else number - 1), red))
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
    ids: set[int] = set()
    for suit in set(red_fives):
        if suit not in RED_FIVES:
            raise TileError(f"{suit!r}: red fives are m, p or s")
        count = list(red_fives).count(suit)
        if count > 4:
            raise TileError(f"0{suit}: a set has four fives of a suit")
        ids.update(range(RED_FIVES[suit], RED_FIVES[suit] + count))
    return frozenset(ids)


class TileSet:
    """The copies handed out so far in one hand: each call takes the next free copy.
    ``red_fives``: the set's red fives, one suit letter each (:func:`red_ids`)."""

    def __init__(self, red_fives: tuple[str, ...] | list[str] = ("m", "p", "s")) -> None:
        self._used: set[int] = set()
        self._red_fives = tuple(red_fives)
        self._red = red_ids(red_fives)

    def take(self, tile_type: int, red: bool) -> int:
        """A free copy of ``tile_type`` (a red five when ``red``), as a 136 id.

        Raises:
            TileError: the hand already has four of the tile, or every red five of the suit.
        """
        suit = SUITS[tile_type // 9]
        if red:
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
        # Plain fives leave the red copies for last: a plain five takes one only in a set
        # with fewer red fives, where that copy is an ordinary five.
        copies = sorted(range(tile_type * 4, tile_type * 4 + 4), key=lambda i: i in self._red)
        for tile_id in copies:
            if tile_id not in self._used:
                self._used.add(tile_id)
                return tile_id
        raise TileError(f"{type_name(tile_type)}: more than four of the same tile")

    def take_all(self, text: str) -> list[int]:
        """136 ids for every tile of ``text``."""
        return [self.take(t, red) for t, red in tile_types(text)]


def to_mpsz(tile_ids: list[int] | tuple[int, ...]) -> str:
    """136 ids as mpsz, sorted by suit and number, red fives as ``0``: ``[16, 17, 20]`` ->
    ``"056m"``."""
    groups: dict[str, list[str]] = {suit: [] for suit in SUITS}
    for tile_id in sorted(tile_ids, key=lambda i: (i // 4, i not in _RED_IDS)):
        kind = tile_id // 4
        suit = SUITS[kind // 9]
        groups[suit].append("0" if tile_id in _RED_IDS else str(kind % 9 + 1))
    return "".join("".join(digits) + suit for suit, digits in groups.items() if digits)
