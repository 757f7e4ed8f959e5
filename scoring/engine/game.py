"""The hanchan: applies hands one by one, drives dealer, honba and deposits, ends and settles.

Game progression follows rules-spec §0 (honba mechanics [SK], X-02) and §1C-§1F per ruleset:
renchan on a dealer win or dealer tenpai (never under ``renchan = "none"``), honba +1 after a
dealer win or any draw and reset by a non-dealer win, deposits carried over draws, every end
condition of the seeds (last hand, tobi, agari/tenpai-yame, dealer-top, extensions). All
amounts are integers in points.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import add
from typing import Any, NamedTuple

from .errors import RecordError
from .hand_outcomes import HandLedger, HandOutcomes
from .hand_value import win_prices
from .hands import Hand
from .ruleset import Ruleset
from .settlement import Payment, Settlement, final_settlement, is_bust, rank_order

# The hand's number in its round label ("E1"): the dealer's seat plus one.
_HAND_NUMBERS = ("1", "2", "3", "4")
_new_tuple = tuple.__new__


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


class Game(HandOutcomes):
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
        self._prices = win_prices(ruleset)
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
        return self._winds[self.wind_index] + _HAND_NUMBERS[self.hand_number]

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
        if self.ended_by is not None:
            raise RecordError(
                self.hands_played,
                "result",
                f"the game already ended ({self.ended_by})",
                code="game_over",
                params={"ended_by": self.ended_by},
            )
        try:
            return self._play(hand)
        except RecordError as error:
            if error.hand_index is None:
                # A rejected hand changed nothing: the count is still this hand's index.
                raise error.with_hand(self.hands_played) from None
            raise

    def _play(self, hand: Hand) -> HandResult:
        """:meth:`play` of a game in play; an error's ``hand_index`` is ``None`` where
        :meth:`play` sets it."""
        rs = self.ruleset
        dealer = self.hand_number
        honba = self.honba
        ledger = HandLedger(rs.players, self.deposits)
        if hand.riichi or hand.penalties:
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
        if keep_dealer and rs.renchan == "none" and result != "chombo":
            # A lobby without renchan (Tenhou's 0x641 logs): the deal passes after every win
            # and draw; a dealer's win resets the honba as anyone's win does, a draw adds one.
            keep_dealer = False
            next_honba = 0 if self._dealer_won(hand) else next_honba
        # H-18: the win or the draw is settled first, then the chombo; the hand's own result
        # decides the dealer and the honba. A bust by the chombo payment alone ends the game
        # only where the ruleset says so (tobi_after_chombo).
        bust_scores: list[int] | None = None
        if hand.chombo_after is not None:
            if not rs.chombo_after_result:
                raise RecordError(
                    None,
                    "chombo",
                    "the ruleset waives a chombo in a hand that ends in a win or a draw",
                    code="no_chombo_after_result",
                )
            if not rs.tobi_after_chombo:
                bust_scores = list(map(add, self.scores, ledger.deltas))
            self._pay_chombo(hand.chombo_after, dealer, ledger)

        deltas = ledger.deltas
        new_scores = list(map(add, self.scores, deltas))
        # What can end the game after this hand, looked at only where it can (most hands
        # neither bust anyone nor keep the deal nor stop it).
        ended = None
        if (
            hand.dealer_stops
            or (keep_dealer and rs.dealer_top_ends != "never")
            or (rs.tobi and min(new_scores if bust_scores is None else bust_scores) <= 0)
        ):
            ended = self._end_after_hand(hand, new_scores, keep_dealer, ledger, bust_scores)

        # Everything is valid: commit.
        # Positional, without the keyword machinery: HandResult is built for every hand of
        # every replay.
        record = _new_tuple(
            HandResult,
            (
                self._winds[self.wind_index] + _HAND_NUMBERS[dealer],
                dealer,
                honba,
                self.deposits,
                tuple(deltas),
                tuple(new_scores),
                ledger.table,
                tuple(ledger.payments),
                self._no_chips if ledger.chips is None else tuple(ledger.chips),
            ),
        )
        self.results.append(record)
        self.scores = new_scores
        self.deposits = ledger.table
        for seat in ledger.wins:
            self.win_counts[seat] += 1
        if ledger.chips is not None:
            self.chips = list(map(add, self.chips, ledger.chips))
        if ended is None:
            if keep_dealer:
                self.honba = next_honba
            else:
                ended = self._advance(keep_dealer, next_honba)
        if ended is None and hand.time_up:
            # T-07: time was called during this hand; it is the last one.
            ended = "time_up"
        if ended is not None:
            self._finish(ended)
        return record

    # -- ending and advancing ---------------------------------------------------------------
    def _end_after_hand(
        self,
        hand: Hand,
        scores: list[int],
        keep_dealer: bool,
        ledger: HandLedger,
        bust_scores: list[int] | None = None,
    ) -> str | None:
        """Tobi, agari/tenpai-yame and the dealer-top end; validates ``dealer_stops``.
        ``bust_scores``: the scores the bust check reads where they differ from ``scores``
        (before a chombo paid after the hand, under ``tobi_after_chombo = false``)."""
        rs = self.ruleset
        ended: str | None = None
        checked = scores if bust_scores is None else bust_scores
        if (
            rs.tobi
            and min(checked) <= 0
            and (hand.result != "chombo" or rs.tobi_after_chombo)
            and any(is_bust(rs, score) for score in checked)
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
            and (
                self.is_all_last() or (rs.dealer_top_in_extension and self.wind_index >= rs.rounds)
            )
            and rank_order(rs, scores)[0] == dealer
            and scores[dealer] >= rs.dealer_top_min_score
            and (
                rs.dealer_top_ends == "after_any_hand"
                or (rs.dealer_top_ends == "after_win" and self._dealer_won(hand))
                or (
                    rs.dealer_top_ends == "after_win_or_tenpai" and self._dealer_won_or_tenpai(hand)
                )
            )
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
        if self.hand_number == rs.players:
            self.hand_number = 0
            next_wind = self.wind_index + 1
            if next_wind < rs.rounds:
                self.wind_index = next_wind
                return None
            # The end of the base game or of an extension round (seed 003 L39-50, Tenhou §4).
            if (
                rs.extension != "none"
                and next_wind < len(self._winds)
                and max(self.scores) < rs.extension_target
            ):
                self.wind_index = next_wind
                return None
            self.hand_number = rs.players - 1
            return "last_hand"
        if (
            in_extension
            and rs.extension == "sudden_death"
            and max(self.scores) >= rs.extension_target
        ):
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
