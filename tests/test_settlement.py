"""Final settlement against the settlement examples of rules-spec §3, on the settlement step.

Each example gives final scores; these tests feed them to ``final_settlement`` directly (the
game-record versions of the reachable ones live in tests/data/records/). 002-S1..S3 and
004-S2 can only be tested here: no sequence of hands reaches their scores (rules-spec §3 note).
"""

from __future__ import annotations

import pytest

from scoring.engine import Payment, final_settlement, load_ruleset


@pytest.mark.parametrize(
    ("ruleset", "scores", "deposits", "final_scores", "ranks", "points"),
    [
        # 000-S1 (§1 R1, §24): all-last draw, one stick to the top A.
        (
            "makura-1.3",
            [42300, 31700, 19600, 5400],
            1000,
            [43300, 31700, 19600, 5400],
            [1, 2, 3, 4],
            [55000, 11000, -21000, -45000],
        ),
        # 000-S2 (§3 bust, box-under, 3,000 of deposits to the top B).
        (
            "makura-1.3",
            [27900, 48100, 24200, -3200],
            3000,
            [27900, 51100, 24200, -3200],
            [2, 1, 3, 4],
            [7000, 63000, -16000, -54000],
        ),
        # 000-S3 (§1 tie-break: A, the chicha, above C on 24,000).
        (
            "makura-1.3",
            [24000, 37400, 24000, 14600],
            0,
            [24000, 37400, 24000, 14600],
            [2, 1, 3, 4],
            [4000, 48000, -16000, -36000],
        ),
        # 001-S1 (GP, no tobi: D at -8,300 counted in full).
        (
            "makura-1.5",
            [52400, 33800, 22100, -8300],
            0,
            [52400, 33800, 22100, -8300],
            [1, 2, 3, 4],
            [64000, 13000, -18000, -59000],
        ),
        # 001-S2 (§35 chombo bust; the carried stick to the top A).
        (
            "makura-1.5",
            [42000, 35000, 25000, -3000],
            1000,
            [43000, 35000, 25000, -3000],
            [1, 2, 3, 4],
            [53000, 15000, -15000, -53000],
        ),
        # 001-S3 (agari-yame by the 4th-placed dealer; R1 gives 47/9/-16/-40).
        (
            "makura-1.5",
            [35600, 29400, 24800, 10200],
            0,
            [35600, 29400, 24800, 10200],
            [1, 2, 3, 4],
            [47000, 9000, -16000, -40000],
        ),
        # 003-S1: B on exactly 30,000; no rounding (H-15).
        (
            "home-nashinashi",
            [41200, 30000, 25300, 11500],
            0,
            [41200, 30000, 25300, 11500],
            [1, 2, 3, 4],
            [33200, 5000, -9700, -28500],
        ),
        # 004-S1: no uma (F-02), oka 15 to the top.
        (
            "fuji-sanma",
            [52600, 33100, 19300],
            0,
            [52600, 33100, 19300],
            [1, 2, 3],
            [27600, -6900, -20700],
        ),
        # 004-S2: C busted settles at 0, not zero-sum (+3,200, F-04); the stick to A.
        (
            "fuji-sanma",
            [70500, 36700, -3200],
            1000,
            [71500, 36700, -3200],
            [1, 2, 3],
            [46500, -3300, -40000],
        ),
        # 004-S3: tie for top, A (chicha) gets the oka (L18).
        (
            "fuji-sanma",
            [42500, 42500, 20000],
            0,
            [42500, 42500, 20000],
            [1, 2, 3],
            [17500, 2500, -20000],
        ),
    ],
)
def test_it_settles_the_spec_examples(ruleset, scores, deposits, final_scores, ranks, points):
    result = final_settlement(load_ruleset(ruleset), scores, deposits=deposits)
    assert list(result.scores) == final_scores
    assert list(result.ranks) == ranks
    assert list(result.points) == points


@pytest.mark.parametrize(
    ("scores", "deposits", "points", "uma_ep"),
    [
        # 002-S1: one float (E only >= 35,000).
        ([62300, 27400, 15300], 0, [37300, -12600, -24700], [600, -200, -400]),
        # 002-S2: two floats (S 48,000 and E 36,100).
        ([36100, 48000, 20900], 0, [-3900, 23000, -19100], [0, 300, -300]),
        # 002-S3: W bust at -4,200 counted in full; the stick to the top E.
        ([74200, 34000, -4200], 1000, [50200, -6000, -44200], [600, -200, -400]),
    ],
)
def test_it_keeps_floating_uma_in_ep_apart_from_points(scores, deposits, points, uma_ep):
    result = final_settlement(load_ruleset("sanma-float"), scores, deposits=deposits)
    assert list(result.points) == points
    assert list(result.uma_ep) == uma_ep
    assert result.to_json()["uma_ep"] == uma_ep


def test_it_adds_ep_to_points_when_the_club_sets_a_rate():
    # S-01 illustrative rate: 100 ep = 1,000 points, i.e. 10 points per ep.
    rs = load_ruleset("sanma-float", {"uma_ep_points": 10})
    result = final_settlement(rs, [62300, 27400, 15300])
    assert list(result.points) == [43300, -14600, -28700]
    assert result.uma_ep is None


def test_it_makes_the_tobi_payment_of_seed_003_after_ranking():
    # 003-S3: A's haneman tsumo busts C (-4,500); C pays A 5,000 (L490-491), ranks first (L484).
    busting = [Payment(seat, 0, 6000, "tsumo") for seat in (1, 2, 3)]
    result = final_settlement(
        load_ruleset("home-nashinashi"),
        [58000, 27000, -4500, 27500],
        ended_by="tobi",
        busting_payments=busting,
        chips=[0, 0, 0, 0],
        win_counts=[1, 1, 1, 1],
    )
    assert list(result.ranks) == [1, 3, 4, 2]
    assert list(result.points) == [55000, -8000, -49500, 2500]
    assert result.tobi_payments == (Payment(2, 0, 5000, "tobi"),)


def test_it_shares_a_tobi_payment_among_three_busters_rounded_down_to_100():
    # 003-H8: N (seat 3) pays noten to three tenpai players and busts: 1,600 to each.
    busting = [Payment(3, seat, 1000, "noten") for seat in (0, 1, 2)]
    result = final_settlement(
        load_ruleset("home-nashinashi"),
        [35000, 36000, 37600, -600],
        ended_by="tobi",
        busting_payments=busting,
    )
    assert [p.amount for p in result.tobi_payments] == [1600, 1600, 1600]
    plain = final_settlement(load_ruleset("home-nashinashi"), [35000, 36000, 37600, -600])
    assert [a - b for a, b in zip(result.points, plain.points, strict=True)] == [
        1600,
        1600,
        1600,
        -4800,
    ]


def test_it_settles_yakitori_chips_at_the_end():
    # 003-S1: D never won and pays 1 chip to each of A, B and C (L458).
    result = final_settlement(
        load_ruleset("home-nashinashi"),
        [41200, 30000, 25300, 11500],
        chips=[2, 0, -1, -1],
        win_counts=[2, 1, 1, 0],
    )
    assert list(result.chips) == [3, 1, 0, -4]


def test_it_has_no_chips_key_where_the_ruleset_has_no_chips():
    final = final_settlement(load_ruleset("makura-1.5"), [25000] * 4).to_json()
    assert "chips" not in final
    assert final["ended_by"] == "last_hand"


@pytest.mark.parametrize(
    ("mode", "points"),
    [
        # 001-S3 under the M-01 alternatives (rules-spec §3.2): R2a 44/10/-15/-39, R2b 45/9/-15/-39.
        ("truncate_before_uma", [44000, 10000, -15000, -39000]),
        ("truncate_after_uma", [45000, 9000, -15000, -39000]),
    ],
)
def test_it_offers_the_other_readings_of_m01(mode, points):
    rs = load_ruleset("makura-1.5", {"final_rounding": mode})
    assert list(final_settlement(rs, [35600, 29400, 24800, 10200]).points) == points


def test_it_rounds_tenhou_scores_to_the_nearest_thousand():
    # Tenhou §1: 四捨五入 of the score; the top takes the remainder.
    rs = load_ruleset("tenhou-4p")
    result = final_settlement(rs, [41500, 30400, 24600, 3500])
    # 30,400 -> 30 (+0 +10), 24,600 -> 25 (-5 -10), 3,500 -> 4 (-26 -20).
    assert list(result.points) == [51000, 10000, -15000, -46000]
