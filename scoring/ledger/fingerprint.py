"""One game, stored once (issue 19, item 4): a content fingerprint of a finished game.

The fingerprint is the SHA-256 of what the game *is*, independent of the file it came in,
its player names and its log id:

- for a club game, the date it was played and the members in seat order (their ids);
- an online game leaves both out: its date comes from its log id, which anyone can edit
  (a log whose id no longer reads as one is dated the day of the upload), and the same log
  read twice may map its names differently (``--create-members``). Its hands are what it
  is: two games with the same score changes hand for hand over a whole game do not happen;
- each hand's round, honba and score changes, as the engine made them (a Tenhou game read
  from its mjlog and from its tenhou.net/6 JSON gives the same), or, for a game entered as
  final scores only, those scores.

Stored on ``Hanchan.fingerprint`` when a game finishes (empty while in play). Imports refuse
a game whose fingerprint a game not voided already has (:class:`DuplicateGame`), unless told
it is a true twin (``import_games --allow-duplicate``).
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
) -> str:
    """The fingerprint (64 hex digits) of a finished game.

    Args:
        played_on: the club-local date of the game (left out for an online game).
        members: member ids in seat order; ``None`` for an online game.
        hand_results: each hand's stored result (``HandEntry.result``: ``round``, ``honba``,
            ``deltas`` in points), in order.
        final_scores: the game's ``final_scores`` entry when it has no hands.
    """
    content = {
        "v": VERSION,
        "date": None if members is None else played_on.isoformat(),
        "members": None if members is None else list(members),
        "hands": [
            [result.get("round"), result.get("honba"), list(result.get("deltas", ()))]
            for result in hand_results
        ],
        "final_scores": None if final_scores is None else list(final_scores.get("scores", ())),
    }
    text = json.dumps(content, separators=(",", ":"), sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()
