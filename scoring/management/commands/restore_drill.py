"""``python manage.py restore_drill [--club SLUG]``: dump the site's database, restore it into a
fresh one, and check that the club's standings, champions, every counted result and the replay
of every counted game are the same after (scoring/upkeep/restore_drill.py). Exit status 1 on
any difference or a failed step; ``make drill`` runs it."""

from __future__ import annotations

import datetime
import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from clubsite.club_commands import add_club_argument, command_club_scope
from scoring.upkeep.restore_drill import METHODS, DrillError, figures, run_drill


class Command(BaseCommand):
    help = (
        "Restore drill: dump the database (pg_dump on PostgreSQL, dumpdata on SQLite), restore "
        "it into a fresh database, and compare the standings, champions, counted results and "
        "the replay of every counted game before and after. Exit status 1 on any difference."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--method", choices=METHODS, help="how to dump and restore (default: by database)"
        )
        parser.add_argument(
            "--today",
            type=datetime.date.fromisoformat,
            help="the day the champions are counted up to, YYYY-MM-DD (default: today)",
        )
        parser.add_argument(
            "--figures",
            action="store_true",
            help="only print this database's figures as JSON (the drill's restored side)",
        )
        add_club_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        with command_club_scope(options):
            self._drill(options)

    def _drill(self, options: dict[str, Any]) -> None:
        if options["figures"]:
            today = options["today"] or datetime.date.today()
            self.stdout.write(json.dumps(figures(today), ensure_ascii=False))
            return
        try:
            report = run_drill(options["method"], today=options["today"], progress=self._say)
        except DrillError as error:
            raise CommandError(f"restore drill failed: {error}") from None
        timing = ", ".join(f"{step} {seconds:.1f} s" for step, seconds in report.steps.items())
        if report.differences:
            for line in report.differences:
                self.stderr.write(line)
            raise CommandError(
                f"restore drill: {len(report.differences)} difference(s) after restoring "
                f"with {report.method} ({timing})"
            )
        self.stdout.write(
            f"restore drill: identical after restoring with {report.method} into "
            f"{report.restored_into}: standings, champions, counted results and "
            f"{report.replayed:,} games replayed ({timing})"
        )

    def _say(self, line: str) -> None:
        self.stdout.write(line)
