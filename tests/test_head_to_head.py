"""Who fed whom and two members head to head, counted by hand on the
contract's small history (tests/test_player_stats.py): in the 4-player game Chiba deals in
to Baba (E1) and to Aoki's daisangen under Doi's pao, Doi deals in once to a double ron (Aoki
and Baba); in the 3-player game Chiba deals in to Baba's yakuman; a final-scores game adds
to the games only; two games count nowhere."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from clubsite.models import Member
from scoring.stats.families import family_selection
from scoring.stats.feeding import feeding
from scoring.stats.head_to_head import head_to_head, opponents
from scoring.stats.intervals import TOO_FEW, Estimate, t_mean, wilson
from tests.test_player_figures import four as four  # noqa: F401  (a fixture)
from tests.test_player_figures import logged_in
from tests.test_player_figures import played as played  # noqa: F401  (a fixture)
from tests.test_player_stats import FOUR_PLAYER_HANDS, store


def shares(estimates: list[tuple[str, Estimate, Estimate]]) -> list[tuple[str, int, int, int, int]]:
    return [(name, fed.total, fed.n, won.total, won.n) for name, fed, won in estimates]


def fed_lines(member: Member, players: int = 4) -> tuple[int, int, list[tuple[Any, ...]]]:
    result = feeding(member.pk, family_selection(players))
    lines = [(line.name, line.fed, line.won) for line in result.lines]
    return result.deal_ins, result.ron_wins, shares(lines)


def test_it_counts_who_fed_whom(played: list[Member]) -> None:
    aoki, baba, chiba, doi = played
    # (opponent, deal-ins to them, of deal-ins, ron wins off them, of ron wins)
    assert fed_lines(chiba) == (2, 0, [("Aoki", 1, 2, 0, 0), ("Baba", 1, 2, 0, 0)])
    # The double ron: one deal-in, one line for each of its two winners.
    assert fed_lines(doi) == (1, 0, [("Aoki", 1, 1, 0, 0), ("Baba", 1, 1, 0, 0)])
    # The pao's liable player (Doi) paid half of Aoki's daisangen but dealt nothing in.
    assert fed_lines(aoki) == (0, 2, [("Chiba", 0, 0, 1, 2), ("Doi", 0, 0, 1, 2)])
    assert fed_lines(baba) == (0, 2, [("Chiba", 0, 0, 1, 2), ("Doi", 0, 0, 1, 2)])
    # The 3-player family apart: Chiba's riichi to Baba's yakuman.
    assert fed_lines(chiba, 3) == (1, 0, [("Baba", 1, 1, 0, 0)])
    assert fed_lines(baba, 3) == (0, 1, [("Chiba", 0, 0, 1, 1)])
    line = feeding(chiba.pk, family_selection(4)).lines[0]
    assert (line.fed.low, line.fed.high) == (wilson(1, 2).low, wilson(1, 2).high)


def test_it_compares_two_members(played: list[Member]) -> None:
    aoki, baba, chiba, doi = played
    duel = head_to_head(chiba.pk, aoki.pk, family_selection(4))
    # Two games together (by hands: Chiba 4th, Aoki 1st; final scores: 3rd and 1st), one with
    # hands: five hands together, the chombo hand none of its own.
    assert (duel.games, duel.hand_games, duel.hands) == (2, 1, 5)
    assert (duel.first_above.total, duel.first_above.n) == (0, 2)
    margins = [-64000 - 73000, -20000 - 50000]
    assert duel.margin == t_mean(2, sum(margins), sum(m * m for m in margins))
    assert duel.margin.value == -103500
    assert duel.first.placement.value == Fraction(4 + 3, 2)
    # Two games: too few for a range (it was "1.00 - 1.00").
    assert duel.second.placement == Estimate(2, 2, Fraction(1), None, None, TOO_FEW)
    assert duel.first.points.value == Fraction(-64000 - 20000, 2)
    # Chiba dealt in twice in their five hands, once to Aoki: the daisangen, whose whole
    # value (32,000, Doi's pao half included) Aoki won.
    assert (duel.first.deal_ins.total, duel.first.deal_ins.n) == (2, 5)
    assert (duel.first.fed.total, duel.first.fed.n) == (1, 2)
    assert duel.first.fed_value == Estimate(1, 32000, Fraction(32000), None, None, TOO_FEW)
    assert (duel.second.deal_ins.total, duel.second.fed.n) == (0, 0)
    # Doi to Aoki: the double ron's 2,000 (Aoki's part of it).
    doi_aoki = head_to_head(doi.pk, aoki.pk, family_selection(4))
    assert (doi_aoki.first.fed.total, doi_aoki.first.fed.n) == (1, 1)
    assert doi_aoki.first.fed_value.value == 2000
    # 3-player: one game, Baba above Chiba, Chiba's one deal-in to Baba's 48,000.
    sanma = head_to_head(baba.pk, chiba.pk, family_selection(3))
    assert (sanma.games, sanma.hands, sanma.first_above.total) == (1, 2, 1)
    assert sanma.second.fed.total == 1
    assert sanma.second.fed_value.value == 48000
    assert sanma.margin.value == 62000 + 56000
    # Doi never sat at a 3-player table.
    nobody = head_to_head(doi.pk, aoki.pk, family_selection(3))
    assert (nobody.games, nobody.hands, nobody.first_above.value) == (0, 0, None)


def test_a_member_is_not_their_own_opponent(played: list[Member]) -> None:
    with pytest.raises(ValueError, match="two members"):
        head_to_head(played[0].pk, played[0].pk, family_selection(4))


def test_the_picker_offers_those_who_shared_a_game(played: list[Member]) -> None:
    aoki, baba, chiba, doi = played
    assert opponents(aoki.pk, family_selection(4)) == [
        (baba.pk, "Baba"), (chiba.pk, "Chiba"), (doi.pk, "Doi"),
    ]  # fmt: skip
    assert opponents(aoki.pk, family_selection(3)) == [(baba.pk, "Baba"), (chiba.pk, "Chiba")]


def test_the_queries_do_not_grow_with_the_history(
    played: list[Member], django_assert_max_num_queries: Any
) -> None:
    aoki, baba, chiba, doi = played
    chosen = family_selection(4)
    with django_assert_max_num_queries(3):
        head_to_head(chiba.pk, aoki.pk, chosen)
    with django_assert_max_num_queries(3):
        feeding(chiba.pk, chosen)
    for _ in range(3):
        store(played, "makura-1.5", hands=FOUR_PLAYER_HANDS)
    with django_assert_max_num_queries(3):
        assert head_to_head(chiba.pk, aoki.pk, chosen).games == 5
    with django_assert_max_num_queries(3):
        assert feeding(chiba.pk, chosen).deal_ins == 8


# -- the page -------------------------------------------------------------------------------------


def duel_page(client: Client, first: Member, second: Member, players: int = 4) -> str:
    url = reverse("head_to_head_family", args=(first.pk, second.pk, players)) + "?period=all"
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_shows_the_two_side_by_side(played: list[Member]) -> None:
    aoki, baba, chiba, doi = played
    html = duel_page(logged_in(doi), chiba, aoki)
    assert "<h1>Chiba against Aoki</h1>" in html
    assert "Counted games at the same table: 2 games, 1 of them with their hands recorded" in html
    low, high = wilson(0, 2).low, wilson(0, 2).high
    assert low is not None and high is not None
    assert (round(low * 100, 1), round(high * 100, 1)) == (0.0, 65.8)
    assert (
        '<tr id="figure-above"><th scope="row">Chiba finished above</th><td class="num">0.0%<br>'
        '<small>0.0% – 65.8%</small></td><td class="num">0 / 2</td></tr>'
    ) in html
    assert '<td class="num">−103.5<br>' in html  # the margin a game, in thousands
    assert f'<tr id="{chiba.pk}-figure-fed"><th scope="row">Of those, to the other</th>' in html
    assert '<td class="num">1 / 2</td>' in html
    # The picker keeps Aoki chosen.
    assert f'<option value="{aoki.pk}" selected>Aoki</option>' in html


def test_the_page_is_japanese_too(played: list[Member]) -> None:
    aoki, baba, chiba, doi = played
    html = duel_page(logged_in(doi, "ja"), chiba, aoki)
    assert "Chiba 対 Aoki" in html
    assert "Chibaが上位" in html
    assert "同卓した成立対局：2戦" in html
    assert "直接対決" in html


def test_the_picker_leads_to_the_page(played: list[Member]) -> None:
    aoki, baba, chiba, doi = played
    client = logged_in(aoki)
    pick = reverse("head_to_head_pick", args=(aoki.pk,))
    response = client.get(pick, {"opponent": str(doi.pk), "players": "3", "period": "all"})
    assert response.status_code == 302
    assert response["Location"] == (
        reverse("head_to_head_family", args=(aoki.pk, doi.pk, 3)) + "?period=all"
    )
    response = client.get(pick, {"opponent": "x"})
    assert response["Location"] == reverse("member_figures_family", args=(aoki.pk, 4))


def test_same_member_or_unknown_member_is_404(played: list[Member]) -> None:
    client = logged_in(played[0])
    same = reverse("head_to_head", args=(played[0].pk, played[0].pk))
    unknown = reverse("head_to_head", args=(played[0].pk, 99999))
    assert client.get(same).status_code == 404
    assert client.get(unknown).status_code == 404


def test_the_page_queries_do_not_grow_with_the_history(
    played: list[Member], django_assert_max_num_queries: Any
) -> None:
    aoki, baba, chiba, doi = played
    client = logged_in(doi)
    url = reverse("head_to_head", args=(chiba.pk, aoki.pk)) + "?period=all"
    with django_assert_max_num_queries(20) as small:
        client.get(url)
    for _ in range(3):
        store(played, "makura-1.5", hands=FOUR_PLAYER_HANDS)
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert "5 games" in client.get(url).content.decode()
