"""The commands that read one game record and print JSON (``replay``, ``all_last``): the
record format's contract for their input and their errors (docs/game-record-format.md)."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from typing import Any, NoReturn

from django.core.management.base import BaseCommand

from scoring.engine import RecordError
from scoring.upkeep.record_files import RecordFileError, read_json


class RecordCommand(BaseCommand):
    """``manage.py <command> FILE``: FILE (or ``-``, standard input) is read as a game record
    and :meth:`answer` printed as one JSON document on standard output. A file that cannot
    be read or a record :meth:`answer` refuses (``RecordError``) gives one line on standard
    error and exit status 2."""

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="path of the game record, or - for standard input")

    def answer(self, record: Any) -> dict[str, Any]:
        """The JSON document for ``record`` (a parsed JSON value).

        Raises:
            RecordError: the record is refused.
        """
        raise NotImplementedError

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            record = read_json(options["file"])
        except RecordFileError as error:
            self._fail(str(error))
        try:
            document = self.answer(record)
        except RecordError as error:
            self._fail(error.line())
        self.stdout.write(json.dumps(document, ensure_ascii=False))

    def _fail(self, line: str) -> NoReturn:
        # The record format asks for exactly one line and status 2, not CommandError's 1.
        self.stderr.write(line.replace("\n", " "))
        sys.exit(2)
