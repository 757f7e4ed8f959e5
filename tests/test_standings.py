"""Standings, champions and player statistics on a small fixed history, computed by hand.

Every game is stored through the ledger services. Four makura-1.5 games whose results are easy
to work out (25,000 start, 30,000 return, oka +20.0 to the top, uma +20/+10/-10/-20, scores
rounded down to 1,000, the top takes the remainder):

- QUIET: eight hands, all noten draws. Everyone keeps 25,000; ranks follow the seats.
  Points: 25,000 - 30,000 = -5.0 each; seat 1 -5 + 10 = +5.0, seat 2 -5 - 10 = -15.0,
  seat 3 -5 - 20 = -25.0, seat 0 (top) -(5 - 15 - 25) = +35.0.
- TOBI(w, l): one hand, seat ``w`` rons a yakuman (32,000) from ``l``, who is at -7,000
  and bust. Points: winner 57,000 -> +27 + 20 + 20 = +67.0; the other two (25,000 each,
  the lower seat ranks higher) +5.0 and -15.0; the loser -37 - 20 = -57.0.
- STATS: eight hands with two wins for seat 1 (see ``STATS_HANDS``). Final scores 23,900 /
  34,200 / 21,300 / 20,600, so seat 1 top, seat 0 2nd, seat 2 3rd, seat 3 4th. Points:
  seat 0 -6.1 -> -7 + 10 = +3.0, seat 2 -8.7 -> -9 - 10 = -19.0, seat 3 -9.4 -> -10 - 20
  = -30.0, seat 1 -(3 - 19 - 30) = +46.0.
- CHOMBO: seat 3 chombos (4,000 to each other seat: 29,000 / 29,000 / 29,000 / 13,000), then
  deals a yakuman into seat 1 and is bust at -19,000. Points: seat 1 61,000 -> +31 + 40 =
  +71.0, seat 0 +9.0 (-1 + 10), seat 2 -11.0, seat 3 -49 - 20 = -69.0.
- ZERO: like a normal game but with the override ``tobi_at_zero``; seat 3 deals in three
  mangan (1,000 left), then puts out a riichi stick and stands at exactly 0, which is bust
  here. Scores 25,000 / 43,000 / 32,000 / 0; points -15.0 / +53.0 / +12.0 / -50.0.
"""

from __future__ import annotations

import datetime
import random
import uuid
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext, override_settings
from django.utils import timezone

from clubsite.models import Member
from scoring import standings as st
from scoring.ledger import hanchan_import, hanchan_start, hanchan_void, hand_record
from scoring.models import Hanchan
from scoring.upkeep.sample_games import sample_hands
from tests.conftest import make_member

D = datetime.date

QUIET_HANDS = [{"result": "draw", "tenpai": []}] * 8
STATS_HANDS: list[dict[str, Any]] = [
    # E1: seat 1 (riichi) rons 3 han 30 fu = 3,900 from seat 2 and takes its own stick back.
    {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}], "riichi": [1]},
    # E2: all noten; honba 1.
    {"result": "draw", "tenpai": []},
    # E3: seat 1 tsumos a mangan: 4,000 from the dealer, 2,000 from the others (+100 honba).
    {"result": "tsumo", "wins": [{"winner": 1, "limit": "mangan"}]},
    # E4: seat 1 deals 2 han 30 fu = 2,000 into seat 0 (riichi).
    {"result": "ron", "loser": 1, "wins": [{"winner": 0, "han": 2, "fu": 30}], "riichi": [0]},
    # S1: seat 2 riichi and alone tenpai: 3,000 noten payments; its stick stays on the table.
    {"result": "draw", "tenpai": [2], "riichi": [2]},
    # S2: seat 2 rons 1,000 (+300 honba, +1,000 deposit) from seat 3.
    {"result": "ron", "loser": 3, "wins": [{"winner": 2, "han": 1, "fu": 30}]},
    # S3, S4: all noten; the game ends after S4.
    {"result": "draw", "tenpai": []},
    {"result": "draw", "tenpai": []},
]
CHOMBO_HANDS = [
    {"result": "chombo", "offender": 3},
    {"result": "ron", "loser": 3, "wins": [{"winner": 1, "limit": "yakuman"}]},
]
ZERO_HANDS = [
    {"result": "ron", "loser": 3, "wins": [{"winner": 1, "limit": "mangan"}]},
    {"result": "ron", "loser": 3, "wins": [{"winner": 2, "limit": "mangan"}]},
    {"result": "ron", "loser": 3, "wins": [{"winner": 1, "limit": "mangan"}]},
    {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 1, "fu": 30}], "riichi": [3]},
]


def tobi_hands(winner: int, loser: int) -> list[dict[str, Any]]:
    return [{"result": "ron", "loser": loser, "wins": [{"winner": winner, "limit": "yakuman"}]}]


NAMES = {
    "A": ("aoki", "Aoki"),
    "B": ("baba", "Baba"),
    "C": ("chiba", "Chiba"),
    "D": ("doi", "Doi"),
    "E": ("endo", "Endo"),
    "F": ("fujii", "Fujii"),
    "G": ("goto", "Goto"),
    "H": ("harada", "Harada"),
    "I": ("imai", "Imai"),
    "J": ("kanda", "Kanda"),
}


def store(
    members: Sequence[Member],
    day: datetime.date,
    hands: list[dict[str, Any]],
    ruleset: str = "makura-1.5",
    overrides: dict[str, Any] | None = None,
) -> Hanchan:
    record: dict[str, Any] = {
        "format": "club-game/1",
        "ruleset": ruleset,
        "players": [m.display_name for m in members],
        "hands": hands,
    }
    if overrides:
        record["overrides"] = overrides
    return hanchan_import(
        record=record, members_by_name={m.display_name: m for m in members}, played_on=day
    )


class Club:
    """The fixed history: ``club.A`` ... ``club.J`` are members, ``club.games[label]`` games."""

    def __init__(self) -> None:
        self.m = {key: make_member(user, name, "") for key, (user, name) in NAMES.items()}
        self.games: dict[str, Hanchan] = {}

    def __getattr__(self, key: str) -> Member:
        return self.__dict__["m"][key]

    def play(self, label: str, seats: str, day: datetime.date, hands: list, **kwargs) -> None:
        self.games[label] = store([self.m[k] for k in seats], day, hands, **kwargs)

    def row(self, table: st.Standings, key: str) -> st.StandingsRow:
        member_id = self.m[key].pk
        return next(r for r in table.rows + table.below_minimum if r.member_id == member_id)


@pytest.fixture
def club(db: None) -> Club:
    club = Club()
    # January 2026.
    club.play("g1", "ABCD", D(2026, 1, 5), QUIET_HANDS)
    club.play("g2", "DCEA", D(2026, 1, 12), QUIET_HANDS)
    club.play("other-ruleset", "ABCD", D(2026, 1, 15), QUIET_HANDS, ruleset="makura-1.3")
    club.play("g3", "BFEC", D(2026, 1, 19), tobi_hands(1, 3))
    club.play("voided", "ABCD", D(2026, 1, 22), tobi_hands(1, 3))
    game = club.games["voided"]
    hanchan_void(hanchan_id=game.pk, expected_version=game.version)
    club.play("g5", "GHIC", D(2026, 1, 25), STATS_HANDS)
    in_play = hanchan_start(
        ruleset_id="makura-1.5", members=[club.A, club.B, club.C, club.D], played_on=D(2026, 1, 28)
    )
    hand_record(
        hanchan_id=in_play.pk,
        hand={"result": "ron", "loser": 1, "wins": [{"winner": 0, "limit": "mangan"}]},
        expected_version=in_play.version,
        request_id=uuid.uuid4(),
    )
    club.games["in-play"] = in_play
    club.play("g4", "DFEC", D(2026, 1, 31), tobi_hands(2, 1))  # the last day of January
    # February.
    club.play("g6", "ABCD", D(2026, 2, 1), QUIET_HANDS)  # the first day of February
    club.play("g10", "BADC", D(2026, 2, 8), QUIET_HANDS)
    club.play("g14", "ACBD", D(2026, 2, 15), QUIET_HANDS)
    # March: equal totals.
    club.play("g11", "ABHI", D(2026, 3, 3), QUIET_HANDS)
    club.play("g12", "IHCA", D(2026, 3, 10), QUIET_HANDS)
    club.play("g13", "BJDH", D(2026, 3, 17), tobi_hands(1, 3))
    # April: equal on everything.
    club.play("g15", "ABCD", D(2026, 4, 4), QUIET_HANDS)
    club.play("g16", "BADC", D(2026, 4, 11), QUIET_HANDS)
    # May, June, July.
    club.play("g19", "EFGH", D(2026, 5, 9), CHOMBO_HANDS)
    club.play("g20", "EFGH", D(2026, 5, 16), ZERO_HANDS, overrides={"tobi_at_zero": True})
    club.play("g17", "EFGH", D(2026, 6, 30), QUIET_HANDS)  # the last day of the first half
    club.play("g18", "EFGH", D(2026, 7, 1), QUIET_HANDS)  # the first day of the second half
    return club


def summary(row: st.StandingsRow) -> tuple:
    return (row.display_name, row.games, row.total_points, row.average_rank, row.best_points)


# -- the games themselves -------------------------------------------------------------------


def test_it_stores_the_hand_computed_settlements(club: Club) -> None:
    """The templates' points, worked out in the module docstring, as the ledger stored them."""

    def points(label: str) -> list[int | None]:
        return [s.points for s in club.games[label].seats.order_by("index")]

    assert points("g1") == [35000, 5000, -15000, -25000]
    assert points("g3") == [5000, 67000, -15000, -57000]
    assert points("g4") == [5000, -57000, 67000, -15000]
    assert points("g5") == [3000, 46000, -19000, -30000]
    assert [s.final_score for s in club.games["g5"].seats.order_by("index")] == [
        23900,
        34200,
        21300,
        20600,
    ]
    assert points("g19") == [9000, 71000, -11000, -69000]
    assert points("g20") == [-15000, 53000, 12000, -50000]
    assert club.games["g20"].ended_by == "tobi"


# -- standings ------------------------------------------------------------------------------


def test_it_ranks_january_with_ties_broken_by_average_rank_then_best_game(club: Club) -> None:
    january = st.month_period(2026, 1)
    table = st.period_standings(january, min_games=2)

    # E: -15 -15 +67; D: -25 +35 +5; B, F, A: +10 each; C: -15 +5 -57 -30 -15.
    # B (ranks 2, 2) before F and A (1 and 4); F (best +67) before A (best +35).
    assert [summary(r) for r in table.rows] == [
        ("Endo", 3, 37000, Fraction(7, 3), 67000),
        ("Doi", 3, 15000, Fraction(7, 3), 35000),
        ("Baba", 2, 10000, Fraction(2), 5000),
        ("Fujii", 2, 10000, Fraction(5, 2), 67000),
        ("Aoki", 2, 10000, Fraction(5, 2), 35000),
        ("Chiba", 5, -112000, Fraction(16, 5), 5000),
    ]
    # One game each: below the minimum, listed apart in the same order.
    assert [summary(r) for r in table.below_minimum] == [
        ("Harada", 1, 46000, Fraction(1), 46000),
        ("Goto", 1, 3000, Fraction(2), 3000),
        ("Imai", 1, -19000, Fraction(3), -19000),
    ]
    assert table.ruleset_ids == ("makura-1.5",)
    assert (table.start, table.end) == (D(2026, 1, 1), D(2026, 1, 31))


def test_it_counts_ranks_lasts_tobi_and_best_game_per_member(club: Club) -> None:
    table = st.period_standings(st.month_period(2026, 1), min_games=2)

    chiba = club.row(table, "C")
    assert chiba.rank_counts == (0, 1, 2, 2)
    assert chiba.lasts == 2
    assert chiba.tobis == 1  # bust in g3; 4th in g5 without a tobi
    assert chiba.rank_rates == (0, Fraction(1, 5), Fraction(2, 5), Fraction(2, 5))
    assert chiba.top_rate == 0
    assert chiba.last_avoidance_rate == Fraction(3, 5)
    assert chiba.tobi_rate == Fraction(1, 5)
    assert chiba.best_points == 5000
    assert chiba.best_hanchan_id == club.games["g2"].pk
    # Exact average: -112,000 / 5 = -22,400.
    assert chiba.average_points == -22400
    assert chiba.average_points_rounded == -22400

    fujii = club.row(table, "F")
    assert (fujii.rank_counts, fujii.tobis, fujii.best_hanchan_id) == (
        (1, 0, 0, 1),
        1,
        club.games["g3"].pk,
    )
    endo = club.row(table, "E")
    # 37,000 / 3 = 12,333.3...: kept exact, rounded only on request.
    assert endo.average_points == Fraction(37000, 3)
    assert endo.average_points_rounded == 12333


def test_it_leaves_out_other_rulesets_voided_games_and_games_in_play(club: Club) -> None:
    january = st.month_period(2026, 1)
    standard = st.period_standings(january)
    aoki = club.row(standard, "A")
    # Aoki sat in g1 and g2 (counted), the makura-1.3 game, the voided game and the game
    # in play (not counted).
    assert (aoki.games, aoki.total_points) == (2, 10000)

    both = st.period_standings(january, ruleset_ids=["makura-1.5", "makura-1.3"])
    assert both.ruleset_ids == ("makura-1.5", "makura-1.3")
    # The makura-1.3 game is a QUIET game with A, B, C, D at seats 0-3.
    assert summary(club.row(both, "A")) == ("Aoki", 3, 45000, Fraction(6, 3), 35000)
    assert club.row(both, "D").total_points == 15000 - 25000

    only_other = st.period_standings(january, ruleset_ids=["makura-1.3"])
    assert [summary(r) for r in only_other.rows] == [
        ("Aoki", 1, 35000, 1, 35000),
        ("Baba", 1, 5000, 2, 5000),
        ("Chiba", 1, -15000, 3, -15000),
        ("Doi", 1, -25000, 4, -25000),
    ]
    assert st.period_standings(january, ruleset_ids=["no-such-rules"]).rows == ()


def test_it_splits_months_on_the_club_s_local_dates(club: Club) -> None:
    # g4 on 31 January counts in January only, g6 on 1 February in February only.
    january = st.period_standings(st.month_period(2026, 1))
    february = st.period_standings(st.month_period(2026, 2))
    assert club.row(january, "F").games == 2  # g3 and g4
    assert club.row(january, "E").best_hanchan_id == club.games["g4"].pk
    assert [summary(r) for r in february.rows] == [
        ("Aoki", 3, 75000, Fraction(4, 3), 35000),
        ("Baba", 3, 25000, Fraction(2), 35000),
        ("Chiba", 3, -35000, Fraction(3), 5000),
        ("Doi", 3, -65000, Fraction(11, 3), -15000),
    ]
    # Aoki topped g6 and g14 with +35.0 each: the best game is the first of them.
    assert club.row(february, "A").best_hanchan_id == club.games["g6"].pk


def test_it_takes_this_month_in_the_club_s_time_zone(club_choices) -> None:
    # 15:30 UTC on 31 January is already 00:30 on 1 February in Tokyo.
    moment = datetime.datetime(2026, 1, 31, 15, 30, tzinfo=datetime.UTC)
    assert st.club_today(moment) == D(2026, 2, 1)
    assert st.current_month_period(moment) == st.month_period(2026, 2)
    # Whatever time zone the request activated.
    with timezone.override("America/New_York"):
        assert st.current_month_period(moment) == st.month_period(2026, 2)
    with club_choices(time_zone="UTC"):
        assert st.current_month_period(moment) == st.month_period(2026, 1)
    assert st.current_month_period(moment) == st.month_period(2026, 2)


def test_it_builds_periods() -> None:
    assert st.month_period(2024, 2) == st.Period("month", D(2024, 2, 1), D(2024, 2, 29), 2024, 2)
    assert st.month_period(2026, 12).next() == st.month_period(2027, 1)
    assert st.month_period(2026, 1).previous() == st.month_period(2025, 12)
    first, second = st.half_year_period(2026, 1), st.half_year_period(2026, 2)
    assert (first.start, first.end) == (D(2026, 1, 1), D(2026, 6, 30))
    assert (second.start, second.end) == (D(2026, 7, 1), D(2026, 12, 31))
    assert st.half_year_of(D(2026, 6, 30)) == first
    assert st.half_year_of(D(2026, 7, 1)) == second
    assert second.next() == st.half_year_period(2027, 1)
    assert first.previous() == st.half_year_period(2025, 2)
    assert st.year_period(2026).previous() == st.year_period(2025)
    assert D(2026, 3, 3) in st.range_period(D(2026, 3, 1), D(2026, 3, 3))
    assert D(1990, 1, 1) in st.all_time_period()
    with pytest.raises(ValueError):
        st.half_year_period(2026, 3)
    with pytest.raises(ValueError):
        st.range_period(D(2026, 3, 2), D(2026, 3, 1))
    with pytest.raises(ValueError):
        st.all_time_period().next()


def test_it_sums_half_years_years_ranges_and_all_time(club: Club) -> None:
    first_half = st.period_standings(st.half_year_period(2026, 1), min_games=5)
    # Totals of January to June (see the fixture): F 10 + 124 + 5; A 10 + 75 + 10 + 40; ...
    assert [(r.display_name, r.games, r.total_points) for r in first_half.rows] == [
        ("Fujii", 5, 139000),
        ("Aoki", 9, 135000),
        ("Baba", 9, 85000),
        ("Endo", 6, 66000),
        ("Doi", 9, -105000),
        ("Harada", 7, -165000),
        ("Chiba", 11, -202000),
    ]
    assert [(r.display_name, r.total_points) for r in first_half.below_minimum] == [
        ("Kanda", 67000),
        ("Imai", -9000),
        ("Goto", -11000),
    ]
    # The second half holds g18 only; the year both halves.
    second_half = st.period_standings(st.half_year_period(2026, 2))
    assert [(r.display_name, r.total_points) for r in second_half.rows] == [
        ("Endo", 35000),
        ("Fujii", 5000),
        ("Goto", -15000),
        ("Harada", -25000),
    ]
    year = st.period_standings(st.year_period(2026))
    assert club.row(year, "E").total_points == 66000 + 35000
    assert st.period_standings(st.all_time_period()) == st.standings(
        start=st.EARLIEST, end=st.LATEST, ruleset_ids=None, min_games=0
    )
    assert club.row(st.period_standings(st.all_time_period()), "E").games == 7
    # A custom range: the last day of January and the first of February.
    both_days = st.period_standings(st.range_period(D(2026, 1, 31), D(2026, 2, 1)))
    assert club.row(both_days, "D").total_points == 5000 - 25000


def test_it_counts_tobi_at_zero_only_where_the_game_s_rules_say_so(club: Club) -> None:
    may = st.period_standings(st.month_period(2026, 5))
    # g19: Harada bust at -19,000; g20: Harada at exactly 0 under tobi_at_zero.
    assert summary(club.row(may, "H")) == ("Harada", 2, -119000, Fraction(4), -50000)
    assert club.row(may, "H").tobis == 2
    assert [club.row(may, k).tobis for k in "EFG"] == [0, 0, 0]


def test_it_reads_the_bust_threshold_from_the_pinned_ruleset_version(db: None) -> None:
    players = [make_member(f"n{i}", f"Nashi {i}", "") for i in range(4)]
    # home-nashinashi (27,000 start) says 0 is bust: seat 3 deals in three mangan (3,000 left)
    # and pays 3,000 noten at E4: exactly 0, tobi.
    hands = [
        {"result": "ron", "loser": 3, "wins": [{"winner": 1, "limit": "mangan"}]},
        {"result": "ron", "loser": 3, "wins": [{"winner": 2, "limit": "mangan"}]},
        {"result": "ron", "loser": 3, "wins": [{"winner": 1, "limit": "mangan"}]},
        {"result": "draw", "tenpai": [0, 1, 2]},
    ]
    game = store(players, D(2026, 1, 10), hands, ruleset="home-nashinashi")
    assert game.ended_by == "tobi"
    assert game.seats.get(index=3).final_score == 0
    table = st.period_standings(st.month_period(2026, 1), ruleset_ids=["home-nashinashi"])
    assert [(r.display_name, r.tobis, r.lasts) for r in table.rows][-1] == ("Nashi 3", 1, 1)
    assert [r.tobis for r in table.rows[:3]] == [0, 0, 0]


def test_it_counts_last_place_per_table_size(db: None) -> None:
    four = [make_member(f"p{i}", f"Player {i}", "") for i in range(4)]
    store(four, D(2026, 1, 10), QUIET_HANDS)
    rng = random.Random(7)
    three = store(four[:3], D(2026, 1, 11), sample_hands(rng, "tenhou-3p"), ruleset="tenhou-3p")
    third_of_three = three.seats.get(rank=3).member.display_name
    table = st.period_standings(st.month_period(2026, 1), ruleset_ids=["makura-1.5", "tenhou-3p"])
    # Player 3 was 4th of 4 in the QUIET game; the 3rd of the 3-player game was last there.
    lasts = {r.display_name: r.lasts for r in table.rows}
    assert set(lasts) == {m.display_name for m in four}
    fourths = {r.display_name: r.rank_counts[3] for r in table.rows}
    assert lasts == {name: (name == "Player 3") + (name == third_of_three) for name in lasts}
    assert fourths == {name: int(name == "Player 3") for name in fourths}


def test_it_sorts_by_any_column_keeping_the_standings_order_for_equal_values(
    club: Club,
) -> None:
    table = st.period_standings(st.month_period(2026, 1), min_games=2)
    by_rank = st.sort_rows(table.rows, "average_rank", descending=False)
    assert [r.display_name for r in by_rank] == ["Baba", "Endo", "Doi", "Fujii", "Aoki", "Chiba"]
    by_games = st.sort_rows(table.rows, "games", descending=True)
    assert [r.display_name for r in by_games][:3] == ["Chiba", "Endo", "Doi"]
    with pytest.raises(KeyError):
        st.sort_rows(table.rows, "nonsense", descending=True)
    assert set(st.STANDINGS_COLUMNS) >= {"total_points", "tobi_rate", "last_avoidance_rate"}


def test_it_refuses_bad_arguments(db: None) -> None:
    with pytest.raises(ValueError):
        st.standings(start=D(2026, 2, 1), end=D(2026, 1, 1), ruleset_ids=None, min_games=0)
    with pytest.raises(ValueError):
        st.standings(start=D(2026, 1, 1), end=D(2026, 1, 1), ruleset_ids=None, min_games=-1)


def test_it_rounds_halves_away_from_zero() -> None:
    assert st.round_half_away(Fraction(5, 2)) == 3
    assert st.round_half_away(Fraction(-5, 2)) == -3
    assert st.round_half_away(Fraction(-7, 3)) == -2
    assert st.round_half_away(Fraction(0)) == 0


# -- champions ------------------------------------------------------------------------------


def test_it_names_the_monthly_champion_among_members_with_the_minimum_games(club: Club) -> None:
    # January: Endo (+37.0 in 3 games) leads with a minimum of 2...
    january = st.monthly_champion(2026, 1, min_games=2)
    assert [h.display_name for h in january.holders] == ["Endo"]
    assert january.points == 37000
    # ...but Harada's +46.0 in one game does not qualify, and with the default minimum of 4
    # only Chiba, on 5 games, qualifies.
    with override_settings(CHAMPION_MIN_GAMES=4):
        default = st.monthly_champion(2026, 1)
    assert [h.display_name for h in default.holders] == ["Chiba"]
    assert default.min_games == 4
    # Nobody played 4 games in June: no champion.
    assert st.monthly_champion(2026, 6).holders == ()
    assert st.monthly_champion(2026, 6).points is None


def test_it_breaks_equal_champion_totals_by_the_club_setting(club: Club) -> None:
    # March: Aoki, Baba and Imai all +10.0 in two games (Kanda's +67.0 is a single game).
    # Baba's ranks 2, 2 beat 1, 4 under the standings rule; "shared" gives all three the title.
    march = st.monthly_champion(2026, 3, min_games=2)
    assert [h.display_name for h in march.holders] == ["Baba"]
    with override_settings(CHAMPION_TIES="shared"):
        shared = st.monthly_champion(2026, 3, min_games=2)
    assert [h.display_name for h in shared.holders] == ["Baba", "Aoki", "Imai"]
    # April: Aoki and Baba equal on total, average rank and best game: shared either way.
    april = st.monthly_champion(2026, 4, min_games=2)
    assert [h.display_name for h in april.holders] == ["Aoki", "Baba"]
    with pytest.raises(ValueError), override_settings(CHAMPION_TIES="coin"):
        st.monthly_champion(2026, 4, min_games=2)


def test_it_names_half_year_champions(club: Club) -> None:
    # January-June: Fujii +139.0 in 5 games, Aoki +135.0 in 9.
    assert [h.display_name for h in st.half_year_champion(2026, 1, min_games=5).holders] == [
        "Fujii"
    ]
    assert [h.display_name for h in st.half_year_champion(2026, 1, min_games=6).holders] == ["Aoki"]
    with override_settings(HALF_YEAR_CHAMPION_MIN_GAMES=24):
        assert st.half_year_champion(2026, 1).holders == ()
    second = st.half_year_champion(2026, 2, min_games=1)
    assert [h.display_name for h in second.holders] == ["Endo"]
    assert second.period == st.half_year_period(2026, 2)


@override_settings(CHAMPION_MIN_GAMES=2, HALF_YEAR_CHAMPION_MIN_GAMES=5)
def test_it_lists_every_past_title(club: Club) -> None:
    history = st.champions_history(today=D(2026, 8, 15))
    months = [
        (t.period.year, t.period.number, [h.display_name for h in t.holders], t.points)
        for t in history.months
    ]
    # Newest first; August is not over; June and July had nobody with 2 games.
    assert months == [
        (2026, 7, [], None),
        (2026, 6, [], None),
        (2026, 5, ["Fujii"], 124000),
        (2026, 4, ["Aoki", "Baba"], 40000),
        (2026, 3, ["Baba"], 10000),
        (2026, 2, ["Aoki"], 75000),
        (2026, 1, ["Endo"], 37000),
    ]
    # The second half is not over yet.
    assert [(t.period.number, [h.display_name for h in t.holders]) for t in history.halves] == [
        (1, ["Fujii"])
    ]
    # The figures of a title are the holder's standings row, whichever query made them.
    assert history.months[-1].holders == st.monthly_champion(2026, 1).holders
    assert history.halves[0].holders == st.half_year_champion(2026, 1).holders
    later = st.champions_history(today=D(2027, 1, 1))
    assert len(later.months) == 12
    assert [t.period.number for t in later.halves] == [2, 1]
    assert [h.display_name for h in later.halves[0].holders] == []


def test_it_has_no_history_without_games(db: None) -> None:
    assert st.champions_history(today=D(2026, 8, 15)) == st.ChampionsHistory((), ())


# -- player statistics ----------------------------------------------------------------------


def test_it_lists_a_member_s_games_monthly_totals_and_cumulative_points(club: Club) -> None:
    games = st.member_games(club.C.pk, start=D(2026, 1, 1), end=D(2026, 2, 28), ruleset_ids=None)
    assert [(g.played_on, g.seat, g.final_score, g.rank, g.points) for g in games] == [
        (D(2026, 1, 5), 2, 25000, 3, -15000),
        (D(2026, 1, 12), 1, 25000, 2, 5000),
        (D(2026, 1, 19), 3, -7000, 4, -57000),
        (D(2026, 1, 25), 3, 20600, 4, -30000),
        (D(2026, 1, 31), 3, 25000, 3, -15000),
        (D(2026, 2, 1), 2, 25000, 3, -15000),
        (D(2026, 2, 8), 3, 25000, 4, -25000),
        (D(2026, 2, 15), 1, 25000, 2, 5000),
    ]
    assert games[0].hanchan_id == club.games["g1"].pk
    assert {(g.ruleset_id, g.players) for g in games} == {("makura-1.5", 4)}
    assert games[2].ended_by == "tobi"
    assert st.monthly_totals(games) == [
        st.MonthTotal(2026, 1, 5, -112000, 16),
        st.MonthTotal(2026, 2, 3, -35000, 9),
    ]
    assert st.monthly_totals(games)[1].average_rank == 3
    assert [p.cumulative for p in st.cumulative_points(games)] == [
        -15000,
        -10000,
        -67000,
        -97000,
        -112000,
        -127000,
        -152000,
        -147000,
    ]


def test_it_computes_per_hand_statistics_from_the_stored_hands(club: Club) -> None:
    january: dict[str, Any] = {"start": D(2026, 1, 1), "end": D(2026, 1, 31), "ruleset_ids": None}
    # Harada sat at seat 1 of the STATS game: 2 wins in 8 hands = 25 %.
    harada = st.hand_stats(club.H.pk, **january)
    assert harada == st.HandStats(
        hands=8, wins=2, tsumo_wins=1, deal_ins=1, riichi=1, chombo=0, win_points=3900 + 8000
    )
    assert harada.win_rate == Fraction(1, 4)
    assert harada.deal_in_rate == Fraction(1, 8)
    assert harada.riichi_rate == Fraction(1, 8)
    # 3,900 ron + 4,000 + 2,000 + 2,000 tsumo; honba and deposits are not the hand's value.
    assert harada.average_win_value == 5950
    assert harada.tsumo_share == Fraction(1, 2)
    # Imai (seat 2): one 1,000 ron (its 300 honba and 1,000 deposit left out), one deal-in.
    imai = st.hand_stats(club.I.pk, **january)
    assert (imai.wins, imai.win_points, imai.deal_ins, imai.riichi) == (1, 1000, 1, 1)
    # Chiba: 8 + 8 + 1 + 8 + 1 hands, no win, two deal-ins (g3, and S2 of g5).
    chiba = st.hand_stats(club.C.pk, **january)
    assert chiba == st.HandStats(
        hands=26, wins=0, tsumo_wins=0, deal_ins=2, riichi=0, chombo=0, win_points=0
    )
    assert chiba.win_rate == 0
    assert chiba.average_win_value is None
    assert chiba.tsumo_share is None
    # Harada's chombo in May is counted, and its hand is not a hand played.
    may = st.hand_stats(club.H.pk, start=D(2026, 5, 1), end=D(2026, 5, 31), ruleset_ids=None)
    assert (may.hands, may.chombo, may.deal_ins, may.riichi) == (1 + 4, 1, 1 + 3, 1)
    nothing = st.hand_stats(club.J.pk, **january)
    assert nothing.hands == 0
    assert nothing.win_rate is None


def test_it_gathers_the_player_page(club: Club) -> None:
    with CaptureQueriesContext(connection) as queries:
        page = st.player_stats(club.H.pk, st.year_period(2026), last_games=3)
    # The versions, the period's games, the latest games, the hand sums (stored per game).
    assert len(queries) == 4
    assert [g.hanchan_id for g in page.games] == [
        club.games[label].pk for label in ("g5", "g11", "g12", "g13", "g19", "g20", "g17", "g18")
    ]
    assert [g.rank for g in page.last_games] == [4, 4, 4]  # g20, g17, g18: oldest first
    assert [g.hanchan_id for g in page.last_games] == [
        club.games[label].pk for label in ("g20", "g17", "g18")
    ]
    assert [(m.month, m.games, m.points) for m in page.months] == [
        (1, 1, 46000),
        (3, 3, -67000),
        (5, 2, -119000),
        (6, 1, -25000),
        (7, 1, -25000),
    ]
    assert page.cumulative[-1].cumulative == 46000 - 67000 - 119000 - 25000 - 25000
    assert page.hands.wins == 2
    assert page.ruleset_ids == ("makura-1.5",)
    assert st.stored_ruleset_ids() == ["makura-1.3", "makura-1.5"]


# -- query counts -----------------------------------------------------------------------------


def build_history(games: int, prefix: str = "q") -> list[Member]:
    players = [make_member(f"{prefix}{i}", f"{prefix.upper()}{i}", "") for i in range(6)]
    rng = random.Random(games)
    for number in range(games):
        seated = rng.sample(players, 4)
        store(seated, D(2025, 1 + number % 12, 1 + number % 28), sample_hands(rng, "makura-1.5"))
    return players


def queries_of(work: Callable[[], object]) -> int:
    with CaptureQueriesContext(connection) as queries:
        work()
    return len(queries)


@pytest.mark.parametrize("games", [3, 30])
def test_it_takes_the_same_few_queries_however_many_games(
    db: None, games: int, django_assert_max_num_queries: Callable
) -> None:
    players = build_history(games)
    year, month = st.year_period(2025), st.month_period(2025, 1)
    member = players[0].pk
    with django_assert_max_num_queries(3):
        st.period_standings(month, min_games=1)
    with django_assert_max_num_queries(3):
        table = st.period_standings(st.all_time_period(), min_games=1)
    assert sum(r.games for r in table.rows + table.below_minimum) == games * 4
    with django_assert_max_num_queries(3):
        st.monthly_champion(2025, 1)
    with django_assert_max_num_queries(3):
        st.champions_history(today=D(2027, 1, 1))
    with django_assert_max_num_queries(5):
        st.player_stats(member, year)
    with django_assert_max_num_queries(3):
        st.hand_stats(member, start=year.start, end=year.end, ruleset_ids=None)


def test_it_does_not_add_queries_for_more_games(db: None) -> None:
    few = build_history(3)
    counts_few = [
        queries_of(lambda: st.period_standings(st.all_time_period())),
        queries_of(lambda: st.champions_history(today=D(2027, 1, 1))),
        queries_of(lambda: st.player_stats(few[0].pk, st.all_time_period())),
    ]
    many = build_history(30, prefix="r")
    counts_many = [
        queries_of(lambda: st.period_standings(st.all_time_period())),
        queries_of(lambda: st.champions_history(today=D(2027, 1, 1))),
        queries_of(lambda: st.player_stats(many[0].pk, st.all_time_period())),
    ]
    assert counts_few == counts_many == [3, 3, 4]
