"""What if: counted games re-scored under another ruleset's payment and
settlement rules, from their hands as entered; exact under the games' own rulesets.

- every game of a seeded year replays to its stored result under its own ruleset, and the
  what-if under the own ruleset changes nobody's total;
- a hand-checked example: a hand game and a final-scores game under makura-1.5 re-scored under
  tenhou-4p (rounding to the nearest 1,000 instead of down: Makura §24 floor, Tenhou
  "四捨五入" half away, rules-spec M-01);
- the games that cannot be re-scored are listed with why (a bust that ends the game earlier,
  a triple ron, a 3-player game under a 4-player ruleset) and keep their stored result;
- the page at /standings/what-if/ shows both standings, the change, and offers only rulesets
  of the family.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client

from clubsite.models import Member
from scoring.engine import ERROR_CODES, available_rulesets, load_ruleset
from scoring.ledger import counted_games, counted_results, hanchan_import, hanchan_record
from scoring.models import RulesetVersion
from scoring.upkeep.history_seeding import seed_history
from scoring.whatif.games import (
    NOT_FINISHED,
    PENDING,
    PLAYERS_DIFFER,
    Game,
    Refusal,
    Result,
    rescore,
    settled,
)
from scoring.whatif.period import period_games
from scoring.whatif.rules import differences
from scoring.whatif.standings import places, what_if
from tests.conftest import make_member

DAY = datetime.date(2026, 5, 9)
EVERYTHING = (datetime.date(2000, 1, 1), datetime.date(2100, 12, 31))
NOTEN = {"result": "draw", "tenpai": []}


def record(ruleset: str, players: list[str], hands: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": "club-game/1", "ruleset": ruleset, "players": players, "hands": hands}


def rounding_game(players: list[str]) -> dict[str, Any]:
    """East 1: seat 1 rons seat 2 for 3 han 40 fu (5,200); then seven noten draws to the end
    of South 4. Final scores 25,000 / 30,200 / 19,800 / 25,000."""
    win = {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 40}]}
    return record("makura-1.5", players, [win] + [NOTEN] * 7)


def final_scores_game(players: list[str]) -> dict[str, Any]:
    out = record("makura-1.5", players, [])
    out["final_scores"] = {"scores": [45300, 30000, 19700, 5000]}
    return out


def late_bust_game(players: list[str]) -> dict[str, Any]:
    """Under "no tobi" (the GP's override, M-17) seat 3 plays on at -23,000 after dealing in
    the dealer's yakuman in East 1; under tobi the game ends there."""
    yakuman = {"result": "ron", "loser": 3, "wins": [{"winner": 0, "limit": "yakuman"}]}
    out = record("makura-1.5", players, [yakuman] + [NOTEN] * 8)
    out["overrides"] = {"tobi": False}
    return out


def triple_ron_game(players: list[str]) -> dict[str, Any]:
    """East 1: seats 0, 1 and 2 ron seat 3 (Makura pays three winners; Tenhou has at most
    two, a third is an abortive draw); the dealer among them keeps the deal."""
    wins = [{"winner": seat, "han": 1, "fu": 30} for seat in (0, 1, 2)]
    triple = {"result": "ron", "loser": 3, "wins": wins}
    return record("makura-1.5", players, [triple] + [NOTEN] * 8)


@pytest.fixture
def four(db: None) -> list[Member]:
    return [
        make_member(name.lower(), name, kana)
        for name, kana in (("Aoki", "あおき"), ("Baba", "ばば"), ("Chiba", "ちば"), ("Doi", "どい"))
    ]


def store(game: dict[str, Any], members: list[Member]) -> int:
    by_name = {m.display_name: m for m in members}
    game = {**game, "players": [m.display_name for m in members]}
    return hanchan_import(record=game, members_by_name=by_name, played_on=DAY).pk


def all_versions(players: int) -> list[int]:
    return [
        pk
        for pk, parameters in RulesetVersion.objects.values_list("pk", "parameters")
        if parameters["players"] == players
    ]


# -- exact under the games' own rulesets ----------------------------------------------------


@pytest.mark.django_db
def test_every_game_of_a_seeded_year_replays_to_its_stored_result() -> None:
    summary = seed_history(years=1, members=12, seed=7, games_per_night=2, end=DAY)
    games = [
        game for players in (4, 3) for game in period_games(all_versions(players), *EVERYTHING)
    ]
    assert len(games) == counted_games().count() >= summary.hanchans - summary.voided - 2
    assert {g.record["ruleset"] for g in games} >= {"makura-1.5", "sanma-float"}
    stored = {h.pk: h for h in counted_games()}
    for game in games:
        # The record is the ledger's export of the game, and replays to its counted result.
        assert game.record == hanchan_record(stored[game.hanchan_id]), game.hanchan_id
        assert settled(game.record) == game.stored, game.hanchan_id
    for ruleset_id in {g.record["ruleset"] for g in games}:
        own = [g for g in games if g.record["ruleset"] == ruleset_id]
        result = what_if(own, load_ruleset(ruleset_id))
        assert result.not_reproduced == ()
        assert result.refused == ()
        assert result.rescored == result.games == len(own)
        assert all(line.before == line.after for line in result.lines)
        assert all(line.place_before == line.place_after for line in result.lines)
        assert sum(line.games for line in result.lines) == len(own) * len(own[0].members)


@pytest.mark.django_db
def test_a_seeded_year_under_every_ruleset_of_its_family_is_rescored_or_refused_by_name() -> None:
    seed_history(years=1, members=12, seed=11, games_per_night=2, end=DAY)
    known = set(ERROR_CODES) | {PLAYERS_DIFFER, NOT_FINISHED, PENDING}
    for players in (4, 3):
        games = period_games(all_versions(players), *EVERYTHING)
        for ruleset_id in available_rulesets():
            other = load_ruleset(ruleset_id)
            result = what_if(games, other)
            assert result.rescored + len(result.refused) == result.games == len(games)
            assert result.not_reproduced == ()
            assert {item.refusal.code for item in result.refused} <= known
            if other.players != players:
                assert {item.refusal.code for item in result.refused} == {PLAYERS_DIFFER}
            else:
                assert result.rescored > 0, ruleset_id


# -- a hand-checked example -----------------------------------------------------------------


def test_the_rounding_game_under_tenhou_rounds_to_the_nearest_thousand() -> None:
    players = ["Aoki", "Baba", "Chiba", "Doi"]
    game = rounding_game(players)
    # Makura 1.5 §24: (score - 30,000) floored to 1,000, uma 20/10, oka 20,000 to the top, the
    # top takes minus the others: Aoki 2nd -5 +10, Doi 3rd -5 -10, Chiba 4th floor(-10.2) -20.
    assert settled(game) == Result((5000, 41000, -31000, -15000), (2, 1, 4, 3),
                                   (25000, 30200, 19800, 25000))  # fmt: skip
    # Tenhou: rounded half away from zero, so Chiba's -10,200 is -10,000.
    assert rescore(game, load_ruleset("tenhou-4p")) == Result(
        (5000, 40000, -30000, -15000), (2, 1, 4, 3), (25000, 30200, 19800, 25000)
    )


def test_a_final_scores_game_is_resettled_and_moved_by_the_start_points() -> None:
    game = final_scores_game(["Aoki", "Baba", "Chiba", "Doi"])
    assert settled(game) == Result((56000, 10000, -21000, -45000), (1, 2, 3, 4),
                                   (45300, 30000, 19700, 5000))  # fmt: skip
    assert rescore(game, load_ruleset("tenhou-4p")) == Result(
        (55000, 10000, -20000, -45000), (1, 2, 3, 4), (45300, 30000, 19700, 5000)
    )
    # Seed 003 starts at 27,000, returns 30,000 with an oka of 12,000, uma 10/5, no rounding:
    # every score moves up by 2,000.
    assert rescore(game, load_ruleset("home-nashinashi")) == Result(
        (17300 + 12000 + 10000, 2000 + 5000, -8300 - 5000, -23000 - 10000),
        (1, 2, 3, 4),
        (47300, 32000, 21700, 7000),
    )


def test_the_kiriage_and_honba_rules_are_the_other_rulesets() -> None:
    """4 han 30 fu: Makura rounds it up to a mangan (kiriage, 8,000), Tenhou pays 7,700."""
    win = {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 4, "fu": 30}]}
    game = record("makura-1.5", ["A", "B", "C", "D"], [win] + [NOTEN] * 7)
    assert settled(game).scores == (25000, 33000, 17000, 25000)  # type: ignore[union-attr]
    assert rescore(game, load_ruleset("tenhou-4p")).scores == (  # type: ignore[union-attr]
        25000, 32700, 17300, 25000,
    )  # fmt: skip
    assert set(differences(load_ruleset("makura-1.5"), load_ruleset("tenhou-4p"))) >= {
        "rounding", "multi_ron", "payments",
    }  # fmt: skip


def test_a_double_ron_pays_honba_to_each_winner_under_makura_and_the_first_under_tenhou() -> None:
    """East 1 draws with the dealer alone tenpai (3,000 noten payments, 1 honba); East 1-1:
    seats 1 and 2 ron seat 3 for 1 han 30 fu (1,000) each. Makura §24 pays each winner the
    honba (300 each), Tenhou only the first in turn order from the discarder (seat 1)."""
    double: dict[str, Any] = {
        "result": "ron",
        "loser": 3,
        "wins": [{"winner": 1, "han": 1, "fu": 30}, {"winner": 2, "han": 1, "fu": 30}],
    }
    hands: list[dict[str, Any]] = [{"result": "draw", "tenpai": [0]}, double, *[NOTEN] * 7]
    game = record("makura-1.5", ["A", "B", "C", "D"], hands)
    # Makura: 25,300 and 25,300 tie, seat order ranks seat 1 above seat 2; seat 3's -8,600
    # floors to -9,000.
    assert settled(game) == Result((39000, 5000, -15000, -29000), (1, 2, 3, 4),
                                   (28000, 25300, 25300, 21400))  # fmt: skip
    # Tenhou: seat 2 gets no honba; seat 3's -8,300 rounds to -8,000.
    assert rescore(game, load_ruleset("tenhou-4p")) == Result(
        (38000, 5000, -15000, -28000), (1, 2, 3, 4), (28000, 25300, 25000, 21700)
    )


def test_open_riichi_is_refused_where_the_other_rules_have_none() -> None:
    hands = [{"result": "draw", "tenpai": [1], "riichi": [1], "open_riichi": [1]}] + [NOTEN] * 7
    game = record("makura-1.5", ["A", "B", "C", "D"], hands)
    assert isinstance(settled(game), Result)
    refusal = rescore(game, load_ruleset("tenhou-4p"))
    assert isinstance(refusal, Refusal)
    assert (refusal.code, refusal.hand) == ("no_open_riichi", 0)


# -- what cannot be re-scored ----------------------------------------------------------------


def test_a_game_that_busts_earlier_under_tobi_is_refused_at_its_next_hand() -> None:
    game = late_bust_game(["A", "B", "C", "D"])
    assert isinstance(settled(game), Result)
    refusal = rescore(game, load_ruleset("tenhou-4p"))
    assert isinstance(refusal, Refusal)
    assert (refusal.code, refusal.hand, refusal.params["ended_by"]) == ("game_over", 1, "tobi")


def test_a_triple_ron_is_refused_under_tenhou() -> None:
    refusal = rescore(triple_ron_game(["A", "B", "C", "D"]), load_ruleset("tenhou-4p"))
    assert isinstance(refusal, Refusal)
    assert refusal.code in {"too_many_ron_winners", "sancha_ron_is_abort"}
    assert refusal.hand == 0


def test_a_three_player_game_under_a_four_player_ruleset_is_refused() -> None:
    game = final_scores_game(["A", "B", "C", "D"])
    sanma = {**game, "ruleset": "sanma-float", "players": ["A", "B", "C"]}
    sanma["final_scores"] = {"scores": [50000, 35000, 20000]}
    refusal = rescore(sanma, load_ruleset("tenhou-4p"))
    assert refusal == Refusal(
        PLAYERS_DIFFER,
        None,
        refusal.message,  # type: ignore[union-attr]
        {"players": 3, "other": 4},
    )


@pytest.mark.django_db
def test_the_period_both_ways_with_the_refused_games_kept_as_stored(four: list[Member]) -> None:
    rounding = store(rounding_game([]), four)
    final = store(final_scores_game([]), four)
    bust = store(late_bust_game([]), four)
    triple = store(triple_ron_game([]), four)
    games = period_games(all_versions(4), *EVERYTHING)
    assert [g.hanchan_id for g in games] == [rounding, final, bust, triple]
    assert games[1].final_scores_only
    for game in games:  # a final-scores game, a game with its own overrides ("no tobi")
        assert game.record == hanchan_record(counted_games().get(pk=game.hanchan_id))
    assert games[2].record["overrides"] == {"tobi": False}

    result = what_if(games, load_ruleset("tenhou-4p"))
    assert result.not_reproduced == ()
    assert (result.games, result.rescored, result.final_scores_games) == (4, 2, 1)
    assert [(r.game.hanchan_id, r.refusal.hand) for r in result.refused] == [(bust, 1), (triple, 0)]
    # The refused games count as stored on both sides: the change is the first two games'.
    changes = {line.member_id: line.change for line in result.lines}
    aoki, baba, chiba, doi = (m.pk for m in four)
    assert changes == {aoki: -1000, baba: -1000, chiba: 1000 + 1000, doi: 0}
    counted = {m.pk: 0 for m in four}
    for member_id, points in counted_results().values_list("member_id", "points"):
        counted[member_id] += points
    assert {line.member_id: line.before for line in result.lines} == counted


# -- the page --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_page_shows_both_standings_and_the_refused_games(
    four: list[Member], client_for: Any
) -> None:
    store(rounding_game([]), four)
    store(final_scores_game([]), four)
    bust = store(late_bust_game([]), four)
    client: Client = client_for(four[0])
    response = client.get(
        "/standings/what-if/", {"period": "all", "to": "tenhou-4p"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    html = response.content.decode()
    rows = {row.name: row for row in response.context["rows"]}
    # Aoki: +5.0 and +56.0 as counted, +5.0 and +55.0 under Tenhou; the bust game as stored.
    assert rows["Aoki"].change.text == "−1.0"
    assert rows["Chiba"].change.text == "+2.0"
    assert rows["Doi"].change.text == "0.0"
    assert 'value="tenhou-4p" selected' in html
    assert '<input type="hidden" name="to" value="tenhou-4p">' in html  # the period filters
    values = {choice.ruleset_id for choice in response.context["choices"]}
    assert "makura-1.3" in values and not values & {"sanma-float", "fuji-sanma", "tenhou-3p"}
    assert "1 game cannot be re-scored" in html
    # The summary the reader starts from says how many games the change
    # leaves out, and that they stay as played (fuji-sanma: 39 of 41 said nothing).
    summary = html[
        html.index('id="what-if-summary"') : html.index("</p>", html.index("what-if-summary"))
    ]
    assert "3 counted games, 2 of them re-scored under" in summary
    assert (
        '<strong id="what-if-kept">1 game could not be re-scored: it stays as played, on both '
        "sides, so the change leaves it out (listed below with why).</strong>"
    ) in summary
    assert "A player busts earlier, so the game ends earlier." in html
    assert f"/games/{bust}/" in html
    assert "1 game was entered as final scores only" in html
    assert "all 3 games replay to their stored results" in html

    ja = client.get(
        "/standings/what-if/", {"period": "all", "to": "tenhou-4p"}, HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    assert "もしも" in ja and "プレイヤーがより早く飛ぶ" in ja
    assert "計算し直せたのは2対局です" in ja
    assert "1対局は計算し直せないため、両方の順位表で実際の結果のまま数え" in ja


@pytest.mark.django_db
def test_with_every_game_re_scored_the_summary_says_so(four: list[Member], client_for: Any) -> None:
    store(rounding_game([]), four)
    html = (
        client_for(four[0])
        .get("/standings/what-if/", {"period": "all", "to": "tenhou-4p"}, HTTP_ACCEPT_LANGUAGE="en")
        .content.decode()
    )
    assert "1 counted game, re-scored under" in html
    assert "what-if-kept" not in html and "could not be re-scored" not in html


@pytest.mark.django_db
def test_the_standings_link_to_the_page_and_an_unknown_ruleset_falls_back(
    four: list[Member], client_for: Any
) -> None:
    client: Client = client_for(four[0])
    assert "/standings/what-if/" in client.get("/standings/").content.decode()
    response = client.get("/standings/what-if/", {"to": "no-such-rules"})
    assert response.status_code == 200
    assert response.context["other"].players == 4
    assert response.context["other"].id != "makura-1.5"


def test_places_by_total_share_a_place_on_equal_totals() -> None:
    assert places({7: 5000, 8: 5000, 9: -10000, 10: 6000}) == {10: 1, 7: 2, 8: 2, 9: 4}


def test_a_member_moves_up_where_the_other_rounding_makes_a_tie() -> None:
    """Members 1-4 play the rounding game (Chiba is member 3, Doi member 4); Chiba then
    plays a tenhou-4p game (re-scored as stored) for +15.0. As counted Chiba (-16.0) is
    behind Doi (-15.0); under Tenhou's rounding they tie at -15.0 and share 4th place."""
    players = ["A", "B", "C", "D"]
    first = rounding_game(players)
    second = final_scores_game(players)
    second["ruleset"] = "tenhou-4p"
    second["final_scores"] = {"scores": [45000, 5000, 35000, 15000]}
    games = [
        Game(1, DAY, first, (1, 2, 3, 4), settled(first)),  # type: ignore[arg-type]
        Game(2, DAY, second, (5, 6, 3, 7), settled(second)),  # type: ignore[arg-type]
    ]
    assert games[1].stored.points == (55000, -45000, 15000, -25000)
    result = what_if(games, load_ruleset("tenhou-4p"))
    lines = {line.member_id: line for line in result.lines}
    assert (lines[3].before, lines[3].after, lines[3].place_before, lines[3].place_after) == (
        -16000, -15000, 5, 4,
    )  # fmt: skip
    assert (lines[4].before, lines[4].after, lines[4].place_before, lines[4].place_after) == (
        -15000, -15000, 4, 4,
    )  # fmt: skip
    assert lines[3].places_up == 1 and lines[4].places_up == 0
    assert [line.member_id for line in result.lines] == [5, 2, 1, 4, 3, 7, 6]


def test_a_game_whose_correction_waits_keeps_its_counted_result_both_ways() -> None:
    game = rounding_game(["A", "B", "C", "D"])
    stored = Result((1000, 2000, -1000, -2000), (2, 1, 3, 4), (25000, 26000, 24000, 25000))
    result = what_if(
        [Game(1, DAY, game, (1, 2, 3, 4), stored, pending=True)], load_ruleset("tenhou-4p")
    )
    assert [item.refusal.code for item in result.refused] == [PENDING]
    assert result.not_reproduced == ()  # its hands are no longer those of its result
    assert {line.member_id: (line.before, line.after) for line in result.lines} == {
        1: (1000, 1000), 2: (2000, 2000), 3: (-1000, -1000), 4: (-2000, -2000),
    }  # fmt: skip


@pytest.mark.django_db
def test_three_player_games_are_offered_three_player_rules_only(
    four: list[Member], client_for: Any
) -> None:
    three = four[:3]
    game = {
        "format": "club-game/1",
        "ruleset": "sanma-float",
        "players": [m.display_name for m in three],
        "hands": [],
        "final_scores": {"scores": [50000, 35000, 20000]},
    }
    hanchan_import(record=game, members_by_name={m.display_name: m for m in three}, played_on=DAY)
    response = client_for(four[0]).get(
        "/standings/what-if/", {"period": "all", "ruleset": "sanma-float", "to": "tenhou-4p"}
    )
    assert response.status_code == 200
    offered = {choice.ruleset_id for choice in response.context["choices"]}
    assert offered == {r for r in available_rulesets() if load_ruleset(r).players == 3}
    assert response.context["other"].id != "tenhou-4p"  # not of the family: not taken
    assert response.context["result"].games == 1
    assert response.context["result"].final_scores_games == 1


@pytest.mark.django_db
def test_a_game_pinned_to_an_older_version_of_its_rules_keeps_them(four: list[Member]) -> None:
    """The club edited makura-1.5's uma after the game: the record carries the version's uma
    as an override (as the ledger's export does), so the game replays as it was counted."""
    store(rounding_game([]), four)
    version = RulesetVersion.objects.get(ruleset_id="makura-1.5")
    version.parameters = {**version.parameters, "uma": [15000, 5000, -5000, -15000]}
    version.save()
    (game,) = period_games([version.pk], *EVERYTHING)
    assert game.record == hanchan_record(counted_games().get(pk=game.hanchan_id))
    assert game.record["overrides"] == {"uma": [15000, 5000, -5000, -15000]}
    own = settled(game.record)
    assert isinstance(own, Result) and own.points[0] == -5000 + 5000  # 2nd: -5, uma +5
