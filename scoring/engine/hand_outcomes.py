"""What each kind of hand does to the table's money: riichi sticks and penalties, ron (with
multi-ron, pao and honba), tsumo (with pao and daiminkan liability), draws with noten payments
and nagashi, abortive draws and chombo. :class:`~scoring.engine.game.Game` applies a hand
through these and then ends or advances the game.

Sources per method (docs/rules-spec.md §1D-§1H and the seeds' clauses cited there). All
amounts are integers in points; nothing here changes the game until the whole hand is valid
(the money of a hand is worked out on a :class:`HandLedger` first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import RecordError
from .hand_value import WinPrices, round_up, tsumo_shares
from .hands import Hand, Win
from .limits import LIMIT_BASIC_POINTS, MANGAN_BASIC_POINTS
from .ruleset import MAX_CHIPS_PER_PAYER, Ruleset
from .settlement import Payment, rank_order

_new_tuple = tuple.__new__
# The seats other than each seat, by the table's size (3 or 4 in a ruleset file; a Ruleset
# built by hand is not checked): who pays a tsumo.
_OTHER_SEATS = {
    n: tuple(tuple(seat for seat in range(n) if seat != winner) for winner in range(n))
    for n in range(1, 9)
}

# Nagashi paid as a mangan, a baiman or a yakuman (the ruleset's ``nagashi``).
NAGASHI_BASIC_POINTS = {name: LIMIT_BASIC_POINTS[name] for name in ("mangan", "baiman", "yakuman")}


class HandLedger:
    """The money of one hand while it is being worked out; committed only if it is valid.

    ``chips`` is ``None`` until chips move (most rulesets have none, most wins earn none).
    """

    __slots__ = ("deltas", "table", "payments", "chips", "wins")

    def __init__(self, players: int, deposits: int) -> None:
        self.deltas = [0] * players
        self.table = deposits
        self.payments: list[Payment] = []
        self.chips: list[int] | None = None
        self.wins: list[int] = []

    def pay(self, payer: int | None, payee: int | None, amount: int, reason: str) -> None:
        """Move ``amount`` points; ``None`` is the table. Zero amounts are not recorded."""
        if amount <= 0:
            return
        if payer is None:
            self.table -= amount
        else:
            self.deltas[payer] -= amount
        if payee is None:
            self.table += amount
        else:
            self.deltas[payee] += amount
        # Positional, without the keyword machinery: a replay makes a few of these a hand.
        self.payments.append(_new_tuple(Payment, (payer, payee, amount, reason)))

    def pay_seat(self, payer: int, payee: int, amount: int, reason: str) -> None:
        """:meth:`pay` from a seat to a seat, as every ron, tsumo, honba and noten payment
        is: without the table's cases."""
        if amount > 0:
            deltas = self.deltas
            deltas[payer] -= amount
            deltas[payee] += amount
            self.payments.append(_new_tuple(Payment, (payer, payee, amount, reason)))

    def pay_table(self, seat: int, amount: int, reason: str) -> None:
        """:meth:`pay` from a seat to the table (a riichi stick, a penalty)."""
        if amount > 0:
            self.deltas[seat] -= amount
            self.table += amount
            self.payments.append(_new_tuple(Payment, (seat, None, amount, reason)))

    def take_deposits(self, seat: int) -> None:
        """Everything on the table goes to ``seat``."""
        if self.table:
            self.pay(None, seat, self.table, "deposits")

    def pay_chips(self, payers: tuple[int, ...] | list[int], winner: int, chips: int) -> None:
        """Each of ``payers`` gives ``chips`` chips to ``winner`` (seed 003 L438-470)."""
        if chips:
            if self.chips is None:
                self.chips = [0] * len(self.deltas)
            for payer in payers:
                self.chips[payer] -= chips
                self.chips[winner] += chips


class HandOutcomes:
    """The payment rules of one hand, mixed into :class:`~scoring.engine.game.Game`: each
    returns whether the dealer keeps the deal and the next honba count."""

    ruleset: Ruleset
    # The ruleset's payments of a win by its value (hand_value.win_prices).
    _prices: WinPrices
    scores: list[int]
    honba: int
    wind_index: int
    hand_number: int

    if TYPE_CHECKING:

        def is_all_last(self) -> bool: ...

    def _put_out_sticks(self, hand: Hand, ledger: HandLedger) -> None:
        """Riichi sticks (Makura §19; the 2,000 open-riichi fee of 004 L42) and penalties."""
        rs = self.ruleset
        open_riichi = hand.open_riichi
        if open_riichi and not rs.open_riichi:
            raise RecordError(
                None, "open_riichi", "this ruleset has no open riichi", code="no_open_riichi"
            )
        min_score = rs.riichi_min_score
        for seat in hand.riichi:
            if min_score and self.scores[seat] < min_score:
                raise RecordError(
                    None,
                    "riichi",
                    f"seat {seat} has {self.scores[seat]} points; "
                    f"riichi needs at least {rs.riichi_min_score}",
                    code="riichi_below_minimum",
                    params={
                        "seat": seat,
                        "score": self.scores[seat],
                        "min_score": rs.riichi_min_score,
                    },
                )
            stick = rs.open_riichi_stick if open_riichi and seat in open_riichi else rs.riichi_stick
            ledger.pay_table(seat, stick, "riichi")
        if not hand.penalties:
            return
        for i, penalty in enumerate(hand.penalties):
            amount = rs.penalty_amount(penalty.kind)
            if amount is None:
                raise RecordError(
                    None,
                    f"penalties[{i}].kind",
                    f"this ruleset has no {penalty.kind!r} penalty",
                    code="no_such_penalty",
                    params={"kind": penalty.kind},
                )
            ledger.pay_table(penalty.seat, amount, "penalty")

    def _check_wins(self, hand: Hand, tsumo: bool) -> None:
        """Each win's value, liability and chips, in the record's order."""
        wins = hand.wins
        if len(wins) == 1 and wins[0].pao is None and not wins[0].chips:
            # One win with its value alone, as most hands have.
            self._prices.check(wins[0], 0, tsumo, self.honba)
            return
        rs = self.ruleset
        honba = self.honba
        for i, win in enumerate(wins):
            self._prices.check(win, i, tsumo, honba)
            if win.pao is None and not win.chips:
                continue  # no liability and no chips, as most wins: nothing more to check
            if win.pao is not None and not rs.pao:
                raise RecordError(None, f"wins[{i}].pao", "this ruleset has no pao", code="no_pao")
            if win.chips and not rs.chips:
                raise RecordError(
                    None, f"wins[{i}].chips", "this ruleset has no chips", code="no_chips"
                )
            if win.chips > MAX_CHIPS_PER_PAYER:
                raise RecordError(
                    None,
                    f"wins[{i}].chips",
                    f"more than {MAX_CHIPS_PER_PAYER} chips from one payer",
                    code="chips_out_of_range",
                    params={"chips": win.chips, "max": MAX_CHIPS_PER_PAYER},
                )

    def _ron(self, hand: Hand, dealer: int, honba: int, ledger: HandLedger) -> tuple[bool, int]:
        rs = self.ruleset
        n = rs.players
        loser = hand.loser
        assert loser is not None
        wins = hand.wins
        if len(wins) > rs.multi_ron_max:
            if len(wins) == 3 and "sancha_ron" in rs.abortive_draws:
                raise RecordError(
                    None,
                    "wins",
                    "a triple ron is an abortive draw here: record abort sancha_ron",
                    code="sancha_ron_is_abort",
                    params={"max": rs.multi_ron_max},
                )
            raise RecordError(
                None,
                "wins",
                f"this ruleset allows at most {rs.multi_ron_max} ron winners",
                code="too_many_ron_winners",
                params={"max": rs.multi_ron_max, "winners": len(wins)},
            )
        self._check_wins(hand, False)
        if len(wins) == 1:
            # One winner, as most rons have: the honba and the deposits are theirs, and they
            # keep the deal if they deal.
            winner = wins[0].winner
            self._pay_ron_win(wins[0], loser, dealer, rs.honba_ron * honba, ledger)
            if ledger.table:
                ledger.pay(None, winner, ledger.table, "deposits")
            keep = winner == dealer
            return keep, (honba + 1 if keep else 0)
        # Turn order from the discarder decides the first winner (上家取り / 頭ハネ, §24).
        order = sorted(wins, key=lambda w: (w.winner - loser) % n)
        first = order[0].winner
        for win in order:
            honba_points = (
                rs.honba_ron * honba if rs.multi_ron_honba == "each" or win.winner == first else 0
            )
            self._pay_ron_win(win, loser, dealer, honba_points, ledger)
        if rs.multi_ron_deposits == "first":
            if ledger.table:
                ledger.pay(None, first, ledger.table, "deposits")
        else:
            # H-19: split equally in 100s; what does not divide goes to the first winner.
            share = ledger.table // len(order) // 100 * 100
            rest = ledger.table - share * len(order)
            for position, win in enumerate(order):
                ledger.pay(None, win.winner, share + (rest if position == 0 else 0), "deposits")
        if rs.multi_ron_renchan == "any_winner":
            keep = any(w.winner == dealer for w in order)
        else:
            keep = first == dealer
        return keep, (honba + 1 if keep else 0)

    def _pay_ron_win(
        self, win: Win, loser: int, dealer: int, honba_points: int, ledger: HandLedger
    ) -> None:
        """The payments of one win of a ron: its value and ``honba_points`` from the
        discarder, or shared with a liable player (pao), and its chips."""
        winner = win.winner
        value = self._prices.ron(win, winner == dealer)
        liable = win.pao if win.pao is not None and win.pao != loser else None
        if liable is None:
            ledger.pay_seat(loser, winner, value, "ron")
            if honba_points:
                ledger.pay_seat(loser, winner, honba_points, "honba")
            if win.chips:
                ledger.pay_chips((loser,), winner, win.chips)
        else:
            # Pao on a ron: the liable player and the discarder pay half each (M-05,
            # 002 P(1), 003 L594-596).
            half = round_up(value // 2, 100)
            ledger.pay_seat(liable, winner, half, "pao")
            ledger.pay_seat(loser, winner, value - half, "ron")
            self._pao_ron_honba(ledger, liable, loser, winner, honba_points)
            ledger.pay_chips((loser, liable), winner, win.chips)
        ledger.wins.append(winner)

    def _pao_ron_honba(
        self, ledger: HandLedger, liable: int, loser: int, winner: int, honba_points: int
    ) -> None:
        mode = self.ruleset.pao_ron_honba
        if mode == "discarder":
            ledger.pay_seat(loser, winner, honba_points, "honba")
        elif mode == "liable":
            ledger.pay_seat(liable, winner, honba_points, "honba")
        elif mode == "each":
            ledger.pay_seat(liable, winner, honba_points, "honba")
            ledger.pay_seat(loser, winner, honba_points, "honba")
        else:
            half = round_up(honba_points // 2, 100)
            ledger.pay_seat(liable, winner, half, "honba")
            ledger.pay_seat(loser, winner, honba_points - half, "honba")

    def _tsumo(self, hand: Hand, dealer: int, honba: int, ledger: HandLedger) -> tuple[bool, int]:
        rs = self.ruleset
        n = rs.players
        self._check_wins(hand, True)
        win = hand.wins[0]
        winner = win.winner
        dealer_wins = winner == dealer
        payers: tuple[int, ...]
        if win.pao is not None:
            # Pao on a tsumo: the liable player pays the whole value and the honba (M-05, S-10).
            ledger.pay_seat(win.pao, winner, self._prices.ron(win, dealer_wins), "pao")
            ledger.pay_seat(win.pao, winner, rs.honba_ron * honba, "honba")
            payers = (win.pao,)
        elif win.rinshan_from is not None and rs.rinshan_liability != "none":
            # Daiminkan rinshan: the feeder pays alone (002 K(8) / S-11, 003 L235-239 / H-24).
            feeder = win.rinshan_from
            if rs.rinshan_liability == "ron_value":
                value = self._prices.ron(win, dealer_wins)
                honba_points = rs.honba_ron * honba
            else:
                dealer_share, other_share = self._prices.tsumo(win, dealer_wins)
                value = sum(
                    dealer_share if seat == dealer else other_share
                    for seat in range(n)
                    if seat != winner
                )
                honba_points = rs.honba_tsumo_each * honba * (n - 1)
            ledger.pay_seat(feeder, winner, value, "rinshan")
            ledger.pay_seat(feeder, winner, honba_points, "honba")
            payers = (feeder,)
        else:
            dealer_share, other_share = self._prices.tsumo(win, dealer_wins)
            each_honba = rs.honba_tsumo_each * honba
            payers = _OTHER_SEATS[n][winner]
            for seat in payers:
                ledger.pay_seat(
                    seat, winner, dealer_share if seat == dealer else other_share, "tsumo"
                )
                if each_honba:
                    ledger.pay_seat(seat, winner, each_honba, "honba")
        if win.chips:
            ledger.pay_chips(payers, winner, win.chips)
        ledger.wins.append(winner)
        if ledger.table:
            ledger.pay(None, winner, ledger.table, "deposits")
        return dealer_wins, (honba + 1 if dealer_wins else 0)

    def _draw(self, hand: Hand, dealer: int, honba: int, ledger: HandLedger) -> tuple[bool, int]:
        rs = self.ruleset
        n = rs.players
        if hand.nagashi:
            return self._nagashi(hand, dealer, honba, ledger)
        tenpai = hand.tenpai
        # H-18 / seed 003 L410: a draw with a chombo exchanges the chombo only, unless the
        # record says the draw is settled first (the pao case, L426-428).
        settled = hand.chombo_after is None or hand.chombo_noten_payments
        if settled and 0 < len(tenpai) < n:
            # the noten players pay the total equally, the tenpai players share it.
            noten = [seat for seat in range(n) if seat not in tenpai]
            each_pair = rs.noten_total // (len(noten) * len(tenpai))
            for payer in noten:
                for payee in tenpai:
                    ledger.pay_seat(payer, payee, each_pair, "noten")
        keep = dealer in tenpai or (
            rs.draws_keep_dealer_from_round >= 0
            and self.wind_index >= rs.draws_keep_dealer_from_round
        )
        return keep, honba + 1

    def _nagashi(self, hand: Hand, dealer: int, honba: int, ledger: HandLedger) -> tuple[bool, int]:
        """Nagashi paid as a tsumo of its value by each player who made it (M-07, S-12, H-23,
        F-14, Tenhou §3); it replaces the noten payments."""
        rs = self.ruleset
        n = rs.players
        if rs.nagashi == "none":
            raise RecordError(None, "nagashi", "this ruleset has no nagashi", code="no_nagashi")
        b = NAGASHI_BASIC_POINTS[rs.nagashi]
        each_honba = rs.honba_tsumo_each * honba if rs.nagashi_honba else 0
        for seat in hand.nagashi:
            dealer_share, other_share = tsumo_shares(rs, b, seat == dealer)
            for payer in range(n):
                if payer != seat:
                    share = dealer_share if payer == dealer else other_share
                    ledger.pay_seat(payer, seat, share, "nagashi")
                    ledger.pay_seat(payer, seat, each_honba, "honba")
            ledger.wins.append(seat)
        if rs.nagashi_takes_deposits:
            ledger.take_deposits(min(hand.nagashi, key=lambda s: (s - dealer) % n))
        if rs.nagashi_rotation == "as_win":
            keep = dealer in hand.nagashi
            return keep, (honba + 1 if keep else 0)
        if rs.nagashi_rotation == "as_draw":
            return dealer in hand.tenpai, honba + 1
        return True, honba + 1

    def _abort(self, hand: Hand, dealer: int, honba: int) -> tuple[bool, int]:
        rs = self.ruleset
        assert hand.kind is not None
        if hand.kind not in rs.abortive_draws:
            raise RecordError(
                None,
                "kind",
                f"this ruleset has no abortive draw {hand.kind}",
                code="no_such_abortive_draw",
                params={"kind": hand.kind},
            )
        if rs.abortive_renchan == "always":
            keep = True
        elif rs.abortive_renchan == "never":
            keep = False
        else:
            # M-03 (a); in suucha_riichi every riichi seat counts as tenpai.
            keep = dealer in hand.tenpai or (hand.kind == "suucha_riichi" and dealer in hand.riichi)
        return keep, honba + 1

    def _pay_chombo(self, offender: int, dealer: int, ledger: HandLedger) -> None:
        """The chombo payment alone: fixed, or mangan-style by who deals; never honba."""
        rs = self.ruleset
        for seat in range(rs.players):
            if seat == offender:
                continue
            if rs.chombo_payment == "fixed":
                amount = rs.chombo_each
            elif offender == dealer or seat == dealer:
                amount = 2 * MANGAN_BASIC_POINTS
            else:
                amount = MANGAN_BASIC_POINTS
            ledger.pay_seat(offender, seat, amount, "chombo")

    def _chombo(self, hand: Hand, dealer: int, honba: int, ledger: HandLedger) -> tuple[bool, int]:
        """Chombo: fixed or mangan-style payment, never honba (Makura §33/§35, 002 C, 003
        L301-303, 004 L35); this hand's riichi sticks as ``chombo_riichi`` says."""
        rs = self.ruleset
        n = rs.players
        offender = hand.offender
        assert offender is not None
        self._pay_chombo(offender, dealer, ledger)
        if rs.chombo_riichi != "keep":
            for seat in hand.riichi:
                if rs.chombo_riichi == "return_all" or seat != offender:
                    stick = rs.open_riichi_stick if seat in hand.open_riichi else rs.riichi_stick
                    ledger.pay(None, seat, stick, "riichi_return")
        if rs.chombo_effect == "replay":
            return True, honba
        if rs.chombo_effect == "replay_honba_plus":
            return True, honba + 1
        # rotate_if_dealer (002 C(3), S-09): the all-last dealer who stays top replays.
        if offender != dealer:
            return True, honba
        if self.is_all_last():
            after = [self.scores[s] + ledger.deltas[s] for s in range(n)]
            if rank_order(rs, after)[0] == dealer:
                return True, honba
        return False, honba
