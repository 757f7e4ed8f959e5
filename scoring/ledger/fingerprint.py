"""One game, stored once: a content fingerprint of a
finished game.

The fingerprint is the SHA-256 of what the game *is*, independent of the file it came in,
so that two different games never share one and the same game always has the same:

- a club game (entered at the table or imported from a record): the date it was played and
  the members in seat order (their ids), with every hand's round, honba and score changes
  as the engine made them, or, entered as final scores only, those scores;
- a game from an online log, whatever version it is pinned to (the service's, or the
  club's for a lobby the club counts): its hands alone. Its date comes from its log id,
  which anyone can edit (a log whose id no longer reads as one is dated the day of the
  upload), and the same log read twice may give its seats other members (``--map``; a
  ``NoName`` seat becomes a new member at each ``--create-members``); its hands are what
  it is, and the same in every format (a Tenhou game's mjlog and tenhou.net/6 JSON): two
  games with the same score changes hand for hand over a whole game do not happen;
- a game from a Tenhou result line (final scores only): the line's identity (its
  ``OnlineGame.log_id``, :meth:`scoring.online.result_lines.ResultLine.log_id`: the lobby,
  the day, the start time and a digest of the lobby type, the players' names and their
  points) with the final scores. Final scores alone say little: every line with the same
  points was one game (seven games of an evening with the same point
  list were stored as one). The names, not the members they map to, are the players, as for a
  log.

Stored on ``Hanchan.fingerprint`` when a game finishes (empty while in play). Imports refuse
a game whose fingerprint a game not voided already has (:class:`DuplicateGame`), unless told
it is a true twin (``import_games --allow-duplicate``). Version 1 is a club game's and an
online log's, version 2 a result line's; migration 0021 recomputed the games stored before.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from scoring.ledger.errors import LedgerError

VERSION = 1
LINE_VERSION = 2
# OnlineGame.log_format of a game from a Tenhou result line.
RESULT_LINE = "result-line"


class DuplicateGame(LedgerError):
    """The game is in the ledger already, as ``hanchan`` (its id in the message); nothing
    was stored."""

    def __init__(self, hanchan: Any) -> None:
        self.hanchan = hanchan
        super().__init__(
            _("this game is in the ledger already, as game %(id)d: nothing stored")
            % {"id": hanchan.pk},
            "fingerprint",
        )


def game_fingerprint(
    *,
    played_on: datetime.date,
    members: Sequence[int] | None,
    hand_results: Iterable[Mapping[str, Any]],
    final_scores: Mapping[str, Any] | None = None,
    line: str = "",
) -> str:
    """The fingerprint (64 hex digits) of a finished game.

    Args:
        played_on: the club-local date of the game (left out for an online game).
        members: member ids in seat order; ``None`` for a game from an online log or a
            result line.
        hand_results: each hand's stored result (``HandEntry.result``: ``round``, ``honba``,
            ``deltas`` in points), in order.
        final_scores: the game's ``final_scores`` entry when it has no hands.
        line: for a game from a Tenhou result line, the line's id (its ``OnlineGame.log_id``,
            ``line:L1000:2026-11-20T00:30:<digest>``).
    """
    hands = [
        [result.get("round"), result.get("honba"), list(result.get("deltas", ()))]
        for result in hand_results
    ]
    scores = None if final_scores is None else list(final_scores.get("scores", ()))
    content: dict[str, Any]
    if line:
        content = {"v": LINE_VERSION, "line": line, "hands": hands, "final_scores": scores}
    else:
        content = {
            "v": VERSION,
            "date": None if members is None else played_on.isoformat(),
            "members": None if members is None else list(members),
            "hands": hands,
            "final_scores": scores,
        }
    text = json.dumps(content, separators=(",", ":"), sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def online_identity(log_format: str, log_id: str) -> tuple[bool, str]:
    """What :func:`game_fingerprint` takes of a game's online origin (its ``OnlineGame``'s
    format and id; ``""`` for a club game): whether it is an online game (its members left
    out) and, for a result line, the line's id."""
    if not log_format:
        return False, ""
    return True, log_id if log_format == RESULT_LINE else ""
