"""Storing online games: a game with its new members and online names, through
the ledger's one path (:func:`scoring.ledger.hanchan_import`, or many at once by
:func:`scoring.ledger.create.create_games`), with where it came from (:class:`OnlineGame`).

A log or result line is stored once: one imported before stores nothing
(:class:`AlreadyImported`), a voided import of it gives way. Every refusal is a
:class:`LedgerError` with one line for the user, raised before anything is written.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubsite.club_scope import current_club
from clubsite.models import Member
from scoring.ledger.bulk import insert_objects
from scoring.ledger.confirmation import one_refresh
from scoring.ledger.create import NewGame, create_games, new_fingerprint
from scoring.ledger.errors import LedgerError
from scoring.ledger.fingerprint import DuplicateGame
from scoring.ledger.online.club import CountedGame, club_rules
from scoring.ledger.online.players import Players, match_known, save_players, saved_names
from scoring.ledger.plan import Plan
from scoring.ledger.records import hanchan_import, prepare_import
from scoring.models import Hanchan, OnlineGame, RulesetVersion
from scoring.online.lobby_rules import lobby_of
from scoring.online.log import OnlineLog
from scoring.online.verify import VerifiedGame


class AlreadyImported(LedgerError):
    """The log was imported before, as ``hanchan``; nothing was stored this time."""

    def __init__(self, hanchan: Hanchan) -> None:
        self.hanchan = hanchan
        super().__init__(_("already imported as game %(id)d: nothing stored") % {"id": hanchan.pk})


@dataclass(frozen=True)
class Storing:
    """How a run of imports stores its games: ``played_on`` for a log without a date, ``by``
    the member importing (``None``: a command), ``steward`` (a steward's import counts at
    once; a member's once the other seated members confirm it),
    ``allow_duplicate`` (a true twin of a stored game), ``versions`` the pinned ruleset
    versions looked up so far (:func:`scoring.ledger.prepare_import`)."""

    played_on: datetime.date
    by: Member | None = None
    steward: bool = False
    allow_duplicate: bool = False
    versions: dict[str, RulesetVersion] | None = None


def existing_game(log: OnlineLog) -> Hanchan | None:
    """The game this log was imported as and that still counts (a voided one does not)."""
    found = (
        OnlineGame.objects.select_related("hanchan")
        .filter(club=current_club(), service=log.service, log_id=log.log_id, active=True)
        .exclude(hanchan__status=Hanchan.Status.VOIDED)
        .first()
    )
    return found.hanchan if found else None


def origin_of(hanchan: Hanchan, log: OnlineLog, by: Member | None) -> OnlineGame:
    """The (unsaved) :class:`OnlineGame` that says where ``hanchan`` came from: the log's
    service, format and id (what makes one log stored once), its lobby (:func:`lobby_of`), rule
    label and replay address, cut to their columns, and who imported it."""
    return OnlineGame(
        club_id=hanchan.club_id,
        hanchan=hanchan,
        service=log.service,
        log_format=log.log_format,
        log_id=log.log_id,
        lobby=lobby_of(log)[:40],
        rule_label=log.rule_label[:60],
        replay_url=log.replay_url,
        imported_by=by,
    )


def store_one(
    log: OnlineLog,
    players: Players,
    record: Mapping[str, Any],
    storing: Storing,
    *,
    service: str,
    planned: Plan | None = None,
) -> Hanchan:
    """Store one online game in one transaction: its new members and online names, the
    hanchan of ``record`` through the ledger (``planned``: the plays verification made), and
    its :class:`OnlineGame`; a voided import of the same log gives way (it keeps its origin,
    inactive).

    Raises:
        AlreadyImported: the log was imported before (also when another import of it
            commits first).
        LedgerError: as :func:`scoring.ledger.hanchan_import` (a member at two seats, ...),
            or another import took a new member's display name or an online name meanwhile.
    """
    try:
        with transaction.atomic():
            origins = list(
                OnlineGame.objects.select_related("hanchan").filter(
                    service=log.service, log_id=log.log_id, active=True
                )
            )
            for origin in origins:
                if origin.hanchan.status != Hanchan.Status.VOIDED:
                    raise AlreadyImported(origin.hanchan)
            if origins:
                OnlineGame.objects.filter(pk__in=[o.pk for o in origins]).update(active=False)
            members = save_players(log, players)
            hanchan = hanchan_import(
                record={**record, "players": [m.display_name for m in members]},
                members_by_name={m.display_name: m for m in members},
                played_on=log.played_on or storing.played_on,
                by=storing.by,
                service=service,
                steward=storing.steward,
                allow_duplicate=storing.allow_duplicate,
                planned=planned,
                versions=storing.versions,
                origin=(log.log_format, log.log_id),
            )
            origin_of(hanchan, log, storing.by).save()
            return hanchan
    except IntegrityError as error:
        existing = existing_game(log)
        if existing is None:
            raise LedgerError(
                _("Another import stored the same names meanwhile: nothing was stored; try again.")
            ) from error
        raise AlreadyImported(existing) from None


def import_verified(
    verified: VerifiedGame,
    players: Players,
    *,
    played_on: datetime.date,
    by: Member | None = None,
    steward: bool = False,
    allow_duplicate: bool = False,
    versions: dict[str, RulesetVersion] | None = None,
) -> Hanchan:
    """Store a re-scored online game in one transaction (:func:`store_one`), as the club
    counts it (:func:`club_rules`: a game of a lobby the club lists under the club's
    ruleset).

    ``played_on`` is used when the log carries no date. An upload by a member (``by``, not
    a ``steward``) counts once the other seated members confirm it, as a table game does;
    a steward's upload or a command's import (``by`` None) counts at once.
    ``versions`` caches the pinned ruleset versions across a batch (:func:`import_logs`).

    Raises:
        AlreadyImported: the log was imported before.
        LedgerError: as :func:`store_one` and :func:`club_rules`.
    """
    counted = club_rules(verified)
    storing = Storing(played_on, by, steward, allow_duplicate, versions)
    return _store_counted(counted, players, storing)


def _store_counted(counted: CountedGame, players: Players, storing: Storing) -> Hanchan:
    return store_one(
        counted.verified.log,
        players,
        counted.record,
        storing,
        service=counted.service,
        planned=counted.plan,
    )


def import_logs(
    games: Sequence[VerifiedGame],
    *,
    played_on: datetime.date,
    mapping: Mapping[str, str] | None = None,
    create_members: bool = False,
    by: Member | None = None,
    steward: bool = False,
    allow_duplicate: bool = False,
    check: Callable[[int, Players], None] | None = None,
) -> list[Hanchan | LedgerError]:
    """Store many re-scored online games in one transaction, each as :func:`import_verified`
    stores it after :func:`match_players` (``mapping``, ``create_members``), in order, so a
    member or online name saved for one log is the one the next logs match. The one online
    import path (:func:`scoring.ledger.import_online`) stores its logs so.

    Each log is stored or refused alone: the outcome per log, in the order of ``games``, is
    its hanchan or the refusal (:class:`AlreadyImported`, :class:`UnknownNames`,
    ``DuplicateGame``, :class:`LedgerError`), and a refusal changes nothing. ``check``,
    given, is called with each log's index in ``games`` and its matched players before
    anything of the log is written; a :class:`LedgerError` it raises is that log's refusal
    (a member stores only the games they sat in).

    The saved online names of every log are read with one query, and each log is counted
    under the club's rules once (:func:`club_rules`). Logs whose seats are all known members
    are written together by the ledger's own writer (:func:`create_games`, a fixed number of
    bulk writes, as :func:`scoring.ledger.hanchans_import_bulk`); a log that saves a member
    or an online name is stored alone (:func:`store_one`, in a savepoint) after the logs
    before it. The members' roll-ups are refreshed once and ``games_counted`` sent once
    (:func:`scoring.ledger.confirmation.one_refresh`); ruleset versions are looked up once
    per ruleset (``benchmarks.online_import``: statements and logs stored per second).
    """
    outcomes: dict[int, Hanchan | LedgerError] = {}
    storing = Storing(played_on, by, steward, allow_duplicate, {})
    known: list[tuple[int, CountedGame, Players]] = []
    with one_refresh():
        names = saved_names([verified.log for verified in games])
        for index, verified in enumerate(games):
            try:
                players = match_known(verified.log, names, mapping or {}, create_members)
                if check is not None:
                    check(index, players)
                counted = club_rules(verified)
            except LedgerError as refused:
                outcomes[index] = refused
                continue
            if not players.saved and not players.created:
                known.append((index, counted, players))
                continue
            _store_together(known, outcomes, storing)
            known = []
            outcomes[index] = _store_alone(counted, players, storing)
            if isinstance(outcomes[index], Hanchan):
                # The next logs match the names this one saved (its new members among them).
                for name in players.saved:
                    member = players.members[verified.log.players.index(name)]
                    names[(verified.log.service, name)] = member
        _store_together(known, outcomes, storing)
    return [outcomes[index] for index in range(len(games))]


def _store_alone(counted: CountedGame, players: Players, storing: Storing) -> Hanchan | LedgerError:
    """One log of a batch stored in its own savepoint: its hanchan, or its refusal."""
    try:
        return _store_counted(counted, players, storing)
    except LedgerError as refused:
        # A version first stored in the savepoint that rolled back is gone with it.
        assert storing.versions is not None
        storing.versions.clear()
        return refused


def _store_together(
    known: Sequence[tuple[int, CountedGame, Players]],
    outcomes: dict[int, Hanchan | LedgerError],
    storing: Storing,
) -> None:
    """Store the logs of ``known`` (seats all known members, no name to save) with one
    :func:`create_games`, each refused as :func:`store_one` would refuse it alone: an active
    origin not voided (:class:`AlreadyImported`), a game stored already (``DuplicateGame``),
    a bad record; a log twice, or a game twice, is refused the second time naming the
    first. Outcomes go into ``outcomes`` by index."""
    if not known:
        return
    origins: dict[tuple[str, str], list[OnlineGame]] = {}
    for origin in OnlineGame.objects.select_related("hanchan").filter(
        log_id__in={counted.verified.log.log_id for _i, counted, _p in known}, active=True
    ):
        origins.setdefault((origin.service, origin.log_id), []).append(origin)
    planned: list[tuple[int, OnlineLog, NewGame, str]] = []
    for index, counted, players in known:
        log = counted.verified.log
        already = [
            o.hanchan
            for o in origins.get((log.service, log.log_id), [])
            if o.hanchan.status != Hanchan.Status.VOIDED
        ]
        if already:
            outcomes[index] = AlreadyImported(already[0])
            continue
        try:
            game = prepare_import(
                record={**counted.record, "players": [m.display_name for m in players.members]},
                members_by_name={m.display_name: m for m in players.members},
                played_on=log.played_on or storing.played_on,
                by=storing.by,
                versions=storing.versions,
                service=counted.service,
                planned=counted.plan,
                origin=(log.log_format, log.log_id),
            )
        except LedgerError as refused:
            outcomes[index] = refused
            continue
        game = replace(game, steward=storing.steward, allow_duplicate=storing.allow_duplicate)
        planned.append((index, log, game, new_fingerprint(game)))
    checked = {fp for _i, _l, game, fp in planned if fp and not game.allow_duplicate}
    stored = {
        h.fingerprint: h
        for h in Hanchan.objects.filter(club=current_club(), fingerprint__in=checked)
        .exclude(status=Hanchan.Status.VOIDED)
        .order_by("-pk")
    }
    first_of_log: dict[tuple[str, str], int] = {}
    first_of_game: dict[str, int] = {}
    writing: list[tuple[int, OnlineLog, NewGame]] = []
    later: list[tuple[int, int, bool]] = []  # (index, index of the first, same log)
    for index, log, game, fingerprint in planned:
        if fingerprint in stored and not game.allow_duplicate:
            outcomes[index] = DuplicateGame(stored[fingerprint])
        elif (log.service, log.log_id) in first_of_log:
            later.append((index, first_of_log[(log.service, log.log_id)], True))
        elif fingerprint and fingerprint in first_of_game and not game.allow_duplicate:
            later.append((index, first_of_game[fingerprint], False))
        else:
            first_of_log[(log.service, log.log_id)] = index
            if fingerprint:
                first_of_game.setdefault(fingerprint, index)
            writing.append((index, log, game))
    try:
        if writing:
            with transaction.atomic():
                _write_together(writing, origins, outcomes, storing.by)
    except (IntegrityError, DuplicateGame):
        # Another import stored one of these logs or games meanwhile (its origin's unique
        # row, or the fingerprint checked again by create_games): nothing of the batch was
        # written; each log is stored or refused alone, naming what the other one stored.
        alone = {index for index, _l, _g in writing} | {index for index, _f, _s in later}
        for index, counted, players in known:
            if index in alone:
                outcomes[index] = _store_alone(counted, players, storing)
        return
    for index, first, same_log in later:
        earlier = outcomes[first]
        assert isinstance(earlier, Hanchan)
        outcomes[index] = AlreadyImported(earlier) if same_log else DuplicateGame(earlier)


def _write_together(
    writing: Sequence[tuple[int, OnlineLog, NewGame]],
    origins: Mapping[tuple[str, str], Sequence[OnlineGame]],
    outcomes: dict[int, Hanchan | LedgerError],
    by: Member | None,
) -> None:
    """Write the games of ``writing`` (checked) with one :func:`create_games` and their
    origins; voided imports of the same logs give way."""
    voided = [o.pk for _i, log, _g in writing for o in origins.get((log.service, log.log_id), [])]
    if voided:
        # Voided imports of these logs give way; they keep their origin, inactive.
        OnlineGame.objects.filter(pk__in=voided).update(active=False)
    hanchans = create_games([game for _i, _l, game in writing])
    insert_objects(
        OnlineGame,
        (
            origin_of(hanchan, log, by)
            for hanchan, (_i, log, _g) in zip(hanchans, writing, strict=True)
        ),
    )
    for hanchan, (index, _l, _g) in zip(hanchans, writing, strict=True):
        outcomes[index] = hanchan
