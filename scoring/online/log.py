"""What an online game log says, format aside: the shape every reader returns.

A reader (:mod:`.tenhou_json`, :mod:`.mjlog`, :mod:`.mjai`) turns a log into an
:class:`OnlineLog`: the players, the rulesets it may have been played under, and for every
hand the table before it (round, honba, deposits, scores), the score changes the log shows,
the figures the log states for the hand itself (:class:`StatedEnd`: each win's or draw's
changes, and the scores around it where the format writes them), and the club-record hands
(docs/game-record-format.md) that may describe it. Most hands have
exactly one such candidate; where a format leaves a fact out (mjai gives no han or fu; a
Tenhou JSON nagashi does not say whether the dealer was tenpai) the reader lists every
reading and :mod:`.verify` keeps the one the engine reproduces. All points are integers in
points. Pure Python: no Django import.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import Any

# Tenhou log ids: 2022081017gm-00e1-0000-2df24853 (date and hour, lobby type as the mjlog's
# GO type in hex, lobby, hash).
TENHOU_LOG_ID = re.compile(
    r"(?P<date>\d{8})(?P<hour>\d{2})gm-(?P<type>[0-9a-f]{4})-\d{4,5}-[0-9a-f]{8}"
)


class LogError(ValueError):
    """A file that is not a readable online game log, or a log the engine cannot reproduce.

    ``str(error)`` is one line for the user (the command prints it after the file's name).
    """


class NotAGameLog(LogError):
    """A file in none of the formats read: not text, too large, or no known shape."""


class LogMismatch(LogError):
    """The engine's figures differ from the log's at ``hand`` (its round and honba).

    ``str(error)`` is one line: ``"E3 0 honba: the engine gives [-7700, 0, 0, 7700], the log
    [-8700, 0, 0, 8700] (under tenhou-4p-east)"``.

    Attributes:
        hand: e.g. ``"S2 1 honba"``.
        round, honba: the hand's round code (``"S2"``) and honba, for pages that name the
            hand in the reader's language.
        ours: the engine's figure, per seat, in points.
        theirs: the log's, per seat, in points.
        why: what else differs (English, for the command), or ``""``.
        figure: what ``ours`` and ``theirs`` are: ``"changes"`` (each seat's change over
            the hand), ``"final scores"`` (the scores at the end of the game) or ``"win
            value"`` (what the hand pays each winner, honba and deposits left out).
    """

    def __init__(
        self,
        hand: str,
        ours: tuple[int, ...],
        theirs: tuple[int, ...],
        why: str = "",
        *,
        round: str = "",
        honba: int = 0,
        figure: str = "changes",
    ) -> None:
        self.hand = hand
        self.ours = ours
        self.theirs = theirs
        self.why = why
        self.round = round
        self.honba = honba
        self.figure = figure
        detail = f" ({why})" if why else ""
        super().__init__(f"{hand}: the engine gives {list(ours)}, the log {list(theirs)}{detail}")

    @classmethod
    def at(
        cls,
        hand: LogHand,
        ours: tuple[int, ...],
        theirs: tuple[int, ...],
        why: str = "",
        *,
        figure: str = "changes",
    ) -> LogMismatch:
        """The mismatch at ``hand``."""
        return cls(hand.label, ours, theirs, why, round=hand.round, honba=hand.honba, figure=figure)


class LogAltered(LogMismatch):
    """A figure the log states for a hand (:class:`StatedEnd`) is not the engine's, where the
    engine reproduces the hand from the scores before and after it: the log disagrees with
    itself, so no ruleset can reproduce it (it has been edited). ``theirs`` is the hand's
    changes as that figure states them."""


@dataclass(frozen=True, slots=True)
class StatedEnd:
    """How a hand ended as the log states it: one win (each winner of a multiple ron has
    one), or the draw.

    ``what`` names it for a refusal (``"AGARI of seat 2"``, ``"流局"``,
    ``"hora at line 40"``); ``changes`` each seat's change as the log writes it, in points
    (the riichi sticks put out in the hand left out, as every format writes them; deposits
    taken included); ``before`` and ``after`` each seat's score just before and after it
    where the log writes them (mjlog ``sc`` gives ``before``, after the riichi sticks; an
    mjai event's ``scores`` gives ``after``), else ``None``; for a win, ``winner`` (the
    seat) and ``value``: what the hand itself pays the winner as the log writes it (ron,
    tsumo and pao payments; honba and deposits left out: mjlog ``ten``, the Tenhou JSON's
    ``30符4飜7700点``), else ``None``.
    """

    what: str
    changes: tuple[int, ...]
    before: tuple[int, ...] | None = None
    after: tuple[int, ...] | None = None
    winner: int | None = None
    value: int | None = None


@dataclass(frozen=True, slots=True)
class LogHand:
    """One hand of the log.

    ``round`` e.g. "E1" (3-player: E1–E3, S1–S3), ``honba`` and ``deposits`` (points on the
    table) at its start, ``start_scores`` per seat; ``deltas`` the change of each seat over the
    hand in the replay's sense (riichi sticks put out included, leftover deposits at the end
    of the game excluded; from the next hand's start scores, for the last hand from the
    log's own changes); ``candidates`` the club-record hands that may describe it, the
    likeliest first; ``stated`` the ends of the hand as the log states them (none where it
    writes no figure, as a Tenhou JSON abortive draw), which :mod:`.verify` compares with
    the engine's too.
    """

    round: str
    honba: int
    deposits: int
    start_scores: tuple[int, ...]
    deltas: tuple[int, ...]
    candidates: tuple[dict[str, Any], ...]
    stated: tuple[StatedEnd, ...] = ()

    @property
    def label(self) -> str:
        """``"E3 1 honba"``: how a refusal names the hand."""
        return f"{self.round} {self.honba} honba"


@dataclass(frozen=True, slots=True)
class OnlineLog:
    """A whole online game as read from its log.

    ``service``: ``tenhou``, ``majsoul`` or ``mjai``; ``log_format``: ``tenhou-json``,
    ``mjlog`` or ``mjai``; ``log_id``: the service's id (Tenhou's ``2022…gm-…``), or
    ``sha256:…`` of the file where the log carries none; ``lobby`` and ``rule_label`` as the
    log gives them (``""`` if not); ``rulesets``: the built-in rulesets it may have been
    played under, likeliest first; ``final_scores``: raw scores at the end (leftover deposits
    included), ``final_points``: the settlement in points (``45000`` = +45.0), either
    ``None`` where the log does not give it; ``played_on``: the date in the log id, if any;
    ``stated_points``: a settlement the log writes that is not compared (the JSON ``sc``),
    read for a private lobby's uma and a ranked Tenhou game's settlement era
    (:mod:`.lobby_rules`);
    ``nameless``: the seats (0-based) the log gives no player name for (an mjai
    ``start_game`` with empty ``names``), whose ``players`` entry is
    ``"seat N"`` (N from 1): a member is found for such a seat by seat, never by name.
    """

    service: str
    log_format: str
    log_id: str
    lobby: str
    rule_label: str
    rulesets: tuple[str, ...]
    players: tuple[str, ...]
    hands: tuple[LogHand, ...]
    final_scores: tuple[int, ...] | None
    final_points: tuple[int, ...] | None
    played_on: datetime.date | None
    replay_url: str
    stated_points: tuple[int, ...] | None = None
    nameless: tuple[int, ...] = ()


def round_label(wind_index: int, hand_number: int) -> str:
    """``"S2"`` from wind 1 (0 = East) and hand number 1 (0-based, the dealer's seat)."""
    if not 0 <= wind_index < 4:
        raise LogError(f"a round in wind {wind_index + 1}: no such round")
    return f"{'ESWN'[wind_index]}{hand_number + 1}"


def date_of_log_id(log_id: str) -> datetime.date | None:
    """The day a Tenhou log id was played (its first eight digits), or ``None``."""
    match = TENHOU_LOG_ID.search(log_id)
    if match is None:
        return None
    try:
        return datetime.datetime.strptime(match["date"], "%Y%m%d").date()
    except ValueError:
        return None


def stated_changes(stated: tuple[StatedEnd, ...], players: int) -> tuple[int, ...]:
    """Each seat's change over a hand as the log writes it: the sum of its ends' ``changes``
    (:class:`StatedEnd`), in points, the riichi sticks put out in the hand left out; zeros
    for a hand that states none."""
    return tuple(sum(end.changes[seat] for end in stated) for seat in range(players))


def deltas_between(before: tuple[int, ...], after: tuple[int, ...]) -> tuple[int, ...]:
    """Each seat's change from ``before`` to ``after`` (two score tuples of equal length)."""
    return tuple(b - a for a, b in zip(before, after, strict=True))


def points_of(value: Any, where: str) -> int:
    """An integer number of points from a log's number (``250`` hundreds are the caller's)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise LogError(f"{where}: {value!r} is not a number of points")
    if value != int(value):
        raise LogError(f"{where}: {value!r} is not a whole number of points")
    return int(value)


def settlement_points(value: Any, where: str) -> int:
    """A settlement in points from a log's ``45.0``/``-31.9`` (thousands, one decimal)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise LogError(f"{where}: {value!r} is not a settlement")
    try:
        tenths = round(float(value) * 10)
    except ValueError:
        raise LogError(f"{where}: {value!r} is not a settlement") from None
    return tenths * 100
