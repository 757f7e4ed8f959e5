"""The ledger's one pipeline: a change to a game, planned by running the engine once.

:func:`plan` takes the stored game (:class:`StoredGame`) and a change (:data:`Change`: a new
hand, a correction, an undo, a void, a whole record's hands) and returns a :class:`Plan`: the
engine's result for every hand that changes, the new state between hands and, when the game
is over, the settlement. It plays the engine exactly once over the hands that change and
nothing else: a new hand starts from the stored snapshot, a correction of hand *k* from the
snapshot stored before hand *k* (``HandEntry.before``), an undo plays nothing.

The table screen's preview renders a plan; the services (:mod:`scoring.ledger.services`) and the
history seeding write one (:mod:`scoring.ledger.write`). Nothing else plays the engine.
No database access here: the caller loads the stored game and writes the plan.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import gettext as _

from scoring.engine import Game, Hand, RecordError, Ruleset, Settlement, TableState, parse_hand
from scoring.engine.final_scores import parse_final_scores, settle_final_scores
from scoring.ledger.errors import LedgerError, refusal
from scoring.ledger.stored import game_state_json, hand_result_json


@dataclass(frozen=True, slots=True)
class StoredHand:
    """A hand as the ledger stores it: ``data`` (the record-format hand), ``result`` (see
    :func:`~scoring.ledger.stored.hand_result_json`) and ``before`` (the engine snapshot
    before it, ``None`` in rows older than the snapshot)."""

    data: Mapping[str, Any]
    result: Mapping[str, Any]
    before: Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class StoredGame:
    """What a plan needs of a stored game.

    ``snapshot``: the engine state between hands (``Hanchan.state["game"]``; ``None`` once
    the game is over); ``hands_played``; ``hands``: every stored hand in order, or ``None``
    when not loaded (a new hand and a void need none; a correction and an undo do);
    ``final_scores``: the game's final scores when it was entered as final scores only.
    """

    ruleset: Ruleset
    snapshot: Mapping[str, Any] | None
    hands_played: int
    hands: Sequence[StoredHand] | None = None
    final_scores: Mapping[str, Any] | None = None

    @classmethod
    def new(cls, ruleset: Ruleset) -> StoredGame:
        """A game with no hand yet (for a start or an import)."""
        return cls(ruleset, Game(ruleset).snapshot(), 0, ())


@dataclass(frozen=True, slots=True)
class NewHand:
    """Record the next hand (``hand``: a record-format hand object, not yet validated)."""

    hand: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Correction:
    """Replace hand ``sequence`` (0-based) and recompute every hand after it."""

    sequence: int
    hand: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last hand."""


@dataclass(frozen=True, slots=True)
class Void:
    """Void the game: it keeps its hands and counts nowhere. Plays nothing."""


@dataclass(frozen=True, slots=True)
class Record:
    """A whole game's hands at once (an import, the history seeding, a start with none)."""

    hands: Sequence[Any]


@dataclass(frozen=True, slots=True)
class FinalScoresEntry:
    """Enter (or re-enter) the game as final scores only: ``final_scores`` is the record's
    ``final_scores`` object (:mod:`scoring.engine.final_scores`), not yet validated. Only a
    game without hands takes it."""

    final_scores: Mapping[str, Any]


Change = NewHand | Correction | Undo | Void | Record | FinalScoresEntry


@dataclass(frozen=True, slots=True)
class PlannedHand:
    """A hand as it will be stored: ``sequence`` (0-based), ``data``, ``result`` and
    ``before`` (see :class:`StoredHand`)."""

    sequence: int
    data: dict[str, Any]
    result: dict[str, Any]
    before: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Plan:
    """What a change does to a game, computed but not written.

    ``first``: the first hand (0-based) that changes; ``hands``: the hands from ``first``
    on as they will be stored (for an undo, none: hand ``first`` goes); ``hands_after``:
    how many hands the game has afterwards; ``state``: the new ``Hanchan.state``;
    ``settlement``: the final settlement if the game is over afterwards, else ``None``;
    ``voided``: the change voids the game.
    """

    change: Change
    ruleset: Ruleset
    first: int
    hands: tuple[PlannedHand, ...]
    hands_after: int
    state: dict[str, Any]
    settlement: Settlement | None
    voided: bool = False
    engine_plays: int = field(default=0, compare=False)

    @property
    def ended_by(self) -> str | None:
        """Why the game ends after this change (``None`` while it goes on)."""
        return None if self.settlement is None else self.settlement.ended_by

    @property
    def last(self) -> PlannedHand | None:
        """The last hand planned (the new hand of a :class:`NewHand`)."""
        return self.hands[-1] if self.hands else None


def plan(game: StoredGame, change: Change) -> Plan:
    """Plan ``change`` on ``game``, playing the engine once over the hands that change.

    Returns:
        A :class:`Plan`; nothing is written.

    Raises:
        LedgerError: the game is over (a new hand), there is no such hand or no hand to
            undo, a hand is impossible here (``field`` is the record key at fault, ``cause``
            the engine's :class:`~scoring.engine.RecordError`), or a correction makes a later
            hand impossible (``later_hand`` is that hand's 1-based number).
    """
    if isinstance(change, NewHand):
        if game.snapshot is None:
            raise LedgerError(_("This game is over: no more hands can be entered."), "result")
        start = Game.restore(game.ruleset, dict(game.snapshot))
        return _played(change, start, [change.hand], corrected=None)
    if isinstance(change, Record):
        return _played(change, Game(game.ruleset), list(change.hands), corrected=None)
    if isinstance(change, FinalScoresEntry):
        return _final_scores(game, change)
    if isinstance(change, Void):
        return Plan(
            change, game.ruleset, game.hands_played, (), game.hands_played, {}, None, voided=True
        )
    if isinstance(change, Undo) and game.final_scores is not None:
        # Taking back final scores leaves the game as it started: no hand, in play.
        return _played(change, Game(game.ruleset), [], corrected=None)
    hands = _loaded(game)
    if isinstance(change, Undo):
        if not hands:
            raise LedgerError(_("There is no hand to undo."))
        last = len(hands) - 1
        start, plays = _before(game.ruleset, hands, last)
        result = _played(change, start, [], corrected=None)
        return _with_plays(result, plays)
    if not 0 <= change.sequence < len(hands):
        raise LedgerError(_("There is no such hand."), "sequence")
    start, plays = _before(game.ruleset, hands, change.sequence)
    raw = [change.hand, *(h.data for h in hands[change.sequence + 1 :])]
    return _with_plays(_played(change, start, raw, corrected=change.sequence), plays)


def state_before(game: StoredGame, sequence: int) -> TableState:
    """The table just before hand ``sequence`` (0-based) of ``game`` (whose hands are
    loaded): restored from the snapshot stored with that hand, no hand played (rows older
    than snapshots are replayed).

    Raises:
        LedgerError: there is no such hand.
    """
    hands = _loaded(game)
    if not 0 <= sequence < len(hands):
        raise LedgerError(_("There is no such hand."), "sequence")
    return _before(game.ruleset, hands, sequence)[0].state()


def _final_scores(game: StoredGame, change: FinalScoresEntry) -> Plan:
    """Settle the game from its final raw scores; no hand is played."""
    if game.hands_played:
        raise LedgerError(
            _("This game has hands: it cannot be entered as final scores only."), "final_scores"
        )
    ruleset = game.ruleset
    try:
        final = parse_final_scores(change.final_scores, ruleset)
        settlement = settle_final_scores(ruleset, final)
    except RecordError as error:
        raise LedgerError(refusal(error, ruleset), error.key, cause=error) from None
    state = {
        "game": None,
        "table": {
            "round": "",
            "dealer": 0,
            "honba": 0,
            "deposits": final.deposits,
            "scores": list(final.scores),
            "all_last": False,
            "hands_played": 0,
        },
        "final_scores": final.to_json(),
    }
    return Plan(change, ruleset, 0, (), 0, state, settlement)


def _loaded(game: StoredGame) -> Sequence[StoredHand]:
    if game.hands is None:
        raise ValueError("this change needs the game's stored hands")
    return game.hands


def _before(ruleset: Ruleset, hands: Sequence[StoredHand], sequence: int) -> tuple[Game, int]:
    """The game just before hand ``sequence``: restored from the snapshot stored with that
    hand, or (rows older than snapshots) replayed from East 1. Returns the plays it took."""
    snapshot = hands[sequence].before
    if snapshot is not None:
        return Game.restore(ruleset, dict(snapshot)), 0
    game = Game(ruleset)
    for index, stored in enumerate(hands[:sequence]):
        game.play(parse_hand(stored.data, ruleset.players, index))
    return game, sequence


def _with_plays(result: Plan, extra: int) -> Plan:
    """``result`` counting ``extra`` more engine plays (the replay that reached a hand stored
    without its snapshot)."""
    return replace(result, engine_plays=result.engine_plays + extra) if extra else result


def _played(change: Change, game: Game, raw_hands: list[Any], corrected: int | None) -> Plan:
    """Play ``raw_hands`` from ``game`` (mutated) and plan the outcome."""
    ruleset = game.ruleset
    first = game.hands_played
    planned = []
    for offset, raw in enumerate(raw_hands):
        index = first + offset
        before = game.snapshot() if game.ended_by is None else None
        try:
            hand: Hand = parse_hand(raw, ruleset.players, index)
            result = game.play(hand)
        except RecordError as error:
            if corrected is not None and index != corrected:
                raise LedgerError(
                    _("Correcting this hand makes hand %(n)d impossible: %(why)s")
                    % {"n": index + 1, "why": refusal(error, ruleset)},
                    error.key,
                    cause=error,
                    later_hand=index + 1,
                ) from None
            # A record's refusal is read where it came from (a file): the engine's own line,
            # as ``replay`` prints it; a hand at the table gets the sentence for the player.
            message = error.line() if isinstance(change, Record) else refusal(error, ruleset)
            raise LedgerError(message, error.key, cause=error) from None
        assert before is not None  # play() refuses a hand after the end
        planned.append(PlannedHand(index, hand.to_json(), hand_result_json(result), before))
    return Plan(
        change,
        ruleset,
        first,
        tuple(planned),
        game.hands_played,
        game_state_json(game),
        game.settlement,
        engine_plays=len(raw_hands),
    )
