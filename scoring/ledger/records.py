"""Game records in and out of the ledger (docs/game-record-format.md): checking and planning a
record for import (the engine plays it once), storing it, and writing a game as a record."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubsite.models import Member
from clubsite.names import clean_display_name
from scoring.engine import (
    RecordError,
    Ruleset,
    load_ruleset,
    record_players,
    ruleset_of_record,
)
from scoring.engine.final_scores import KEY as FINAL_SCORES_KEY
from scoring.ledger.checks import check_date, seated_members
from scoring.ledger.create import NewGame, create_games
from scoring.ledger.errors import LedgerError
from scoring.ledger.fingerprint import DuplicateGame
from scoring.ledger.plan import FinalScoresEntry, Plan, Record, StoredGame, plan
from scoring.models import Hanchan, HandEntry, RulesetVersion


def prepare_import(
    *,
    record: Mapping[str, Any],
    members_by_name: Mapping[str, Member],
    played_on: date,
    by: Member | None = None,
    versions: dict[str, RulesetVersion] | None = None,
    service: str = "",
    planned: Plan | None = None,
    origin: tuple[str, str] = ("", ""),
) -> NewGame:
    """Check a game record (docs/game-record-format.md) and plan it, without writing.

    The record's hands are played through the engine once, here, unless ``planned`` is
    their plan already: the :class:`Record` plan of this record's hands on a new game under
    its ruleset, made where they were played first (an online log's verification,
    :func:`scoring.ledger.online.club.verified_plan`); then nothing is played.
    ``versions`` caches :meth:`RulesetVersion.current` per ruleset id (a caller importing
    many games); ``service`` names the online service of an imported online game
    and ``origin`` its log's format and id (``OnlineGame``'s: what the game is, for its
    fingerprint, :mod:`scoring.ledger.fingerprint`).

    Raises:
        LedgerError: an invalid record (the message as ``replay`` prints it), a player name
            with no member, or a member at two seats.
        ValueError: ``planned`` is not the plan of this record's hands under its ruleset.
    """
    try:
        ruleset = ruleset_of_record(record)
        players = record_players(record, ruleset)
        raw_hands = record.get("hands", [] if FINAL_SCORES_KEY in record else None)
        if not isinstance(raw_hands, list):
            raise RecordError(None, "hands", "must be a list of hands", code="hands_not_a_list")
    except RecordError as error:
        raise LedgerError(error.line(), error.key, cause=error) from None
    for name in players:
        try:
            clean_display_name(name)
        except ValidationError as error:
            why = " ".join(error.messages)
            raise LedgerError(f"players: {name[:80]!r}: {why}", "players") from None
    try:
        members = [members_by_name[name] for name in players]
    except KeyError as missing:
        raise LedgerError(_("No member is called %(name)s.") % {"name": missing.args[0]}) from None
    seated = seated_members(ruleset, members)
    check_date(played_on)
    if planned is not None:
        _check_plan_of(planned, ruleset, raw_hands)
    elif FINAL_SCORES_KEY in record:
        if raw_hands:
            raise LedgerError(
                "final_scores: a record has hands or final scores, not both", FINAL_SCORES_KEY
            )
        planned = plan(StoredGame.new(ruleset), FinalScoresEntry(record[FINAL_SCORES_KEY]))
    else:
        planned = plan(StoredGame.new(ruleset), Record(raw_hands))
    if versions is None:
        versions = {}
    key = f"{ruleset.id}@{service}" if service else ruleset.id
    if key not in versions:
        versions[key] = RulesetVersion.current(ruleset.id, service)
    return NewGame(
        plan=planned,
        version=versions[key],
        members=seated,
        played_on=played_on,
        overrides=dict(record.get("overrides") or {}),
        venue=str(record.get("venue", ""))[:120],
        table_name=str(record.get("table", ""))[:40],
        by=by,
        origin=origin,
    )


def _check_plan_of(planned: Plan, ruleset: Ruleset, raw_hands: list[Any]) -> None:
    """``planned`` is the plan of ``raw_hands`` from East 1 under ``ruleset``, or ValueError
    (a caller's mistake, not the record's)."""
    change = planned.change
    if not (
        isinstance(change, Record)
        and planned.first == 0
        and planned.ruleset == ruleset
        and list(change.hands) == raw_hands
        and len(planned.hands) == len(raw_hands)
    ):
        raise ValueError("the plan given is not the plan of this record's hands")


def hanchan_import(
    *,
    record: Mapping[str, Any],
    members_by_name: Mapping[str, Member],
    played_on: date,
    by: Member | None = None,
    service: str = "",
    steward: bool = False,
    allow_duplicate: bool = False,
    planned: Plan | None = None,
    versions: dict[str, RulesetVersion] | None = None,
    origin: tuple[str, str] = ("", ""),
) -> Hanchan:
    """Store a whole game record (docs/game-record-format.md) as a hanchan.

    ``members_by_name`` maps each of the record's player names to a member. The record is
    played through the engine once (:func:`prepare_import`), then the hanchan, its hands,
    their facts and the settlement are written. Who counts it is the one confirmation of
    every path (:func:`scoring.ledger.create.create_games`): an import by a
    command (``by`` None) or by a ``steward`` counts at once; an import by a member (an
    upload) is vouched for by that member's own seat and waits for the other seated
    players or a steward. Must run inside the caller's transaction when several records go
    together.

    A finished game that is in the ledger already (:mod:`scoring.ledger.fingerprint`) is
    refused unless ``allow_duplicate`` (a true twin, ``import_games --allow-duplicate``);
    so is a game in play whose record is a game in play already (:func:`in_play_twin`).
    ``planned``: the record's plan made already (:func:`prepare_import`),
    so the engine does not play it again. ``versions``, ``origin``: as
    :func:`prepare_import`.

    Raises:
        LedgerError: as :func:`prepare_import`.
        DuplicateGame: the game is stored already (a :class:`LedgerError` naming it).
    """
    game = prepare_import(
        record=record,
        members_by_name=members_by_name,
        played_on=played_on,
        by=by,
        versions=versions,
        service=service,
        planned=planned,
        origin=origin,
    )
    game = replace(game, steward=steward, allow_duplicate=allow_duplicate)
    with transaction.atomic():
        if game.plan.settlement is None and not allow_duplicate:
            twin = in_play_twin(game)
            if twin is not None:
                raise DuplicateGame(twin)
        return create_games([game])[0]


def in_play_twin(game: NewGame) -> Hanchan | None:
    """The game in play that ``game``, an unfinished record being imported, is already
    (the same unfinished record imported twice once made two games in play):
    a club game in play, not voided, on the same day, under the same ruleset, with the same
    members in the same seats, whose hands begin with the record's (the same hands, or more
    entered at the table since it was imported). A member cannot sit at two games at once,
    so such a game is this one. Three queries at most, none for a finished record.

    A finished record is not compared with games in play, nor an unfinished one with
    finished games: the first hands of two games of one evening at one table are often the
    same (a draw with the same players tenpai), and the fingerprint of a finished game
    tells it from another whole."""
    if game.version.service or game.origin[0]:
        return None
    members = [m.pk for m in game.members]
    candidates = (
        Hanchan.objects.filter(
            status=Hanchan.Status.IN_PLAY,
            played_on=game.played_on,
            ruleset_version__ruleset_id=game.version.ruleset_id,
            ruleset_version__service="",
            seats__index=0,
            seats__member_id=members[0],
        )
        .prefetch_related("seats")
        .order_by("pk")
    )
    same = {
        hanchan.pk: hanchan
        for hanchan in candidates
        if [s.member_id for s in sorted(hanchan.seats.all(), key=lambda s: s.index)] == members
    }
    if not same:
        return None
    wanted = [_hand_key(hand.result) for hand in game.plan.hands]
    hands: dict[int, list[Any]] = {pk: [] for pk in same}
    for hanchan_id, result in (
        HandEntry.objects.filter(hanchan_id__in=same)
        .order_by("hanchan_id", "sequence")
        .values_list("hanchan_id", "result")
    ):
        hands[hanchan_id].append(_hand_key(result))
    return next((same[pk] for pk in same if hands[pk][: len(wanted)] == wanted), None)


def _hand_key(result: Mapping[str, Any]) -> list[Any]:
    """A hand as a fingerprint sees it: round, honba and score changes."""
    return [result.get("round"), result.get("honba"), list(result.get("deltas", ()))]


@dataclass(frozen=True, slots=True)
class GameToImport:
    """One record for :func:`hanchans_import_bulk`: the arguments of ``hanchan_import``."""

    record: Mapping[str, Any]
    members_by_name: Mapping[str, Member]
    played_on: date
    by: Member | None = None


def hanchans_import_bulk(
    games: Sequence[GameToImport], *, versions: dict[str, RulesetVersion] | None = None
) -> list[Hanchan]:
    """Store many game records as :func:`hanchan_import` does, in one go.

    Each record is checked and planned by :func:`prepare_import` (the
    engine plays each hand once), then all of them are written by the ledger's own writer
    (:func:`scoring.ledger.create.create_games`) with a few bulk inserts: the same rows
    ``hanchan_import`` writes, since it is the same code; finished games count at once,
    as imports by command do.

    ``versions`` caches :meth:`RulesetVersion.current` per ruleset id across calls (a caller
    storing many batches while the built-in rulesets cannot change).

    Returns the hanchans, in the order of ``games``. Must run inside the caller's
    transaction.

    Raises:
        LedgerError: as ``hanchan_import``, for the first bad record; nothing is written.
    """
    versions = {} if versions is None else versions
    planned = [
        prepare_import(
            record=game.record,
            members_by_name=game.members_by_name,
            played_on=game.played_on,
            by=game.by,
            versions=versions,
        )
        for game in games
    ]
    return create_games(planned, confirmed=True)


def hanchan_record(hanchan: Hanchan) -> dict[str, Any]:
    """The game as a record (club-game/1) that replays to the stored result.

    Where the pinned ruleset version differs from today's built-in ruleset, the differences
    go into ``overrides`` together with the game's own overrides, so the export replays the
    same way after the club edits its rules.
    """
    current = load_ruleset(hanchan.ruleset_version.ruleset_id).parameters()
    pinned = hanchan.ruleset_version.parameters
    overrides = {
        name: value
        for name, value in pinned.items()
        if current.get(name) != value and name not in ("id", "name", "sources")
    }
    overrides.update(hanchan.overrides or {})
    seats = sorted(hanchan.seats.all(), key=lambda s: s.index)
    record: dict[str, Any] = {
        "format": "club-game/1",
        "ruleset": hanchan.ruleset_version.ruleset_id,
        "overrides": overrides,
        "players": [seat.member.display_name for seat in seats],
        "hands": [entry.data for entry in sorted(hanchan.hands.all(), key=lambda e: e.sequence)],
        "date": hanchan.played_on.isoformat(),
        "venue": hanchan.venue,
        "table": hanchan.table_name,
    }
    if hanchan.final_scores_only:
        record["final_scores"] = hanchan.state["final_scores"]
    return record
