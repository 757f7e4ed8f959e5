"""Online games into the ledger: players matched by their online names, the game
re-scored (:mod:`scoring.online.verify`), then stored through the ledger's one path
(:func:`scoring.ledger.hanchan_import`) with where it came from (:class:`OnlineGame`).

The engine plays each hand once: the hands verification played are the ledger's plan
(:func:`verified_plan`), which is written as it is.

Every refusal is a :class:`LedgerError` with one line for the user, raised before anything
is written; a log already imported stores nothing (:class:`AlreadyImported`).
"""

from __future__ import annotations

import datetime
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubsite.models import Member, OnlineLobby, OnlineName
from clubsite.names import NAME_LIMIT, clean_display_name
from scoring.engine import RecordError, load_ruleset
from scoring.engine.replay import RECORD_FORMAT
from scoring.ledger.bulk import insert_objects
from scoring.ledger.confirmation import one_refresh
from scoring.ledger.create import NewGame, create_games, new_fingerprint
from scoring.ledger.errors import LedgerError
from scoring.ledger.fingerprint import DuplicateGame
from scoring.ledger.plan import Plan, PlannedHand, Record
from scoring.ledger.records import hanchan_import, prepare_import
from scoring.ledger.stored import game_state_json, hand_result_json
from scoring.models import Hanchan, OnlineGame, RulesetVersion
from scoring.online.lobby_rules import lobby_of
from scoring.online.log import LogError, OnlineLog, date_of_log_id
from scoring.online.result_lines import ResultLine, SettledLine, settle_line
from scoring.online.verify import VerifiedGame, verify


class AlreadyImported(LedgerError):
    """The log was imported before, as ``hanchan``; nothing was stored this time."""

    def __init__(self, hanchan: Hanchan) -> None:
        self.hanchan = hanchan
        super().__init__(_("already imported as game %(id)d: nothing stored") % {"id": hanchan.pk})


# Tenhou's name for a player who has not registered one: anyone, so never an online name.
ANONYMOUS = "NoName"


class UnknownNames(LedgerError):
    """Seats of the log with no member: ``names`` the online names no
    member has (nor ``--map`` gives), ``shared`` the names that cannot name one member —
    ``(name, seats)`` for a name at several seats (Mahjong Soul allows equal nicknames) or
    Tenhou's anonymous ``NoName`` — and ``nameless`` the seats the log names no one at,
    seats counted from 1. ``str()`` is the command's line;
    the upload page says it in its own words (:mod:`scoring.views.online`)."""

    def __init__(
        self,
        service: str,
        names: Sequence[str],
        shared: Sequence[tuple[str, tuple[int, ...]]],
        nameless: Sequence[int] = (),
    ) -> None:
        self.service = service
        self.names = tuple(names)
        self.shared = tuple(shared)
        self.nameless = tuple(nameless)
        parts = []
        if self.nameless:
            parts.append(
                _(
                    "the log gives no player names for seats %(seats)s, so no online name finds "
                    'them: give the member at each seat with --map "seat N=member" (--map '
                    '"seat %(seat)d=member" …)'
                )
                % {"seats": ", ".join(map(str, self.nameless)), "seat": self.nameless[0]}
            )
        if self.names:
            parts.append(
                _(
                    'unknown %(service)s name(s): %(names)s (give --map "name=member", add the '
                    "name to a member's online names, or use --create-members)"
                )
                % {"service": service, "names": ", ".join(self.names)}
            )
        for name, seats in self.shared:
            if len(seats) > 1:
                parts.append(
                    _(
                        "seats %(seats)s are all called %(name)s: no online name tells them "
                        "apart (use --create-members to add a member for each)"
                    )
                    % {"seats": ", ".join(map(str, seats)), "name": name}
                )
            else:
                parts.append(
                    _(
                        "seat %(seat)d is %(name)s, an anonymous player: no online name is "
                        'saved for it (give --map "%(name)s=member" or use --create-members)'
                    )
                    % {"seat": seats[0], "name": name}
                )
        super().__init__("; ".join(parts))


@dataclass(frozen=True)
class Players:
    """The members at the log's seats, and the online names newly saved for them (never a
    name at two seats, nor ``NoName``: those name nobody in particular); ``created`` is
    ``(online name, new member)`` for each seat that gets a new member (fixed when the
    players are matched: it still names them once :func:`import_verified` has saved them)."""

    members: list[Member]
    saved: list[str]
    created: list[tuple[str, Member]] = field(default_factory=list)


def existing_game(log: OnlineLog) -> Hanchan | None:
    """The game this log was imported as and that still counts (a voided one does not)."""
    found = (
        OnlineGame.objects.select_related("hanchan")
        .filter(service=log.service, log_id=log.log_id, active=True)
        .exclude(hanchan__status=Hanchan.Status.VOIDED)
        .first()
    )
    return found.hanchan if found else None


def match_players(
    log: OnlineLog,
    *,
    mapping: Mapping[str, str] | None = None,
    create_members: bool = False,
) -> Players:
    """The member at each seat of ``log``, by the saved online names of its service.

    ``mapping`` gives a member's display name for an online name (``--map``): the pair is
    saved as that member's online name on import; a ``"seat N"`` key (N from 1) gives the
    member at that seat where no online name can find one — a seat the log names no one at
    (:attr:`OnlineLog.nameless`; the only way to it), one of several seats
    of one name, ``NoName`` — and is ignored at a seat with a name of its own (the upload
    page's choice applies to every log of an upload). With ``create_members`` an unknown name
    becomes a new member (no usable password) of that display name, or, where a member has
    that display name already or another seat takes it, of the first free ``"name (2)"``,
    ``"name (3)"``…: a display name alone never puts a seat on a member.

    A name at several seats of the log (equal nicknames) or Tenhou's ``NoName`` names no one
    player: it is never matched by a saved online name nor saved; each such seat gets a new
    member with ``create_members``, a ``NoName`` at one seat may be given by ``mapping``.
    Nothing is written here; :func:`import_verified` saves the names and members with the
    game.

    Raises:
        UnknownNames: seats with no member (and no ``mapping`` entry nor
            ``create_members``; a nameless seat without its ``"seat N"`` entry), naming them.
        LedgerError: a mapped member that does not exist or is deactivated, a mapped
            name at several seats, or a name that is no display name.
    """
    return _match(log, saved_names([log]), mapping or {}, create_members)


def saved_names(logs: Sequence[OnlineLog]) -> dict[tuple[str, str], Member]:
    """The members of the online names at the seats of ``logs``, by ``(service, name)``
    (one query, whatever the number of logs)."""
    services = {log.service for log in logs}
    names = {name for log in logs for name in log.players} - {ANONYMOUS}
    if not names:
        return {}
    return {
        (row.service, row.name): row.member
        for row in OnlineName.objects.select_related("member").filter(
            service__in=services, name__in=names
        )
    }


def _match(
    log: OnlineLog,
    known: Mapping[tuple[str, str], Member],
    mapping: Mapping[str, str],
    create_members: bool,
) -> Players:
    """:func:`match_players` with the saved online names given (``known``, as
    :func:`saved_names`): a batch of logs reads them once."""
    seats_of: dict[str, list[int]] = {}
    for seat, name in enumerate(log.players, start=1):
        seats_of.setdefault(name, []).append(seat)
    shared = {name for name, seats in seats_of.items() if len(seats) > 1 or name == ANONYMOUS}
    # A seat the log names no one at is found by seat only, never saved.
    shared |= {log.players[seat] for seat in log.nameless}
    by_seat = _seat_mapping(mapping, len(log.players))
    saved = {
        name: known[(log.service, name)]
        for name in set(log.players) - shared
        if (log.service, name) in known
    }
    members: list[Member] = []
    unknown: list[str] = []
    unmatched: list[tuple[str, tuple[int, ...]]] = []
    new_names = []
    taken: set[str] = set()
    lost: list[int] = []
    for seat, name in enumerate(log.players):
        if seat in by_seat and name in shared:
            members.append(_mapped_member(f"seat {seat + 1}", by_seat[seat]))
            continue
        if seat in log.nameless:
            lost.append(seat + 1)
            continue
        if name in mapping and len(seats_of[name]) > 1:
            raise LedgerError(
                _(
                    "--map %(name)s=%(member)s: %(name)s is at seats %(seats)s; one member "
                    "cannot sit at several."
                )
                % {
                    "name": name,
                    "member": mapping[name],
                    "seats": ", ".join(map(str, seats_of[name])),
                }
            )
        if name in mapping:
            members.append(_mapped_member(name, mapping[name]))
            if name not in shared:
                new_names.append(name)
        elif name in saved:
            members.append(saved[name])
        elif create_members:
            members.append(Member(display_name=_free_display_name(name, taken)))
            if name not in shared:
                new_names.append(name)
        elif name in shared:
            if (name, tuple(seats_of[name])) not in unmatched:
                unmatched.append((name, tuple(seats_of[name])))
        else:
            unknown.append(name)
    if unknown or unmatched or lost:
        raise UnknownNames(log.service, unknown, unmatched, lost)
    created = [
        (name, member)
        for name, member in zip(log.players, members, strict=True)
        if member.pk is None
    ]
    return Players(members=members, saved=new_names, created=created)


# ``--map "seat 2=member"``: the member at a seat, counted from 1.
SEAT_KEY = re.compile(r"seat ?([1-9])", re.IGNORECASE)


def _seat_mapping(mapping: Mapping[str, str], players: int) -> dict[int, str]:
    """The display name ``mapping`` gives for each seat (0-based) by a ``"seat N"`` key."""
    out = {}
    for key, member in mapping.items():
        match = SEAT_KEY.fullmatch(key.strip())
        if match is not None and int(match[1]) <= players:
            out[int(match[1]) - 1] = member
    return out


def _mapped_member(key: str, display_name: str) -> Member:
    """The active member called ``display_name``, given for ``key`` (a name or ``"seat N"``)
    by ``--map``.

    Raises:
        LedgerError: no such member, or a deactivated one.
    """
    member = Member.objects.select_related("user").filter(display_name=display_name).first()
    if member is None:
        raise LedgerError(
            _("--map %(name)s=%(member)s: no member is called %(member)s.")
            % {"name": key, "member": display_name}
        )
    if not member.user.is_active:
        # A seat is mapped to a member chosen for it; a deactivated member is no choice.
        # Their saved online names still find them.
        raise LedgerError(
            _(
                "--map %(name)s=%(member)s: %(member)s is deactivated; a steward can "
                "reactivate them at the members desk."
            )
            % {"name": key, "member": display_name}
        )
    return member


def _free_display_name(name: str, taken: set[str]) -> str:
    """``name`` as a new member's display name: itself, or the first of ``"name (2)"``,
    ``"name (3)"``… that no member and no name in ``taken`` has (then added to ``taken``).

    Raises:
        LedgerError: ``name`` is no display name (empty, a control character).
    """
    try:
        base = clean_display_name(name[:NAME_LIMIT])
    except ValidationError as error:
        raise LedgerError(f"players: {name[:80]!r}: {' '.join(error.messages)}") from None
    candidate, number = base, 1
    while candidate in taken or Member.objects.filter(display_name=candidate).exists():
        number += 1
        suffix = f" ({number})"
        candidate = base[: NAME_LIMIT - len(suffix)].rstrip() + suffix
    taken.add(candidate)
    return candidate


def origin_of(hanchan: Hanchan, log: OnlineLog, by: Member | None) -> OnlineGame:
    """The (unsaved) :class:`OnlineGame` that says where ``hanchan`` came from: the log's
    service, format and id (what makes one log stored once), its lobby (:func:`lobby_of`), rule
    label and replay address, cut to their columns, and who imported it."""
    return OnlineGame(
        hanchan=hanchan,
        service=log.service,
        log_format=log.log_format,
        log_id=log.log_id,
        lobby=lobby_of(log)[:40],
        rule_label=log.rule_label[:60],
        replay_url=log.replay_url,
        imported_by=by,
    )


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
    """Store a re-scored online game in one transaction: new members and online names, the
    hanchan (through the ledger), and its :class:`OnlineGame`.

    ``played_on`` is used when the log carries no date. A game of a lobby the club counts
    (:class:`OnlineLobby`) is stored under the club's ruleset (:func:`club_rules`). An upload
    by a member (``by``, not a ``steward``) counts once the other seated members confirm it, as
    a table game does; a steward's upload or a command's import (``by`` None) counts at once.
    ``versions`` caches the pinned ruleset versions across a batch (:func:`import_logs`).

    Raises:
        AlreadyImported: the log was imported before (also when another import of it
            commits first).
        LedgerError: as :func:`scoring.ledger.hanchan_import` (a member at two seats, ...).
    """
    log = verified.log
    verified, service = club_rules(verified)
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
                # A voided import of this log gives way; it keeps its origin, inactive.
                OnlineGame.objects.filter(pk__in=[o.pk for o in origins]).update(active=False)
            members = []
            for member in players.members:
                if member.pk is None:
                    user = get_user_model().objects.create_user(
                        username=f"imported-{secrets.token_hex(6)}", password=None
                    )
                    member.user = user
                    member.save()
                members.append(member)
            for name in players.saved:
                member = members[log.players.index(name)]
                OnlineName.objects.update_or_create(
                    service=log.service, name=name, defaults={"member": member}
                )
            record = {**verified.record, "players": [m.display_name for m in members]}
            hanchan = hanchan_import(
                record=record,
                members_by_name={m.display_name: m for m in members},
                played_on=log.played_on or played_on,
                by=by,
                service=service,
                steward=steward,
                allow_duplicate=allow_duplicate,
                planned=verified_plan(verified),
                versions=versions,
                origin=(log.log_format, log.log_id),
            )
            origin_of(hanchan, log, by).save()
            return hanchan
    except IntegrityError as error:
        existing = existing_game(log)
        if existing is None:
            # Another import took a new member's display name or an online name meanwhile.
            raise LedgerError(
                _("Another import stored the same names meanwhile: nothing was stored; try again.")
            ) from error
        raise AlreadyImported(existing) from None


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
    member or online name saved for one log is the one the next logs match. The upload page
    and ``import_games`` store their logs so.

    Each log is stored or refused alone: the outcome per log, in the order of ``games``, is
    its hanchan or the refusal (:class:`AlreadyImported`, :class:`UnknownNames`,
    ``DuplicateGame``, :class:`LedgerError`), and a refusal changes nothing. ``check``,
    given, is called with each log's index in ``games`` and its matched players before
    anything of the log is written; a :class:`LedgerError` it raises is that log's refusal
    (the upload page: a member stores only the games they sat in).

    The saved online names of every log are read with one query. Logs whose seats are all
    known members are written together by the ledger's own writer
    (:func:`scoring.ledger.create.create_games`, a fixed number of bulk writes, as
    :func:`scoring.ledger.hanchans_import_bulk`); a log that saves a member or an online
    name is stored alone (:func:`import_verified`, in a savepoint) after the logs before
    it. The members' roll-ups are refreshed once and ``games_counted`` sent once
    (:func:`scoring.ledger.confirmation.one_refresh`); ruleset versions are looked up once
    per ruleset (``benchmarks.online_import``: statements and logs stored per second).
    """
    outcomes: dict[int, Hanchan | LedgerError] = {}
    versions: dict[str, RulesetVersion] = {}
    known: list[tuple[int, VerifiedGame, Players]] = []
    batch = (played_on, by, steward, allow_duplicate, versions)
    with one_refresh():
        names = saved_names([verified.log for verified in games])
        for index, verified in enumerate(games):
            try:
                players = _match(verified.log, names, mapping or {}, create_members)
                if check is not None:
                    check(index, players)
            except LedgerError as refused:
                outcomes[index] = refused
                continue
            if not players.saved and not players.created:
                known.append((index, verified, players))
                continue
            _store_together(known, outcomes, *batch)
            known = []
            outcomes[index] = _store_alone(verified, players, *batch)
            if isinstance(outcomes[index], Hanchan):
                # The next logs match the names this one saved (its new members among them).
                for name in players.saved:
                    member = players.members[verified.log.players.index(name)]
                    names[(verified.log.service, name)] = member
        _store_together(known, outcomes, *batch)
    return [outcomes[index] for index in range(len(games))]


def _store_alone(
    verified: VerifiedGame,
    players: Players,
    played_on: datetime.date,
    by: Member | None,
    steward: bool,
    allow_duplicate: bool,
    versions: dict[str, RulesetVersion],
) -> Hanchan | LedgerError:
    """:func:`import_verified` in a batch: its hanchan, or its refusal (a log the club's
    ruleset does not reproduce, :func:`club_rules`, is one too: not expected)."""
    try:
        return import_verified(
            verified,
            players,
            played_on=played_on,
            by=by,
            steward=steward,
            allow_duplicate=allow_duplicate,
            versions=versions,
        )
    except (LedgerError, LogError) as refused:
        # A version first stored in the savepoint that rolled back is gone with it.
        versions.clear()
        if isinstance(refused, LogError):
            return LedgerError(str(refused))
        return refused


def _store_together(
    known: Sequence[tuple[int, VerifiedGame, Players]],
    outcomes: dict[int, Hanchan | LedgerError],
    played_on: datetime.date,
    by: Member | None,
    steward: bool,
    allow_duplicate: bool,
    versions: dict[str, RulesetVersion],
) -> None:
    """Store the logs of ``known`` (seats all known members, no name to save) with one
    :func:`create_games`, each refused as :func:`import_verified` would refuse it alone:
    an active origin not voided (:class:`AlreadyImported`), a game stored already
    (``DuplicateGame``), a bad record; a log twice, or a game twice, is refused the second
    time naming the first. Outcomes go into ``outcomes`` by index."""
    if not known:
        return
    origins: dict[tuple[str, str], list[OnlineGame]] = {}
    for origin in OnlineGame.objects.select_related("hanchan").filter(
        log_id__in={verified.log.log_id for _i, verified, _p in known}, active=True
    ):
        origins.setdefault((origin.service, origin.log_id), []).append(origin)
    planned: list[tuple[int, OnlineLog, NewGame, str]] = []
    for index, verified, players in known:
        log = verified.log
        already = [
            o.hanchan
            for o in origins.get((log.service, log.log_id), [])
            if o.hanchan.status != Hanchan.Status.VOIDED
        ]
        if already:
            outcomes[index] = AlreadyImported(already[0])
            continue
        try:
            club, service = club_rules(verified)
            record = {**club.record, "players": [m.display_name for m in players.members]}
            game = prepare_import(
                record=record,
                members_by_name={m.display_name: m for m in players.members},
                played_on=log.played_on or played_on,
                by=by,
                versions=versions,
                service=service,
                planned=verified_plan(club),
                origin=(log.log_format, log.log_id),
            )
        except (LedgerError, LogError) as refused:
            # LogError: the club's ruleset does not reproduce the log (not expected).
            outcomes[index] = (
                refused if isinstance(refused, LedgerError) else LedgerError(str(refused))
            )
            continue
        game = replace(game, steward=steward, allow_duplicate=allow_duplicate)
        planned.append((index, log, game, new_fingerprint(game)))
    checked = {fp for _i, _l, game, fp in planned if fp and not game.allow_duplicate}
    stored = {
        h.fingerprint: h
        for h in Hanchan.objects.filter(fingerprint__in=checked)
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
                _write_together(writing, origins, outcomes, by)
    except (IntegrityError, DuplicateGame):
        # Another import stored one of these logs or games meanwhile (its origin's unique
        # row, or the fingerprint checked again by create_games): nothing of the batch was
        # written; each log is stored or refused alone, naming what the other one stored.
        alone = {index for index, _l, _g in writing} | {index for index, _f, _s in later}
        for index, verified, players in known:
            if index in alone:
                outcomes[index] = _store_alone(verified, players, played_on, by, steward,
                                               allow_duplicate, versions)  # fmt: skip
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


# Parameters that name a ruleset rather than rule a game: never a game's overrides.
_IDENTITY = ("id", "name", "sources", "players")


def club_rules(verified: VerifiedGame) -> tuple[VerifiedGame, str]:
    """``verified`` as the club counts it, and the service its ruleset version is pinned
    under.

    A game of a lobby the club lists (:meth:`OnlineLobby.ruleset_for`: a Tenhou private
    lobby, a Mahjong Soul friendly room) is re-scored under the club's ruleset, with the
    rules the lobby played (the verified preset and its overrides) as the game's overrides
    over it, and pinned to the club's own version (service ``""``): it counts in the
    club's standings of that ruleset. Any other game is returned as it is, pinned under its
    service (its own standings filter, ``tenhou-4p@tenhou``).

    Raises:
        LedgerError: the club's ruleset is unknown or has another number of players.
        LogMismatch: the lobby's rules over the club's ruleset do not reproduce the log
            (not expected: they are the rules it was verified under).
    """
    log = verified.log
    lobby = lobby_of(log)
    club = OnlineLobby.ruleset_for(log.service, lobby)
    if club is None:
        return verified, log.service
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
    return verify(log, (club,), overrides=overrides), ""


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
    """Store a settled result line in one transaction, as :func:`import_verified` stores a
    log: new members and online names, a final-scores game through the ledger
    (:func:`scoring.ledger.hanchan_import`, deduplicated by its fingerprint as any game) and
    its :class:`OnlineGame` (the line's id: the same line of the same day is stored once).

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
    try:
        with transaction.atomic():
            existing = existing_game(log)
            if existing is not None:
                raise AlreadyImported(existing)
            members = _save_players(log, players)
            record["players"] = [m.display_name for m in members]
            hanchan = hanchan_import(
                record=record,
                members_by_name={m.display_name: m for m in members},
                played_on=log.played_on or datetime.date.today(),
                by=by,
                service=game.service,
                steward=steward,
                allow_duplicate=allow_duplicate,
                origin=(log.log_format, log.log_id),
            )
            origin_of(hanchan, log, by).save()
            return hanchan
    except IntegrityError as error:
        existing = existing_game(log)
        if existing is None:
            raise LedgerError(
                _("Another import stored the same names meanwhile: nothing was stored; try again.")
            ) from error
        raise AlreadyImported(existing) from None


def _save_players(log: OnlineLog, players: Players) -> list[Member]:
    """The seats' members, new ones saved, and the online names newly given saved."""
    members = []
    for member in players.members:
        if member.pk is None:
            user = get_user_model().objects.create_user(
                username=f"imported-{secrets.token_hex(6)}", password=None
            )
            member.user = user
            member.save()
        members.append(member)
    for name in players.saved:
        OnlineName.objects.update_or_create(
            service=log.service, name=name, defaults={"member": members[log.players.index(name)]}
        )
    return members


def verified_plan(verified: VerifiedGame) -> Plan:
    """The ledger's plan of ``verified.record``, from the hands verification played.

    It is the :class:`~scoring.ledger.Plan` that :func:`scoring.ledger.plan` gives for
    ``Record(verified.record["hands"])`` on a new game under the verified ruleset (its
    overrides applied): every hand's ``data`` (the hand as parsed), ``result`` and ``before``
    (the engine's snapshot before it), the state after the last hand and the settlement, in
    points; ``engine_plays`` is what verification played. No hand is played here (a test
    compares it with the plan played again). The handoff lives here, not in
    :mod:`scoring.online.verify`, which imports nothing of Django, as the ledger does.
    """
    game = verified.game
    hands = tuple(
        PlannedHand(index, played.hand.to_json(), hand_result_json(played.result), played.before)
        for index, played in enumerate(verified.played)
    )
    return Plan(
        Record(verified.record["hands"]),
        game.ruleset,
        0,
        hands,
        game.hands_played,
        game_state_json(game),
        game.settlement,
        engine_plays=verified.engine_plays,
    )


def seat_names(members: Sequence[Member]) -> str:
    """``"A, B, C, D"``: the members as a summary line names them."""
    return ", ".join(m.display_name for m in members)
