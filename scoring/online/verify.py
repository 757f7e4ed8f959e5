"""Re-scoring an online log with the engine, hand by hand (issue 12, item 2).

:func:`verify` plays the log's hands through :class:`scoring.engine.Game` under each ruleset
the log may have been played under, and keeps the first under which every hand agrees:

- before each hand, the engine's round, honba, deposits and scores equal the log's;
- of the hand's candidate club-record hands (:class:`.log.LogHand`), the first the engine
  accepts whose score changes equal the log's and after which the engine's next round,
  honba and deposits are the log's next hand's (or, after the last hand, the game is over);
- the final scores equal the log's (a settlement that differs from the log's is reported in
  :attr:`VerifiedGame.settlement_note`, not refused: it is the ruleset's, and the services
  changed theirs over the years).

Nothing is guessed past that: a log that agrees under no ruleset is refused with
:class:`.log.LogMismatch` naming the first hand (round and honba) that differs under the
likeliest ruleset and both sets of changes. Pure Python: no Django import.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.engine import Game, HandResult, RecordError, load_ruleset, parse_hand
from scoring.engine.replay import RECORD_FORMAT

from .log import LogError, LogHand, LogMismatch, OnlineLog


@dataclass(frozen=True, slots=True)
class VerifiedGame:
    """A log the engine reproduces: ``record`` is its club game record (format club-game/1,
    with ``date`` where the log gives one and ``source`` naming service and log id);
    ``results`` the engine's per-hand results; ``final`` its settlement as ``replay`` prints
    it."""

    log: OnlineLog
    ruleset: str
    record: dict[str, Any]
    results: tuple[HandResult, ...]
    final: dict[str, Any]
    settlement_note: str = ""
    overrides: dict[str, Any] | None = None


# Tenhou's own ends of a game as its older logs show them, where they differ from
# docs/tenhou-rules.md §4 (the presets follow the spec): tried only when the preset itself
# does not reproduce a log, and kept in the stored game's ``overrides``.
TENHOU_VARIANTS: tuple[dict[str, Any], ...] = (
    {"dealer_top_in_extension": True},
    {"dealer_top_ends": "after_win"},
    {"dealer_top_in_extension": True, "dealer_top_ends": "after_win"},
)


def verify(log: OnlineLog, rulesets: tuple[str, ...] | None = None) -> VerifiedGame:
    """Re-score ``log`` under ``rulesets`` (default: the log's own candidates), in order; for
    a Tenhou preset that does not reproduce it, also under :data:`TENHOU_VARIANTS`.

    Raises:
        LogMismatch: no ruleset reproduces the log; the error of the first ruleset tried.
        LogError: a ruleset id that does not exist.
    """
    first: LogError | None = None
    for ruleset_id in rulesets or log.rulesets:
        variants: tuple[dict[str, Any], ...] = ({},)
        if ruleset_id.startswith("tenhou-"):
            variants += TENHOU_VARIANTS
        for overrides in variants:
            try:
                return _verify_under(log, ruleset_id, overrides)
            except LogError as error:
                first = first or error
    assert first is not None
    raise first


def _verify_under(log: OnlineLog, ruleset_id: str, overrides: dict[str, Any]) -> VerifiedGame:
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
    results: list[HandResult] = []
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
        game, candidate = _play(game, ruleset_id, index, hand, nxt, log)
        chosen.append(candidate)
        results.append(game.results[-1])
    settlement = game.settlement
    assert settlement is not None  # _play refuses a last hand that does not end the game
    note = ""
    if log.final_points is not None and settlement.points != log.final_points:
        # Not a refusal: the scores agree, and the settlement is the ruleset's own (Tenhou
        # rounded 3-player results to 1,000 in 2018 and no longer does, docs/tenhou-rules.md).
        note = (
            f"the settlement under {ruleset_id} is {list(settlement.points)}, the log's "
            f"{list(log.final_points)}"
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
        results=tuple(results),
        final=settlement.to_json(),
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
) -> tuple[Game, dict[str, Any]]:
    """The game after ``hand`` and the candidate that reproduces it."""
    snapshot = game.snapshot()
    ruleset = game.ruleset
    closest: tuple[tuple[int, ...], str] | None = None
    for candidate in hand.candidates:
        trial = Game.restore(ruleset, snapshot)
        try:
            result = trial.play(parse_hand(candidate, ruleset.players, index))
        except RecordError as error:
            closest = closest or ((0,) * ruleset.players, f"the engine refuses it: {error.message}")
            continue
        if result.deltas != hand.deltas:
            if closest is None or closest[0] == (0,) * ruleset.players:
                closest = (result.deltas, f"under {ruleset_id}")
            continue
        why = _next_differs(trial, nxt, log)
        if why:
            closest = (result.deltas, f"under {ruleset_id} {why}")
            continue
        return trial, candidate
    ours, why = closest or ((0,) * ruleset.players, "no reading of the hand")
    raise LogMismatch.at(hand, ours, hand.deltas, why)


def _next_differs(game: Game, nxt: LogHand | None, log: OnlineLog) -> str:
    """Why the engine's state after a hand is not the log's next hand, or ``""``."""
    state = game.state()
    if nxt is None:
        if state.ended_by is None:
            return f"the game goes on to {state.round} {state.honba} honba"
        assert game.settlement is not None
        if log.final_scores is not None and game.settlement.scores != log.final_scores:
            return (
                f"the final scores are {list(game.settlement.scores)}, the log's "
                f"{list(log.final_scores)}"
            )
        return ""
    if state.ended_by is not None:
        return f"the game ends here ({state.ended_by})"
    if (state.round, state.honba, state.deposits) != (nxt.round, nxt.honba, nxt.deposits):
        return (
            f"the next hand is {state.round} {state.honba} honba with {state.deposits} "
            f"on the table, the log's {nxt.round} {nxt.honba} honba with {nxt.deposits}"
        )
    return ""
