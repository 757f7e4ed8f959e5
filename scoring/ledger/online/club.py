"""A verified online log as the club counts it: under the club's own ruleset where the club
lists the log's lobby (:class:`OnlineLobby`), else under the ruleset the
service played; and the ledger's plan of it, from the hands verification played.

The engine plays each hand once: verification's plays are the plan the
ledger writes, and a listed lobby's game is not played again under the club's ruleset. The
club's ruleset with the lobby's rules as its overrides has every parameter of the ruleset
the log was verified under (only its name differs), so the engine's plays under it are
verification's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from clubsite.models import OnlineLobby
from scoring.engine import RecordError, Ruleset, load_ruleset
from scoring.engine.replay import RECORD_FORMAT
from scoring.ledger.errors import LedgerError
from scoring.ledger.plan import Plan, PlannedHand, Record
from scoring.ledger.stored import game_state_json, hand_result_json
from scoring.online.lobby_rules import lobby_of
from scoring.online.verify import VerifiedGame

# Parameters that name a ruleset rather than rule a game: never a game's overrides.
_IDENTITY = ("id", "name", "sources", "players")


@dataclass(frozen=True)
class CountedGame:
    """A verified log as it is stored: ``record`` its club game record (the club's ruleset
    and the lobby's rules as overrides, for a lobby the club lists), ``plan`` the ledger's
    plan of it (:func:`verified_plan`), ``service`` the service its ruleset version is
    pinned under (``""``: the club's own version, which counts in the club's standings of
    that ruleset)."""

    verified: VerifiedGame
    record: dict[str, Any]
    plan: Plan
    service: str


def club_rules(verified: VerifiedGame) -> CountedGame:
    """``verified`` as the club counts it.

    A game of a lobby the club lists (:meth:`OnlineLobby.ruleset_for`: a Tenhou private
    lobby, a Mahjong Soul friendly room) is stored under the club's ruleset, with the
    rules the lobby played (the verified preset and its overrides) as the game's overrides
    over it, and pinned to the club's own version (service ``""``): it counts in the
    club's standings of that ruleset. Any other game is stored as it was verified, pinned
    under its service (its own standings filter, ``tenhou-4p@tenhou``). Nothing is played.

    Raises:
        LedgerError: the club's ruleset is unknown or has another number of players.
    """
    log = verified.log
    lobby = lobby_of(log)
    club = OnlineLobby.ruleset_for(log.service, lobby)
    if club is None:
        return CountedGame(verified, verified.record, verified_plan(verified), log.service)
    try:
        base = load_ruleset(club)
    except (KeyError, RecordError):
        raise LedgerError(
            _("Lobby %(lobby)s counts under %(ruleset)s, which is no ruleset of the club.")
            % {"lobby": lobby, "ruleset": club}
        ) from None
    played = verified.game.ruleset
    if base.players != played.players:
        raise LedgerError(
            _(
                "Lobby %(lobby)s counts under %(ruleset)s, a %(n)d-player ruleset; this game "
                "has %(m)d players."
            )
            % {"lobby": lobby, "ruleset": club, "n": base.players, "m": played.players}
        )
    ours, theirs = base.parameters(), played.parameters()
    overrides = {k: v for k, v in theirs.items() if k not in _IDENTITY and ours[k] != v}
    ruleset = load_ruleset(club, overrides or None)
    # The record verification would have written under the club's ruleset: its keys in
    # their order, the ruleset and overrides the club's.
    record = {
        "format": RECORD_FORMAT,
        "ruleset": club,
        **({"overrides": overrides} if overrides else {}),
        **{k: v for k, v in verified.record.items() if k not in ("format", "ruleset", "overrides")},
    }
    return CountedGame(verified, record, verified_plan(verified, ruleset), "")


def verified_plan(verified: VerifiedGame, ruleset: Ruleset | None = None) -> Plan:
    """The ledger's plan of ``verified.record``, from the hands verification played.

    It is the :class:`~scoring.ledger.Plan` that :func:`scoring.ledger.plan` gives for
    ``Record(verified.record["hands"])`` on a new game under the verified ruleset (its
    overrides applied), or under ``ruleset``, one of the same parameters (the club's, for a
    lobby it lists: :func:`club_rules`): every hand's ``data`` (the hand as parsed),
    ``result`` and ``before`` (the engine's snapshot before it), the state after the last
    hand and the settlement, in points; ``engine_plays`` is what verification played. No
    hand is played here (a test compares it with the plan played again). The handoff lives
    here, not in :mod:`scoring.online.verify`, which imports nothing of Django, as the
    ledger does.
    """
    game = verified.game
    hands = tuple(
        PlannedHand(index, played.hand.to_json(), hand_result_json(played.result), played.before)
        for index, played in enumerate(verified.played)
    )
    return Plan(
        Record(verified.record["hands"]),
        ruleset or game.ruleset,
        0,
        hands,
        game.hands_played,
        game_state_json(game),
        game.settlement,
        engine_plays=verified.engine_plays,
    )
