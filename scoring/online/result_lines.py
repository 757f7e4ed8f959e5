"""Tenhou's result lines: a private lobby's evening, final scores only.

A lobby's results page (and Tenhou's ``sca`` result files) write one line a game::

    L1000 | 00:30 | 四般南喰赤－ | A(+45.0) B(+10.0) C(-15.0) D(-40.0)
    C3630 | 23:25 | 四般南喰赤祝 | 残飯くん(+57.0,+2枚) Ryon(+20.0,+6枚) …
    L1045 | 00:02 | 三般南喰赤－ | ごつごつ(+75.0) RaFaFa(-13.0) はらこはらこ(-62.0)

the lobby, the start time, the lobby type (四/三 players, the table, 南 East-South or 東
East-only, 喰 open tanyao or －, 赤 red fives or －, 祝 chips or －) and each player with
their settlement in thousands (``0.0`` unsigned), best first; a lobby with chips adds each
player's chips (``+2枚``). A ranked lobby's line has the start time, then the game's
minutes, and in Tenhou's ``scc`` files a link to the log (left out). Real lines:
tests/data/online/result-lines/ (README there).

:func:`read_lines` reads them, each line on its own (a faulty line is refused alone, naming
its number and why); :func:`settle_line` finds the final scores that give
each stated settlement under the lobby's ruleset and checks them with the engine's own
settlement. The line does not say who dealt first: the seats are the line's order (the
top at seat 1), which decides only equal scores, as ranked. Pure Python: no Django import.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from scoring.engine import (
    RecordError,
    Ruleset,
    apply_overrides,
    check_record_values,
    final_settlement,
    load_ruleset,
)

from .log import TENHOU_LOG_ID, LogError

# ``L1000 | 00:30 | 四般南喰赤－ | A(+45.0) B(+10.0) ...``, or a ranked lobby's line of
# Tenhou's result files, with the game's minutes for the lobby: ``00:03 | 20 | 四鳳東喰赤－ | …``.
# The players are the rest of the line, "|" and all: a Tenhou name may hold one, and
# the fields before them have fixed shapes. The time is a clock's, in ASCII
# digits (``\d`` would take ``０1:30``, and ``25:99``), and is kept as ``HH:MM``: it is part
# of the game's id, so ``1:30`` and ``01:30`` must not make the same game two.
_CLOCK = r"(?:[01]?[0-9]|2[0-3]):[0-5][0-9]"
_LINE = re.compile(
    rf"^(?:(?P<lobby>[A-Za-z][0-9A-Za-z]*)\s*\|\s*(?P<time>{_CLOCK})"
    rf"|(?P<start>{_CLOCK})\s*\|\s*[0-9]{{1,3}})"
    r"\s*\|\s*(?P<rule>[^|\s]+)\s*\|\s*(?P<players>.+?)\s*$"
)
# One player's settlement, which ends their entry: ``(+45.0)`` or ``(+57.0,+2枚)`` followed
# by a space or the end of the line. A name is whatever comes before it (spaces, "|" and
# parentheses too: ``(∩・ω・)∩(+6.0)``).
_POINTS = re.compile(r"\((?P<points>[+-]?\d+(?:\.\d)?)(?:,(?P<chips>[+-]?\d+)枚)?\)(?=\s|$)")
# No table's settlement has more digits (a 3-player tobi game's is +150.0 or so): a longer one
# (``+99999999999999999999999.0``) is refused, not carried into scores no table can reach;
# so is one in other digits than ASCII's (``+４５.0``), which Tenhou never writes.
_MOST_DIGITS = 4
MAX_LINES = 200
# Tenhou's name for a player who has not registered one.
ANONYMOUS = "NoName"
# A ranked lobby's line in Tenhou's ``scc`` files links its log: ``| <a href="…">牌譜</a> |``.
_LOG_LINK = re.compile(r"\|\s*<a [^>]*>[^<]*</a>\s*(?=\|)")


class LineUnreadable(LogError):
    """Text that is not Tenhou result lines, or a line of them with a fault: ``number``
    the line (from 1; 0 for the text as a whole), ``code`` what is wrong and ``params``
    its particulars, for a page to say it in the reader's words:

    - ``format``: not ``lobby | time | lobby type | players``;
    - ``lobby_type``: the lobby type names no players (``rule``);
    - ``players``: the players are not ``name(+45.0) ...``;
    - ``seats``: ``found`` players where the lobby type (``rule``) has ``seats``;
    - ``name_twice``: ``name`` at two seats (``NoName``, Tenhou's anonymous players, may be);
    - ``chips``: chips for some players only;
    - ``text``: a value the ledger cannot store (``key``, ``why``: a NUL character, ...);
    - ``too_many`` (``limit``) and ``empty``: the text as a whole (``number`` 0).
    """

    def __init__(self, number: int, message: str, code: str = "format", **params: Any) -> None:
        self.number = number
        self.code = code
        self.params = params
        super().__init__(f"line {number}: {message}" if number else message)


class LineUnsettled(LogError):
    """A line whose points the engine does not settle to under ``ruleset`` (its ``uma``
    and ``return_points``): ``ours`` what the engine gives for the scores they imply,
    ``theirs`` the line's points (both per seat in the line's order, in points)."""

    def __init__(
        self,
        line: ResultLine,
        ruleset: str,
        uma: tuple[int, ...],
        return_points: int,
        ours: tuple[int, ...],
    ) -> None:
        self.line = line
        self.ruleset = ruleset
        self.uma = uma
        self.return_points = return_points
        self.ours = ours
        self.theirs = line.points
        super().__init__(
            f"{line.where}: the points {_signed(line.points)} do not settle under {ruleset} "
            f"(uma {'/'.join(f'{u // 1000:+d}' for u in uma)}, return {return_points:,}): "
            f"the engine gives {_signed(ours)}"
        )


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One game of a result line: ``number`` its line in the text (from 1), ``text`` the
    line as given; ``lobby`` (``L1000``; ``""`` on a ranked lobby's line), ``time``
    (``00:30``), ``rule`` (``四般南喰赤－``); ``players`` best first, ``points`` their
    settlement in points (``+45.0`` = 45000) and ``chips`` where the lobby has them
    (``None`` if not)."""

    number: int
    text: str
    lobby: str
    time: str
    rule: str
    players: tuple[str, ...]
    points: tuple[int, ...]
    chips: tuple[int, ...] | None
    tenhou_log: str = ""

    @property
    def seats(self) -> int:
        """3 for a ``三`` lobby, else 4."""
        return 3 if self.rule.startswith("三") else 4

    @property
    def where(self) -> str:
        """``"line 2 (L1000 00:30)"``: how a refusal names the line."""
        return f"line {self.number} ({self.lobby} {self.time})"

    def log_id(self, date: str) -> str:
        """The line's id on ``date`` (``YYYY-MM-DD``): lobby, day and time, and a hash of
        the players and points, so the same line of the same day is one game; a ranked
        lobby's line that links its log (``tenhou_log``, Tenhou's ``scc`` files) is that
        log's id, so the line and the game's log are one game, whichever comes first."""
        if self.tenhou_log:
            return self.tenhou_log
        digest = hashlib.sha256(
            f"{date}|{self.lobby}|{self.time}|{self.rule}|{self.players}|{self.points}".encode()
        ).hexdigest()[:12]
        return f"line:{self.lobby}:{date}T{self.time}:{digest}"


def looks_like(text: str) -> bool:
    """``text`` is result lines: not JSON nor XML, and one of its lines has their shape (the
    others may be faulty lines, each refused on its own)."""
    stripped = text.lstrip()
    if not stripped or stripped[0] in "[{<":
        return False
    return any(
        "|" in line and _LINE.match(_LOG_LINK.sub("", line.strip())) is not None
        for line in stripped.splitlines()
    )


def read_lines(text: str) -> tuple[ResultLine | LineUnreadable, ...]:
    """Every game of ``text`` (result lines, blank lines skipped), each on its own: a
    :class:`ResultLine`, or the :class:`LineUnreadable` that says why that line is not one
    (a faulty line takes no other line down with it).

    Raises:
        LineUnreadable: more than :data:`MAX_LINES` lines (``too_many``), or none
            (``empty``): the text as a whole.
    """
    out: list[ResultLine | LineUnreadable] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if len(out) >= MAX_LINES:
            raise LineUnreadable(
                0,
                f"more than {MAX_LINES} result lines: paste fewer at a time",
                "too_many",
                limit=MAX_LINES,
            )
        try:
            out.append(_line(number, line))
        except LineUnreadable as error:
            out.append(error)
    if not out:
        raise LineUnreadable(0, "no result line", "empty")
    return tuple(out)


def read_result_lines(text: str) -> tuple[ResultLine, ...]:
    """Every game of ``text`` (:func:`read_lines`), all of them good.

    Raises:
        LineUnreadable: the first faulty line (a line not in the format, players not
            three or four, a name written twice, chips at some players only), or the text
            as a whole (:func:`read_lines`).
    """
    out = []
    for read in read_lines(text):
        if isinstance(read, LineUnreadable):
            raise read
        out.append(read)
    return tuple(out)


def _line(number: int, line: str) -> ResultLine:
    link = _LOG_LINK.search(line)
    linked = TENHOU_LOG_ID.search(link[0]) if link else None
    line = _LOG_LINK.sub("", line.removesuffix("<br>")).strip()
    match = _LINE.match(line)
    if match is None:
        raise LineUnreadable(
            number,
            f"not a result line (lobby | time | lobby type | name(+45.0) ...): {line[:80]!r}",
        )
    rule = match["rule"]
    if rule[:1] not in ("四", "三"):
        raise LineUnreadable(
            number, f"lobby type {rule!r} names no players (四 or 三)", "lobby_type", rule=rule
        )
    players, points, chips = [], [], []
    rest = match["players"]
    position = 0
    for found in _POINTS.finditer(rest):
        name = rest[position : found.start()].strip()
        if not name:
            break
        if any(
            not figure.isascii() or len(figure.lstrip("+-").partition(".")[0]) > _MOST_DIGITS
            for figure in (found["points"], found["chips"] or "")
        ):
            raise LineUnreadable(
                number, f"a settlement no table writes: {found[0][:40]!r}", "players"
            )
        players.append(name)
        points.append(_settlement_points(found["points"]))
        chips.append(None if found["chips"] is None else int(found["chips"]))
        position = found.end()
    if rest[position:].strip() or not players:
        raise LineUnreadable(
            number, f"the players are not name(+45.0) ...: {rest[:80]!r}", "players"
        )
    seats = 3 if rule.startswith("三") else 4
    if len(players) != seats:
        raise LineUnreadable(
            number,
            f"{len(players)} players in a {seats}-player lobby ({rule})",
            "seats",
            found=len(players),
            seats=seats,
            rule=rule,
        )
    # Tenhou's anonymous players are all NoName: two of them at one table are two players
    # (a steward seats a new member for each, as for a log); any other name is one account.
    twice = [
        name for index, name in enumerate(players) if name in players[:index] and name != ANONYMOUS
    ]
    if twice:
        raise LineUnreadable(
            number, f"a name is written twice ({', '.join(players)})", "name_twice", name=twice[0]
        )
    if any(c is None for c in chips) and any(c is not None for c in chips):
        raise LineUnreadable(number, "chips are given for some players only", "chips")
    try:
        # The ledger stores the names: no NUL character nor lone surrogate (PostgreSQL).
        check_record_values({"players": players, "lobby": match["lobby"] or "", "rule": rule})
    except RecordError as error:
        raise LineUnreadable(
            number, f"{error.key}: {error.message}", "text", key=error.key, why=error.message
        ) from None
    return ResultLine(
        number=number,
        text=line,
        lobby=match["lobby"] or "",
        time=(match["time"] or match["start"]).zfill(5),
        rule=rule,
        players=tuple(players),
        points=tuple(points),
        chips=None if chips[0] is None else tuple(c or 0 for c in chips),
        tenhou_log=linked[0] if linked else "",
    )


def _settlement_points(written: str) -> int:
    """Points as a line writes them in thousands (``+45.0``, ``-15.5``, ``0``) as an integer
    of points (45000, -15500, 0), without a float on the way."""
    sign = -1 if written.startswith("-") else 1
    whole, _, tenth = written.lstrip("+-").partition(".")
    return sign * (int(whole) * 1000 + int(tenth or 0) * 100)


def preset_of(line: ResultLine) -> str:
    """The Tenhou preset of the line's lobby type: ``tenhou-4p``, ``tenhou-3p-east``, ..."""
    base = "tenhou-3p" if line.seats == 3 else "tenhou-4p"
    return base if "南" in line.rule else f"{base}-east"


def lobby_overrides(line: ResultLine, ruleset: Ruleset, *, club: bool) -> dict[str, Any]:
    """The line's lobby rules over ``ruleset``: chips where the line has them, and under a
    Tenhou preset (not a ``club`` ruleset, whose rules are the club's) open tanyao as the
    lobby type says (喰 or －)."""
    out: dict[str, Any] = {}
    if line.chips is not None and not ruleset.chips:
        out["chips"] = True
    kuitan = "喰" in line.rule
    if not club and kuitan != ruleset.open_tanyao:
        out["open_tanyao"] = kuitan
    return out


@dataclass(frozen=True, slots=True)
class SettledLine:
    """A line the engine settles as stated: its ``ruleset`` and ``overrides``, the final
    ``scores`` per seat (seats in the line's order) and the record's ``final_scores``."""

    line: ResultLine
    ruleset: str
    overrides: dict[str, Any]
    scores: tuple[int, ...]

    def final_scores(self) -> dict[str, Any]:
        """The record's ``final_scores`` (docs/game-record-format.md), chips included."""
        out: dict[str, Any] = {"scores": list(self.scores)}
        if self.line.chips is not None:
            out["chips"] = list(self.line.chips)
        return out


def settle_line(line: ResultLine, ruleset_id: str | None = None) -> SettledLine:
    """The final scores that give the line's points under ``ruleset_id`` (default: the
    Tenhou preset of its lobby type, :func:`preset_of`) with its lobby rules.

    Each player's score is the return points plus their points less their rank's uma (the
    top's: what the others leave of the start points); the engine's settlement of those
    scores must give every stated point, under the ruleset's rounding or, for a line with
    hundreds (``+40.9``), unrounded (``final_rounding: "none"``, a lobby setting). A score
    so found lies in the 1,000 its rounding stands for (the line gives no more).

    Raises:
        LineUnsettled: the points do not settle under the ruleset (naming the line, the
            ruleset's uma and return, and what the engine gives).
        LogError: the ruleset's players are not the line's, or the ruleset has floating uma
            (its rank uma is not known before the scores).
    """
    club = ruleset_id is not None
    ruleset_id = ruleset_id or preset_of(line)
    try:
        preset = load_ruleset(ruleset_id)
    except KeyError:
        raise LogError(f"{line.where}: unknown ruleset {ruleset_id!r}") from None
    if preset.players != line.seats:
        raise LogError(
            f"{line.where}: {ruleset_id} is a {preset.players}-player ruleset, the line has "
            f"{line.seats} players"
        )
    if preset.uma_floating:
        raise LogError(
            f"{line.where}: {ruleset_id} has floating uma: a result line cannot be settled under it"
        )
    base = lobby_overrides(line, preset, club=club)
    attempts = [base]
    if preset.final_rounding != "none" and any(p % 1000 for p in line.points):
        attempts.append({**base, "final_rounding": "none", "top_takes_remainder": False})
    first: tuple[int, ...] | None = None
    for overrides in attempts:
        try:
            ruleset = apply_overrides(preset, overrides) if overrides else preset
        except RecordError as error:
            raise LogError(f"{line.where}: {error.line()}") from None
        scores = _scores(line, ruleset)
        settled = final_settlement(ruleset, scores)
        if settled.points == line.points and settled.ranks == tuple(range(1, line.seats + 1)):
            return SettledLine(line, ruleset_id, overrides, scores)
        first = first or settled.points
    raise LineUnsettled(line, ruleset_id, preset.uma, preset.return_points, first or ())


def _scores(line: ResultLine, ruleset: Ruleset) -> tuple[int, ...]:
    """Each seat's score whose settlement is its stated points (the top's: the rest)."""
    others = [
        ruleset.return_points + points - (ruleset.uma[rank] if ruleset.uma else 0)
        for rank, points in enumerate(line.points)
        if rank
    ]
    return (ruleset.start_points * ruleset.players - sum(others), *others)


def _signed(points: tuple[int, ...]) -> str:
    return " ".join(f"{p / 1000:+.1f}" for p in points)
