"""``python manage.py import_games FILE...``: store game records and online game logs.

A file is read by its content (:mod:`scoring.online.reading`): club records
(docs/game-record-format.md) as before; Tenhou result lines (one final-scores game a line,
on ``--date``); Tenhou JSON logs, mjlogs and mjai logs are re-scored
hand by hand by the engine and stored only when every hand and the final scores agree.
Each file is all-or-nothing; one line per file says what happened.
"""

from __future__ import annotations

import datetime
import secrets
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone, translation

from clubsite.models import Member
from clubsite.names import clean_display_name
from scoring.engine import RecordError, ruleset_of_record
from scoring.ledger import (
    AlreadyImported,
    DuplicateGame,
    LedgerError,
    Players,
    hanchan_import,
    import_line_game,
    import_logs,
    match_players,
    one_refresh,
    result_line_game,
)
from scoring.models import Hanchan
from scoring.online.log import OnlineLog
from scoring.online.reading import MAX_LOG_BYTES, read_game_file
from scoring.online.result_lines import LineUnreadable, ResultLine
from scoring.online.verify import VerifiedGame, verify


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

    def handle(self, *args: Any, **options: Any) -> None:
        # The command writes English (its own lines are English words); the ledger's messages
        # it passes on (already imported, in the ledger already, unknown names) are
        # translatable and would otherwise follow the active language, the site's Japanese.
        with translation.override("en"):
            self._handle(options)

    def _handle(self, options: dict[str, Any]) -> None:
        default_date = options["date"] or timezone.localdate()
        mapping = _mapping(options["map"])
        failed: list[Path] = []
        # Online logs re-scored, waiting to be stored in one batch: each (file, log, what
        # its output line says, its settlement note).
        logs: list[tuple[Path, VerifiedGame, str, str]] = []
        # One transaction for the run: consecutive online logs stored in
        # one batch (scoring.ledger.import_logs), each file still all or nothing, refused
        # alone, in the order given; the members' roll-ups refreshed once for every file.
        with one_refresh():
            for path in options["files"]:
                try:
                    with path.open("rb") as fh:
                        raw = fh.read(MAX_LOG_BYTES + 1)
                    game_file = read_game_file(raw, path.name)
                    if game_file.log is not None:
                        read = self._read_log(game_file.log, options)
                        if isinstance(read, str):
                            self.stdout.write(f"{path}: {read}")
                        else:
                            logs.append((path, *read))
                        continue
                    self._store_logs(logs, default_date, mapping, options, failed)
                    logs = []
                    if game_file.lines is not None:
                        lines = game_file.lines
                        if not self._import_lines(path, lines, default_date, mapping, options):
                            failed.append(path)
                        continue
                    ids = self._import_records(
                        game_file.records,
                        default_date,
                        options["create_members"],
                        allow_duplicate=options["allow_duplicate"],
                    )
                    line = f"imported {len(ids)} game(s): {', '.join(map(str, ids))}"
                except OSError as error:
                    failed.append(path)
                    self.stderr.write(f"{path}: {error.strerror or error}")
                    continue
                except (ValueError, LedgerError) as error:
                    failed.append(path)
                    self.stderr.write(f"{path}: {error}")
                    continue
                self.stdout.write(f"{path}: {line}")
            self._store_logs(logs, default_date, mapping, options, failed)
        if failed:
            # Status 2, as ``replay`` exits on a bad record (docs/game-record-format.md).
            raise CommandError(
                f"{len(failed)} file(s) not imported; nothing was stored from them", returncode=2
            )

    def _read_log(
        self, log: OnlineLog, options: dict[str, Any]
    ) -> str | tuple[VerifiedGame, str, str]:
        """The log re-scored, with what its output line says and its settlement note; with
        ``--check`` the line that says it agrees (its note written first).

        Raises:
            LogError: the log does not agree or cannot be read (naming the hand)."""
        verified = verify(log)
        rules = verified.ruleset
        if verified.overrides:
            rules += " with " + ", ".join(f"{k}={v}" for k, v in verified.overrides.items())
        what = f"{log.service} {log.log_id} ({rules}, {len(log.hands)} hands)"
        if options["check"]:
            if verified.settlement_note:
                self.stdout.write(f"note: {what}: {verified.settlement_note}")
            return f"agrees hand by hand: {what}; --check: nothing stored"
        return verified, what, verified.settlement_note or ""

    def _store_logs(
        self,
        logs: list[tuple[Path, VerifiedGame, str, str]],
        default_date: datetime.date,
        mapping: dict[str, str],
        options: dict[str, Any],
        failed: list[Path],
    ) -> None:
        """Store re-scored logs in one batch (:func:`scoring.ledger.import_logs`), each
        stored or refused alone, and write each file's lines in order; refused files are
        added to ``failed`` (a log imported before is no refusal)."""
        if not logs:
            return
        created: dict[int, list[tuple[str, Member]]] = {}

        def note_created(index: int, players: Players) -> None:
            created[index] = players.created

        outcomes = import_logs(
            [verified for _path, verified, _what, _note in logs],
            played_on=default_date,
            mapping=mapping,
            create_members=options["create_members"],
            allow_duplicate=options["allow_duplicate"],
            check=note_created,
        )
        for index, ((path, verified, what, note), done) in enumerate(
            zip(logs, outcomes, strict=True)
        ):
            if note:
                self.stdout.write(f"note: {what}: {note}")
            if isinstance(done, AlreadyImported):
                self.stdout.write(f"{path}: {done}")
            elif isinstance(done, LedgerError):
                failed.append(path)
                self.stderr.write(f"{path}: {done}")
            else:
                line = _stored_line(done, what, verified.log, created.get(index, []))
                self.stdout.write(f"{path}: {line}")

    def _import_lines(
        self,
        path: Path,
        lines: tuple[ResultLine | LineUnreadable, ...],
        played_on: datetime.date,
        mapping: dict[str, str],
        options: dict[str, Any],
    ) -> bool:
        """Tenhou result lines: each line a final-scores game on
        ``played_on``, stored or refused on its own line of output, a faulty line too;
        False if any was refused (a line already imported is not a
        refusal)."""
        ok = True
        for line in lines:
            if isinstance(line, LineUnreadable):
                ok = False
                self.stderr.write(f"{path}: {line}")
                continue
            where = f"{path}: {line.where}"
            try:
                game = result_line_game(line, played_on)
                rules = game.settled.ruleset
                if game.settled.overrides:
                    rules += " with " + ", ".join(
                        f"{k}={v}" for k, v in game.settled.overrides.items()
                    )
                if options["check"]:
                    self.stdout.write(f"{where}: settles under {rules}; --check: nothing stored")
                    continue
                players = match_players(
                    game.log, mapping=mapping, create_members=options["create_members"]
                )
                hanchan = import_line_game(
                    game, players, allow_duplicate=options["allow_duplicate"]
                )
            except (AlreadyImported, DuplicateGame) as done:
                self.stdout.write(f"{where}: {done}")
                continue
            except (ValueError, LedgerError) as error:
                ok = False
                self.stderr.write(f"{where}: {error}")
                continue
            created = [m.display_name for _name, m in players.created]
            extra = f"; new member(s): {', '.join(created)}" if created else ""
            self.stdout.write(
                f"{where}: imported as game {hanchan.pk} (final scores under {rules}){extra}"
            )
        return ok

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
        found = {m.display_name: m for m in Member.objects.filter(display_name__in=names)}
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
            user = get_user_model().objects.create_user(
                username=f"imported-{secrets.token_hex(6)}", password=None
            )
            found[name] = Member.objects.create(user=user, display_name=name)
        return found


def _stored_line(
    hanchan: Hanchan, what: str, log: OnlineLog, new_members: list[tuple[str, Member]]
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
