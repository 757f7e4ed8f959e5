"""The engine's facts per seat, as the ledger stores them for standings to add up.

Two kinds: per seat per hand (:class:`SeatFacts`, stored as ``HandSeat`` rows) and per seat
per finished game (:func:`settlement_facts`: bust and last place, stored on ``Seat``). Both
are derived here once, when a change is written, so that standings, champions and player
statistics are plain sums and counts over columns: no JSON paths, no rules re-derived.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.engine import Ruleset, Settlement
from scoring.engine.settlement import is_bust

# Payments that are the value of a win (honba and deposits are not).
WIN_VALUE_REASONS = frozenset({"ron", "tsumo", "pao", "rinshan"})


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """One seat's part in one hand. ``delta`` and ``win_value`` in points.

    ``won``: a ron or tsumo winner (each winner of a multi-ron; nagashi is a draw, not a
    win); ``tsumo``: won by tsumo; ``dealt_in``: discarded the winning tile of a ron;
    ``riichi``: put a riichi stick out; ``chombo``: committed this hand's chombo;
    ``win_value``: points received as the value of wins (ron, tsumo, pao and rinshan
    payments; honba and deposits left out); ``tenpai``: listed tenpai at an exhaustive draw
    (``draw``, nagashi included; an abortive draw's ``tenpai`` is recorded only where a
    ruleset needs it, so it is not kept); ``deal_in_value``: what the discarder of a ron
    paid as the value of the wins (its ``ron`` payments: the discarder's half under pao,
    both winners' values in a multi-ron; honba left out); ``fed_by``: on a ron winner's
    row, the seat that dealt in to this win (so a multi-ron names its discarder once per
    winner).
    """

    seat: int
    outcome: str
    dealer: bool
    delta: int
    won: bool
    tsumo: bool
    dealt_in: bool
    riichi: bool
    chombo: bool
    win_value: int
    tenpai: bool = False
    deal_in_value: int = 0
    fed_by: int | None = None


def hand_facts(data: Mapping[str, Any], result: Mapping[str, Any]) -> list[SeatFacts]:
    """Per-seat facts of one stored hand.

    Args:
        data: the record-format hand as stored (``HandEntry.data``, ``Hand.to_json()``).
        result: the engine's result as stored (``HandEntry.result``, see
            :func:`scoring.ledger.stored.hand_result_json`).

    Returns:
        One :class:`SeatFacts` per seat, in seat order.
    """
    outcome = str(data["result"])
    wins = data.get("wins", ()) if outcome in ("ron", "tsumo") else ()
    winners = {int(w["winner"]) for w in wins}
    riichi = set(data.get("riichi", ()))
    loser = data.get("loser") if outcome == "ron" else None
    offender = data.get("offender") if outcome == "chombo" else None
    if offender is None and isinstance(data.get("chombo"), dict):
        # A chombo paid after the hand's win or draw (the record format's extension, H-18).
        offender = data["chombo"]["offender"]
    tenpai = set(data.get("tenpai", ())) if outcome == "draw" else set()
    win_value = [0] * len(result["deltas"])
    deal_in_value = 0
    for payment in result.get("payments", ()):
        payee = payment["payee"]
        if payee is not None and payee in winners and payment["reason"] in WIN_VALUE_REASONS:
            win_value[payee] += int(payment["amount"])
            if payment["reason"] == "ron" and payment["payer"] == loser:
                deal_in_value += int(payment["amount"])
    dealer = int(result["dealer"])
    return [
        SeatFacts(
            seat=seat,
            outcome=outcome,
            dealer=seat == dealer,
            delta=int(delta),
            won=seat in winners,
            tsumo=seat in winners and outcome == "tsumo",
            dealt_in=seat == loser,
            riichi=seat in riichi,
            chombo=seat == offender,
            win_value=win_value[seat],
            tenpai=seat in tenpai,
            deal_in_value=deal_in_value if seat == loser else 0,
            fed_by=loser if seat in winners and loser is not None else None,
        )
        for seat, delta in enumerate(result["deltas"])
    ]


@dataclass(frozen=True, slots=True)
class SettlementFacts:
    """Per seat, in seat order: ``busted`` (the game ended by tobi and this final score is
    bust under the game's rules) and ``last_place`` (finished last at the table)."""

    busted: tuple[bool, ...]
    last_place: tuple[bool, ...]


def settlement_facts(ruleset: Ruleset, settlement: Settlement) -> SettlementFacts:
    """Bust and last place per seat of a finished game, under the rules it was played by
    (``is_bust``: below 0, or at 0 where ``tobi_at_zero``; rules-spec §1, 002-004)."""
    return SettlementFacts(
        busted=tuple(busted_seats(ruleset, settlement.ended_by, settlement.scores)),
        last_place=tuple(rank == ruleset.players for rank in settlement.ranks),
    )


def busted_seats(ruleset: Ruleset, ended_by: str, scores: Sequence[int]) -> list[bool]:
    """Per seat, whether the final ``scores`` (points) are bust in a game that ended
    ``ended_by`` ``"tobi"``: the engine's ``is_bust`` under the game's ruleset. Also what the
    migration that first stored the facts reads old rows with."""
    return [ended_by == "tobi" and is_bust(ruleset, score) for score in scores]


# The yakuman among the yaku names a win may carry (the ``mahjong`` package's ids, Tenhou's
# double forms, and "yakuman" for one entered without its yaku).
YAKUMAN_NAMES = frozenset(
    {
        "kokushi", "daburu_kokushi", "chuuren_poutou", "daburu_chuuren_poutou", "suuankou",
        "suuankou_tanki", "daisangen", "shosuushi", "daisuushi", "ryuisou", "suukantsu",
        "tsuisou", "chinroto", "daisharin", "daichisei", "tenhou", "chiihou",
        "renhou_yakuman", "sashikomi", "paarenchan", "yakuman",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class YakuFact:
    """One yaku of one win: the winner's ``seat``, the yaku ``name``, its ``han``."""

    seat: int
    name: str
    han: int
    yakuman: bool


def yaku_facts(data: Mapping[str, Any]) -> list[YakuFact]:
    """The yaku of a stored hand's wins: each win's ``yaku`` with a han,
    or one ``yakuman`` (13 a multiple) for a yakuman entered without them."""
    facts = []
    for win in data.get("wins", []):
        seat = win["winner"]
        named = [y for y in win.get("yaku", []) if y["han"] > 0]
        if named:
            facts += [
                YakuFact(seat, y["name"], y["han"], y["name"] in YAKUMAN_NAMES) for y in named
            ]
        elif win.get("limit") == "yakuman":
            facts.append(YakuFact(seat, "yakuman", 13 * win.get("yakuman", 1), True))
    return facts
