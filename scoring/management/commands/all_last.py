"""``python manage.py all_last FILE``: what each player needs in the hand in play."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from typing import Any, NoReturn

from django.core.management.base import BaseCommand

from scoring.engine import RecordError
from scoring.entry.all_last import record_conditions
from scoring.upkeep.record_files import RecordFileError, read_json


class Command(BaseCommand):
    help = (
        "Read a game record (club-game/1 JSON) of a game in play and print, as JSON on "
        "standard output, each player's current place and, for each better place, the "
        "smallest value of the ruleset's value pad with which they reach it by winning the "
        "next hand alone: by ron from each other player and by tsumo (honba and deposits "
        "included, no riichi declared; null: out of reach). Smallest: no value paying the "
        "winner less reaches the place; of values paying the same, a limit's name, else the "
        "lowest han, then the lowest fu. A finished game or a bad record: one line on "
        "standard error, exit status 2. See docs/all-last.md."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="path of the game record, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            record = read_json(options["file"])
        except RecordFileError as error:
            self._fail(str(error))
        try:
            conditions = record_conditions(record)
        except RecordError as error:
            self._fail(error.line())
        self.stdout.write(json.dumps(conditions.to_json(), ensure_ascii=False))

    def _fail(self, line: str) -> NoReturn:
        # The record format asks for exactly one line and status 2, not CommandError's 1.
        self.stderr.write(line.replace("\n", " "))
        sys.exit(2)
