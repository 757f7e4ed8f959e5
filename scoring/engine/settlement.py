"""Final settlement of a finished hanchan: deposits, ranks, oka, uma, rounding, tobi payments.

Follows rules-spec §1B, §3 (settlement examples) and the ruleset's parameters. Points are
integers in points: ``55000`` is +55.0 in the thousand-point units clubs write down.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .ruleset import Ruleset


class Payment(NamedTuple):
    """One transfer within a hand: ``payer`` pays ``payee`` ``amount`` points.

    ``None`` as payer or payee is the table (riichi sticks and penalties go there, deposits
    come from there). ``reason`` is one of: ron, tsumo, pao, rinshan, honba, noten, nagashi,
    chombo, riichi, riichi_return, penalty, deposits, tobi.
    """

    payer: int | None
    payee: int | None
    amount: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        """``{"payer", "payee", "amount", "reason"}``; ``None`` seats are the table."""
        return {
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Settlement:
    """The end of a game, as ``final`` of the replay output.

    ``scores``: raw final scores after leftover deposits went to the top; ``ranks``: 1 = top,
    per seat; ``points``: settlement per seat in points (oka, uma, rounding, box-under, tobi
    payments); ``chips``: chip balance per seat, ``None`` where the ruleset has no chips;
    ``uma_ep``: floating uma in ep where the ruleset keeps ep separate (seed 002, S-01), else
    ``None``; ``tobi_payments``: the seed-003 tobi payments made after ranking.
    """

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    points: tuple[int, ...]
    chips: tuple[int, ...] | None
    uma_ep: tuple[int, ...] | None
    ended_by: str
    tobi_payments: tuple[Payment, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The ``final`` object of docs/game-record-format.md (plus ``uma_ep`` for 002)."""
        out: dict[str, Any] = {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "points": list(self.points),
        }
        if self.uma_ep is not None:
            out["uma_ep"] = list(self.uma_ep)
        if self.chips is not None:
            out["chips"] = list(self.chips)
        out["ended_by"] = self.ended_by
        return out


def rank_order(rs: Ruleset, scores: Sequence[int]) -> list[int]:
    """Seats from top to last; equal scores by seat order from the chicha (§1, M-02, X-05)."""
    # A stable sort, highest first (reverse keeps equal keys in their given order): equal
    # scores stay in the order the seats are given in.
    n = len(scores)
    seats = range(n) if rs.tie_break == "seat_order" else range(n - 1, -1, -1)
    return sorted(seats, key=scores.__getitem__, reverse=True)


def is_bust(rs: Ruleset, score: int) -> bool:
    """Whether ``score`` is bust: below 0, or at 0 too where ``tobi_at_zero`` (002-004)."""
    return score < 0 or (rs.tobi_at_zero and score == 0)


def final_settlement(
    rs: Ruleset,
    scores: Sequence[int],
    *,
    deposits: int = 0,
    ended_by: str = "last_hand",
    busting_payments: Sequence[Payment] = (),
    chips: Sequence[int] | None = None,
    win_counts: Sequence[int] | None = None,
) -> Settlement:
    """Settle a finished game.

    Args:
        rs: the ruleset.
        scores: each seat's score at the end of the last hand (points), deposits excluded.
        deposits: points still on the table; they go to the top (Makura §24/§38, S-06, H-14,
            F-21, Tenhou "供託はトップ取り").
        ended_by: why the game ended; tobi payments (seed 003) are made only after ``"tobi"``.
        busting_payments: the payments of the hand that ended the game, to find who busted
            whom (H-06).
        chips: chip balance per seat before yakitori (rulesets with chips).
        win_counts: wins per seat over the game (nagashi counts, H-28), for yakitori.

    Returns:
        A :class:`Settlement`. Ranks use the seat-order tie-break and are taken before tobi
        payments (H-07 a). Points: (score - return) rounded per ``final_rounding`` + uma +
        oka to the top; with ``top_takes_remainder`` the top gets minus the others' sum (R1,
        M-01); with ``box_under="zero"`` a negative score settles as 0 (F-04).
    """
    n = rs.players
    order = rank_order(rs, scores)
    top = order[0]
    final = list(scores)
    final[top] += deposits
    ranks = [0] * n
    for position, seat in enumerate(order):
        ranks[seat] = position + 1

    uma_points = [0] * n
    uma_ep: list[int] | None = None
    if rs.uma_floating:
        floaters = sum(1 for s in final if s >= rs.float_threshold)
        row = rs.uma_floating[max(floaters, 1) - 1]
        ep = [row[ranks[s] - 1] for s in range(n)]
        if rs.uma_ep_points:
            uma_points = [e * rs.uma_ep_points for e in ep]
        else:
            uma_ep = ep
    elif rs.uma:
        uma_points = [rs.uma[ranks[s] - 1] for s in range(n)]

    points = [0] * n
    box_under_zero = rs.box_under == "zero"
    rounding, return_points = rs.final_rounding, rs.return_points
    for s in range(n):
        settled = max(final[s], 0) if box_under_zero else final[s]
        if rounding == "truncate_after_uma":
            value = _truncate(settled - return_points + uma_points[s])
        else:
            value = _rounded(rounding, settled, return_points) + uma_points[s]
        points[s] = value
    points[top] += rs.oka
    if rs.top_takes_remainder:
        points[top] = points[top] - sum(points)

    tobi_payments: list[Payment] = []
    if rs.tobi_payment and ended_by == "tobi":
        for busted in range(n):
            if not is_bust(rs, final[busted]):
                continue
            busters = sorted(
                {p.payee for p in busting_payments if p.payer == busted and p.payee is not None}
            )
            if not busters:
                continue
            # H-06: shares rounded down to 100 (5,000 / 3 -> 1,600 each, seed 003 L498-500).
            share = rs.tobi_payment // len(busters) // 100 * 100
            for buster in busters:
                points[busted] -= share
                points[buster] += share
                tobi_payments.append(Payment(busted, buster, share, "tobi"))

    chip_balance: tuple[int, ...] | None = None
    if rs.chips:
        balance = list(chips) if chips is not None else [0] * n
        if rs.yakitori_chips and win_counts is not None:
            winners = [s for s in range(n) if win_counts[s] > 0]
            for s in range(n):
                if win_counts[s] == 0:
                    for w in winners:
                        balance[s] -= rs.yakitori_chips
                        balance[w] += rs.yakitori_chips
        chip_balance = tuple(balance)

    return Settlement(
        scores=tuple(final),
        ranks=tuple(ranks),
        points=tuple(points),
        chips=chip_balance,
        uma_ep=None if uma_ep is None else tuple(uma_ep),
        ended_by=ended_by,
        tobi_payments=tuple(tobi_payments),
    )


def _truncate(points: int) -> int:
    """Toward zero, to a multiple of 1,000."""
    return points // 1000 * 1000 if points >= 0 else -(-points // 1000 * 1000)


def _rounded(mode: str, score: int, return_points: int) -> int:
    """``score - return_points`` rounded to 1,000 as ``mode`` says (M-01, Tenhou §1).

    The round-half modes round the score itself (Tenhou: "終了時の得点は1000点未満を四捨五入").
    """
    diff = score - return_points
    if mode == "none":
        return diff
    if mode == "floor":
        return diff // 1000 * 1000
    if mode == "truncate_before_uma":
        return _truncate(diff)
    if mode == "round_half_up":
        return (score + 500) // 1000 * 1000 - return_points
    if mode == "round_half_away":
        magnitude = (abs(score) + 500) // 1000 * 1000
        return (magnitude if score >= 0 else -magnitude) - return_points
    raise AssertionError(f"unhandled final_rounding {mode}")  # pragma: no cover
