"""The rating's harness (issue 23 item 3; docs/ratings.md) on a small seeded simulated club:
the targets asserted loosely here (``make bench`` asserts them exactly on the full club), the
harness's own figures checked, and ``rating_eval`` run on the club's counted games."""

from __future__ import annotations

import io
import math
from dataclasses import replace

import pytest
from django.core.management import call_command

from clubsite.models import Member
from ratings.evaluation import CI_CLUB, simulated
from ratings.model import DEFAULTS, TUNED, RatingModel, plackett_luce_probability
from ratings.simulation import Club, Game, evaluate, simulate
from scoring.ledger import hanchan_final_scores, hanchan_start
from scoring.standings import club_today


@pytest.fixture(scope="module")
def figures():
    return simulated(CI_CLUB, TUNED)


def test_it_ranks_same_strength_tables_near_the_target(figures) -> None:
    assert figures.same_strength.spearman is not None
    assert figures.same_strength.spearman >= 0.80  # 0.85 on the full club


def test_it_recovers_most_of_the_oracles_gain_on_random_tables(figures) -> None:
    random = figures.random
    assert random.oracle is not None and random.oracle < random.uniform
    assert random.log_loss < random.uniform
    assert random.gain_share is not None and random.gain_share >= 0.70  # 0.85 on the full club


def test_the_tuned_model_beats_openskills_defaults(figures) -> None:
    simulation = simulate(replace(CI_CLUB, seating="random"))
    defaults = evaluate(simulation.games, RatingModel(DEFAULTS), simulation.final_skill)
    assert figures.random.log_loss < defaults.log_loss
    assert defaults.gain_share is not None and defaults.gain_share < figures.random.gain_share


def test_the_simulation_is_seeded_and_placement_mostly_luck() -> None:
    club = Club(players=12, rounds=300, seed=5)
    first, again = simulate(club), simulate(club)
    assert first.games == again.games and len(first.games) > 400
    assert simulate(replace(club, seed=6)).games != first.games
    # Uniform is ln 4! per game; the oracle gains only a few hundredths of a nat on it.
    figures = evaluate(first.games, RatingModel(TUNED), first.final_skill)
    assert figures.uniform == pytest.approx(math.log(24))
    assert figures.oracle is not None and 0 < figures.uniform - figures.oracle < 0.1


def test_plackett_luce_probabilities_add_up_to_one() -> None:
    import itertools

    strengths = [0.3, -0.1, 0.0, 0.2]
    total = sum(
        plackett_luce_probability(strengths, [order.index(i) + 1 for i in range(4)])
        for order in itertools.permutations(range(4))
    )
    assert total == pytest.approx(1.0)
    assert plackett_luce_probability([0.0, 0.0, 0.0], [1, 2, 3]) == pytest.approx(1 / 6)


def test_real_games_have_no_oracle_and_equal_players_predict_uniform() -> None:
    games = [Game(("a", "b", "c", "d"), (1, 2, 3, 4))]
    figures = evaluate(games, RatingModel(TUNED))
    assert figures.spearman is None and figures.oracle is None and figures.gain_share is None
    assert figures.log_loss == pytest.approx(math.log(24))  # nobody known: every order alike


def test_rating_eval_reports_the_simulation_and_the_clubs_games(
    member: Member, other_member: Member, coordinator: Member, outsider: Member
) -> None:
    players = [member, other_member, coordinator, outsider]
    for scores in ([40000, 30000, 20000, 10000], [35000, 30000, 25000, 10000]):
        game = hanchan_start(
            ruleset_id="makura-1.5", members=players, played_on=club_today(), by=None
        )
        hanchan_final_scores(
            hanchan_id=game.pk,
            final_scores={"scores": scores},
            expected_version=game.version,
            steward=True,
        )
    out = io.StringIO()
    call_command("rating_eval", "--rounds", "20", "--players", "12", stdout=out)
    text = out.getvalue()
    assert "random tables" in text and "same-strength tables" in text
    club4 = next(line for line in text.splitlines() if line.startswith("club, 4-player"))
    assert "games      2" in club4 and "players    4" in club4
    assert "club, 3-player" in text and "no counted games" in text
