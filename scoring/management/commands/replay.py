"""``python manage.py replay FILE``: print what the ledger makes of a game record."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from scoring.engine import RecordError, replay_record
from scoring.upkeep.record_files import RecordFileError, read_json


class Command(BaseCommand):
    help = (
        "Replay a game record (club-game/1 JSON) and print the hands and the final settlement "
        "as JSON on standard output. Bad input: one line on standard error, exit status 2."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="path of the game record, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            record = read_json(options["file"])
        except RecordFileError as error:
            self._fail(str(error))
        try:
            replay = replay_record(record)
        except RecordError as error:
            self._fail(error.line())
        self.stdout.write(json.dumps(replay.to_json(), ensure_ascii=False))

    def _fail(self, line: str) -> None:
        # The record format asks for exactly one line and status 2, not CommandError's 1.
        self.stderr.write(line.replace("\n", " "))
        sys.exit(2)
