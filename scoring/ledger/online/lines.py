"""Tenhou result lines into the ledger: a line of a lobby's results page
settled under its lobby's rules and stored as a final-scores game, as a log is stored
(:func:`scoring.ledger.online.store.store_one`)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from clubsite.models import Member, OnlineLobby
from scoring.engine.replay import RECORD_FORMAT
from scoring.ledger.online.players import Players
from scoring.ledger.online.store import Storing, store_one
from scoring.models import Hanchan
from scoring.online.log import OnlineLog, date_of_log_id
from scoring.online.result_lines import ResultLine, SettledLine, settle_line


@dataclass(frozen=True)
class LineGame:
    """A Tenhou result line settled for the ledger: ``settled`` its
    ruleset, overrides and final scores; ``log`` the line as an online game (players,
    lobby, id) for :func:`match_players`; ``service`` the service its version is pinned
    under (``""`` for a lobby the club counts)."""

    settled: SettledLine
    log: OnlineLog
    service: str


def result_line_game(line: ResultLine, played_on: datetime.date) -> LineGame:
    """``line`` played on ``played_on``, settled under its lobby's rules: the club's ruleset
    where the club counts the lobby (:class:`OnlineLobby`), else the Tenhou preset of its
    lobby type (:func:`scoring.online.result_lines.settle_line`). Nothing is written.

    Raises:
        LogError: the points do not settle to the ruleset's uma (one line naming the line).
    """
    club = OnlineLobby.ruleset_for("tenhou", line.lobby) if line.lobby else None
    settled = settle_line(line, club)
    # A line that links its log is dated by the log's id, as the log would be.
    played_on = date_of_log_id(line.tenhou_log) or played_on
    log = OnlineLog(
        service="tenhou",
        log_format="result-line",
        log_id=line.log_id(played_on.isoformat()),
        lobby=line.lobby,
        rule_label=line.rule,
        rulesets=(settled.ruleset,),
        players=line.players,
        hands=(),
        final_scores=settled.scores,
        final_points=line.points,
        played_on=played_on,
        replay_url="",
    )
    return LineGame(settled, log, "" if club else "tenhou")


def import_line_game(
    game: LineGame,
    players: Players,
    *,
    by: Member | None = None,
    steward: bool = False,
    allow_duplicate: bool = False,
) -> Hanchan:
    """Store a settled result line in one transaction, as a log is stored
    (:func:`scoring.ledger.online.store.store_one`): new members and online names, a
    final-scores game through the ledger (:func:`scoring.ledger.hanchan_import`, deduplicated
    by its fingerprint as any game) and its :class:`OnlineGame` (the line's id: the same line
    of the same day is stored once).

    Raises:
        AlreadyImported: the line was imported before.
        LedgerError: as :func:`scoring.ledger.hanchan_import`.
    """
    log, settled = game.log, game.settled
    record = {
        "format": RECORD_FORMAT,
        "ruleset": settled.ruleset,
        **({"overrides": settled.overrides} if settled.overrides else {}),
        "players": list(log.players),
        "final_scores": settled.final_scores(),
        "source": f"tenhou:{log.log_id}",
    }
    storing = Storing(datetime.date.today(), by, steward, allow_duplicate)
    return store_one(log, players, record, storing, service=game.service)
