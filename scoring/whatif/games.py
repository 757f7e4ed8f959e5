"""One game re-scored under another ruleset's payment and settlement rules
(docs/what-if.md). Pure Python: a game record in, a result or a refusal out.

The record is the ledger's export of the game (``scoring.ledger.hanchan_record``,
docs/game-record-format.md): its hands as entered, with their han and fu. Under the game's
own ruleset the record replays as it is, so the result is the stored one (the page and the
tests check every game). Under another ruleset of the same family the record keeps its
ruleset, and the other ruleset's rules of :data:`scoring.whatif.rules.TAKEN` go into its
``overrides``. The engine replays it: :func:`scoring.engine.replay_record` for one record
(:func:`settled`), its ``Game`` fed the parsed hands for many (:class:`Rescorer`, which
builds each mix of rules once and skips the value checks the ledger made when it stored
the record).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from scoring.engine import Game as EngineGame
from scoring.engine import (
    Hand,
    RecordError,
    Ruleset,
    load_ruleset,
    parse_hand,
    record_players,
    replay_record,
    ruleset_of_record,
)
from scoring.whatif.rules import FINAL_SCORES_TAKEN, taken_overrides

# Why a game cannot be re-scored, besides the engine's own refusal codes (ERROR_CODES).
PLAYERS_DIFFER = "players_differ"  # a 3-player game under a 4-player ruleset, or back
NOT_FINISHED = "not_finished"  # the hands end before the game would under the other rules
PENDING = "correction_waits"  # a correction of the counted game waits for confirmation
ENDS_EARLIER = "game_over"  # the engine's code: a hand after the game ended (a bust)


@dataclass(frozen=True, slots=True)
class Result:
    """A game's settlement per seat: ``points`` (settlement points, oka and uma included),
    ``ranks`` (1 = top) and ``scores`` (final raw scores, deposits to the top), in points."""

    points: tuple[int, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Game:
    """A counted game as the ledger holds it: its ``record`` (club-game/1, or with
    ``final_scores``), the member id of each seat, and the ``stored`` counted result;
    ``pending``: a correction waits for confirmation, so the record's hands are no longer
    those of the counted result (the game keeps its counted result both ways)."""

    hanchan_id: int
    played_on: date
    record: Mapping[str, Any]
    members: tuple[int, ...]
    stored: Result
    pending: bool = False

    @property
    def final_scores_only(self) -> bool:
        return "final_scores" in self.record


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a game cannot be re-scored: ``code`` (:data:`PLAYERS_DIFFER`,
    :data:`NOT_FINISHED`, or the engine's refusal code, e.g. ``game_over`` when the game
    ends earlier, ``fu_not_allowed``, ``too_many_ron_winners``), the 0-based ``hand`` at
    fault if any, the engine's English ``message`` and its ``params``."""

    code: str
    hand: int | None
    message: str
    params: Mapping[str, int | str]


def settled(record: Mapping[str, Any]) -> Result | Refusal:
    """The record's own result: its replay's settlement, or why it has none."""
    try:
        replay = replay_record(record)
    except RecordError as error:
        return _refusal(error)
    if replay.settlement is None:
        return Refusal(NOT_FINISHED, None, "the hands end before the game does", {})
    final = replay.settlement
    return Result(tuple(final.points), tuple(final.ranks), tuple(final.scores))


def rescore(record: Mapping[str, Any], other: Ruleset) -> Result | Refusal:
    """The game of ``record`` re-scored under ``other``'s payment and settlement rules (one
    game; :class:`Rescorer` re-scores many, building each mix of rules once).

    Under the record's own ruleset (``other.id`` is the record's ``ruleset``) the record
    replays unchanged, its own overrides included: the stored result. Otherwise the game's
    own ruleset and overrides with ``other``'s rules of :data:`~scoring.whatif.rules.TAKEN`
    over them (see :func:`rescored_record`).

    Returns:
        A :class:`Result`, or a :class:`Refusal` (never raises for a record or a ruleset):
        the other family, a hand the other rules forbid, a game that ends earlier (a bust
        under the other tobi rules) or would not have ended.
    """
    return Rescorer(other).rescore(record)


class Rescorer:
    """Re-scores records under ``other``, each mix of a game's ruleset and overrides with
    ``other``'s rules built once (a season holds a few such mixes and a thousand games)."""

    def __init__(self, other: Ruleset) -> None:
        self.other = other
        self._mixes: dict[str, Ruleset | Refusal] = {}
        self._own: dict[str, Ruleset | Refusal] = {}

    def own(self, record: Mapping[str, Any]) -> Result | Refusal:
        """The record under its own ruleset and overrides, as :func:`settled` (the engine's
        game played hand by hand, its ruleset built once per ruleset and overrides)."""
        if "final_scores" in record or not isinstance(record.get("hands"), list):
            return settled(record)
        ruleset = self._own_ruleset(record)
        if isinstance(ruleset, Refusal):
            return ruleset
        return _played(record, ruleset, strip_chips=False)

    def both(self, record: Mapping[str, Any]) -> tuple[Result | Refusal, Result | Refusal]:
        """``(self.own(record), self.rescore(record))``, the hands parsed once for both
        where the two games read the same hands (no chips to drop)."""
        hands = record.get("hands")
        if (
            "final_scores" in record
            or not isinstance(hands, list)
            or record.get("ruleset") == self.other.id
            or (not self.other.chips and any(_without_chips(h) is not h for h in hands))
        ):
            own = self.own(record)
            return own, own if record.get("ruleset") == self.other.id else self.rescore(record)
        ruleset, mix = self._own_ruleset(record), self._mix(record)
        if isinstance(ruleset, Refusal) or isinstance(mix, Refusal):
            return self.own(record), self.rescore(record)
        try:
            parsed = [parse_hand(raw, ruleset.players, i) for i, raw in enumerate(hands)]
        except RecordError:
            return self.own(record), self.rescore(record)
        return _played_hands(record, parsed, ruleset), _played_hands(record, parsed, mix)

    def _own_ruleset(self, record: Mapping[str, Any]) -> Ruleset | Refusal:
        key = _key(record)
        if key not in self._own:
            try:
                self._own[key] = ruleset_of_record(_head(record))
            except RecordError as error:
                self._own[key] = _refusal(error)
        return self._own[key]

    def rescore(self, record: Mapping[str, Any]) -> Result | Refusal:
        """As :func:`rescore`."""
        if record.get("ruleset") == self.other.id:
            return self.own(record)
        if "final_scores" in record or not isinstance(record.get("hands"), list):
            # No hands to play (or a record the engine will refuse): its own replay.
            try:
                game_ruleset = ruleset_of_record(record)
            except RecordError as error:
                return _refusal(error)
            if game_ruleset.players != self.other.players:
                return _players_differ(game_ruleset, self.other)
            return settled(rescored_record(record, game_ruleset, self.other))
        mix = self._mix(record)
        if isinstance(mix, Refusal):
            return mix
        return _played(record, mix, strip_chips=not self.other.chips)

    def _mix(self, record: Mapping[str, Any]) -> Ruleset | Refusal:
        """The game's ruleset and overrides with ``other``'s rules over them."""
        key = _key(record)
        if key not in self._mixes:
            self._mixes[key] = self._build(record)
        return self._mixes[key]

    def _build(self, record: Mapping[str, Any]) -> Ruleset | Refusal:
        try:
            game_ruleset = ruleset_of_record(_head(record))
        except RecordError as error:
            return _refusal(error)
        if game_ruleset.players != self.other.players:
            return _players_differ(game_ruleset, self.other)
        overrides = {**(record.get("overrides") or {}), **taken_overrides(self.other)}
        try:
            # The ruleset exists: ruleset_of_record has just loaded it.
            return load_ruleset(game_ruleset.id, overrides)
        except RecordError as error:
            return _refusal(error)


def _key(record: Mapping[str, Any]) -> str:
    """What a record's ruleset depends on: its ruleset id and overrides."""
    return json.dumps([record.get("ruleset"), record.get("overrides") or {}], sort_keys=True)


def _head(record: Mapping[str, Any]) -> dict[str, Any]:
    """The keys of a record that name its ruleset (for :func:`ruleset_of_record`)."""
    return {key: record[key] for key in ("format", "ruleset", "overrides") if key in record}


def _played(record: Mapping[str, Any], ruleset: Ruleset, *, strip_chips: bool) -> Result | Refusal:
    """The record's hands played under ``ruleset`` (as :func:`scoring.engine.replay_record`
    does, whose value checks the record passed when the ledger stored it)."""
    try:
        hands = [
            parse_hand(_without_chips(raw) if strip_chips else raw, ruleset.players, index)
            for index, raw in enumerate(record["hands"])
        ]
    except RecordError as error:
        return _refusal(error)
    return _played_hands(record, hands, ruleset)


def _played_hands(
    record: Mapping[str, Any], hands: list[Hand], ruleset: Ruleset
) -> Result | Refusal:
    """Parsed ``hands`` of ``record`` played under ``ruleset`` by the engine's game."""
    try:
        record_players(record, ruleset)
        game = EngineGame(ruleset)
        for hand in hands:
            game.play(hand)
    except RecordError as error:
        return _refusal(error)
    if game.settlement is None:
        return Refusal(NOT_FINISHED, None, "the hands end before the game does", {})
    final = game.settlement
    return Result(tuple(final.points), tuple(final.ranks), tuple(final.scores))


def _without_chips(hand: Any) -> Any:
    """A hand as entered without the chips of its wins (seed 003 L438-460), for rules that
    keep none; the hand itself where it has none."""
    if not isinstance(hand, dict):
        return hand
    wins = hand.get("wins")
    if not isinstance(wins, list) or not any(isinstance(w, dict) and "chips" in w for w in wins):
        return hand
    bare = [
        {k: v for k, v in win.items() if k != "chips"} if isinstance(win, dict) else win
        for win in wins
    ]
    return {**hand, "wins": bare}


def _refusal(error: RecordError) -> Refusal:
    return Refusal(error.code, error.hand_index, error.message, dict(error.params))


def _players_differ(game_ruleset: Ruleset, other: Ruleset) -> Refusal:
    return Refusal(
        PLAYERS_DIFFER,
        None,
        f"a {game_ruleset.players}-player game under a {other.players}-player ruleset",
        {"players": game_ruleset.players, "other": other.players},
    )


def rescored_record(
    record: Mapping[str, Any], game_ruleset: Ruleset, other: Ruleset
) -> dict[str, Any]:
    """``record`` with ``other``'s rules of :data:`~scoring.whatif.rules.TAKEN` (only the
    settlement's, :data:`~scoring.whatif.rules.FINAL_SCORES_TAKEN`, for final scores only)
    as overrides over the game's own ruleset and overrides: what :class:`Rescorer` plays.

    Two things of a record only make sense under its own rules and are adjusted:

    - chips earned in a win (seed 003 L438-460) are dropped where ``other`` keeps no chips;
    - final scores are moved by the difference of the start points (27,000 at the table of
      seed 003, 25,000 under Makura), so that they add up to ``other``'s total, each seat
      keeping what it won or lost; a bust named in them stays only where it still is one.
    """
    out = dict(record)
    final_scores = out.get("final_scores")
    names = FINAL_SCORES_TAKEN if final_scores is not None else None
    overrides = dict(out.get("overrides") or {})
    overrides.update(taken_overrides(other, names) if names else taken_overrides(other))
    out["overrides"] = overrides
    if not other.chips and isinstance(out.get("hands"), list):
        out["hands"] = [_without_chips(hand) for hand in out["hands"]]
    if isinstance(final_scores, dict):
        out["final_scores"] = _final_scores_under(final_scores, game_ruleset, other)
    return out


def _final_scores_under(
    final_scores: dict[str, Any], game_ruleset: Ruleset, other: Ruleset
) -> dict[str, Any]:
    shift = other.start_points - game_ruleset.start_points
    scores = [score + shift for score in final_scores.get("scores", [])]
    out: dict[str, Any] = {"scores": scores}
    if final_scores.get("deposits"):
        out["deposits"] = final_scores["deposits"]
    tobi = [
        entry
        for entry in final_scores.get("tobi", [])
        if other.tobi and _bust(other, scores[entry["busted"]])
    ]
    if tobi:
        out["tobi"] = tobi
    if other.chips and "chips" in final_scores:
        out["chips"] = final_scores["chips"]
    return out


def _bust(ruleset: Ruleset, score: int) -> bool:
    """Below 0, or at 0 where the ruleset says 0 is bust (rules-spec §1B, 002-004)."""
    return score < 0 or (ruleset.tobi_at_zero and score == 0)
