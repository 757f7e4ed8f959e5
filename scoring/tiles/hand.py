"""A winning hand as plain data: its tiles, how it was won, and its value.

Pure Python: no Django import. Tile ids are the ``mahjong`` package's 136 ids
(:mod:`scoring.tiles.notation`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.engine import Ruleset
from scoring.engine.local_yaku import LOCAL_YAKU

MELD_KINDS = ("chi", "pon", "kan", "ankan")
WINDS = "ESWN"


class HandRefused(ValueError):
    """A hand the ruleset does not allow, or that is no winning hand.

    ``reason`` is a stable snake_case name (``no_yaku``, ``hand_not_winning``,
    ``winning_tile_not_in_hand``, ...); ``str(error)`` one English sentence.
    """

    def __init__(self, reason: str, message: str) -> None:
        self.reason = reason
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Meld:
    """A call: ``kind`` one of :data:`MELD_KINDS` (``kan`` an open kan, called or added),
    ``tiles`` its 136 ids (four for a kan)."""

    kind: str
    tiles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandTiles:
    """The tiles of a win: ``concealed`` (the winning tile included), ``melds``,
    ``win_tile`` (one of ``concealed``), dora and ura dora indicators, ``kita`` north tiles
    set aside (3-player nuki dora), ``flowers`` flower tiles set aside (004 L27, nuki dora);
    ``stand_in`` the id a drawn 白ポッチ was replaced by, the tile it stands for (004 L39;
    no red nor gold five, whatever its copy), or ``None``."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    dora_indicators: tuple[int, ...] = ()
    ura_indicators: tuple[int, ...] = ()
    kita: int = 0
    flowers: int = 0
    stand_in: int | None = None


@dataclass(frozen=True, slots=True)
class Situation:
    """How the hand was won: tsumo or ron, the situational yaku, seat and round wind
    (``"E"``…``"N"``)."""

    tsumo: bool = False
    riichi: bool = False
    ippatsu: bool = False
    double_riichi: bool = False
    open_riichi: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    seat_wind: str = "E"
    round_wind: str = "E"


@dataclass(frozen=True, slots=True)
class Yaku:
    """One yaku of a hand: its id (the ``mahjong`` package's English name in lower snake
    case, e.g. ``riichi``, ``dora``) and its han as counted for this hand."""

    name: str
    han: int


@dataclass(frozen=True, slots=True)
class HandValue:
    """A hand's value: ``han`` (dora, red fives, ura dora and kita included, as the record's
    ``han``), ``fu`` (the hand's fu, even above mangan), ``yaku`` (dora among them),
    ``yakuman`` (the multiple; 0 for a hand that is not one, 1 for a counted yakuman),
    ``limit`` (``mangan``…``yakuman`` or ``None``), ``fu_details`` (reason, fu) pairs."""

    han: int
    fu: int
    yaku: tuple[Yaku, ...]
    yakuman: int
    limit: str | None
    fu_details: tuple[tuple[str, int], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The ``hand_value`` contract's answer."""
        return {
            "han": self.han,
            "fu": self.fu,
            "yaku": [{"name": y.name, "han": y.han} for y in self.yaku],
            "yakuman": self.yakuman,
            "limit": self.limit,
        }

    def record_value(self, ruleset: Ruleset) -> dict[str, Any]:
        """The win's value keys in a club record under ``ruleset``: ``han`` and ``fu`` (no
        ``fu`` where the ruleset has none), or ``limit`` (and ``yakuman``) for a yakuman."""
        if self.yakuman:
            return {"limit": "yakuman", "yakuman": self.yakuman}
        if not ruleset.fu_scoring:
            return {"han": self.han}
        return {"han": self.han, "fu": self.fu}


@dataclass(frozen=True, slots=True)
class RawValue:
    """The yaku (with han) and fu of a hand before the limits: what the house rules
    (:mod:`scoring.tiles.house_rules`) adjust."""

    yaku: tuple[Yaku, ...]
    yakuman_names: frozenset[str]
    fu: int
    fu_details: tuple[tuple[str, int], ...]


def local_yaku(name: str, tiles: HandTiles) -> Yaku:
    """The local yaku ``name`` of a hand of ``tiles``, with its han in the engine's table
    (:data:`scoring.engine.local_yaku.LOCAL_YAKU`) as the hand is closed (closed kans
    only) or open."""
    closed = all(meld.kind == "ankan" for meld in tiles.melds)
    return Yaku(name, LOCAL_YAKU[name].han(closed=closed))
