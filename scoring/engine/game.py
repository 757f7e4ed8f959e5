"""The hanchan: applies hands one by one, drives dealer, honba and deposits, ends and settles.

Game progression follows rules-spec §0 (honba mechanics [SK], X-02) and §1C-§1F per ruleset:
renchan on a dealer win or dealer tenpai, honba +1 after a dealer win or any draw and reset by
a non-dealer win, deposits carried over draws, every end condition of the seeds (last hand,
tobi, agari/tenpai-yame, dealer-top, extensions). All amounts are integers in points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import RecordError
from .hand_value import check_win, ron_value, round_up, tsumo_shares, win_basic_points
from .hands import Hand
from .ruleset import Ruleset
from .settlement import Payment, Settlement, final_settlement, is_bust, rank_order

NAGASHI_BASIC_POINTS = {"mangan": 2000, "baiman": 4000, "yakuman": 8000}


class HandResult(NamedTuple):
    """What one hand did: one entry of the replay output's ``hands``.

    ``round`` e.g. "E1"/"S3"/"W1", ``dealer`` the dealer's seat, ``honba`` and
    ``deposits_before`` at the start of the hand; ``deltas`` each seat's change (riichi sticks,
    payments, honba, deposits taken), ``scores`` after the hand, ``deposits_after`` on the
    table after it; ``payments`` who paid whom; ``chips`` chip changes per seat (zeros where
    the ruleset has none). Always ``sum(deltas) + deposits_after - deposits_before == 0``.
    """

    round: str
    dealer: int
    honba: int
    deposits_before: int
    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    deposits_after: int
    payments: tuple[Payment, ...]
    chips: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The replay-output hand object (docs/game-record-format.md)."""
        return {
            "round": self.round,
            "dealer": self.dealer,
            "honba": self.honba,
            "deposits_before": self.deposits_before,
            "deltas": list(self.deltas),
            "scores": list(self.scores),
            "deposits_after": self.deposits_after,
        }


@dataclass(frozen=True, slots=True)
class TableState:
    """The table before the next hand: what the hand-entry screen shows.

    ``round`` label, ``dealer`` seat, ``honba``, ``deposits`` (points on the table),
    ``scores``, ``all_last`` (this is the last hand of the final round, where agari-yame may
    apply), ``ended_by`` (None while in play) and ``hands_played``.
    """

    round: str
    dealer: int
    honba: int
    deposits: int
    scores: tuple[int, ...]
    all_last: bool
    ended_by: str | None
    hands_played: int


class _HandLedger:
    """The money of one hand while it is being worked out; committed only if it is valid."""

    __slots__ = ("deltas", "table", "payments", "chips", "chips_moved", "wins")

    def __init__(self, players: int, deposits: int) -> None:
        self.deltas = [0] * players
        self.table = deposits
        self.payments: list[Payment] = []
        self.chips = [0] * players
        self.chips_moved = False
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
        self.payments.append(Payment(payer, payee, amount, reason))

    def take_deposits(self, seat: int) -> None:
        """Everything on the table goes to ``seat``."""
        self.pay(None, seat, self.table, "deposits")

    def pay_chips(self, payers: tuple[int, ...] | list[int], winner: int, chips: int) -> None:
        """Each of ``payers`` gives ``chips`` chips to ``winner`` (seed 003 L438-470)."""
        if chips:
            self.chips_moved = True
            for payer in payers:
                self.chips[payer] -= chips
                self.chips[winner] += chips


class Game:
    """One hanchan (or tonpuusen) under a ruleset, fed hand by hand.

    >>> from scoring.engine import Game, load_ruleset, parse_hand
    >>> game = Game(load_ruleset("makura-1.5"))
    >>> game.play(parse_hand({"result": "ron", "loser": 2,
    ...     "wins": [{"winner": 1, "han": 3, "fu": 30}]}, 4, 0)).deltas
    (0, 3900, -3900, 0)

    ``play`` validates the hand against the ruleset and the state before changing anything:
    a rejected hand leaves the game exactly as it was.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        n = ruleset.players
        self.scores = [ruleset.start_points] * n
        self.deposits = 0
        self.honba = 0
        self.wind_index = 0
        self.hand_number = 0  # 0-based within the wind; equals the dealer's seat
        self.ended_by: str | None = None
        self.results: list[HandResult] = []
        self.chips = [0] * n
        self.win_counts = [0] * n
        self.settlement: Settlement | None = None
        self._winds = ruleset.round_winds()
        self._hands_before = 0  # hands played before a restore(); results holds the rest
        self._no_chips = (0,) * n

    @property
    def hands_played(self) -> int:
        """How many hands the game has had (the next hand's index in the record)."""
        return self._hands_before + len(self.results)

    def snapshot(self) -> dict[str, Any]:
        """The state between hands as plain JSON data, for :meth:`restore`.

        Lets a ledger store the state with the game and apply the next hand without replaying
        the earlier ones. A finished game cannot be snapshotted (nothing follows it).
        """
        if self.ended_by is not None:
            raise ValueError("a finished game has no next hand")
        return {
            "hands_played": self.hands_played,
            "scores": list(self.scores),
            "deposits": self.deposits,
            "honba": self.honba,
            "wind_index": self.wind_index,
            "hand_number": self.hand_number,
            "chips": list(self.chips),
            "win_counts": list(self.win_counts),
        }

    @classmethod
    def restore(cls, ruleset: Ruleset, snapshot: dict[str, Any]) -> Game:
        """A game in the state :meth:`snapshot` recorded (under the same ``ruleset``)."""
        game = cls(ruleset)
        game._hands_before = snapshot["hands_played"]
        game.scores = list(snapshot["scores"])
        game.deposits = snapshot["deposits"]
        game.honba = snapshot["honba"]
        game.wind_index = snapshot["wind_index"]
        game.hand_number = snapshot["hand_number"]
        game.chips = list(snapshot["chips"])
        game.win_counts = list(snapshot["win_counts"])
        return game

    # -- state ------------------------------------------------------------------------------
    @property
    def dealer(self) -> int:
        """Seat of the current dealer (seat 0 deals East 1)."""
        return self.hand_number

    @property
    def round_label(self) -> str:
        """The current hand's label: wind and hand number, e.g. "S3"."""
        return f"{self._winds[self.wind_index]}{self.hand_number + 1}"

    def is_all_last(self) -> bool:
        """The current hand is the last hand of the final base round or of an extension."""
        return (
            self.hand_number == self.ruleset.players - 1
            and self.wind_index >= self.ruleset.rounds - 1
        )

    def state(self) -> TableState:
        """A snapshot of the table before the next hand (see :class:`TableState`)."""
        return TableState(
            round=self.round_label,
            dealer=self.dealer,
            honba=self.honba,
            deposits=self.deposits,
            scores=tuple(self.scores),
            all_last=self.is_all_last(),
            ended_by=self.ended_by,
            hands_played=self.hands_played,
        )

    # -- playing a hand ---------------------------------------------------------------------
    def play(self, hand: Hand) -> HandResult:
        """Apply ``hand`` and advance the game.

        Returns:
            The :class:`HandResult`. When this hand ends the game, ``self.ended_by`` and
            ``self.settlement`` are set.

        Raises:
            RecordError: (``hand_index`` = number of hands already played) the game is over,
                or a seat or value the ruleset does not allow here: a fu it forbids, pao where
                it has none, too many ron winners, an abortive draw it does not have, riichi
                below its minimum score, ``dealer_stops`` where no stop is allowed, ...
        """
        index = self.hands_played
        if self.ended_by is not None:
            raise RecordError(
                index,
                "result",
                f"the game already ended ({self.ended_by})",
                code="game_over",
                params={"ended_by": self.ended_by},
            )
        try:
            return self._play(hand)
        except RecordError as error:
            if error.hand_index is None:
                raise error.with_hand(index) from None
            raise

    def _play(self, hand: Hand) -> HandResult:
        rs = self.ruleset
        n = rs.players
        dealer = self.hand_number
        honba = self.honba
        ledger = _HandLedger(n, self.deposits)
        self._put_out_sticks(hand, ledger)

        result = hand.result
        if result == "ron":
            keep_dealer, next_honba = self._ron(hand, dealer, honba, ledger)
        elif result == "tsumo":
            keep_dealer, next_honba = self._tsumo(hand, dealer, honba, ledger)
        elif result == "draw":
            keep_dealer, next_honba = self._draw(hand, dealer, honba, ledger)
        elif result == "abort":
            keep_dealer, next_honba = self._abort(hand, dealer, honba)
        else:
            keep_dealer, next_honba = self._chombo(hand, dealer, honba, ledger)

        deltas = ledger.deltas
        new_scores = [score + delta for score, delta in zip(self.scores, deltas, strict=True)]
        ended = self._end_after_hand(hand, new_scores, keep_dealer, ledger)

        # Everything is valid: commit.
        # Positional: HandResult is built for every hand of every replay.
        record = HandResult(
            self.round_label,
            dealer,
            honba,
            self.deposits,
            tuple(deltas),
            tuple(new_scores),
            ledger.table,
            tuple(ledger.payments),
            tuple(ledger.chips) if ledger.chips_moved else self._no_chips,
        )
        self.results.append(record)
        self.scores = new_scores
        self.deposits = ledger.table
        for seat in ledger.wins:
            self.win_counts[seat] += 1
        if ledger.chips_moved:
            self.chips = [self.chips[s] + ledger.chips[s] for s in range(n)]
        if ended is None:
            ended = self._advance(keep_dealer, next_honba)
        if ended is None and hand.time_up:
            # T-07: time was called during this hand; it is the last one.
            ended = "time_up"
        if ended is not None:
            self._finish(ended)
        return record

    def _put_out_sticks(self, hand: Hand, ledger: _HandLedger) -> None:
        """Riichi sticks (Makura §19; the 2,000 open-riichi fee of 004 L42) and penalties."""
        if not hand.riichi and not hand.penalties:
            return
        rs = self.ruleset
        if hand.open_riichi and not rs.open_riichi:
            raise RecordError(
                None, "open_riichi", "this ruleset has no open riichi", code="no_open_riichi"
            )
        for seat in hand.riichi:
            if rs.riichi_min_score and self.scores[seat] < rs.riichi_min_score:
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
            stick = rs.open_riichi_stick if seat in hand.open_riichi else rs.riichi_stick
            ledger.pay(seat, None, stick, "riichi")
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
            ledger.pay(penalty.seat, None, amount, "penalty")

    def _check_wins(self, hand: Hand, tsumo: bool) -> None:
        rs = self.ruleset
        for i, win in enumerate(hand.wins):
            check_win(rs, win, i, tsumo=tsumo, honba=self.honba)
            if win.pao is not None and not rs.pao:
                raise RecordError(None, f"wins[{i}].pao", "this ruleset has no pao", code="no_pao")
            if win.chips and not rs.chips:
                raise RecordError(
                    None, f"wins[{i}].chips", "this ruleset has no chips", code="no_chips"
                )

    def _ron(self, hand: Hand, dealer: int, honba: int, ledger: _HandLedger) -> tuple[bool, int]:
        rs = self.ruleset
        n = rs.players
        loser = hand.loser
        assert loser is not None
        if len(hand.wins) > rs.multi_ron_max:
            if len(hand.wins) == 3 and "sancha_ron" in rs.abortive_draws:
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
                params={"max": rs.multi_ron_max, "winners": len(hand.wins)},
            )
        self._check_wins(hand, tsumo=False)
        # Turn order from the discarder decides the first winner (上家取り / 頭ハネ, §24).
        order = (
            hand.wins
            if len(hand.wins) == 1
            else sorted(hand.wins, key=lambda w: (w.winner - loser) % n)
        )
        first = order[0].winner
        for win in order:
            winner = win.winner
            value = ron_value(rs, win_basic_points(rs, win), winner == dealer)
            honba_points = (
                rs.honba_ron * honba if rs.multi_ron_honba == "each" or winner == first else 0
            )
            liable = win.pao if win.pao is not None and win.pao != loser else None
            if liable is None:
                ledger.pay(loser, winner, value, "ron")
                if honba_points:
                    ledger.pay(loser, winner, honba_points, "honba")
                ledger.pay_chips((loser,), winner, win.chips)
            else:
                # Pao on a ron: the liable player and the discarder pay half each (M-05,
                # 002 P(1), 003 L594-596).
                half = round_up(value // 2, 100)
                ledger.pay(liable, winner, half, "pao")
                ledger.pay(loser, winner, value - half, "ron")
                self._pao_ron_honba(ledger, liable, loser, winner, honba_points)
                ledger.pay_chips((loser, liable), winner, win.chips)
            ledger.wins.append(winner)
        if rs.multi_ron_deposits == "first" or len(order) == 1:
            ledger.take_deposits(first)
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

    def _pao_ron_honba(
        self, ledger: _HandLedger, liable: int, loser: int, winner: int, honba_points: int
    ) -> None:
        mode = self.ruleset.pao_ron_honba
        if mode == "discarder":
            ledger.pay(loser, winner, honba_points, "honba")
        elif mode == "liable":
            ledger.pay(liable, winner, honba_points, "honba")
        elif mode == "each":
            ledger.pay(liable, winner, honba_points, "honba")
            ledger.pay(loser, winner, honba_points, "honba")
        else:
            half = round_up(honba_points // 2, 100)
            ledger.pay(liable, winner, half, "honba")
            ledger.pay(loser, winner, honba_points - half, "honba")

    def _tsumo(self, hand: Hand, dealer: int, honba: int, ledger: _HandLedger) -> tuple[bool, int]:
        rs = self.ruleset
        n = rs.players
        self._check_wins(hand, tsumo=True)
        win = hand.wins[0]
        winner = win.winner
        dealer_wins = winner == dealer
        b = win_basic_points(rs, win)
        payers: tuple[int, ...]
        if win.pao is not None:
            # Pao on a tsumo: the liable player pays the whole value and the honba (M-05, S-10).
            ledger.pay(win.pao, winner, ron_value(rs, b, dealer_wins), "pao")
            ledger.pay(win.pao, winner, rs.honba_ron * honba, "honba")
            payers = (win.pao,)
        elif win.rinshan_from is not None and rs.rinshan_liability != "none":
            # Daiminkan rinshan: the feeder pays alone (002 K(8) / S-11, 003 L235-239 / H-24).
            feeder = win.rinshan_from
            if rs.rinshan_liability == "ron_value":
                value = ron_value(rs, b, dealer_wins)
                honba_points = rs.honba_ron * honba
            else:
                dealer_share, other_share = tsumo_shares(rs, b, dealer_wins)
                value = sum(
                    dealer_share if seat == dealer else other_share
                    for seat in range(n)
                    if seat != winner
                )
                honba_points = rs.honba_tsumo_each * honba * (n - 1)
            ledger.pay(feeder, winner, value, "rinshan")
            ledger.pay(feeder, winner, honba_points, "honba")
            payers = (feeder,)
        else:
            dealer_share, other_share = tsumo_shares(rs, b, dealer_wins)
            each_honba = rs.honba_tsumo_each * honba
            payers = tuple(seat for seat in range(n) if seat != winner)
            for seat in payers:
                ledger.pay(seat, winner, dealer_share if seat == dealer else other_share, "tsumo")
                if each_honba:
                    ledger.pay(seat, winner, each_honba, "honba")
        ledger.pay_chips(payers, winner, win.chips)
        ledger.wins.append(winner)
        ledger.take_deposits(winner)
        return dealer_wins, (honba + 1 if dealer_wins else 0)

    def _draw(self, hand: Hand, dealer: int, honba: int, ledger: _HandLedger) -> tuple[bool, int]:
        rs = self.ruleset
        n = rs.players
        if hand.nagashi:
            return self._nagashi(hand, dealer, honba, ledger)
        tenpai = hand.tenpai
        if 0 < len(tenpai) < n:
            # the noten players pay the total equally, the tenpai players share it.
            noten = [seat for seat in range(n) if seat not in tenpai]
            each_pair = rs.noten_total // (len(noten) * len(tenpai))
            for payer in noten:
                for payee in tenpai:
                    ledger.pay(payer, payee, each_pair, "noten")
        keep = dealer in tenpai or (
            rs.draws_keep_dealer_from_round >= 0
            and self.wind_index >= rs.draws_keep_dealer_from_round
        )
        return keep, honba + 1

    def _nagashi(
        self, hand: Hand, dealer: int, honba: int, ledger: _HandLedger
    ) -> tuple[bool, int]:
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
                    ledger.pay(payer, seat, share, "nagashi")
                    ledger.pay(payer, seat, each_honba, "honba")
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

    def _chombo(self, hand: Hand, dealer: int, honba: int, ledger: _HandLedger) -> tuple[bool, int]:
        """Chombo: fixed or mangan-style payment, never honba (Makura §33/§35, 002 C, 003
        L301-303, 004 L35); this hand's riichi sticks as ``chombo_riichi`` says."""
        rs = self.ruleset
        n = rs.players
        offender = hand.offender
        assert offender is not None
        for seat in range(n):
            if seat == offender:
                continue
            if rs.chombo_payment == "fixed":
                amount = rs.chombo_each
            elif offender == dealer or seat == dealer:
                amount = 4000
            else:
                amount = 2000
            ledger.pay(offender, seat, amount, "chombo")
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

    # -- ending and advancing ---------------------------------------------------------------
    def _end_after_hand(
        self, hand: Hand, scores: list[int], keep_dealer: bool, ledger: _HandLedger
    ) -> str | None:
        """Tobi, agari/tenpai-yame and the dealer-top end; validates ``dealer_stops``."""
        rs = self.ruleset
        ended: str | None = None
        if (
            rs.tobi
            and min(scores) <= 0
            and (hand.result != "chombo" or rs.tobi_after_chombo)
            and any(is_bust(rs, score) for score in scores)
        ):
            ended = "tobi"
        dealer = self.hand_number
        if hand.dealer_stops:
            kind = self._check_dealer_stop(hand, scores, keep_dealer)
            ended = ended or kind
        if (
            ended is None
            and keep_dealer
            and rs.dealer_top_ends != "never"
            and self.is_all_last()
            and rank_order(rs, scores)[0] == dealer
            and scores[dealer] >= rs.dealer_top_min_score
            and (rs.dealer_top_ends == "after_any_hand" or self._dealer_won_or_tenpai(hand))
        ):
            ended = "dealer_top"
        return ended

    def _dealer_won(self, hand: Hand) -> bool:
        """The dealer won this hand: a ron/tsumo win, or a nagashi that counts as a win."""
        dealer = self.hand_number
        if hand.result == "ron" or hand.result == "tsumo":
            return any(w.winner == dealer for w in hand.wins)
        return (
            hand.result == "draw"
            and dealer in hand.nagashi
            and self.ruleset.nagashi_rotation == "as_win"
        )

    def _dealer_tenpai(self, hand: Hand) -> bool:
        return hand.result == "draw" and self.hand_number in hand.tenpai

    def _dealer_won_or_tenpai(self, hand: Hand) -> bool:
        return self._dealer_won(hand) or self._dealer_tenpai(hand)

    def _check_dealer_stop(self, hand: Hand, scores: list[int], keep_dealer: bool) -> str:
        rs = self.ruleset
        if not self.is_all_last():
            raise RecordError(
                None,
                "dealer_stops",
                "only the all-last dealer can stop",
                code="dealer_stop_not_all_last",
            )
        if keep_dealer and self._dealer_won(hand):
            kind, allowed = "agari_yame", rs.agari_yame
        elif keep_dealer and self._dealer_tenpai(hand):
            kind, allowed = "tenpai_yame", rs.tenpai_yame
        else:
            raise RecordError(
                None,
                "dealer_stops",
                "the dealer can stop only after keeping the deal by a win or tenpai",
                code="dealer_stop_needs_renchan",
            )
        if not allowed:
            if kind == "agari_yame":
                raise RecordError(
                    None, "dealer_stops", "this ruleset has no agari_yame", code="no_agari_yame"
                )
            raise RecordError(
                None, "dealer_stops", "this ruleset has no tenpai_yame", code="no_tenpai_yame"
            )
        if rs.yame_needs_target and max(scores) < rs.extension_target:
            raise RecordError(
                None,
                "dealer_stops",
                f"nobody has {rs.extension_target} points yet: the game goes on (H-21)",
                code="yame_needs_target",
                params={"target": rs.extension_target, "top_score": max(scores)},
            )
        return kind

    def _advance(self, keep_dealer: bool, next_honba: int) -> str | None:
        """Move to the next hand; returns why the game ended, if it did."""
        rs = self.ruleset
        self.honba = next_honba
        if keep_dealer:
            return None
        in_extension = self.wind_index >= rs.rounds
        self.hand_number += 1
        target_reached = max(self.scores) >= rs.extension_target
        if self.hand_number == rs.players:
            self.hand_number = 0
            next_wind = self.wind_index + 1
            if next_wind < rs.rounds:
                self.wind_index = next_wind
                return None
            # The end of the base game or of an extension round (seed 003 L39-50, Tenhou §4).
            if rs.extension != "none" and next_wind < len(self._winds) and not target_reached:
                self.wind_index = next_wind
                return None
            self.hand_number = rs.players - 1
            return "last_hand"
        if in_extension and rs.extension == "sudden_death" and target_reached:
            self.hand_number -= 1
            return "last_hand"
        return None

    def _finish(self, ended_by: str) -> None:
        self.ended_by = ended_by
        last = self.results[-1]
        self.settlement = final_settlement(
            self.ruleset,
            self.scores,
            deposits=self.deposits,
            ended_by=ended_by,
            busting_payments=last.payments,
            chips=self.chips,
            win_counts=self.win_counts,
        )
