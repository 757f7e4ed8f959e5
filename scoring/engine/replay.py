"""Replaying a whole game record (docs/game-record-format.md) through the engine."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RecordError
from .final_scores import KEY as FINAL_SCORES
from .final_scores import parse_final_scores, settle_final_scores
from .game import Game, HandResult, TableState
from .hands import Hand, parse_hand
from .record_values import check_record_values, has_value_fault
from .ruleset import Ruleset
from .ruleset_files import INT_LIMIT, load_ruleset
from .settlement import Settlement

RECORD_FORMAT = "club-game/1"
# ``final_scores`` (instead of hands) is this repository's extension for games entered as
# final scores only (docs/game-record-format.md, "Extensions").
_RECORD_KEYS = frozenset({"format", "ruleset", "overrides", "players", "hands", FINAL_SCORES})
# Descriptive keys the app writes on export; they do not change the replay.
_METADATA_KEYS = frozenset({"date", "venue", "table", "title", "source", "note"})
_KNOWN_KEYS = _RECORD_KEYS | _METADATA_KEYS


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed record: the ruleset, players, parsed hands, per-hand results and final.

    ``settlement`` is ``None`` for a game still in play (its hands stop before the end);
    ``state`` is the table after the last hand (round, dealer, honba, deposits, scores, and
    ``ended_by`` once over), where a game still in play would go on.
    """

    ruleset: Ruleset
    players: tuple[str, ...]
    hands: tuple[Hand, ...]
    results: tuple[HandResult, ...]
    settlement: Settlement | None
    state: TableState

    def to_json(self) -> dict[str, Any]:
        """The output document of ``manage.py replay``."""
        return {
            "ruleset": self.ruleset.id,
            "hands": [r.to_json() for r in self.results],
            "final": None if self.settlement is None else self.settlement.to_json(),
        }


def ruleset_of_record(record: Any) -> Ruleset:
    """The ruleset a record names, with its ``overrides`` applied.

    Every reading of a record starts here, so the rest of the record's text and numbers are
    checked here too (:func:`~scoring.engine.record_values.check_record_values`), once its
    ruleset and overrides have been read by their own, more specific rules.

    Raises:
        RecordError: the record is not an object, has the wrong ``format``, names no or an
            unknown ruleset, has bad overrides, or holds a text or a number no game has.
    """
    ruleset = _named_ruleset(record)
    check_record_values(record)
    return ruleset


def _named_ruleset(record: Any) -> Ruleset:
    """:func:`ruleset_of_record` before the values check: the record's own keys, format,
    ruleset and overrides, each refused by its own rule."""
    if record.__class__ is not dict and not isinstance(record, Mapping):
        raise RecordError(
            None, "record", "a game record must be a JSON object", code="record_not_an_object"
        )
    if not record.keys() <= _KNOWN_KEYS:
        for key in record:
            if key not in _KNOWN_KEYS:
                raise RecordError(None, key, "unknown key", code="unknown_key")
    if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise RecordError(
            None,
            "format",
            f"must be {RECORD_FORMAT!r}",
            code="unknown_format",
            params={"format": RECORD_FORMAT},
        )
    ruleset_id = record.get("ruleset")
    if not isinstance(ruleset_id, str):
        raise RecordError(None, "ruleset", "must name a ruleset", code="ruleset_missing")
    try:
        return load_ruleset(ruleset_id, record.get("overrides") or None)
    except KeyError:
        raise RecordError(
            None,
            "ruleset",
            f"unknown ruleset {ruleset_id!r}",
            code="unknown_ruleset",
            params={"ruleset": ruleset_id},
        ) from None


def replay_record(record: Any) -> Replay:
    """Replay a game record (a parsed JSON object) from East 1.

    Args:
        record: ``{"format", "ruleset", "overrides", "players", "hands"}`` as in
            docs/game-record-format.md, or with ``final_scores`` instead of ``hands``
            (:mod:`scoring.engine.final_scores`).

    Returns:
        A :class:`Replay`; ``to_json()`` gives exactly the ``replay`` output.

    Raises:
        RecordError: the first fault found, with the hand's index and key (see the format's
            "Errors": a hand after the game ended, a winner who is also the loser, a tsumo with
            two wins, a seat out of range, a fu the ruleset does not allow, ...).
    """
    ruleset = _named_ruleset(record)
    played = None if FINAL_SCORES in record else _played_at_once(record, ruleset)
    if played is None:
        # A fault, or final scores: the record read step by step, in the order that decides
        # which of its faults is the one reported.
        check_record_values(record)
        players = record_players(record, ruleset)
        if FINAL_SCORES in record:
            return _replay_final_scores(record, ruleset, players)
        game, hands = _play_hands(record, ruleset)
    else:
        players, game, hands = played
    return Replay(
        ruleset=ruleset,
        players=tuple(players),
        hands=tuple(hands),
        results=tuple(game.results),
        settlement=game.settlement,
        state=game.state(),
    )


def game_of_record(record: Any) -> Game:
    """The :class:`Game` of a record's hands, played from East 1, to go on from (the next
    hand's dealer, honba, deposits and scores; ``ended_by`` set if the game is over).

    Raises:
        RecordError: as :func:`replay_record`; a record of final scores only (code
            ``game_over``: no hand follows it).
    """
    ruleset = _named_ruleset(record)
    played = None if FINAL_SCORES in record else _played_at_once(record, ruleset)
    if played is not None:
        return played[1]
    check_record_values(record)
    record_players(record, ruleset)
    if FINAL_SCORES in record:
        raise RecordError(
            None,
            FINAL_SCORES,
            "the game already ended (final_scores)",
            code="game_over",
            params={"ended_by": "final_scores"},
        )
    game, _hands = _play_hands(record, ruleset)
    return game


def _played_at_once(
    record: Mapping[str, Any], ruleset: Ruleset
) -> tuple[list[str], Game, list[Hand]] | None:
    """The record's players, and its ``hands`` parsed and played from East 1, in one walk;
    ``None`` if anything in the record is at fault.

    The walk checks the record's text and numbers as it meets them (each hand's through
    :func:`_hand_values_fault`, the rest of the record's by key) instead of in a walk of
    their own first, and stops at the first fault of any kind. Which error a record with
    faults gets is not decided here: the caller reads such a record again step by step, as
    every record was read before (:func:`ruleset_of_record`'s checks, the players, then
    each hand parsed and played), and raises what that reading raises.
    """
    try:
        for key, value in record.items():
            if (
                key == "hands"
                or key == "players"
                or (value.__class__ is str and value.isascii() and "\x00" not in value)
            ):
                continue  # the hands and the players are checked below; a plain text at a look
            if has_value_fault(value):
                return None
        players = record_players(record, ruleset)
        # The players' names (record_players found texts): in plain ASCII, as most are, at
        # one look.
        names = "".join(players)
        if (not names.isascii() or "\x00" in names) and has_value_fault(players):
            return None
        raw_hands = record.get("hands")
        if raw_hands.__class__ is not list:
            return None
        game = Game(ruleset)
        seats = ruleset.players
        hands: list[Hand] = []
        # Game.play less its errors' hand index, which only the step-by-step reading reports.
        play, keep = game._play, hands.append
        for index, raw in enumerate(raw_hands):
            if game.ended_by is not None:
                return None
            hand = parse_hand(raw, seats, index)
            if (hand.wins or hand.penalties) and _hand_values_fault(hand):
                return None
            play(hand)
            keep(hand)
    except Exception:
        return None
    return players, game, hands


def _play_hands(record: Mapping[str, Any], ruleset: Ruleset) -> tuple[Game, list[Hand]]:
    """The record's ``hands`` parsed and played from East 1."""
    raw_hands = record.get("hands")
    if not isinstance(raw_hands, list):
        raise RecordError(None, "hands", "must be a list of hands", code="hands_not_a_list")
    game = Game(ruleset)
    hands = []
    for index, raw in enumerate(raw_hands):
        hand = parse_hand(raw, ruleset.players, index)
        game.play(hand)
        hands.append(hand)
    return game, hands


def _hand_values_fault(hand: Hand) -> bool:
    """Whether ``hand`` carries a text or a number that
    :func:`~scoring.engine.record_values.check_record_values` refuses.

    Only what :func:`~scoring.engine.hands.parse_hand` passes on unbounded can: penalty
    kinds, a win's han, fu and chips, its yaku and tiles (every seat is in range, every key
    and every other text is one of the format's own, every other number bounded).
    """
    for win in hand.wins:
        # parse_hand's han is at least 1, its chips at least 0.
        han, fu = win.han, win.fu
        if (han is not None and han > INT_LIMIT) or (
            fu is not None and not -INT_LIMIT <= fu <= INT_LIMIT
        ):
            return True
        if (win.chips or win.yaku or win.tiles) and (
            win.chips > INT_LIMIT or has_value_fault(win.yaku) or has_value_fault(win.tiles)
        ):
            return True
    return bool(hand.penalties) and any(has_value_fault(p.kind) for p in hand.penalties)


def _replay_final_scores(record: Mapping[str, Any], ruleset: Ruleset, players: list[str]) -> Replay:
    """A game entered as final scores only: no hands, the settlement of its final scores."""
    if record.get("hands", []) != []:
        raise RecordError(
            None,
            FINAL_SCORES,
            "a record has hands or final scores, not both",
            code="final_scores_with_hands",
        )
    settlement = settle_final_scores(ruleset, parse_final_scores(record[FINAL_SCORES], ruleset))
    return Replay(
        ruleset=ruleset,
        players=tuple(players),
        hands=(),
        results=(),
        settlement=settlement,
        state=TableState(
            round="",
            dealer=0,
            honba=0,
            deposits=0,
            scores=settlement.scores,
            all_last=False,
            ended_by=settlement.ended_by,
            hands_played=0,
        ),
    )


def record_players(record: Mapping[str, Any], ruleset: Ruleset) -> list[str]:
    """The record's ``players``: as many distinct, non-blank names as ``ruleset`` seats.

    Raises:
        RecordError: (key ``players``) not a list of names, the wrong number, a name twice.
    """
    players = record.get("players")
    if (
        not isinstance(players, list)
        or len(players) != ruleset.players
        or not all(isinstance(p, str) and p.strip() for p in players)
    ):
        raise RecordError(
            None,
            "players",
            f"must be {ruleset.players} names for ruleset {ruleset.id!r}",
            code="players_wrong_count",
            params={"players": ruleset.players, "ruleset": ruleset.id},
        )
    if len(set(players)) != len(players):
        raise RecordError(None, "players", "the same name sits twice", code="player_twice")
    return list(players)
