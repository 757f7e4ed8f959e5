"""``python manage.py hand_value FILE``: the value of each hand in a file of JSON lines.

One hand per line in, one JSON line per hand out, in order, as :mod:`scoring.tiles.contract`
describes (``-`` reads standard input). A line that is not a hand answers ``{"error": ...}``
and the others still get their answers; the command exits 2 when any line had an error.
"""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.tiles.contract import answer

# A line is one hand: a few hundred bytes. Longer is no hand.
MAX_LINE = 10_000


class Command(BaseCommand):
    help = "Print han, fu, yaku and limit of each hand (JSON lines in, JSON lines out)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="a file of JSON lines, one hand each; - for stdin")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            stream = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
        except OSError as error:
            raise CommandError(f"{path}: {error.strerror or error}", returncode=2) from None
        errors = 0
        with stream:
            for number, line in enumerate(stream, start=1):
                if not line.strip():
                    continue
                if len(line) > MAX_LINE:
                    result: dict[str, Any] = {"error": f"line {number}: longer than a hand"}
                else:
                    try:
                        result = answer(json.loads(line))
                    except (json.JSONDecodeError, RecursionError) as error:
                        result = {"error": f"line {number}: not JSON: {error}"}
                errors += "error" in result
                self.stdout.write(json.dumps(result, ensure_ascii=False))
        if errors:
            raise CommandError(f"{errors} hand(s) not valued", returncode=2)
