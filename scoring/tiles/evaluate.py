"""A winning hand's han, fu and yaku from its tiles, under a built-in ruleset (issue 13).

Built on the ``mahjong`` package's ``HandCalculator`` (validated by its authors on millions of
Tenhou hands), configured from the ruleset: red fives, open tanyao, kiriage, 20 fu for a
pinfu tsumo, three players, kita as nuki dora, double yakuman as the ruleset counts them.
The payment is the engine's (``scoring.engine``): this module gives the hand's value the
club record takes (``han``/``fu`` or a limit), never points of its own.

Pure Python: no Django import. Tile ids are the package's 136 ids
(:mod:`scoring.tiles.notation`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.yaku_config import YakuConfig
from mahjong.meld import Meld as PackageMeld

from scoring.engine import Ruleset, basic_points

MELD_KINDS = ("chi", "pon", "kan", "ankan")
WINDS = "ESWN"
_LIMIT_OF_BASIC = {2000: "mangan", 3000: "haneman", 4000: "baiman", 6000: "sanbaiman"}


def _yaku_names() -> dict[int, str]:
    """The package's yaku ids to its own English ids (``YakuConfig`` attribute names)."""
    config = YakuConfig()
    return {yaku.yaku_id: name for name, yaku in vars(config).items()}


YAKU_NAMES = _yaku_names()


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
    set aside (3-player nuki dora)."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    dora_indicators: tuple[int, ...] = ()
    ura_indicators: tuple[int, ...] = ()
    kita: int = 0


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
        """The ``hand_value`` contract's answer (issue 13, item 2)."""
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


def options_for(ruleset: Ruleset) -> OptionalRules:
    """The package's optional rules that ``ruleset`` sets."""
    daisharin = "daisharin" in ruleset.local_yaku
    return OptionalRules(
        has_open_tanyao=ruleset.open_tanyao,
        has_aka_dora=True,
        # Tenhou counts each yakuman once (composites add up); no yakuman is double by itself.
        has_double_yakuman=False,
        kiriage=ruleset.kiriage != "none",
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=not ruleset.pinfu_tsumo_20fu,
        renhou_as_yakuman=ruleset.renhou == "yakuman",
        # 004 L56: daisharin is any chinitsu chiitoitsu, in every suit.
        has_daisharin=daisharin,
        has_daisharin_other_suits=daisharin,
        is_three_player=ruleset.players == 3,
        limit_to_sextuple_yakuman=True,
    )


@dataclass(frozen=True, slots=True)
class RawValue:
    """The yaku (with han) and fu of a hand before the limits: what the house rules
    (:mod:`scoring.tiles.house_rules`) adjust."""

    yaku: tuple[Yaku, ...]
    yakuman_names: frozenset[str]
    fu: int
    fu_details: tuple[tuple[str, int], ...]


def evaluate(
    ruleset: Ruleset, tiles: HandTiles, situation: Situation, *, honba: int = 0
) -> HandValue:
    """The value of a winning hand under ``ruleset``, its house rules applied
    (:mod:`scoring.tiles.house_rules`); ``honba`` for a ruleset's 2-han minimum.

    Raises:
        HandRefused: no winning hand, no yaku, the winning tile not in the hand, a situation
            the tiles contradict (riichi with an open hand, ...), or a hand the ruleset does
            not allow (atozuke where forbidden, below its han minimum, renhou where there is
            none).
    """
    from scoring.tiles import house_rules

    raw = evaluate_raw(ruleset, tiles, situation)
    raw = house_rules.adjust(ruleset, tiles, situation, raw)
    value = finish(ruleset, raw)
    house_rules.check(ruleset, tiles, situation, value, honba=honba)
    return value


def package_config(ruleset: Ruleset, tiles: HandTiles, situation: Situation) -> HandConfig:
    """The ``mahjong`` package's ``HandConfig`` for this win: the situation's flags and
    winds, ``ruleset``'s options (:func:`options_for`) and the kita (nukidora) count."""
    return HandConfig(
        is_tsumo=situation.tsumo,
        is_riichi=situation.riichi or situation.double_riichi or situation.open_riichi,
        is_ippatsu=situation.ippatsu,
        is_rinshan=situation.rinshan,
        is_chankan=situation.chankan,
        is_haitei=situation.haitei,
        is_houtei=situation.houtei,
        is_daburu_riichi=situation.double_riichi,
        is_open_riichi=situation.open_riichi,
        is_tenhou=situation.tenhou,
        is_chiihou=situation.chiihou,
        is_renhou=situation.renhou,
        player_wind=EAST + WINDS.index(situation.seat_wind),
        round_wind=EAST + WINDS.index(situation.round_wind),
        options=options_for(ruleset),
        num_nuki_dora=tiles.kita,
    )


def evaluate_raw(ruleset: Ruleset, tiles: HandTiles, situation: Situation) -> RawValue:
    """The package's reading of the hand under ``ruleset``'s options, before house rules.

    Raises:
        HandRefused: as :func:`evaluate`, for what the package itself refuses.
    """
    from scoring.tiles import house_rules

    if situation.renhou and ruleset.renhou == "none":
        raise HandRefused("no_renhou", "the ruleset has no renhou")
    melds = [package_meld(m) for m in tiles.melds]
    all_tiles = list(tiles.concealed) + [t for m in tiles.melds for t in m.tiles]
    config = package_config(ruleset, tiles, situation)
    response = HandCalculator().estimate_hand_value(
        all_tiles,
        tiles.win_tile,
        melds=melds,
        dora_indicators=list(tiles.dora_indicators),
        ura_dora_indicators=list(tiles.ura_indicators),
        config=config,
    )
    if response.error == "hand_not_winning" and ruleset.chiitoitsu_four_of_a_kind:
        quad = house_rules.chiitoitsu_with_four(ruleset, tiles, situation)
        if quad is not None:
            return quad
    if response.error:
        raise HandRefused(response.error, _REFUSALS.get(response.error, response.error))
    assert response.fu is not None and response.yaku is not None
    opened = bool(response.is_open_hand)
    yaku = tuple(
        Yaku(YAKU_NAMES.get(y.yaku_id, _snake(y.name)), y.han_open if opened else y.han_closed)
        for y in response.yaku
    )
    return RawValue(
        yaku=yaku,
        yakuman_names=frozenset(
            YAKU_NAMES.get(y.yaku_id, _snake(y.name)) for y in response.yaku if y.is_yakuman
        ),
        fu=response.fu,
        fu_details=tuple((d["reason"], d["fu"]) for d in response.fu_details or ()),
    )


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
        limit = _LIMIT_OF_BASIC.get(basic_points(ruleset, han, raw.fu))
    return HandValue(
        han=han,
        fu=raw.fu,
        yaku=yaku,
        yakuman=yakuman,
        limit=limit,
        fu_details=raw.fu_details,
    )


_REFUSALS = {
    "no_yaku": "the hand has no yaku",
    "hand_not_winning": "the tiles are not a winning hand",
    "winning_tile_not_in_hand": "the winning tile is not in the hand",
    "open_hand_riichi_not_allowed": "riichi with an open hand",
    "open_hand_daburi_not_allowed": "double riichi with an open hand",
    "ippatsu_without_riichi_not_allowed": "ippatsu without riichi",
    "chankan_with_tsumo_not_allowed": "chankan is a ron",
    "rinshan_without_tsumo_not_allowed": "rinshan kaihou is a tsumo",
    "haitei_without_tsumo_not_allowed": "haitei is a tsumo",
    "houtei_with_tsumo_not_allowed": "houtei is a ron",
    "haitei_with_rinshan_not_allowed": "haitei and rinshan together",
    "houtei_with_chankan_not_allowed": "houtei and chankan together",
    "tenhou_not_as_dealer_not_allowed": "tenhou is the dealer's",
    "tenhou_without_tsumo_not_allowed": "tenhou is a tsumo",
    "tenhou_with_meld_not_allowed": "tenhou with a call",
    "chiihou_as_dealer_not_allowed": "chiihou is a non-dealer's",
    "chiihou_without_tsumo_not_allowed": "chiihou is a tsumo",
    "chiihou_with_meld_not_allowed": "chiihou with a call",
    "renhou_as_dealer_not_allowed": "renhou is a non-dealer's",
    "renhou_with_tsumo_not_allowed": "renhou is a ron",
    "renhou_with_meld_not_allowed": "renhou with a call",
}


def _snake(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def package_meld(meld: Meld) -> PackageMeld:
    """``meld`` as the ``mahjong`` package's ``Meld``."""
    kind = {
        "chi": PackageMeld.CHI,
        "pon": PackageMeld.PON,
        "kan": PackageMeld.KAN,
        "ankan": PackageMeld.KAN,
    }[meld.kind]
    return PackageMeld(meld_type=kind, tiles=list(meld.tiles), opened=meld.kind != "ankan")
