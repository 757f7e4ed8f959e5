"""The ``mahjong`` package's reading of a winning hand: its ``HandCalculator``
(validated by its authors on millions of Tenhou hands), configured from the ruleset: red
fives, open tanyao, kiriage, 20 fu for a pinfu tsumo, three players, kita as nuki dora, double
yakuman as the ruleset counts them. The clubs' own rules come on top
(:mod:`scoring.tiles.house_rules`).

Pure Python: no Django import.
"""

from __future__ import annotations

import re

from mahjong.constants import EAST, HATSU
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.yaku_config import YakuConfig
from mahjong.meld import Meld as PackageMeld

from scoring.engine import Ruleset

from .hand import WINDS, HandRefused, HandTiles, Meld, RawValue, Situation, Yaku


def _yaku_names() -> dict[int, str]:
    """The package's yaku ids to its own English ids (``YakuConfig`` attribute names)."""
    config = YakuConfig()
    return {yaku.yaku_id: name for name, yaku in vars(config).items()}


YAKU_NAMES = _yaku_names()


def options_for(ruleset: Ruleset) -> OptionalRules:
    """The package's optional rules that ``ruleset`` sets."""
    daisharin = "daisharin" in ruleset.local_yaku
    return OptionalRules(
        has_open_tanyao=ruleset.open_tanyao,
        has_aka_dora=True,
        # Every yakuman reads single here; a ruleset's double yakuman are the house rules'
        # (scoring.tiles.yakuman_rules).
        has_double_yakuman=False,
        kiriage=ruleset.kiriage != "none",
        fu_for_open_pinfu=True,
        # Pinfu on a tsumo is read at 20 fu; where 20 fu do not exist the house rules add the
        # tsumo fu (003 L608) or drop the pinfu.
        fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=ruleset.renhou == "yakuman",
        # 004 L56: daisharin is any chinitsu chiitoitsu, in every suit.
        has_daisharin=daisharin,
        has_daisharin_other_suits=daisharin,
        is_three_player=ruleset.players == 3,
        limit_to_sextuple_yakuman=True,
    )


def package_config(ruleset: Ruleset, tiles: HandTiles, situation: Situation) -> HandConfig:
    """The ``mahjong`` package's ``HandConfig`` for this win: the situation's flags and
    winds, ``ruleset``'s options (:func:`options_for`) and the kita (nukidora) count.

    A rinshan win on the last tile is read as rinshan alone where the two never
    stack (``rinshan_haitei``, 002 K(7) L72, 004 L108); an open double riichi as double
    riichi alone where riichi kinds never combine (``riichi_kinds_combine``, Makura 1.3
    §44d L380); ryuuiisou without hatsu is no ryuuiisou where hatsu is needed (003 L557).
    """
    haitei = situation.haitei
    if haitei and situation.rinshan and ruleset.rinshan_haitei == "rinshan_only":
        haitei = False
    open_riichi = situation.open_riichi
    if open_riichi and situation.double_riichi and not ruleset.riichi_kinds_combine:
        open_riichi = False
    config = HandConfig(
        is_tsumo=situation.tsumo,
        is_riichi=situation.riichi or situation.double_riichi or situation.open_riichi,
        is_ippatsu=situation.ippatsu,
        is_rinshan=situation.rinshan,
        is_chankan=situation.chankan,
        is_haitei=haitei,
        is_houtei=situation.houtei,
        is_daburu_riichi=situation.double_riichi,
        is_open_riichi=open_riichi,
        is_tenhou=situation.tenhou,
        is_chiihou=situation.chiihou,
        is_renhou=situation.renhou,
        player_wind=EAST + WINDS.index(situation.seat_wind),
        round_wind=EAST + WINDS.index(situation.round_wind),
        options=options_for(ruleset),
        num_nuki_dora=tiles.kita,
    )
    if ruleset.ryuuiisou_needs_hatsu and not any(
        t // 4 == HATSU for t in (*tiles.concealed, *(t for m in tiles.melds for t in m.tiles))
    ):
        # The package's own YakuConfig per config: its ryuuiisou is never met here.
        config.yaku.ryuisou.is_condition_met = _never  # type: ignore[method-assign]
    return config


def _never(*_args: object, **_kwargs: object) -> bool:
    return False


def package_reading(
    ruleset: Ruleset,
    tiles: HandTiles,
    situation: Situation,
    *,
    closed_pungs: tuple[tuple[int, ...], ...] = (),
) -> RawValue:
    """The package's reading of the hand under ``ruleset``'s options, before house rules.

    Raises:
        HandRefused: what the package itself refuses (``hand_not_winning``, ``no_yaku``,
            ``winning_tile_not_in_hand``, a situation the tiles contradict), or renhou where
            the ruleset has none (``no_renhou``).

    ``closed_pungs``: concealed pungs (136 ids, among ``tiles.concealed``) the reading must
    keep as pungs (a local yaku of pungs, 004 L61).
    """
    if situation.renhou and ruleset.renhou == "none":
        raise HandRefused("no_renhou", "the ruleset has no renhou")
    melds = [package_meld(m) for m in tiles.melds]
    melds += [
        PackageMeld(meld_type=PackageMeld.PON, tiles=list(p), opened=False) for p in closed_pungs
    ]
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
    if response.error:
        raise HandRefused(response.error, _REFUSALS.get(response.error, response.error))
    assert response.fu is not None and response.yaku is not None
    opened = bool(response.is_open_hand)
    yaku = tuple(
        Yaku(_yaku_name(y.yaku_id, y.name), y.han_open if opened else y.han_closed)
        for y in response.yaku
    )
    return RawValue(
        yaku=yaku,
        yakuman_names=frozenset(
            _yaku_name(y.yaku_id, y.name) for y in response.yaku if y.is_yakuman
        ),
        fu=response.fu,
        fu_details=tuple((d["reason"], d["fu"]) for d in response.fu_details or ()),
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


def _yaku_name(yaku_id: int, name: str) -> str:
    """Our id of the package's yaku ``yaku_id``: its ``YakuConfig`` name, or for a yaku
    a later package adds, its English ``name`` in snake case. (Looked up first: the
    regular expression was a tenth of a valuation when it ran for every yaku.)"""
    known = YAKU_NAMES.get(yaku_id)
    return known if known is not None else re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def package_meld(meld: Meld) -> PackageMeld:
    """``meld`` as the ``mahjong`` package's ``Meld``."""
    kind = {
        "chi": PackageMeld.CHI,
        "pon": PackageMeld.PON,
        "kan": PackageMeld.KAN,
        "ankan": PackageMeld.KAN,
    }[meld.kind]
    return PackageMeld(meld_type=kind, tiles=list(meld.tiles), opened=meld.kind != "ankan")
