"""``python manage.py tournament_seating --players N --rounds R [--table-size 4] [--seed S]``:
print a pairing table by lot as JSON (docs/rules-spec.md §4; tournaments.seating)."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from tournaments.seating import lot_rounds


class Command(BaseCommand):
    help = (
        'Print {"players": N, "rounds": [[[p, p, p, p], ...], ...]}: each round a list of '
        "tables, each table the player indices 0..N-1 in seat order East, South, West, North. "
        "As few repeat meetings as possible, seat winds balanced, the same table for the same "
        "seed. A number of players that does not fill whole tables: one line, exit status 2."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="number of players")
        parser.add_argument("--rounds", type=int, required=True, help="games each player plays")
        parser.add_argument(
            "--table-size", type=int, default=4, help="4, or 3 for a 3-player ruleset"
        )
        parser.add_argument("--seed", type=int, default=0, help="the lot (default 0)")

    def handle(self, *args: Any, **options: Any) -> None:
        players = options["players"]
        try:
            rounds = lot_rounds(
                players,
                options["rounds"],
                table_size=options["table_size"],
                seed=options["seed"],
            )
        except ValueError as error:
            self.stderr.write(str(error))
            sys.exit(2)
        self.stdout.write(json.dumps({"players": players, "rounds": rounds}))
