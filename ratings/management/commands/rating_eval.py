"""``python manage.py rating_eval [--club SLUG]``: the rating's harness (docs/ratings.md).
(a) a seeded simulated club, random and same-strength tables: Spearman against the true skill
and the log-loss of placement predictions against uniform and an oracle; (b) the club's own
counted games in time order, each predicted before it is rated. ``--tune`` searches the
parameter grid first (:func:`ratings.evaluation.tune`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from clubsite.club_commands import add_club_argument, command_club
from clubsite.club_scope import club_scope
from ratings.evaluation import (
    BENCH_CLUB,
    HELD_OUT_SEEDS,
    HeldOut,
    SimulatedFigures,
    Spread,
    held_out,
    real,
    simulated,
    standard_predictors,
    tune,
)
from ratings.model import TUNED, Parameters
from ratings.models import Family
from ratings.simulation import Club, Figures, Game
from ratings.updating import counted_in_order


def figures_line(label: str, figures: Figures) -> str:
    """One line of figures."""
    rho = "–" if figures.spearman is None else f"{figures.spearman:.3f}"
    oracle = "–" if figures.oracle is None else f"{figures.oracle:.4f}"
    share = "–" if figures.gain_share is None else f"{figures.gain_share:.3f}"
    return (
        f"{label:<22} games {figures.games:>6}  players {figures.players:>4}  spearman {rho:>6}  "
        f"log-loss {figures.log_loss:.4f}  uniform {figures.uniform:.4f}  oracle {oracle:>6}  "
        f"gain share {share:>6}"
    )


def spread_text(spread: Spread | None, digits: int) -> str:
    """``median (low - high)``, or a dash."""
    if spread is None:
        return "–"
    return f"{spread.median:.{digits}f} ({spread.low:.{digits}f}-{spread.high:.{digits}f})"


def held_out_line(result: HeldOut) -> str:
    """One line of the held-out evaluation: median (least-greatest) over the seeds."""
    return (
        f"{result.law:<13} {result.seating:<13} {result.predictor:<36} "
        f"spearman {spread_text(result.spearman, 3):<21} "
        f"gain {spread_text(result.gain, 4):<24} "
        f"share {spread_text(result.share, 3)}"
    )


class Command(BaseCommand):
    help = (
        "Measure the rating: a seeded simulated club (random and same-strength tables: "
        "Spearman against the true skill, log-loss against uniform and an oracle) and the "
        "club's own counted games in time order. --tune searches the parameter grid first."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=BENCH_CLUB.seed)
        parser.add_argument("--rounds", type=int, default=BENCH_CLUB.rounds)
        parser.add_argument("--players", type=int, default=BENCH_CLUB.players)
        parser.add_argument("--tune", action="store_true")
        parser.add_argument("--no-club", action="store_true", help="skip the club's own games")
        add_club_argument(parser)
        parser.add_argument(
            "--held-out",
            action="store_true",
            help="the tuned model beside Elo and a shrunk average placement on seeds none "
            "was tuned on, under both laws of the game: median (least-greatest) over the seeds",
        )
        parser.add_argument(
            "--seeds",
            type=int,
            default=len(HELD_OUT_SEEDS),
            help="how many held-out seeds (from 2 on; default 10)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # Asked first, so that a site of several clubs hears "which?" before the minutes of
        # simulation; the simulated club alone (--no-club, --held-out) needs none.
        own = None if options["no_club"] or options["held_out"] else command_club(options)
        club = replace(
            BENCH_CLUB, seed=options["seed"], rounds=options["rounds"], players=options["players"]
        )
        parameters = TUNED
        if options["tune"]:

            def progress(p: Parameters, f: SimulatedFigures) -> None:
                self.stdout.write(
                    f"sigma {p.sigma:5.2f} beta {p.beta:5.2f} tau {p.tau:5.3f} "
                    f"gamma {p.gamma:4.1f}: "
                    f"random share {f.random.gain_share or 0:.3f} "
                    f"rho {f.random.spearman or 0:.3f}; "
                    f"same-strength rho {f.same_strength.spearman or 0:.3f}"
                )

            parameters = tune(club, progress)
            self.stdout.write(f"best: {parameters}")
        if options["held_out"]:
            self.held_out(club, options["seeds"])
            return
        self.stdout.write(f"model: {parameters}")
        self.stdout.write(f"simulated club: {club}")
        figures = simulated(club, parameters)
        self.stdout.write(figures_line("random tables", figures.random))
        self.stdout.write(figures_line("same-strength tables", figures.same_strength))
        self.stdout.write(
            "targets (same-strength spearman >= 0.85, random gain share >= 0.85): "
            + ("met" if figures.meets_targets() else "NOT MET")
        )
        if own is None:
            return
        with club_scope(own):
            self.club_lines(parameters)

    def club_lines(self, parameters: Parameters) -> None:
        """The line of the current club's own counted games, per family: each game predicted
        before it is rated."""
        for family in Family:
            games = [Game(players, placements) for players, placements in counted_in_order(family)]
            result = real(games, parameters)
            label = f"club, {family.value}-player"
            if result is None:
                self.stdout.write(f"{label:<22} no counted games")
                continue
            verdict = "better than uniform" if result.log_loss < result.uniform else "NOT better"
            self.stdout.write(f"{figures_line(label, result)}  {verdict}")

    def held_out(self, club: Club, seeds: int) -> None:
        """The held-out evaluation (``--held-out``), one line per law, seating and predictor."""
        chosen = tuple(range(2, 2 + seeds))
        predictors = standard_predictors(club)
        self.stdout.write(f"simulated club: {club}; tuned on seed 1, held-out seeds {chosen}")
        self.stdout.write(
            "gain: nats a game over uniform; share: of the oracle's gain (Plackett-Luce law "
            "only); each median (least-greatest) over the seeds"
        )
        for result in held_out(club, predictors, chosen):
            self.stdout.write(held_out_line(result))
