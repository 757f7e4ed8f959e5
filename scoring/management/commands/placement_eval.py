"""``python manage.py placement_eval [--club SLUG]``: how good the placement chances are, on
the club's own games held out by date and on a simulated club (docs/placement.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from clubsite.club_commands import add_club_argument, command_club_scope
from scoring.engine import load_ruleset
from scoring.placement import family_of, prior_for, states_of_hands
from scoring.placement.evaluation import evaluate, report, split_by_date
from scoring.placement.simulate import simulated_club
from scoring.placement_fits import club_games, counted_by_family

# The simulated club: its rulesets (one per family it plays), its players' skill spread
# and its seed.
SIMULATED_RULESETS = ("makura-1.5", "sanma-float")
SIMULATED_SKILL_SD = 0.3
SIMULATED_SEED = 11


class Command(BaseCommand):
    help = (
        "Print the log-loss, Brier score and calibration by tenths of the placement chances "
        "on the latest games held out (fitted on the earlier ones), against the current order "
        "and uniform chances: on the club's counted games per ruleset family, then on a "
        "simulated club. See docs/placement.md."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--held-out", type=float, default=0.3, help="share of the latest games held out (0.3)"
        )
        parser.add_argument(
            "--simulated",
            type=int,
            default=600,
            help="games of each family of the simulated club (600; 0: none)",
        )
        parser.add_argument(
            "--min-games", type=int, default=10, help="least games of a family to judge (10)"
        )
        add_club_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        held_out = options["held_out"]
        with command_club_scope(options):
            counted = counted_by_family()
            for family in sorted(counted):
                if counted[family] < options["min_games"]:
                    self.stdout.write(f"club, {family}: {counted[family]} games, too few")
                    continue
                games = club_games(family, limit=None)
                train, test = split_by_date(games, held_out)
                figures = evaluate(train, test, prior_for(family))
                self.stdout.write("\n".join(report(f"club, {family}", figures)))
            if not counted:
                self.stdout.write("club: no counted games")
        if options["simulated"] <= 0:
            return
        for ruleset_id in SIMULATED_RULESETS:
            ruleset = load_ruleset(ruleset_id)
            games = [
                states_of_hands(ruleset, hands)
                for hands in simulated_club(
                    ruleset, options["simulated"], SIMULATED_SEED, skill_sd=SIMULATED_SKILL_SD
                )
            ]
            train, test = split_by_date(games, held_out)
            figures = evaluate(train, test, prior_for(family_of(ruleset)))
            self.stdout.write("\n".join(report(f"simulated club, {ruleset_id}", figures)))
