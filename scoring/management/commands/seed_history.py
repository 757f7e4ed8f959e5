"""``python manage.py seed_history [--club SLUG]``: years of synthetic club nights in a club,
for development and benchmarks."""

from __future__ import annotations

import datetime
import time
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from clubsite.club_commands import add_club_argument, command_club_scope
from scoring.upkeep.history_seeding import seed_history


class Command(BaseCommand):
    help = (
        "Create a synthetic club history through the ledger: new members with Japanese names "
        "and club nights (Wednesdays, Saturdays, every other Friday) of random but legal games, "
        "mostly under makura-1.5, a few voided. The same arguments give the same history."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--years", type=int, default=10, help="years of history (10)")
        parser.add_argument("--members", type=int, default=120, help="members to create (120)")
        parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
        parser.add_argument(
            "--games-per-night",
            type=int,
            default=3,
            help="hanchans each table plays per club night (3)",
        )
        parser.add_argument(
            "--end",
            type=datetime.date.fromisoformat,
            help="last day of the history, YYYY-MM-DD (default: today where the club is)",
        )
        add_club_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        try:
            with command_club_scope(options):
                summary = seed_history(
                    years=options["years"],
                    members=options["members"],
                    seed=options["seed"],
                    games_per_night=options["games_per_night"],
                    end=options["end"],
                    progress=self.stdout.write,
                )
        except ValueError as error:
            raise CommandError(str(error)) from None
        seconds = time.perf_counter() - started
        rulesets = ", ".join(f"{r} {n:,}" for r, n in summary.by_ruleset.most_common())
        self.stdout.write(
            f"Created {summary.members} members, {summary.nights:,} club nights, "
            f"{summary.hanchans:,} hanchans ({summary.voided} voided; {rulesets}), "
            f"{summary.hands:,} hands in {seconds:.1f} s."
        )
