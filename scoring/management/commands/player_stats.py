"""``python manage.py player_stats [--ruleset ID ...] [--from DATE] [--to DATE] [--club SLUG]``:
each member's plain counts over a club's counted games, as JSON (docs/player-stats.md;
scoring.stats.counts)."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubsite.club_commands import add_club_argument, command_club
from clubsite.club_scope import club_scope
from scoring.stats.counts import BadArguments, club_date, player_counts, selection


class Command(BaseCommand):
    help = (
        'Print [{"member": name, "games": n, "placements": [1st, 2nd, 3rd(, 4th)], '
        '"points_x10": n, "hands": n, ..., "fed": {winner: n}}], one object per member with a '
        "counted game in the range, sorted by display name; every figure an integer, points "
        "in the standings' unit times ten (+52.0 is 520). --ruleset takes standings keys "
        "(a ruleset id, <id>@<service> for online games; default: the club's standard ones), "
        "of one family (3- or 4-player). Dates are club-local YYYY-MM-DD, both included. "
        "--club SLUG: the club's games (needed on a site of several clubs). "
        "Bad arguments: one line on standard error, exit status 2. See docs/player-stats.md."
    )

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        usage_error = parser.error

        def error(message: str) -> NoReturn:
            # One line and status 2, not argparse's usage block (as `replay`).
            if parser.called_from_command_line:
                self._fail(message)
            usage_error(message)  # raises CommandError (call_command)
            raise AssertionError("unreachable")

        parser.error = error  # type: ignore[method-assign]
        return parser

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--ruleset",
            action="append",
            metavar="ID",
            help="a standings key (ruleset id, or <id>@<service>); repeat for several",
        )
        parser.add_argument("--from", dest="start", metavar="DATE", help="first day, YYYY-MM-DD")
        parser.add_argument("--to", dest="end", metavar="DATE", help="last day, YYYY-MM-DD")
        add_club_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            # The dates first: a bad one is refused before the database is asked anything.
            start = None if options["start"] is None else club_date(options["start"], "--from")
            end = None if options["end"] is None else club_date(options["end"], "--to")
            club = command_club(options)
        except (BadArguments, CommandError) as error:
            self._fail(str(error))
        with club_scope(club):
            try:
                chosen = selection(options["ruleset"], start, end)
            except BadArguments as error:
                self._fail(str(error))
            self.stdout.write(json.dumps(player_counts(chosen), ensure_ascii=False, indent=2))

    def _fail(self, line: str) -> NoReturn:
        self.stderr.write(f"player_stats: {line}".replace("\n", " "))
        sys.exit(2)
