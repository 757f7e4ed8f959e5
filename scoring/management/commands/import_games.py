"""``python manage.py import_games FILE...``: store game records in the ledger."""

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
from django.utils import timezone

from clubsite.models import Member
from clubsite.names import clean_display_name
from scoring.record_files import read_json
from scoring.services import LedgerError, hanchan_import


class Command(BaseCommand):
    help = (
        "Import game records (club-game/1 JSON: one record, or a list of records, per file). "
        "Players are matched to members by display name. Each file is all-or-nothing."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument(
            "--create-members",
            action="store_true",
            help="create a member (with no usable password) for each unknown player name",
        )
        parser.add_argument(
            "--date",
            type=datetime.date.fromisoformat,
            help="date for records without a 'date' (default: today)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        default_date = options["date"] or timezone.localdate()
        failed = []
        for path in options["files"]:
            try:
                ids = self._import_file(path, default_date, options["create_members"])
            except (OSError, ValueError, LedgerError) as error:
                failed.append(path)
                self.stderr.write(f"{path}: {error}")
                continue
            self.stdout.write(f"{path}: imported {len(ids)} game(s): {', '.join(map(str, ids))}")
        if failed:
            # Status 2, as ``replay`` exits on a bad record (docs/game-record-format.md).
            raise CommandError(
                f"{len(failed)} file(s) not imported; nothing was stored from them", returncode=2
            )

    def _import_file(
        self, path: Path, default_date: datetime.date, create_members: bool
    ) -> list[int]:
        data = read_json(str(path))
        records = data if isinstance(data, list) else [data]
        ids = []
        with transaction.atomic():
            for number, record in enumerate(records, start=1):
                where = f"record {number}: " if len(records) > 1 else ""
                try:
                    members = self._members(record, create_members)
                    played_on = _record_date(record, default_date)
                    hanchan = hanchan_import(
                        record=record, members_by_name=members, played_on=played_on
                    )
                except LedgerError as error:
                    raise LedgerError(f"{where}{error}") from None
                ids.append(hanchan.pk)
        return ids

    def _members(self, record: Any, create: bool) -> dict[str, Member]:
        names = record.get("players") if isinstance(record, dict) else None
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            return {}  # the engine reports the bad players list
        found = {m.display_name: m for m in Member.objects.filter(display_name__in=names)}
        missing = [name for name in names if name not in found]
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


def _record_date(record: Any, default: datetime.date) -> datetime.date:
    value = record.get("date") if isinstance(record, dict) else None
    if value is None:
        return default
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError:
        raise LedgerError(f"date: {value!r} is not a YYYY-MM-DD date") from None
