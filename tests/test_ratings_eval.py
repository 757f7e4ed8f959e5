"""The rating's harness (docs/ratings.md) on a small seeded simulated club:
the targets asserted loosely here (``make bench`` asserts them exactly on the full club), the
harness's own figures checked, and ``rating_eval`` run on the club's counted games."""

from __future__ import annotations

import io
import math
import random
from dataclasses import replace

import pytest
from django.core.management import call_command

from clubsite.models import Member
from ratings.baselines import Elo, ShrunkPlacement
from ratings.evaluation import (
    BENCH_CLUB,
    CI_CLUB,
    HELD_OUT_SEEDS,
    TUNING_SEED,
    Spread,
    held_out,
    simulated,
)
from ratings.model import DEFAULTS, TUNED, RatingModel, plackett_luce_probability
from ratings.simulation import Club, Game, Predictor, _play_hands, evaluate, simulate
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


# -- the held-out evaluation ----------------------------------------------------------------

SMALL = Club(players=12, rounds=60, skill_sd=0.25, drift_sd=0.001, seat_jitter=1.0)


def test_held_out_seeds_are_never_the_tuning_seed() -> None:
    assert TUNING_SEED == BENCH_CLUB.seed == 1
    assert TUNING_SEED not in HELD_OUT_SEEDS and len(HELD_OUT_SEEDS) == 10
    with pytest.raises(ValueError, match="tuning seed"):
        held_out(SMALL, [("model", RatingModel(TUNED))], seeds=(1, 2))
    with pytest.raises(ValueError, match="tuning seed"):
        held_out(SMALL, [("model", RatingModel(TUNED))], seeds=())


def test_the_held_out_evaluation_reports_every_law_seating_and_predictor() -> None:
    predictors: list[tuple[str, Predictor]] = [
        ("model", RatingModel(TUNED)),
        ("elo", Elo(8.0)),
        ("shrunk", ShrunkPlacement()),
    ]
    results = held_out(SMALL, predictors, seeds=(2, 3))
    assert [(r.law, r.seating, r.predictor) for r in results] == [
        (law, seating, name)
        for law in ("plackett_luce", "hands")
        for seating in ("random", "same_strength")
        for name in ("model", "elo", "shrunk")
    ]
    for result in results:
        assert result.seeds == (2, 3) and len(result.figures) == 2
        # Every predictor judged on the same games: those of the seed, simulated again here.
        for seed, figures in zip(result.seeds, result.figures, strict=True):
            club = replace(SMALL, law=result.law, seating=result.seating, seed=seed)
            simulation = simulate(club)
            predictor = dict(predictors)[result.predictor]
            assert figures == evaluate(simulation.games, predictor, simulation.final_skill)
        gains = sorted(f.gain for f in result.figures)
        assert result.gain == Spread((gains[0] + gains[1]) / 2, gains[0], gains[1])
        # The oracle (and its share) only where the law is Plackett-Luce's.
        assert (result.share is not None) == (result.law == "plackett_luce")
        assert result.spearman is not None
        assert result.spearman.low <= result.spearman.median <= result.spearman.high


def test_the_hands_law_plays_hanchan_hand_by_hand() -> None:
    club = replace(SMALL, law="hands")
    games = simulate(club).games
    assert (
        games == simulate(club).games
        and games != simulate(replace(club, law="plackett_luce")).games
    )
    assert all(sorted(g.placements) == [1, 2, 3, 4] and g.skills == () for g in games)
    # Skill acts on every hand: a player 1.0 above the rest tops far more than a quarter of
    # 2,000 hanchan; with no skill anywhere, about a quarter.
    rng = random.Random(9)
    strong = sum(
        _play_hands(rng, [0, 1, 2, 3], [1.0, 0, 0, 0], 10).placements[0] == 1 for _ in range(2000)
    )
    even = sum(
        _play_hands(rng, [0, 1, 2, 3], [0, 0, 0, 0], 10).placements[0] == 1 for _ in range(2000)
    )
    assert strong / 2000 > 0.45 and 0.22 < even / 2000 < 0.28
    with pytest.raises(ValueError, match="law"):
        simulate(replace(club, law="coin"))


def test_the_baselines_by_hand() -> None:
    elo = Elo(16.0)
    # Four at 1,500, finishing 1-4: each pair expected 0.5; the winner's 3 wins are +1.5
    # over expectation, times 16 / 3.
    assert elo.rate([1500.0] * 4, [1, 2, 3, 4]) == pytest.approx(
        [1508, 1500 + 8 / 3, 1500 - 8 / 3, 1492]
    )
    assert elo.order_probability([1500.0] * 4, [2, 1, 4, 3]) == pytest.approx(1 / 24)
    # 400 Elo points are 10:1 in a pair, Plackett-Luce's two-player case.
    assert elo.order_probability([1900.0, 1500.0], [1, 2]) == pytest.approx(10 / 11)
    shrunk = ShrunkPlacement(prior_games=20.0, scale=2.0)
    after = shrunk.rate([shrunk.new()] * 4, [1, 2, 3, 4])
    assert [r.offset for r in after] == [-1.5, -0.5, 0.5, 1.5]
    assert shrunk.score(after[0]) == pytest.approx(1.5 / 21)  # shrunk by 20 games of 2.5
    three = shrunk.rate([shrunk.new()] * 3, [1, 2, 3])
    assert [r.offset for r in three] == [-1.0, 0.0, 1.0]  # the middle of 3 is 2nd


def test_rating_eval_held_out_prints_medians_and_ranges() -> None:
    out = io.StringIO()
    call_command(
        "rating_eval", "--held-out", "--rounds", "30", "--players", "8", "--seeds", "2",
        stdout=out,
    )  # fmt: skip
    lines = out.getvalue().splitlines()
    assert "tuned on seed 1, held-out seeds (2, 3)" in lines[0]
    rows = [line for line in lines if line.startswith(("plackett_luce", "hands"))]
    assert len(rows) == 12  # 2 laws x 2 seatings x 3 predictors
    assert sum("OpenSkill (tuned)" in row for row in rows) == 4
    assert sum("Elo (k " in row for row in rows) == 4
    assert sum("shrunk placement (" in row for row in rows) == 4
    assert all("share –" in row for row in rows if row.startswith("hands"))
