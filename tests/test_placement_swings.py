"""A member's placement-probability swings (scoring/stats/placement_swings.py), from literal
chances: the lowest chance of the place reached, the hand that moved it most, and the
comeback and decider over several games."""

from __future__ import annotations

import datetime

import pytest

from scoring.stats.placement_swings import game_swing, member_swings

DAY = datetime.date(2026, 11, 20)
EVEN = [0.25, 0.25, 0.25, 0.25]
# Seat 1 finishes first: 25% at the start, 10% after hand 1, 5% after hand 2 (its lowest),
# 60% after hand 3 (+55 points: the hand that decided), 100% after hand 4.
GAME = [
    [EVEN, EVEN, EVEN, EVEN],
    [[0.5, 0.3, 0.1, 0.1], [0.1, 0.2, 0.3, 0.4], [0.2, 0.3, 0.3, 0.2], [0.2, 0.2, 0.3, 0.3]],
    [
        [0.6, 0.3, 0.05, 0.05],
        [0.05, 0.15, 0.3, 0.5],
        [0.2, 0.3, 0.3, 0.2],
        [0.15, 0.25, 0.35, 0.25],
    ],
    [[0.2, 0.4, 0.2, 0.2], [0.6, 0.2, 0.1, 0.1], [0.1, 0.2, 0.4, 0.3], [0.1, 0.2, 0.3, 0.4]],
    [[0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]],
]


def test_it_finds_the_lowest_chance_and_the_hand_that_decided():
    swing = game_swing(GAME, seat=1, place=1, hanchan_id=7, played_on=DAY)
    assert swing is not None
    assert (swing.low, swing.low_after) == (0.05, 2)
    assert swing.decided_hand == 3
    assert (swing.decided_before, swing.decided_after) == (0.05, 0.6)
    assert swing.decided_change == pytest.approx(0.55)
    assert swing.is_comeback and swing.players == 4


def test_the_chance_of_second_counts_second_or_better():
    # Seat 0 finished second: first or second was 0.5 at the start, 0.8 after hand 1,
    # 0.9 after hand 2, 0.6 after hand 3: lowest at the start.
    swing = game_swing(GAME, seat=0, place=2, hanchan_id=7, played_on=DAY)
    assert swing is not None
    assert swing.low == pytest.approx(0.5) and swing.low_after == 0
    # Its chance of exactly second: .25 .3 .3 .4 1.0: the last hand moved it most.
    assert swing.decided_hand == 4 and swing.decided_change == pytest.approx(0.6)


def test_a_game_without_hands_has_no_swing():
    assert game_swing(GAME[:1], seat=0, place=1, hanchan_id=1, played_on=DAY) is None


def test_over_games_the_lowest_low_is_the_comeback_and_last_place_is_none():
    older = game_swing(GAME, seat=1, place=1, hanchan_id=1, played_on=DAY)
    newer = game_swing(GAME, seat=0, place=2, hanchan_id=2, played_on=DAY)
    last = game_swing(GAME, seat=3, place=4, hanchan_id=3, played_on=DAY)
    assert last is not None and not last.is_comeback and last.low == pytest.approx(1.0)
    swings = member_swings([last, newer, None, older])
    assert [s.hanchan_id for s in swings.games] == [3, 2, 1]
    assert swings.comeback is not None and swings.comeback.hanchan_id == 1
    # Seat 3's chance of last: .25 .3 .25 .4 1.0, +0.6 at hand 4: as large as seat 0's, and newer.
    assert swings.decider is not None and swings.decider.hanchan_id == 3
    assert member_swings([]).comeback is None and member_swings([]).decider is None
