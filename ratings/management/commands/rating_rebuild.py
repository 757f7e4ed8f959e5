"""``python manage.py rating_rebuild [--family 4|3] [--club SLUG]``: rate every counted game of a
club again from the start, in the order played (docs/ratings.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from clubsite.club_commands import add_club_argument, command_club_scope
from ratings.models import Family
from ratings.updating import rebuild


class Command(BaseCommand):
    help = (
        "Rate every counted game again from the start, in the order played, for both ruleset "
        "families or one (--family 4 or 3). One transaction per family."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--family", type=int, choices=Family.values, default=None)
        add_club_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        with command_club_scope(options):
            games = rebuild(options["family"])
        self.stdout.write(f"{games} games rated.")
