"""``python manage.py rating_rebuild [--family 4|3]``: rate every counted game again from the
start, in the order played (docs/ratings.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ratings.models import Family
from ratings.updating import rebuild


class Command(BaseCommand):
    help = (
        "Rate every counted game again from the start, in the order played, for both ruleset "
        "families or one (--family 4 or 3). One transaction per family."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--family", type=int, choices=Family.values, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        games = rebuild(options["family"])
        self.stdout.write(f"{games} games rated.")
