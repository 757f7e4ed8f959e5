"""``python manage.py qualifiers {grand-champion,meijin} --year YYYY [--club SLUG]``: who in a
club qualifies for the year's Grand Champion or Meijin, as JSON (docs/rules-spec.md §4.2, §4.3;
tournaments.races)."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from clubsite.club_commands import add_club_argument, command_club_scope
from tournaments.races import RACES


class Command(BaseCommand):
    help = (
        'Print {"qualified": [{"member": name, "reason": "...", "points": int}], '
        '"substitutes": [...]} for the Grand Champion (the top 6 by 10.0 per monthly title '
        "plus GP and Meijin points of the year, the previous year's winner, a woman player) "
        "or the Meijin (the half-year champions, then monthly champions July-June by their "
        "champion month's points). Points are integers in the standings' unit times ten: "
        "thousand-point units with one decimal, +52.0 is 520. Only titles already decided count."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("race", choices=sorted(RACES), help="which race")
        parser.add_argument(
            "--year", type=int, required=True, help="the year of the tournament (YYYY)"
        )
        add_club_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        with command_club_scope(options):
            race = RACES[options["race"]](options["year"])
            self.stdout.write(json.dumps(race.as_json(), ensure_ascii=False, indent=2))
