"""Tiles in mpsz notation (``"234m067p11z"``), as the hand-value contract writes them, to the
``mahjong`` package's 136-tile ids (issue 13).

A tile type is 0–33: 1m–9m, 1p–9p, 1s–9s, then 1z–7z (East, South, West, North, haku, hatsu,
chun). Each type has four copies, ids ``type * 4 + copy``. ``0`` in mpsz is a red five; the
red five of each suit is copy 0 of its five (ids 16, 52 and 88, the package's
``FIVE_RED_*``), so a plain ``5`` takes that copy only as its fourth. One :class:`TileSet`
hands out the copies of a whole hand (concealed tiles, melds, winning tile), so a hand never
holds a fifth copy of a tile nor two red fives of a suit.
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


class TileSet:
    """The copies handed out so far in one hand: each call takes the next free copy."""

    def __init__(self) -> None:
        self._used: set[int] = set()

    def take(self, tile_type: int, red: bool) -> int:
        """A free copy of ``tile_type`` (the red five when ``red``), as a 136 id.

        Raises:
            TileError: the hand already has four of the tile, or the red five twice.
        """
        suit = SUITS[tile_type // 9]
        if red:
            tile_id = RED_FIVES[suit]
            if tile_id in self._used:
                raise TileError(f"0{suit}: a hand has one red five of each suit")
            self._used.add(tile_id)
            return tile_id
        # Plain fives leave the red copy for last: a fourth plain five exists only in a set
        # without red fives, where that copy is an ordinary five.
        copies = sorted(range(tile_type * 4, tile_type * 4 + 4), key=lambda i: i in _RED_IDS)
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
