"""Re-scoring an online log with the engine, hand by hand.

:func:`verify` plays the log's hands through :class:`scoring.engine.Game` under each ruleset
the log may have been played under, and keeps the first under which every hand agrees:

- before each hand, the engine's round, honba, deposits and scores equal the log's;
- of the hand's candidate club-record hands (:class:`.log.LogHand`), the first the engine
  accepts whose score changes equal the log's (from the next hand's start scores) and after
  which the engine's next round, honba and deposits are the log's next hand's (or, after the
  last hand, the game is over with the log's final scores);
- every figure the log states for the hand itself (:class:`.log.StatedEnd`: each win's or
  draw's changes, the scores before or after it and a win's value, where the format writes
  them) is the engine's too: one that is not means the log was edited
  (:class:`.log.LogAltered`), and no other ruleset is tried;
- a settlement that differs from the log's is reported in
  :attr:`VerifiedGame.settlement_note`, not refused: a ranked Tenhou game is settled as
  Tenhou settled on its day (:data:`.tenhou_rules.SETTLEMENT_CHANGES`), so
  only an edited settlement differs, and what is stored is the engine's.

Nothing is guessed past that: a log that agrees under no ruleset is refused with
:class:`.log.LogMismatch` naming the first hand (round and honba) that differs under the
likeliest ruleset and both figures. Each hand is played once per candidate tried, and an
attempt stops at its first hand that differs; the plays of the attempt that agrees are kept
(:attr:`VerifiedGame.played`), so the ledger writes them without playing again
(:func:`scoring.ledger.online.club.verified_plan`). Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.engine import Game, Hand, HandResult, RecordError, load_ruleset, parse_hand
from scoring.engine.replay import RECORD_FORMAT

from .lobby_rules import PRIVATE_VARIANTS, is_private, lobby_overrides
from .log import LogAltered, LogError, LogHand, LogMismatch, OnlineLog


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One hand as the engine played it: ``before`` the engine's snapshot before it
    (:meth:`Game.snapshot`), ``hand`` the candidate as parsed, ``result`` what it did."""

    before: dict[str, Any]
    hand: Hand
    result: HandResult


@dataclass(frozen=True, slots=True)
class VerifiedGame:
    """A log the engine reproduces.

    ``record`` is its club game record (format club-game/1, with ``date`` where the log gives
    one and ``source`` naming service and log id); ``played`` every hand as the engine played
    it, in order; ``game`` the engine's game after the last hand (over: nothing more is
    played on it); ``final`` its settlement as ``replay`` prints it; ``engine_plays`` how
    many hands verification played in all (every candidate of every ruleset tried).
    """

    log: OnlineLog
    ruleset: str
    record: dict[str, Any]
    played: tuple[PlayedHand, ...]
    game: Game
    final: dict[str, Any]
    engine_plays: int
    settlement_note: str = ""
    overrides: dict[str, Any] | None = None

    @property
    def results(self) -> tuple[HandResult, ...]:
        """The engine's result of every hand, in order."""
        return tuple(p.result for p in self.played)


# Tenhou's own ends of a game as its logs show them, where they differ from
# docs/tenhou-rules.md §4 (the presets follow the spec): the extension dealer's top ends the
# game in every log seen that reaches the case (2014, 2015, a 3-player game of 2022: no
# era); the all-last dealer's tenpai did not stop a game of 2009-2010. Tried only
# when the preset itself does not reproduce a log, and kept in the stored game's
# ``overrides``.
TENHOU_VARIANTS: tuple[dict[str, Any], ...] = (
    {"dealer_top_in_extension": True},
    {"dealer_top_ends": "after_win"},
    {"dealer_top_in_extension": True, "dealer_top_ends": "after_win"},
)


# The engine's payments (scoring.engine.Payment reasons) that make up a win's value.
WIN_PAYMENTS = ("ron", "tsumo", "pao")


class _Plays:
    """How many hands the engine played, over every attempt."""

    def __init__(self) -> None:
        self.count = 0


def verify(
    log: OnlineLog,
    rulesets: tuple[str, ...] | None = None,
    *,
    overrides: Mapping[str, Any] | None = None,
) -> VerifiedGame:
    """Re-score ``log`` under ``rulesets`` (default: the log's own candidates), in order; for
    a Tenhou preset that does not reproduce it, also under :data:`TENHOU_VARIANTS`.

    Each ruleset carries the log's lobby rules
    (:func:`.lobby_rules.lobby_overrides`: a private lobby's start points, return, uma,
    rounding, open tanyao), and a private lobby's game may also have no extension
    (:data:`.lobby_rules.PRIVATE_VARIANTS`); ``overrides`` given instead are applied as they
    are under every ruleset, with no variant (a club's ruleset for the lobby is not verified
    again: :func:`scoring.ledger.online.club.club_rules` stores these plays under it).

    Returns:
        The :class:`VerifiedGame` of the first ruleset (and variant) under which every hand,
        every figure the log states and the final scores agree.

    Raises:
        LogAltered: a figure the log states for a hand is not the engine's (the log contradicts
            itself: no other ruleset is tried).
        LogMismatch: no ruleset reproduces the log; the error of the first ruleset tried.
        LogError: a ruleset id that does not exist.
    """
    first: LogError | None = None
    plays = _Plays()
    for ruleset_id in rulesets or log.rulesets:
        variants: tuple[dict[str, Any], ...] = ({},)
        if overrides is not None:
            base = dict(overrides)
        else:
            try:
                base = lobby_overrides(log, load_ruleset(ruleset_id))
            except KeyError:
                base = {}
            if ruleset_id.startswith("tenhou-"):
                variants += TENHOU_VARIANTS
            if is_private(log):
                variants += PRIVATE_VARIANTS
        for variant in variants:
            try:
                return _verify_under(log, ruleset_id, {**base, **variant}, plays)
            except LogAltered:
                raise
            except LogError as error:
                first = first or error
    assert first is not None
    raise first


def _verify_under(
    log: OnlineLog, ruleset_id: str, overrides: dict[str, Any], plays: _Plays | None = None
) -> VerifiedGame:
    if plays is None:
        plays = _Plays()
    try:
        ruleset = load_ruleset(ruleset_id, overrides or None)
    except KeyError:
        raise LogError(f"unknown ruleset {ruleset_id!r}") from None
    if ruleset.players != len(log.players):
        raise LogError(
            f"{ruleset_id}: a {ruleset.players}-player ruleset, the log has "
            f"{len(log.players)} players"
        )
    game = Game(ruleset)
    chosen: list[dict[str, Any]] = []
    played: list[PlayedHand] = []
    for index, hand in enumerate(log.hands):
        state = game.state()
        if state.ended_by is not None:
            raise LogMismatch.at(
                hand,
                state.scores,
                hand.start_scores,
                f"under {ruleset_id} the game ended before this hand ({state.ended_by})",
            )
        if (state.round, state.honba, state.deposits) != (hand.round, hand.honba, hand.deposits):
            raise LogMismatch.at(
                hand,
                state.scores,
                hand.start_scores,
                f"under {ruleset_id} this hand is {state.round} {state.honba} honba with "
                f"{state.deposits} on the table",
            )
        if state.scores != hand.start_scores:
            raise LogMismatch.at(
                hand, state.scores, hand.start_scores, "scores at the start of the hand"
            )
        nxt = log.hands[index + 1] if index + 1 < len(log.hands) else None
        game, candidate, done = _play(game, ruleset_id, index, hand, nxt, log, plays)
        chosen.append(candidate)
        played.append(done)
    settlement = game.settlement
    assert settlement is not None  # _play refuses a last hand that does not end the game
    note = ""
    # The mjlog's owari, else the JSON's sc (read for the lobby's rules and the era, and
    # noted here too: an sc edited alone said nothing).
    stated = log.final_points if log.final_points is not None else log.stated_points
    if stated is not None and settlement.points != tuple(stated):
        # Not a refusal: the scores agree, and the settlement is the ruleset's with the era
        # of the game's day (lobby_rules._tenhou_era), so the log's was edited or its era
        # is not the one its day gives. The engine's is what is stored.
        note = (
            f"the settlement under {ruleset_id} is {list(settlement.points)}, the log's "
            f"{list(stated)}"
        )
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "ruleset": ruleset_id,
        **({"overrides": dict(overrides)} if overrides else {}),
        "players": list(log.players),
        "hands": chosen,
        "source": f"{log.service}:{log.log_id}",
    }
    if log.played_on is not None:
        record["date"] = log.played_on.isoformat()
    return VerifiedGame(
        log=log,
        ruleset=ruleset_id,
        record=record,
        played=tuple(played),
        game=game,
        final=settlement.to_json(),
        engine_plays=plays.count,
        settlement_note=note,
        overrides=dict(overrides) if overrides else None,
    )


def _play(
    game: Game,
    ruleset_id: str,
    index: int,
    hand: LogHand,
    nxt: LogHand | None,
    log: OnlineLog,
    plays: _Plays,
) -> tuple[Game, dict[str, Any], PlayedHand]:
    """The game after ``hand``, the candidate that reproduces it and how it was played."""
    snapshot = game.snapshot()
    ruleset = game.ruleset
    zeros = (0,) * ruleset.players
    closest: LogMismatch | None = None
    for candidate in hand.candidates:
        trial = Game.restore(ruleset, snapshot)
        try:
            parsed = parse_hand(candidate, ruleset.players, index)
            plays.count += 1
            result = trial.play(parsed)
        except RecordError as error:
            why = f"the engine refuses it: {error.message}"
            closest = closest or LogMismatch.at(hand, zeros, hand.deltas, why)
            continue
        if result.deltas != hand.deltas:
            # Changes that differ say more than the engine's refusal of another reading.
            if closest is None or closest.ours == zeros:
                closest = LogMismatch.at(hand, result.deltas, hand.deltas, f"under {ruleset_id}")
            continue
        differs = _next_differs(trial, nxt, log, hand, result, ruleset_id)
        if differs is not None:
            closest = differs
            continue
        altered = _stated_differs(hand, result)
        if altered is not None:
            raise altered
        return trial, candidate, PlayedHand(snapshot, parsed, result)
    raise closest or LogMismatch.at(hand, zeros, hand.deltas, "no reading of the hand")


def _next_differs(
    game: Game,
    nxt: LogHand | None,
    log: OnlineLog,
    hand: LogHand,
    result: HandResult,
    ruleset_id: str,
) -> LogMismatch | None:
    """Where the engine's state after ``hand`` is not the log's next hand (or, after the
    last hand, the end of the game with the log's final scores), else ``None``."""
    state = game.state()
    why = ""
    if nxt is None:
        if state.ended_by is None:
            why = f"the game goes on to {state.round} {state.honba} honba"
        else:
            assert game.settlement is not None
            final = game.settlement.scores
            if log.final_scores is not None and final != log.final_scores:
                return LogMismatch.at(
                    hand,
                    final,
                    log.final_scores,
                    f"the final scores under {ruleset_id}",
                    figure="final scores",
                )
    elif state.ended_by is not None:
        why = f"the game ends here ({state.ended_by})"
    elif (state.round, state.honba, state.deposits) != (nxt.round, nxt.honba, nxt.deposits):
        why = (
            f"the next hand is {state.round} {state.honba} honba with {state.deposits} "
            f"on the table, the log's {nxt.round} {nxt.honba} honba with {nxt.deposits}"
        )
    return (
        LogMismatch.at(hand, result.deltas, hand.deltas, f"under {ruleset_id} {why}")
        if why
        else None
    )


def _stated_differs(hand: LogHand, result: HandResult) -> LogAltered | None:
    """The first figure the log states for ``hand`` (:attr:`LogHand.stated`) that is not the
    engine's ``result``, as the hand's changes that figure gives, else ``None``.

    The ends' changes, summed, less the riichi sticks put out in the hand, are the hand's
    changes; an end's scores before it (or after it), plus the changes of the ends from it
    (after it) on, less the start scores, are too.
    """
    if not hand.stated:
        return None
    seats = range(len(result.deltas))
    start = tuple(s - d for s, d in zip(result.scores, result.deltas, strict=True))
    sticks = [0] * len(start)
    for payment in result.payments:
        if payment.reason == "riichi" and payment.payer is not None:
            sticks[payment.payer] += payment.amount
    whats = "; ".join(end.what for end in hand.stated)
    stated = tuple(sum(end.changes[s] for end in hand.stated) - sticks[s] for s in seats)
    if stated != result.deltas:
        return _altered(hand, result, stated, f"the changes the log states, {whats}")
    later = [0] * len(start)  # the changes of the ends after the one looked at
    for end in reversed(hand.stated):
        if end.after is not None:
            stated = tuple(end.after[s] + later[s] - start[s] for s in seats)
            if stated != result.deltas:
                return _altered(
                    hand,
                    result,
                    stated,
                    f"the scores after the payments the log states, {end.what}",
                )
        later = [later[s] + end.changes[s] for s in seats]
        if end.before is not None:
            stated = tuple(end.before[s] + later[s] - start[s] for s in seats)
            if stated != result.deltas:
                return _altered(
                    hand,
                    result,
                    stated,
                    f"the scores before the payments the log states, {end.what}",
                )
    for end in hand.stated:
        if end.winner is None or end.value is None:
            continue
        paid = sum(
            p.amount for p in result.payments if p.payee == end.winner and p.reason in WIN_PAYMENTS
        )
        if paid != end.value:
            return LogAltered(
                hand.label,
                tuple(paid if s == end.winner else 0 for s in seats),
                tuple(end.value if s == end.winner else 0 for s in seats),
                f"the win's value the log states, {end.what}",
                round=hand.round,
                honba=hand.honba,
                figure="win value",
            )
    return None


def _altered(hand: LogHand, result: HandResult, stated: tuple[int, ...], why: str) -> LogAltered:
    return LogAltered(hand.label, result.deltas, stated, why, round=hand.round, honba=hand.honba)
