"""A member's figures with their intervals: every figure of the contract's
small history (tests/test_player_stats.py: a 4-player game with a double ron, a pao, a
chombo, a draw and a tobi; a 3-player game; a game entered as final scores only; games that
count nowhere) counted by hand, the intervals against their textbook values, the page in
Japanese and English, and a query count that does not grow with the history."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from scipy import stats  # type: ignore[import-untyped]  # scipy ships no stubs

from clubsite.models import Member
from scoring.engine import load_ruleset
from scoring.ledger import hanchan_void
from scoring.stats.counts import BadArguments
from scoring.stats.families import family_selection, least_ron, least_win
from scoring.stats.figures import PlayerFigures, best_renchan, player_figures
from scoring.stats.intervals import ALL_EQUAL, MEAN_MIN_N, TOO_FEW, Estimate, t_mean, wilson
from tests.conftest import make_member
from tests.test_player_stats import (
    FINAL_SCORES,
    FOUR_PLAYER_HANDS,
    THREE_PLAYER_HANDS,
    store,
)


@pytest.fixture
def four(db: None) -> list[Member]:
    return [make_member(name.lower(), name, "") for name in ("Aoki", "Baba", "Chiba", "Doi")]


@pytest.fixture
def played(four: list[Member]) -> list[Member]:
    """The contract's history: one 4-player game by hands, one 3-player game, one 4-player
    game as final scores only, and two games that count nowhere (Doi's yakuman in each)."""
    a, b, c, d = four
    store(four, "makura-1.5", hands=FOUR_PLAYER_HANDS)
    store([a, b, c], "sanma-float", hands=THREE_PLAYER_HANDS)
    store(four, "makura-1.5", final_scores=FINAL_SCORES)
    doi_wins = [{"result": "ron", "loser": 0, "wins": [{"winner": 3, "limit": "yakuman"}]}]
    store(four, "makura-1.5", hands=doi_wins, by=a)  # waits for confirmation
    voided = store(four, "makura-1.5", hands=doi_wins)
    hanchan_void(hanchan_id=voided.pk, expected_version=voided.version, steward=True)
    return four


GAME_KEYS = (
    "place_1", "place_2", "place_3", "place_4", "top_two", "last_avoided",
    "average_placement", "points_per_game", "final_score", "bust",
)  # fmt: skip


def values(figures: PlayerFigures) -> dict[str, tuple[int, int | Fraction | None]]:
    """Each figure as (n, value): a rate's value is its count of successes, as counted by
    hand; a mean's value the exact mean."""
    result: dict[str, tuple[int, int | Fraction | None]] = {}
    for figure in figures.figures:
        e = figure.estimate
        result[figure.key] = (e.n, e.total if figure.kind != "mean" else e.value)
    return result


# -- the intervals ----------------------------------------------------------------------------


def test_it_gives_the_wilson_interval_of_a_rate() -> None:
    # 3 of 10: the Wilson score interval, z = 1.96 (Newcombe 1998, table I: 0.1078-0.6032).
    rate = wilson(3, 10)
    assert (rate.n, rate.total, rate.value) == (10, 3, Fraction(3, 10))
    assert rate.low == pytest.approx(0.1078, abs=1e-4)
    assert rate.high == pytest.approx(0.6032, abs=1e-4)
    # None of 10 keeps a width (0-0.2775), where the normal approximation gives 0-0.
    assert wilson(0, 10).low == 0.0
    assert wilson(0, 10).high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == Estimate(0, 0, None, None, None)


def test_it_gives_the_t_interval_of_a_mean() -> None:
    # 1..10: mean 5.5, s = sqrt(55 / 6), t(0.975, 9) = 2.2622: 5.5 +- 2.1659.
    numbers = list(range(1, 11))
    mean = t_mean(10, sum(numbers), sum(n * n for n in numbers))
    assert mean.value == Fraction(11, 2)
    assert mean.low == pytest.approx(3.3341, abs=1e-4)
    assert mean.high == pytest.approx(7.6659, abs=1e-4)
    # Large points keep their digits: five games each of +73,000 and +50,000.
    games = [73000] * 5 + [50000] * 5
    big = t_mean(10, sum(games), sum(g * g for g in games))
    half = stats.t.ppf(0.975, 9) * stats.tstd(games) / 10**0.5
    assert big.value == 61500
    assert big.low == pytest.approx(61500 - half)
    assert big.high == pytest.approx(61500 + half)


def test_a_mean_of_fewer_than_ten_values_or_of_equal_values_has_no_interval() -> None:
    # Two games gave points -8.5 (-192.7 - +175.7), two equal wins
    # "8,000 - 8,000". Under ten values there is no range, whatever their spread.
    assert MEAN_MIN_N == 10
    assert t_mean(2, -17000, 183000**2 + 166000**2) == Estimate(
        2, -17000, Fraction(-8500), None, None, TOO_FEW
    )
    assert t_mean(2, 16000, 2 * 8000**2) == Estimate(2, 16000, Fraction(8000), None, None, TOO_FEW)
    assert t_mean(9, 45, 285).missing == TOO_FEW
    assert t_mean(1, 7, 49) == Estimate(1, 7, Fraction(7), None, None, TOO_FEW)
    # Ten equal values: still no range (a range of one value claims certainty).
    assert t_mean(10, 80000, 10 * 8000**2) == Estimate(
        10, 80000, Fraction(8000), None, None, ALL_EQUAL
    )
    assert t_mean(0, 0, 0) == Estimate(0, 0, None, None, None)


def test_an_interval_is_cut_to_what_the_rules_allow() -> None:
    # Nine 1,000-point wins and one 48,000: the t interval reaches below 0; a win is never
    # below the least win the rules pay, 1,000 under Makura 1.5 (1 han 30 fu ron).
    wins = [1000] * 9 + [48000]
    free = t_mean(10, sum(wins), sum(w * w for w in wins))
    cut = t_mean(10, sum(wins), sum(w * w for w in wins), within=(1000, None))
    assert free.low is not None and free.low < 0
    assert (cut.low, cut.high) == (1000.0, free.high)
    # A rate stays within 0..1.
    assert wilson(5, 5).high == 1.0 and wilson(0, 5).low == 0.0


@pytest.mark.parametrize(
    ("ruleset_id", "win", "ron"),
    [
        ("makura-1.5", 1000, 1000),  # 1 han 30 fu: a ron of 1,000, a tsumo 300/500 (1,100)
        ("tenhou-4p", 1000, 1000),
        ("fuji-sanma", 800, 1000),  # 3 players, tsumo loss: 300 + 500 from two payers
        ("sanma-float", 1000, 1000),  # seed 002 rounds every payment up to 1,000 (S-03 B)
    ],
)
def test_the_least_win_and_ron_come_from_the_rules(ruleset_id: str, win: int, ron: int) -> None:
    rules = load_ruleset(ruleset_id)
    assert (least_win(rules), least_ron(rules)) == (win, ron)


def test_a_selection_carries_its_rules_least_win(played: list[Member]) -> None:
    assert (family_selection(4).least_win, family_selection(4).least_ron) == (1000, 1000)
    assert family_selection(3).least_win == 1000  # sanma-float
    assert family_selection(3, ["tenhou-3p"]).least_win == 0  # no game under it: unknown


def test_bad_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="0 <= successes <= n"):
        wilson(4, 3)
    with pytest.raises(ValueError, match="squares"):
        t_mean(2, 10, 1)


# -- every figure, counted by hand ----------------------------------------------------------------


def test_it_counts_every_4_player_figure(played: list[Member]) -> None:
    a, b, c, d = played
    chosen = family_selection(4)
    aoki, baba, chiba, doi = (values(player_figures(m.pk, chosen)) for m in played)
    # Game level: the game by hands (ranks 1, 2, 4, 3; final scores 61,200, 52,800, -13,500,
    # -500) and the final-scores game (ranks 1-4; 40,000 to 10,000).
    assert {k: aoki[k] for k in GAME_KEYS} == {
        "place_1": (2, 2), "place_2": (2, 0), "place_3": (2, 0), "place_4": (2, 0),
        "top_two": (2, 2), "last_avoided": (2, 2),
        "average_placement": (2, Fraction(1)),
        "points_per_game": (2, Fraction(73000 + 50000, 2)),
        "final_score": (2, Fraction(61200 + 40000, 2)),
        "bust": (2, 0),
    }  # fmt: skip
    assert [chiba[k] for k in ("place_3", "place_4", "average_placement", "bust")] == [
        (2, 1), (2, 1), (2, Fraction(7, 2)), (2, 1),  # Chiba busted (tobi) by hands
    ]  # fmt: skip
    assert doi["bust"] == (2, 1)  # -500 is below 0 too in a game ended by tobi
    assert doi["final_score"] == (2, Fraction(-500 + 10000, 2))
    # Hand level: the game by hands only (five hands; the chombo hand is none of its own).
    # Score changes a hand, chombo left out: Aoki 0, +2,000, +1,500, -4,200, +32,900.
    assert {k: v for k, v in aoki.items() if k not in GAME_KEYS} == {
        "win": (5, 2), "tsumo_share": (2, 0), "deal_in": (5, 0), "riichi": (5, 1),
        "riichi_win": (1, 1), "riichi_deal_in": (1, 0), "dealer_win": (1, 0),
        "non_dealer_win": (4, 2),
        "win_value": (2, Fraction(2000 + 32000, 2)),  # the pao's half counts: the whole value
        "deal_in_value": (0, None),
        "hand_balance": (5, Fraction(0 + 2000 + 1500 - 4200 + 32900, 5)),
        "draw": (5, 1), "tenpai_at_draw": (1, 1),
        "chombo": (6, 0),  # of six hands seated, the chombo hand included
        "yakuman": (2, 1),  # the daisangen
        "best_renchan": (1, 0),
    }  # fmt: skip
    # Baba deals E2, E2-1, (chombo), E2-2, E2-3: four hands in a row, three renchan.
    assert {k: baba[k] for k in ("win", "tsumo_share", "riichi", "riichi_win")} == {
        "win": (5, 3), "tsumo_share": (3, 1), "riichi": (5, 2), "riichi_win": (2, 2),
    }  # fmt: skip
    assert (baba["dealer_win"], baba["non_dealer_win"], baba["best_renchan"]) == (
        (4, 2), (1, 1), (4, 3),
    )  # fmt: skip
    assert baba["win_value"] == (3, Fraction(3900 + 5800 + 12000, 3))  # tsumo honba left out
    assert baba["hand_balance"] == (5, Fraction(3900 + 5800 + 1500 + 12600 + 0, 5))
    # Chiba: dealt in E1 (3,900) and under the pao (the discarder's half, 16,000).
    assert (chiba["deal_in"], chiba["deal_in_value"], chiba["chombo"]) == (
        (5, 2), (2, Fraction(3900 + 16000, 2)), (6, 1),
    )  # fmt: skip
    assert chiba["hand_balance"] == (5, Fraction(-3900 + 0 - 1500 - 4200 - 16900, 5))
    assert (chiba["draw"], chiba["tenpai_at_draw"], chiba["win"]) == ((5, 1), (1, 0), (5, 0))
    # Doi: the double ron is one deal-in of 7,800; the pao's 16,000 is none; the riichi of
    # the chombo hand went back.
    assert (doi["deal_in"], doi["deal_in_value"], doi["riichi"], doi["riichi_win"]) == (
        (5, 1), (1, Fraction(7800)), (5, 0), (0, 0),
    )  # fmt: skip


def test_it_counts_the_3_player_family_apart(played: list[Member]) -> None:
    a, b, c, d = played
    chosen = family_selection(3)
    assert chosen.keys == ("sanma-float",)
    aoki, baba, chiba = (player_figures(m.pk, chosen) for m in (a, b, c))
    assert [f.key for f in aoki.figures if f.key.startswith("place_")] == [
        "place_1", "place_2", "place_3",
    ]  # fmt: skip
    assert (aoki.games, aoki.hand_games, aoki.hands) == (1, 1, 2)
    chiba_values = values(chiba)
    # Chiba's riichi was ronned for Baba's yakuman: a riichi deal-in, last (3rd of 3), bust.
    assert {k: chiba_values[k] for k in ("place_3", "last_avoided", "bust", "riichi")} == {
        "place_3": (1, 1), "last_avoided": (1, 0), "bust": (1, 1), "riichi": (2, 1),
    }  # fmt: skip
    assert (chiba_values["riichi_deal_in"], chiba_values["deal_in_value"]) == (
        (1, 1), (1, Fraction(48000)),
    )  # fmt: skip
    baba_values = values(baba)
    assert (baba_values["yakuman"], baba_values["dealer_win"], baba_values["tenpai_at_draw"]) == (
        (1, 1), (1, 1), (1, 1),
    )  # fmt: skip
    assert baba_values["top_two"] == (1, 1)
    assert player_figures(d.pk, chosen).games == 0


def test_final_scores_games_count_in_game_figures_only(four: list[Member]) -> None:
    store(four, "makura-1.5", final_scores=FINAL_SCORES)
    figures = player_figures(four[0].pk, family_selection(4))
    assert (figures.games, figures.hand_games, figures.hands) == (1, 0, 0)
    game = {f.key: f.estimate for f in figures.figures if f.level == "game"}
    hand = {f.key: f.estimate for f in figures.figures if f.level == "hand"}
    assert game["place_1"].total == 1 and game["points_per_game"].value == 50000
    assert all(e.n == 0 for key, e in hand.items() if key != "best_renchan")
    assert hand["best_renchan"].total == 0


def test_every_figure_carries_its_interval(played: list[Member]) -> None:
    figures = player_figures(played[1].pk, family_selection(4))
    assert len(figures.figures) >= 25
    for figure in figures.figures:
        e = figure.estimate
        if figure.kind == "rate":
            assert (e.low, e.high) == (wilson(e.total, e.n).low, wilson(e.total, e.n).high)
        elif figure.kind == "mean" and e.n:
            assert (e.low, e.high, e.missing) == (None, None, TOO_FEW)  # 2 to 5 values
        else:
            assert e.low is None
    # Baba's two 2nd places: Wilson 2 of 2.
    place_2 = figures.figure("place_2").estimate
    assert place_2.low == pytest.approx(0.3424, abs=1e-4) and place_2.high == 1.0


def test_best_renchan_skips_chombo_hands_and_breaks_between_games() -> None:
    dealt = [
        (1, 1, "ron"), (1, 2, "draw"), (1, 3, "chombo"), (1, 4, "tsumo"), (1, 5, "ron"),
        (1, 9, "ron"), (1, 10, "ron"), (2, 11, "abort"), (2, 12, "draw"),
    ]  # fmt: skip
    assert best_renchan(dealt) == 3  # hands 1, 2, 4, 5 of game 1
    assert best_renchan([(1, 3, "chombo")]) == 0
    assert best_renchan([]) == 0


def test_a_family_is_4_or_3_players(db: None) -> None:
    with pytest.raises(BadArguments, match="4 or 3 players"):
        family_selection(5)


def test_the_queries_do_not_grow_with_the_history(
    played: list[Member], django_assert_max_num_queries: Any
) -> None:
    chosen = family_selection(4)
    with django_assert_max_num_queries(4):
        small = player_figures(played[1].pk, chosen)
    for _ in range(3):
        store(played, "makura-1.5", hands=FOUR_PLAYER_HANDS)
    with django_assert_max_num_queries(4):
        large = player_figures(played[1].pk, chosen)
    assert (small.games, large.games) == (2, 5)
    assert large.figure("best_renchan").estimate.total == 3


# -- the page -------------------------------------------------------------------------------------


def logged_in(member: Member, language: str = "en") -> Client:
    client = Client()
    client.force_login(member.user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    return client


def page(client: Client, member: Member, players: int = 4) -> str:
    url = reverse("member_figures_family", args=(member.pk, players)) + "?period=all"
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_shows_each_figure_with_its_interval(played: list[Member]) -> None:
    html = page(logged_in(played[0]), played[1])
    assert "Baba: figures" in html
    assert "Counted games only: 2 games, 1 of them with their hands recorded (5 hands)." in html
    assert "Points in all: +42.0." in html  # Baba: +32.0 by hands, +10.0 by final scores
    assert "Games entered as final scores only count in the game figures" in html
    # Baba's win rate: 3 of 5, Wilson 23.1% - 88.2%.
    low, high = wilson(3, 5).low, wilson(3, 5).high
    assert low is not None and high is not None
    assert round(low * 100, 1) == 23.1 and round(high * 100, 1) == 88.2
    assert (
        '<tr id="figure-win"><th scope="row">Win rate</th><td class="num">60.0%<br>'
        '<small>23.1% – 88.2%</small></td><td class="num">3 / 5</td></tr>'
    ) in html
    assert '<tr id="figure-best_renchan"><th scope="row">Best renchan streak</th>' in html
    # Points a game, (32,000 + 10,000) / 2, of two games: no range.
    assert (
        '<tr id="figure-points_per_game"><th scope="row">Points per game</th>'
        '<td class="num">+21.0<br><small class="no-range">too few for a range</small></td>'
        '<td class="num">2</td></tr>'
    ) in html
    # The family links and the head-to-head picker.
    assert reverse("member_figures_family", args=(played[1].pk, 3)) in html
    assert 'name="opponent"' in html and ">Chiba</option>" in html


# A range as the page writes it: "23.1% – 88.2%", "+1.5 – +40.5", "1,000 – 9,870".
RANGE = re.compile(r"\d%? – [+−-]?\d")


def member_text(html: str) -> str:
    """The page's text a member reads without opening the method's details."""
    start, end = html.index("<main"), html.index("</main>")
    shown = re.sub(
        r'<details class="hint method-note".*?</details>', "", html[start:end], flags=re.S
    )
    return re.sub(r"<[^>]+>", " ", shown)


def test_the_page_says_how_sure_it_is_in_plain_words(played: list[Member]) -> None:
    # No statistician's names outside the method's details, no "lies in";
    # the note counts the page's own ranges: 95 of 100 hold the true value.
    html = page(logged_in(played[0]), played[1])
    ranges = len(RANGE.findall(html))
    # Baba: 19 rates among the figures (his averages have 2 to 5 values: no range), and the
    # ron wins off each of two opponents (he dealt in to nobody: no range there).
    assert ranges == 21
    assert (
        "Each range is worked out so that 95 of 100 such ranges hold the true value, the one "
        "many more games would show. Of the 21 ranges on this page, about 1 probably misses "
        "the true value, and nothing says which."
    ) in html
    text = member_text(html)
    for word in ("Wilson", "Student", "lies in", "interval"):
        assert word not in text
    assert "Wilson score interval" in html  # in the details, for who wants the method
    assert "An average gets a range from 10 values on" in text


def test_a_page_with_few_ranges_says_none_is_likely_to_miss(four: list[Member]) -> None:
    # One game entered as final scores only: 7 rates over 1 game, 3 averages of one value.
    store(four, "makura-1.5", final_scores=FINAL_SCORES)
    html = page(logged_in(four[0]), four[0])
    assert len(RANGE.findall(html)) == 7
    assert "This page shows 7 ranges: most likely all hold, but one may miss." in html


def test_the_page_is_japanese_too(played: list[Member]) -> None:
    html = page(logged_in(played[0], "ja"), played[2])
    assert "和了率" in html
    assert "放銃率" in html
    assert "95%の範囲" in html
    assert "本当の値" in html
    assert "少なすぎ" in html
    assert "最終スコアのみで入力された対局" in html


def test_the_member_page_links_to_the_figures(played: list[Member]) -> None:
    response = logged_in(played[0]).get(reverse("member_detail", args=(played[0].pk,)))
    assert reverse("member_figures_family", args=(played[0].pk, 3)) in response.content.decode()


def test_an_unknown_family_or_member_is_404(played: list[Member]) -> None:
    client = logged_in(played[0])
    assert client.get(reverse("member_figures_family", args=(played[0].pk, 5))).status_code == 404
    assert client.get(reverse("member_figures", args=(99999,))).status_code == 404


def test_the_page_queries_do_not_grow_with_the_history(
    played: list[Member], django_assert_max_num_queries: Any
) -> None:
    client = logged_in(played[0])
    url = reverse("member_figures", args=(played[1].pk,)) + "?period=all"
    with django_assert_max_num_queries(20) as small:
        client.get(url)
    for _ in range(3):
        store(played, "makura-1.5", hands=FOUR_PLAYER_HANDS)
    with django_assert_max_num_queries(len(small.captured_queries)):
        client.get(url)
