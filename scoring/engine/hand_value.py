"""What a win is worth: basic points from han/fu or a limit, and the ron/tsumo payments.

Standard formula (rules-spec §0 [SK]): basic points b = fu x 2^(han+2), mangan when b > 2,000
or han >= 5 (b = 2,000), haneman 6-7 han (3,000), baiman 8-10 (4,000), sanbaiman from
``sanbaiman_han`` (6,000), counted yakuman from ``counted_yakuman_han`` (8,000), yakuman
8,000 per multiple up to ``yakuman_max``. A ron pays 4b (dealer winner 6b); a 4-player tsumo
pays 2b from the dealer and b from each other player (dealer winner: 2b from each). Every
payment is rounded up to ``payment_rounding`` (100, or 1,000 for seed 002, S-03 B). Points are
integers in points. The limits' names, basic points and han are the limit table's
(:mod:`scoring.engine.limits`).
"""

from __future__ import annotations

from typing import Any

from .errors import RecordError
from .hands import Win
from .limits import (
    LIMIT_BASIC_POINTS,
    LIMIT_TABLE,
    MANGAN_BASIC_POINTS,
    YAKUMAN_BASIC_POINTS,
    counted_limit,
)
from .ruleset import Ruleset

LEGAL_FU = frozenset((20, 25, *range(30, 111, 10)))
# Below this han a counted hand reaches no limit by its han alone (counted_limit's None).
MANGAN_HAN = LIMIT_TABLE[0].han


def basic_points(rs: Ruleset, han: int, fu: int) -> int:
    """Basic points b of a counted hand of ``han`` han and ``fu`` fu under ``rs``.

    Applies the limits and kiriage mangan (§45f of Makura; S(1) of seed 002). A counted hand of
    ``counted_yakuman_han`` or more is a single yakuman (M-21: it never combines). Does not
    validate ``fu``; see :func:`check_win`.
    """
    if han >= MANGAN_HAN:
        limit = counted_limit(
            han, sanbaiman_han=rs.sanbaiman_han, counted_yakuman_han=rs.counted_yakuman_han
        )
        if limit is not None:
            return limit.basic_points
    b = fu << (han + 2)  # counted_basic_points, written out: every win of a replay comes here
    if b >= MANGAN_BASIC_POINTS:
        return MANGAN_BASIC_POINTS
    # 1,920 is 30 fu 4 han or 60 fu 3 han.
    if b == 1920 and (rs.kiriage == "both" or (rs.kiriage == "4han30fu" and han == 4)):
        return MANGAN_BASIC_POINTS
    return b


def counted_basic_points(han: int, fu: int) -> int:
    """The formula alone, before any limit: b = fu x 2^(han+2) (rules-spec §0 [SK]). A hand
    below mangan is worth exactly this; :func:`basic_points` applies the limits."""
    return fu << (han + 2)


def win_basic_points(rs: Ruleset, win: Win) -> int:
    """Basic points of ``win`` (han/fu or limit); fixed-fu rulesets use ``rs.fixed_fu``."""
    if win.limit is not None:
        if win.limit == "yakuman":
            return YAKUMAN_BASIC_POINTS * min(win.yakuman, rs.yakuman_max)
        return LIMIT_BASIC_POINTS[win.limit]
    assert win.han is not None
    fu = win.fu if rs.fu_scoring and win.fu is not None else rs.fixed_fu
    return basic_points(rs, win.han, fu)


def round_up(points: int, unit: int) -> int:
    """``points`` rounded up to a multiple of ``unit`` (100 or 1,000)."""
    return -(-points // unit) * unit


def ron_value(rs: Ruleset, b: int, dealer_wins: bool) -> int:
    """What the discarder pays for a ron of basic points ``b`` (honba not included)."""
    unit = rs.payment_rounding
    return -(-(b * 6 if dealer_wins else b * 4) // unit) * unit  # round_up, written out


def tsumo_shares(rs: Ruleset, b: int, dealer_wins: bool) -> tuple[int, int]:
    """Tsumo payments for basic points ``b`` (honba not included).

    Returns ``(dealer_share, other_share)``: what the dealer pays and what each other payer
    pays for a non-dealer winner; for a dealer winner both are what each player pays. In
    3-player games with ``sanma_tsumo="north_split"`` each payer also pays half of the absent
    North's share, rounded up (X-01 b); with "tsumo_loss" that share is lost (X-01 a).
    """
    unit = rs.payment_rounding
    # round_up, written out in the two shares every tsumo of a replay pays.
    if dealer_wins:
        each = -(-2 * b // unit) * unit
        if rs.players == 3 and rs.sanma_tsumo == "north_split":
            each += round_up(each // 2, unit)
        return each, each
    dealer_share = -(-2 * b // unit) * unit
    other_share = -(-b // unit) * unit
    if rs.players == 3 and rs.sanma_tsumo == "north_split":
        half_absent = round_up(other_share // 2, unit)
        return dealer_share + half_absent, other_share + half_absent
    return dealer_share, other_share


class WinPrices:
    """What each value of a win pays under one ruleset, and whether the ruleset allows it:
    a ron's payment and a tsumo's shares, by whether the dealer wins, and the verdict of
    :func:`check_win`, each worked out the first time the value comes.

    A club's records hold few values of a win (the benchmark's 200 hanchans, 1,738 wins, hold
    12), and a replay checks and prices every win: each figure is :func:`ron_value` or
    :func:`tsumo_shares` of :func:`win_basic_points`, kept (at most ``MAX_VALUES`` of each,
    as a record may hold any han up to the values' bound). Get one by :func:`win_prices`.
    """

    __slots__ = ("ruleset", "_ron", "_tsumo", "_allowed", "_two_han_from")
    MAX_VALUES = 1024

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        # Keyed by the win's value and whether the dealer wins: (han, fu, limit, yakuman,
        # dealer_wins).
        self._ron: dict[tuple[int | str | bool | None, ...], int] = {}
        self._tsumo: dict[tuple[int | str | bool | None, ...], tuple[int, int]] = {}
        # The values check_win allowed, as (han, fu, limit, tsumo): its verdict depends on
        # nothing else, but from the honba of the two-han minimum (0: none).
        self._allowed: set[tuple[int | str | bool | None, ...]] = set()
        self._two_han_from = ruleset.two_han_minimum_from_honba

    def check(self, win: Win, i: int, tsumo: bool, honba: int) -> None:
        """:func:`check_win` of ``win``, the ``i``-th win of its hand, at ``honba`` honba,
        asked once per value (but at the honba of the two-han minimum).

        Raises:
            RecordError: as :func:`check_win`.
        """
        value = (win.han, win.fu, win.limit, tsumo)
        if value in self._allowed and (not self._two_han_from or honba < self._two_han_from):
            return
        check_win(self.ruleset, win, i, tsumo=tsumo, honba=honba)
        if len(self._allowed) >= self.MAX_VALUES:
            self._allowed.clear()
        self._allowed.add(value)

    def ron(self, win: Win, dealer_wins: bool) -> int:
        """:func:`ron_value` of ``win``'s basic points."""
        key = (win.han, win.fu, win.limit, win.yakuman, dealer_wins)
        value = self._ron.get(key)
        if value is None:
            value = ron_value(self.ruleset, win_basic_points(self.ruleset, win), dealer_wins)
            _keep(self._ron, key, value)
        return value

    def tsumo(self, win: Win, dealer_wins: bool) -> tuple[int, int]:
        """:func:`tsumo_shares` of ``win``'s basic points: (dealer's share, other's share)."""
        key = (win.han, win.fu, win.limit, win.yakuman, dealer_wins)
        shares = self._tsumo.get(key)
        if shares is None:
            shares = tsumo_shares(self.ruleset, win_basic_points(self.ruleset, win), dealer_wins)
            _keep(self._tsumo, key, shares)
        return shares


def _keep(kept: dict[Any, Any], key: Any, value: Any) -> None:
    """Keep ``value`` under ``key``, emptying ``kept`` first once it holds
    :attr:`WinPrices.MAX_VALUES` (a record may hold any han up to the values' bound)."""
    if len(kept) >= WinPrices.MAX_VALUES:
        kept.clear()
    kept[key] = value


# The prices of the rulesets last played, by identity (a Ruleset's hash reads its every
# field): id -> (the ruleset, kept so that its id is not reused while listed, its prices).
_PRICES: dict[int, tuple[Ruleset, WinPrices]] = {}
_MAX_RULESETS = 64


def win_prices(rs: Ruleset) -> WinPrices:
    """The :class:`WinPrices` of ``rs``, the same object for the same ruleset object (a
    built-in ruleset is one object; one with a game's overrides is one for that game)."""
    entry = _PRICES.get(id(rs))
    if entry is None or entry[0] is not rs:
        if len(_PRICES) >= _MAX_RULESETS:
            _PRICES.clear()
        entry = _PRICES[id(rs)] = (rs, WinPrices(rs))
    return entry[1]


def hand_payment(rs: Ruleset, *, han: int, fu: int, dealer: bool, tsumo: bool) -> tuple[int, int]:
    """Payment grid entry for ``han``/``fu`` (no honba, no deposits), for tables and benches.

    Returns the same shape as the ``mahjong`` package's ``ScoresCalculator`` (``main``,
    ``additional``): ron -> ``(ron_payment, 0)``; dealer tsumo -> ``(each, each)``;
    non-dealer tsumo -> ``(from_dealer, from_each_non_dealer)``.
    """
    b = basic_points(rs, han, fu)
    if tsumo:
        return tsumo_shares(rs, b, dealer)
    return ron_value(rs, b, dealer), 0


def legal_fu(rs: Ruleset, han: int, tsumo: bool) -> list[int]:
    """The fu values a ``han``-han ron or tsumo may carry under ``rs`` (empty: no fu entry).

    One rule for records, imports, replays and the table's value pad, so
    the pad never offers what the engine refuses:

    - 25 fu is chiitoitsu, always 2 han (Makura 1.5 §45c, seed 002 L112; rules-spec §1
      "Chiitoitsu"): at least 2 han on a ron, and at least 3 on a tsumo, which adds menzen
      tsumo (1 han, rules-spec §2 yaku tables) to the concealed hand.
    - 20 fu only on a tsumo of 2+ han (pinfu tsumo, Makura §45a) and only where
      ``pinfu_tsumo_20fu`` (not in seed 003, H-10).
    """
    if not rs.fu_scoring:
        return []
    return [fu for fu in sorted(LEGAL_FU) if not _fu_impossible(rs, han, fu, tsumo)]


# The only fu that some han (or a ron, or the ruleset) make impossible: _fu_impossible's.
_HAN_BOUND_FU = frozenset({20, 25})


def _fu_impossible(rs: Ruleset, han: int, fu: int, tsumo: bool) -> bool:
    if fu == 25:
        return han < (3 if tsumo else 2)
    if fu == 20:
        return not tsumo or han < 2 or not rs.pinfu_tsumo_20fu
    return False


def check_win(rs: Ruleset, win: Win, i: int, *, tsumo: bool, honba: int) -> None:
    """Check that ``win`` (the i-th win of a hand) is a value the ruleset allows.

    Raises:
        RecordError: with ``hand_index=None`` (the caller adds it) and key
            ``wins[i].<field>``: a fu the ruleset forbids (or any fu where it has none), a
            missing fu below mangan, too few han at high honba (seed 003 L106, H-22).
    """
    if win.limit is not None:
        return
    assert win.han is not None
    # The key's prefix (``wins[0]``) is written only for an error: most wins have none.
    if rs.two_han_minimum_from_honba and honba >= rs.two_han_minimum_from_honba and win.han < 2:
        raise RecordError(
            None,
            f"wins[{i}].han",
            f"2 han are needed from {rs.two_han_minimum_from_honba} honba",
            code="two_han_minimum",
            params={"from_honba": rs.two_han_minimum_from_honba, "honba": honba, "han": win.han},
        )
    if not rs.fu_scoring:
        if win.fu is not None and win.fu != rs.fixed_fu:
            raise RecordError(
                None,
                f"wins[{i}].fu",
                "this ruleset has no fu; leave fu out",
                code="fu_not_scored",
                params={"fu": win.fu, "fixed_fu": rs.fixed_fu},
            )
        return
    if win.fu is None:
        if win.han < 5:
            raise RecordError(
                None,
                f"wins[{i}].fu",
                "a hand below 5 han needs its fu",
                code="fu_needed",
                params={"han": win.han},
            )
        return
    if win.fu not in LEGAL_FU:
        raise RecordError(
            None,
            f"wins[{i}].fu",
            "must be 20-110 in steps of 10, or 25",
            code="fu_out_of_range",
            params={"fu": win.fu},
        )
    if win.fu in _HAN_BOUND_FU and _fu_impossible(rs, win.han, win.fu, tsumo):
        how = "tsumo" if tsumo else "ron"
        raise RecordError(
            None,
            f"wins[{i}].fu",
            f"{win.fu} fu is impossible for a {win.han}-han {how} here",
            code="fu_not_allowed",
            params={"han": win.han, "fu": win.fu, "win": how},
        )
