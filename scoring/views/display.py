"""What the ledger pages show, formatted for people: round labels in the usual Japanese style,
hand summaries ("ロン 馬場←千葉 3飜30符 3,900"), deltas with signs, settlement in thousands.

Everything here reads numbers the engine computed (stored results, or a preview's
``HandResult``); nothing is worked out but the text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from clubsite.formatting import MINUS, format_points, signed_points
from scoring.rulebook.hand_labels import (
    ABORT_LABELS,
    LIMIT_LABELS,
    PENALTY_LABELS,
    RESULT_LABELS,
    SEAT_WINDS,
    fu_label,
    han_label,
    yakuman_label,
)

# The ledger's pages take it from here with the rest of what they show.
from scoring.rulebook.hand_labels import PAYMENT_REASONS as PAYMENT_REASONS
from scoring.rulebook.names import game_ruleset_title as game_ruleset_title
from scoring.rulebook.names import ruleset_title as ruleset_title

ROUND_WINDS: dict[str, Promise] = {
    "E": pgettext_lazy("round wind", "East"),
    "S": pgettext_lazy("round wind", "South"),
    "W": pgettext_lazy("round wind", "West"),
    "N": pgettext_lazy("round wind", "North"),
}
NAGASHI_LABELS: dict[str, Promise] = {
    "mangan": gettext_lazy("Nagashi mangan"),
    "baiman": gettext_lazy("Nagashi baiman"),
    "yakuman": gettext_lazy("Nagashi yakuman"),
}
RANK_LABELS: dict[int, Promise] = {
    1: gettext_lazy("1st"),
    2: gettext_lazy("2nd"),
    3: gettext_lazy("3rd"),
    4: gettext_lazy("4th"),
}
# Values of a win that go to the winner as the hand's price (honba and deposits aside).
_VALUE_REASONS = frozenset({"ron", "tsumo", "pao", "rinshan"})


def round_label(code: str) -> str:
    """ "E1" -> "東1局" (Japanese) / "East 1"; an unknown code is shown as it is."""
    wind = ROUND_WINDS.get(code[:1])
    if wind is None or not code[1:].isdigit():
        return code
    return _("%(wind)s %(number)s") % {"wind": wind, "number": code[1:]}


def honba_label(honba: int) -> str:
    return _("%(n)d honba") % {"n": honba}


def signed_count(count: int) -> str:
    """Chips or ep: "+3", "−2", "0"."""
    if count > 0:
        return f"+{count}"
    return f"{MINUS}{-count}" if count < 0 else "0"


def sign_class(points: int) -> str:
    return "plus" if points > 0 else "minus" if points < 0 else "zero"


def ended_by_label(ended_by: str, last_round: str) -> str:
    """Why the game ended, e.g. "南4局終了", "トビ終了", "アガリやめ"."""
    if ended_by == "last_hand":
        return _("Ended after %(round)s") % {"round": round_label(last_round)}
    labels = {
        "tobi": _("Ended by a bust (tobi)"),
        "agari_yame": _("Agari-yame: the dealer stopped after winning"),
        "tenpai_yame": _("Tenpai-yame: the dealer stopped when tenpai"),
        "dealer_top": _("Ended with the dealer on top"),
        "final_scores": _("Entered as final scores only"),
        "time_up": _("Time was called: the game ended after this hand"),
    }
    return labels.get(ended_by, ended_by)


@dataclass(frozen=True)
class Cell:
    """A signed number and its sign ("plus", "minus", "zero") for colouring."""

    text: str
    sign: str

    @classmethod
    def delta(cls, points: int) -> Cell:
        return cls(signed_points(points), sign_class(points))


@dataclass(frozen=True)
class SeatScore:
    """One seat of :class:`TableScores`: its name, score, wind and whether it deals."""

    index: int
    name: str
    score: str
    wind: str
    is_dealer: bool


@dataclass(frozen=True)
class TableScores:
    """The table before the next hand: round, honba, deposits and each seat's score."""

    round: str
    honba: str
    honba_count: int
    deposits: str
    deposits_points: int
    seats: list[SeatScore]

    @classmethod
    def of(cls, table: Mapping[str, Any], names: Sequence[str]) -> TableScores:
        n = len(names)
        dealer = table["dealer"]
        return cls(
            round=round_label(table["round"]),
            honba=honba_label(table["honba"]),
            honba_count=table["honba"],
            deposits=format_points(table["deposits"]),
            deposits_points=table["deposits"],
            seats=[
                SeatScore(
                    index=seat,
                    name=names[seat],
                    score=format_points(table["scores"][seat]),
                    wind=str(SEAT_WINDS[(seat - dealer) % n]),
                    is_dealer=seat == dealer,
                )
                for seat in range(n)
            ],
        )


@dataclass(frozen=True)
class PaymentLine:
    """ "千葉 → 馬場 3,900 (ロン)": ``payer``/``payee`` are names or "the table"."""

    payer: str
    payee: str
    amount: str
    reason: str


def payment_lines(payments: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[PaymentLine]:
    """The payments as the table reads them. A draw's noten payments are one line a noten
    player, what they pay in all to the tenpai players named together ("1,500" each at a
    two-tenpai draw, as the rules say it and as sticks can pay it, not four lines of 750)."""
    table = _("Table")
    lines: list[PaymentLine] = []
    noten: dict[int, list[Mapping[str, Any]]] = {}
    for p in payments:
        if p["reason"] == "noten" and p["payer"] is not None and p["payee"] is not None:
            if p["payer"] not in noten:
                noten[p["payer"]] = []
                lines.append(PaymentLine("", "", "", ""))  # its place, filled below
            noten[p["payer"]].append(p)
            continue
        lines.append(
            PaymentLine(
                payer=table if p["payer"] is None else names[p["payer"]],
                payee=table if p["payee"] is None else names[p["payee"]],
                amount=format_points(p["amount"]),
                reason=str(PAYMENT_REASONS.get(p["reason"], p["reason"])),
            )
        )
    grouped = iter(noten.items())
    return [line if line.payer else _noten_line(*next(grouped), names=names) for line in lines]


def net_payment_lines(
    payments: Sequence[Mapping[str, Any]], names: Sequence[str]
) -> list[PaymentLine]:
    """What changes hands, as the confirm bar says it in one glance: each
    payer and payee once, in the order first paid (a ron's value and its honba one amount),
    and a winner's own riichi stick, put out this hand and taken back with the deposits, not
    shown going to the table and back (the two cancel; what the table pays beyond it is
    shown). ``payments``: the engine's, seats as indexes, ``None`` the table. A draw's noten
    payments stay as :func:`payment_lines` groups them. The reasons are left to the list of
    payments above the bar."""
    if any(p["reason"] == "noten" for p in payments):
        return payment_lines(payments, names)
    flows: dict[tuple[int | None, int | None], int] = {}
    for p in payments:
        key = (p["payer"], p["payee"])
        flows[key] = flows.get(key, 0) + int(p["amount"])
    for (payer, payee), amount in list(flows.items()):
        back = flows.get((None, payer), 0) if payer is not None and payee is None else 0
        if back:
            returned = min(amount, back)
            flows[(payer, None)] -= returned
            flows[(None, payer)] -= returned
    table = _("Table")
    return [
        PaymentLine(
            payer=table if payer is None else names[payer],
            payee=table if payee is None else names[payee],
            amount=format_points(amount),
            reason="",
        )
        for (payer, payee), amount in flows.items()
        if amount
    ]


def _noten_line(payer: int, paid: list[Mapping[str, Any]], *, names: Sequence[str]) -> PaymentLine:
    return PaymentLine(
        payer=names[payer],
        payee=", ".join(names[p["payee"]] for p in paid),
        amount=format_points(sum(int(p["amount"]) for p in paid)),
        reason=str(PAYMENT_REASONS.get("noten", "noten")),
    )


@dataclass(frozen=True)
class SeatChange:
    name: str
    delta: Cell
    score: str


@dataclass(frozen=True)
class NextHand:
    """What the table will be after a hand: the next ``round`` and
    ``honba``, its ``dealer`` and whether that is the same dealer again (``renchan``), and
    the riichi ``deposits`` waiting on the table."""

    round: str
    honba: str
    dealer: str
    renchan: bool
    deposits: str

    @classmethod
    def of(
        cls, before: Mapping[str, Any], after: Mapping[str, Any], names: Sequence[str]
    ) -> NextHand:
        return cls(
            round=round_label(after["round"]),
            honba=honba_label(after["honba"]),
            dealer=names[after["dealer"]],
            renchan=after["dealer"] == before["dealer"],
            deposits=format_points(after["deposits"]),
        )


@dataclass(frozen=True)
class FinalLine:
    """A seat's line of the settlement a hand leads to: rank, name, final score, points."""

    rank: str
    name: str
    score: str
    points: Cell


@dataclass(frozen=True)
class Preview:
    """What a hand will do, from the engine: who pays whom, each seat's change and score;
    then either the ``next`` hand or, when the hand ends the game, how (``ends``) and the
    ``final`` settlement."""

    payments: list[PaymentLine]
    seats: list[SeatChange]
    deposits_after: str
    ends: str
    next: NextHand | None = None
    final: list[FinalLine] | None = None
    # The confirm bar's line: the payments netted (:func:`net_payment_lines`).
    summary: list[PaymentLine] = field(default_factory=list)

    @classmethod
    def of(
        cls,
        result: Mapping[str, Any],
        names: Sequence[str],
        ended_by: str | None,
    ) -> Preview:
        return cls(
            payments=payment_lines(result["payments"], names),
            seats=[
                SeatChange(names[s], Cell.delta(result["deltas"][s]), format_points(score))
                for s, score in enumerate(result["scores"])
            ],
            deposits_after=format_points(result["deposits_after"]),
            ends="" if ended_by is None else ended_by_label(ended_by, result["round"]),
            summary=net_payment_lines(result["payments"], names),
        )


def _value_text(win: Mapping[str, Any], fu_scoring: bool) -> str:
    limit = win.get("limit")
    if limit == "yakuman":
        return yakuman_label(win.get("yakuman", 1))
    if limit is not None:
        return str(LIMIT_LABELS.get(limit, limit))
    if fu_scoring and win.get("fu") is not None:
        return _("%(han)s %(fu)s") % {"han": han_label(win["han"]), "fu": fu_label(win["fu"])}
    return han_label(win["han"])


def _win_price(winner: int, payments: Sequence[Mapping[str, Any]]) -> str:
    """What the win was worth as players say it: "3,900" for a ron, "2,000/4,000" or
    "4,000 all" for a tsumo (read from the engine's payments; honba left out)."""
    paid = [p for p in payments if p["payee"] == winner and p["reason"] in _VALUE_REASONS]
    if not paid:
        return ""
    if all(p["reason"] == "tsumo" for p in paid):
        amounts = sorted({p["amount"] for p in paid})
        if len(amounts) == 1:
            return _("%(points)s all") % {"points": format_points(amounts[0])}
        return "/".join(format_points(a) for a in amounts)
    return format_points(sum(p["amount"] for p in paid))


def name_list(names: Sequence[str], seats: Sequence[int]) -> str:
    """The players at ``seats``: "Aoki, Chiba" (English), "Aoki・Chiba" (Japanese)."""
    return pgettext("between names in a list", ", ").join(names[s] for s in seats)


def hand_summary(
    data: Mapping[str, Any],
    result: Mapping[str, Any],
    names: Sequence[str],
    *,
    fu_scoring: bool,
    nagashi: str,
) -> str:
    """One line for the hand list, e.g. "ロン 馬場←千葉 3飜30符 3,900"."""
    outcome = data["result"]
    label = str(RESULT_LABELS.get(outcome, outcome))
    payments = result.get("payments", [])
    if outcome in ("ron", "tsumo"):
        parts = []
        for win in data.get("wins", []):
            who = names[win["winner"]]
            if outcome == "ron":
                who = f"{who}←{names[data['loser']]}"
            price = _win_price(win["winner"], payments)
            parts.append(" ".join(x for x in (who, _value_text(win, fu_scoring), price) if x))
        return f"{label} " + " / ".join(parts)
    if outcome == "draw":
        if data.get("nagashi"):
            nagashi_label = str(NAGASHI_LABELS.get(nagashi, label))
            return f"{label} {nagashi_label} " + name_list(names, data["nagashi"])
        tenpai = data.get("tenpai", [])
        if not tenpai:
            return f"{label} " + _("all noten")
        if len(tenpai) == len(names):
            return f"{label} " + _("all tenpai")
        return f"{label} " + _("tenpai: %(names)s") % {"names": name_list(names, tenpai)}
    if outcome == "abort":
        kind = data.get("kind", "")
        return f"{label} {ABORT_LABELS.get(kind, kind)}"
    return f"{label} {names[data['offender']]}"


def hand_extras(data: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """Small tags under a hand's summary: riichi, penalties, the dealer's stop, a chombo paid
    after the win or the draw (the record's ``chombo`` extension)."""
    tags = []
    if data.get("riichi"):
        tags.append(_("Riichi: %(names)s") % {"names": name_list(names, data["riichi"])})
    for penalty in data.get("penalties", []):
        kind = PENALTY_LABELS.get(penalty["kind"], penalty["kind"])
        tags.append(f"{kind}: {names[penalty['seat']]}")
    if data.get("dealer_stops"):
        tags.append(_("The dealer ends the game"))
    chombo = data.get("chombo")
    if isinstance(chombo, dict):
        tags.append(_("Chombo after: %(name)s") % {"name": names[chombo["offender"]]})
    return tags


@dataclass(frozen=True)
class HandRow:
    """One line of the hand list."""

    number: int
    round: str
    honba: str
    summary: str
    extras: list[str]
    deltas: list[Cell]


@dataclass(frozen=True)
class EndRow:
    rank: int
    rank_label: str
    name: str
    score: str
    points: Cell
    chips: str
    uma_ep: str
    member_id: int = 0


def rank_label(rank: int) -> str:
    return str(RANK_LABELS.get(rank, rank))
