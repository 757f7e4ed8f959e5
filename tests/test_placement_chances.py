"""The placement chances: the pure model's sums, symmetry and certainties, and
``scoring.placement_chances.game_chances`` on stored games."""

from __future__ import annotations

import random
import uuid

import numpy as np
import pytest
from django.urls import reverse

from scoring.engine import Game, load_ruleset, parse_hand
from scoring.ledger import hand_record
from scoring.models import Hanchan, PlacementFit
from scoring.placement import (
    Params,
    PlacementState,
    blend,
    chances,
    chances_many,
    prior_for,
    state_of,
    states_of_hands,
)
from scoring.placement.simulate import club_game
from scoring.placement_chances import game_chances, params_for


def _all_last(scores: tuple[int, ...], ruleset_id: str = "makura-1.5") -> PlacementState:
    """South 4 (makura-1.5: no extension), no honba, with ``scores``."""
    rs = load_ruleset(ruleset_id)
    game = Game(rs)
    game.wind_index, game.hand_number = rs.rounds - 1, rs.players - 1
    game.scores = list(scores)
    return state_of(game)


def test_every_seat_and_every_place_sums_to_one() -> None:
    rs = load_ruleset("makura-1.5")
    states = states_of_hands(rs, club_game(random.Random(3), rs))
    probs = chances_many(prior_for("4p-hanchan"), states)
    assert probs.shape == (len(states), 4, 4)
    np.testing.assert_allclose(probs.sum(axis=2), 1.0, atol=1e-12)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-12)
    assert (probs >= 0).all()


def test_three_players_sum_to_one() -> None:
    rs = load_ruleset("sanma-float")
    states = states_of_hands(rs, club_game(random.Random(5), rs))
    probs = chances_many(prior_for("3p"), states)
    assert probs.shape[1:] == (3, 3)
    np.testing.assert_allclose(probs.sum(axis=2), 1.0, atol=1e-12)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-12)


def test_sixty_thousand_ahead_at_the_last_hand_is_first() -> None:
    state = _all_last((65000, 5000, 15000, 15000))
    assert state.hands_left == 1
    table = chances(prior_for("4p-hanchan"), state)
    assert table[0][0] > 0.99
    assert table[1][3] > 0.8


def test_the_start_is_even_for_every_seat() -> None:
    state = state_of(Game(load_ruleset("makura-1.5")))
    table = chances(prior_for("4p-hanchan"), state)
    assert table == [[0.25] * 4] * 4


def test_seats_in_the_same_position_get_the_same_chances() -> None:
    # South 2: seats 2 and 3 both deal once more, both at 20,000.
    rs = load_ruleset("makura-1.5")
    game = Game(rs)
    game.wind_index, game.hand_number = 1, 1
    game.scores = [38000, 22000, 20000, 20000]
    state = state_of(game)
    assert state.dealer_turns == (0, 1, 1, 1)
    table = chances(prior_for("4p-hanchan"), state)
    assert table[2] == table[3]
    assert table[0][0] > table[1][0] > table[2][0]


def test_equal_scores_at_the_end_follow_the_tie_rule() -> None:
    rs = load_ruleset("makura-1.5")
    game = Game(rs)
    game.wind_index, game.hand_number = 1, 3
    game.scores = [25000, 25000, 25000, 25000]
    game.play(parse_hand({"result": "draw", "tenpai": []}, 4, 0))
    state = state_of(game)
    # The seat nearer the chicha ranks higher on equal scores (seed 000 M-02).
    assert state.final_places == (1, 2, 3, 4)
    assert chances(prior_for("4p-hanchan"), state) == [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]


def test_blend_moves_from_the_prior_to_the_club_with_its_games() -> None:
    prior = prior_for("4p-hanchan")
    club = prior.__class__(sigma=1.2, extra=2.0, dealer=0.0, tail=0.0, games=60)
    mixed = blend(club, prior, weight_games=60)
    assert mixed.extra == pytest.approx((2.0 + prior.extra) / 2)
    assert prior.sigma < mixed.sigma < 1.2
    assert blend(club.__class__(**{**club.to_json(), "games": 0}), prior) == prior


def _enter(game: Hanchan, hand: dict) -> None:
    game.refresh_from_db()
    hand_record(
        hanchan_id=game.pk, hand=hand, expected_version=game.version, request_id=uuid.uuid4()
    )


@pytest.mark.django_db
def test_game_chances_of_a_game_in_play(table_game: Hanchan) -> None:
    assert game_chances(table_game) == [[[0.25] * 4] * 4]
    _enter(table_game, {"result": "ron", "loser": 2, "wins": [{"winner": 1, "limit": "mangan"}]})
    _enter(table_game, {"result": "tsumo", "wins": [{"winner": 3, "han": 1, "fu": 30}]})
    table = game_chances(table_game)
    assert len(table) == 3
    after = np.array(table[1])
    np.testing.assert_allclose(after.sum(axis=1), 1.0)
    np.testing.assert_allclose(after.sum(axis=0), 1.0)
    # Baba took a mangan from Chiba: first most likely for him, last for Chiba.
    assert after[1].argmax() == 0 and after[2].argmax() == 3


@pytest.mark.django_db
def test_game_chances_of_a_finished_game_end_on_its_places(table_game: Hanchan) -> None:
    # Seat 1 takes a yakuman from seat 0 (tobi ends makura-1.5's game).
    _enter(table_game, {"result": "ron", "loser": 0, "wins": [{"winner": 1, "limit": "yakuman"}]})
    table_game.refresh_from_db()
    assert table_game.status == Hanchan.Status.FINISHED
    ranks = {s.index: s.rank for s in table_game.seats.all()}
    table = game_chances(table_game)
    assert len(table) == 2
    assert table[-1] == [[1.0 if ranks[s] == p + 1 else 0.0 for p in range(4)] for s in range(4)]


@pytest.mark.django_db
def test_a_stored_fit_is_read_for_its_club_and_family(table_game: Hanchan) -> None:
    prior = prior_for("4p-hanchan")
    assert params_for(table_game.club_id, "4p-hanchan") == prior
    fitted = prior.__class__(sigma=2.0, extra=0.0, dealer=0.0, tail=0.0, games=500, source="blend")
    PlacementFit.objects.create(family="4p-hanchan", params=fitted.to_json(), games=500)
    assert params_for(table_game.club_id, "4p-hanchan") == fitted
    assert params_for(table_game.club_id, "3p") == prior_for("3p")


def test_equal_draws_follow_the_tie_rule_and_stay_an_order() -> None:
    # No spread at all: every draw ties every seat, and the tie rule orders them.
    still = Params(sigma=0.0, extra=0.0, dealer=0.0, tail=0.0, floor=0.0)
    state = _all_last((25000, 25000, 25000, 25000))
    assert chances(still, state) == [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "caption", "first"),
    [("en", "Chances of each place", "1st"), ("ja", "順位確率", "1位")],
)
def test_the_game_page_shows_the_chances(
    table_game: Hanchan, client_for, member, language: str, caption: str, first: str
) -> None:
    _enter(table_game, {"result": "ron", "loser": 2, "wins": [{"winner": 1, "limit": "mangan"}]})
    client = client_for(member)
    client.cookies["django_language"] = language
    expected = [[_cell(p) for p in row] for row in game_chances(table_game)[-1]]
    # The game is in play: the charts' own page and the region the table screen draws where
    # they are seen.
    for htmx in ({}, {"hx-request": "true"}):
        html = client.get(
            reverse("game_chart", args=[table_game.pk]),
            headers={"accept-language": language, **htmx},
        ).text
        table = html.split('id="placement-chances"', 1)[1].split("</table>", 1)[0]
        assert caption in table and first in table
        rows = [
            [cell.split("</td>")[0] for cell in row.split("<td>")[1:]]
            for row in table.split("<tr>")[2:]
        ]
        assert rows == expected


def _cell(chance: float) -> str:
    if 0 < chance < 0.005:
        return "&lt;1%"
    if 0.995 < chance < 1:
        return "&gt;99%"
    return f"{round(chance * 100)}%"
