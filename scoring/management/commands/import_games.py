"""``python manage.py import_games FILE... [--club SLUG]``: store game records and online game
logs in a club's ledger (the site's one club by default).

A file is read by its content (:mod:`scoring.online.reading`): club records
(docs/game-record-format.md) as before; Tenhou result lines (one final-scores game a line,
on ``--date``); Tenhou JSON logs, mjlogs and mjai logs are re-scored
hand by hand by the engine and stored only when every hand and the final scores agree
. Each file is all-or-nothing; one line per file says what happened.
"""

from __future__ import annotations

import datetime
from argparse import ArgumentParser
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import translation

from clubsite.club_commands import add_club_argument, command_club_scope
from clubsite.club_scope import current_club
from clubsite.dates import club_today
from clubsite.members import imported_member_create
from clubsite.models import Member
from clubsite.names import clean_display_name
from scoring.engine import RecordError, ruleset_of_record
from scoring.ledger import (
    AlreadyImported,
    GameSource,
    ImportOptions,
    ImportOutcome,
    ImportStatus,
    LedgerError,
    hanchan_import,
    import_online,
)
from scoring.models import Hanchan
from scoring.online.log import OnlineLog
from scoring.online.result_lines import ResultLine
from scoring.online.verify import VerifiedGame


class Command(BaseCommand):
    help = (
        "Import game records (club-game/1 JSON: one record, or a list of records, per file) and "
        "online game logs (Tenhou JSON and mjlog, Mahjong Soul in Tenhou JSON, mjai), read by "
        "content. Online logs are re-scored hand by hand and stored only if every hand agrees. "
        "Record players are matched by display name, online players by their saved online "
        "names. Each file is all-or-nothing."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument(
            "--create-members",
            action="store_true",
            help="create a member (with no usable password) for each unknown player name",
        )
        parser.add_argument(
            "--map",
            action="append",
            default=[],
            metavar="NAME=MEMBER",
            help="online name NAME is the member whose display name is MEMBER (saved on import); "
            '"seat N=MEMBER" puts MEMBER at seat N (from 1) where no name can: a log with no '
            "player names, several seats of one name",
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help="online logs: only re-score and report, store nothing",
        )
        parser.add_argument(
            "--allow-duplicate",
            action="store_true",
            help="store a game even if the same game (date, players, every hand's changes) is "
            "in the ledger already: only for a true twin",
        )
        parser.add_argument(
            "--date",
            type=datetime.date.fromisoformat,
            help="date for records without a 'date' and for result lines (default: today)",
        )
        add_club_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        # The command writes English (its own lines are English words); the ledger's messages
        # it passes on (already imported, in the ledger already, unknown names) are
        # translatable and would otherwise follow the active language, the site's Japanese.
        # All of it is the club's (--club): stored as its rows, duplicates sought among its games.
        with translation.override("en"), command_club_scope(options):
            self._handle(options)

    def _handle(self, options: dict[str, Any]) -> None:
        default_date = options["date"] or club_today()
        paths: list[Path] = options["files"]
        # The ledger's one online import path, as the upload page's (scoring.ledger
        # .import_online): one transaction for the run, consecutive online
        # logs stored in one batch, each file still all or nothing, refused alone, in the
        # order given; the members' roll-ups refreshed once for every file.
        run = ImportOptions(
            played_on=default_date,
            create_members=options["create_members"],
            mapping=_mapping(options["map"]),
            allow_duplicate=options["allow_duplicate"],
            check_only=options["check"],
        )
        sources = [
            GameSource(name=str(path), read=partial(_read_path, path), filename=path.name)
            for path in paths
        ]
        failed: set[int] = set()  # the files refused (or with a line refused), by index
        for outcome in import_online(sources, run):
            if outcome.status == ImportStatus.RECORDS:
                # Club records are no online games: stored here, before the next file.
                if not self._records(outcome, default_date, options):
                    failed.add(outcome.source)
            elif not self._write(outcome):
                failed.add(outcome.source)
        if failed:
            # Status 2, as ``replay`` exits on a bad record (docs/game-record-format.md).
            raise CommandError(
                f"{len(failed)} file(s) not imported; nothing was stored from them", returncode=2
            )

    def _write(self, outcome: ImportOutcome) -> bool:
        """The output line of a log, a result line or a file (after a log's settlement
        note); False if it was refused (a log or line imported before is no refusal, a log
        whose game is in the ledger from another file is)."""
        refusal = outcome.refusal
        if isinstance(refusal, OSError):
            self.stderr.write(f"{outcome.name}: {refusal.strerror or refusal}")
            return False
        if outcome.line is not None:
            return self._write_line(outcome, outcome.line)
        if outcome.verified is None:  # the file is no log, or a line of it none
            self.stderr.write(f"{outcome.name}: {refusal}")
            return False
        verified = outcome.verified
        what = _what(verified)
        if verified.settlement_note:
            self.stdout.write(f"note: {what}: {verified.settlement_note}")
        if outcome.status == ImportStatus.AGREES:
            self.stdout.write(
                f"{outcome.name}: agrees hand by hand: {what}; --check: nothing stored"
            )
        elif isinstance(refusal, AlreadyImported):
            self.stdout.write(f"{outcome.name}: {refusal}")
        elif refusal is not None:
            self.stderr.write(f"{outcome.name}: {refusal}")
            return False
        else:
            assert outcome.hanchan is not None
            line = _stored_line(outcome.hanchan, what, verified.log, outcome.new_members)
            self.stdout.write(f"{outcome.name}: {line}")
        return True

    def _write_line(self, outcome: ImportOutcome, line: ResultLine) -> bool:
        """The output line of a Tenhou result line: a final-scores game,
        stored or refused on its own line of output."""
        where = f"{outcome.name}: {line.where}"
        if outcome.status == ImportStatus.REFUSED:
            self.stderr.write(f"{where}: {outcome.refusal}")
            return False
        if outcome.status == ImportStatus.ALREADY:
            self.stdout.write(f"{where}: {outcome.refusal}")
            return True
        assert outcome.line_game is not None
        rules = _rules(outcome.line_game.settled.ruleset, outcome.line_game.settled.overrides)
        if outcome.status == ImportStatus.AGREES:
            self.stdout.write(f"{where}: settles under {rules}; --check: nothing stored")
            return True
        assert outcome.hanchan is not None
        created = [m.display_name for _name, m in outcome.new_members]
        extra = f"; new member(s): {', '.join(created)}" if created else ""
        self.stdout.write(
            f"{where}: imported as game {outcome.hanchan.pk} (final scores under {rules}){extra}"
        )
        return True

    def _records(
        self, outcome: ImportOutcome, default_date: datetime.date, options: dict[str, Any]
    ) -> bool:
        """Store a file of club records, all or nothing, and write its line; False if
        refused."""
        try:
            ids = self._import_records(
                outcome.records,
                default_date,
                options["create_members"],
                allow_duplicate=options["allow_duplicate"],
            )
        except (ValueError, LedgerError) as error:
            self.stderr.write(f"{outcome.name}: {error}")
            return False
        self.stdout.write(
            f"{outcome.name}: imported {len(ids)} game(s): {', '.join(map(str, ids))}"
        )
        return True

    def _import_records(
        self,
        data: Any,
        default_date: datetime.date,
        create_members: bool,
        *,
        allow_duplicate: bool = False,
    ) -> list[int]:
        records = data if isinstance(data, list) else [data]
        ids = []
        with transaction.atomic():
            for number, record in enumerate(records, start=1):
                where = f"record {number}: " if len(records) > 1 else ""
                try:
                    # The record's own checks first (its text and numbers among them), before
                    # a player's name is looked up or a member created.
                    ruleset_of_record(record)
                    members = self._members(record, create_members)
                    played_on = _record_date(record, default_date)
                    hanchan = hanchan_import(
                        record=record,
                        members_by_name=members,
                        played_on=played_on,
                        allow_duplicate=allow_duplicate,
                    )
                except (LedgerError, RecordError) as error:
                    raise LedgerError(f"{where}{error}") from None
                ids.append(hanchan.pk)
        return ids

    def _members(self, record: Any, create: bool) -> dict[str, Member]:
        names = record.get("players") if isinstance(record, dict) else None
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            return {}  # the engine reports the bad players list
        # A record's names are the club's members' (display names are unique per club only);
        # a guest of one of its events between clubs is another club's member, not seated here.
        named = list(Member.objects.filter(club=current_club(), display_name__in=names))
        guests = [m.display_name for m in named if m.is_guest]
        if guests:
            raise LedgerError(
                f"{', '.join(guests)}: a guest of this club's events, not a member: "
                "a record names the club's own members"
            )
        found = {m.display_name: m for m in named}
        # Each missing name once: a name at two seats is refused by the ledger, not created twice.
        missing = list(dict.fromkeys(name for name in names if name not in found))
        if missing and not create:
            raise LedgerError(
                f"unknown player(s): {', '.join(missing)} (use --create-members to add them)"
            )
        for name in missing:
            try:
                clean_display_name(name)
            except ValidationError as error:
                raise LedgerError(f"players: {name[:80]!r}: {' '.join(error.messages)}") from None
        for name in missing:
            found[name] = imported_member_create(display_name=name)
        return found


def _read_path(path: Path, limit: int) -> bytes:
    with path.open("rb") as fh:
        return fh.read(limit)


def _rules(ruleset: str, overrides: dict[str, Any] | None) -> str:
    """``"tenhou-4p-south with uma=[...]"``: a ruleset and the overrides a game has over it."""
    if overrides:
        return ruleset + " with " + ", ".join(f"{k}={v}" for k, v in overrides.items())
    return ruleset


def _what(verified: VerifiedGame) -> str:
    """What an output line calls a log: its service and id, the rules it was re-scored
    under and its hands."""
    log = verified.log
    rules = _rules(verified.ruleset, verified.overrides)
    return f"{log.service} {log.log_id} ({rules}, {len(log.hands)} hands)"


def _stored_line(
    hanchan: Hanchan, what: str, log: OnlineLog, new_members: Sequence[tuple[str, Member]]
) -> str:
    """The output line of a stored log: its game, the club's ruleset it counts under, the
    members it added (with their online names where those differ)."""
    line = f"imported {what} as game {hanchan.pk}"
    if not hanchan.ruleset_version.service:
        # A lobby the club lists: the club's ruleset, the lobby's rules
        # as the game's overrides.
        line += f", counted under the club's {hanchan.ruleset_version.ruleset_id}"
    created = [
        member.display_name
        if member.display_name == name
        else f"{member.display_name} ({log.service} name {name})"
        for name, member in new_members
    ]
    if created:
        line += f"; new member(s): {', '.join(created)}"
    return line


def _mapping(pairs: list[str]) -> dict[str, str]:
    """``--map`` pairs as a dict; a pair without ``=`` stops the command."""
    mapping = {}
    for pair in pairs:
        name, sep, member = pair.partition("=")
        if not sep or not name or not member:
            raise CommandError(f"--map {pair!r}: must be NAME=MEMBER", returncode=2)
        mapping[name] = member
    return mapping


def _record_date(record: Any, default: datetime.date) -> datetime.date:
    value = record.get("date") if isinstance(record, dict) else None
    if value is None:
        return default
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError:
        raise LedgerError(f"date: {value!r} is not a YYYY-MM-DD date") from None
