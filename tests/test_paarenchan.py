"""Paarenchan counted by the ledger (Makura 1.3 §44f L386-388, 1.5 L316-318;
rules-spec M-09): the dealer's 8th consecutive win on is yakuman; a draw resets the count, a
chombo hand is skipped. The table says so on the dealer's value pad, where the ruleset has it,
and a yakuman entered there is recorded as paarenchan for the yaku records."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.engine import dealer_win_streak, is_paarenchan_next, replay_record
from scoring.ledger import hanchan_start
from scoring.models import HandEntry, WinYaku
from tests.test_engine_game import NAMES, draw, tsumo
from tests.test_game_views import record
from tests.test_hand_entry_views import DAY, HTMX, form_fields, post

CHOMBO = {"result": "chombo", "offender": 2}


def streak(hands: list[dict], dealer: int = 0, ruleset: str = "makura-1.5") -> int:
    out = replay_record(
        {"format": "club-game/1", "ruleset": ruleset, "players": NAMES, "hands": hands}
    ).to_json()
    return dealer_win_streak(hands, out["hands"], dealer)


def test_the_dealers_wins_in_a_row_are_counted():
    assert streak([tsumo(0, han=1, fu=30)] * 3) == 3
    assert streak([]) == 0


def test_a_draw_resets_the_count_m09a():
    """M-09 (a): "連続した親のアガリ" — a draw, even with the dealer tenpai, breaks the run."""
    assert streak([tsumo(0, han=1, fu=30)] * 3 + [draw(0)] + [tsumo(0, han=1, fu=30)]) == 1


def test_a_chombo_hand_does_not_break_the_count():
    """Makura §44f L388: "ただしチョンボのあった局はカウントを途絶しない"."""
    hands = [tsumo(0, han=1, fu=30)] * 2 + [CHOMBO] + [tsumo(0, han=1, fu=30)]
    assert streak(hands) == 3


def test_another_dealers_count_starts_at_zero():
    # East 1's dealer wins twice, then a non-dealer win passes the deal to seat 1.
    hands = [tsumo(0, han=1, fu=30)] * 2 + [tsumo(2, han=1, fu=30)]
    assert streak(hands, dealer=1) == 0


def test_the_eighth_win_is_paarenchan():
    assert not is_paarenchan_next(6)
    assert is_paarenchan_next(7)
    assert is_paarenchan_next(9)


@pytest.fixture
def players(member, other_member, coordinator, staff_member):
    return [member, other_member, coordinator, staff_member]


def dealer_tsumo_form(client, game) -> str:
    fields = form_fields(client, game)
    data = {"result": "tsumo", "winner": "0"}
    return post(client, reverse("hand_preview", args=[game.pk]), data, fields, **HTMX).text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Paarenchan: Aoki's 8th win in a row as dealer is a yakuman."),
        ("ja", "八連荘：Aokiさんの親の8連続和了は役満です。"),
    ],
)
def test_the_table_offers_paarenchan_on_the_dealers_8th_win(players, client_for, language, words):
    game = hanchan_start(ruleset_id="makura-1.5", members=players, played_on=DAY)
    for _ in range(7):
        record(game, tsumo(0, han=1, fu=30))
    client = client_for(players[0])
    client.cookies["django_language"] = language
    assert words in dealer_tsumo_form(client, game)
    fields = form_fields(client, game)
    data = {"result": "tsumo", "winner": "0", "value_0": "yakuman"}
    response = post(client, reverse("hand_create", args=[game.pk]), data, fields)
    assert response.status_code in (200, 302)
    last = HandEntry.objects.filter(hanchan=game).order_by("-sequence").first()
    assert last.data["wins"][0]["yaku"] == [{"name": "paarenchan", "han": 13}]
    assert last.result["deltas"][0] == 48000 + 3 * 700  # 16,000 all, honba 7 x 100 each
    assert WinYaku.objects.filter(name="paarenchan").count() == 1


@pytest.mark.django_db
def test_no_paarenchan_after_seven_wins_broken_by_a_draw(players, client_for):
    game = hanchan_start(ruleset_id="makura-1.5", members=players, played_on=DAY)
    for _ in range(6):
        record(game, tsumo(0, han=1, fu=30))
    record(game, draw(0))
    record(game, tsumo(0, han=1, fu=30))  # honba 8, but a run of 1
    client = client_for(players[0])
    client.cookies["django_language"] = "en"
    assert "Paarenchan" not in dealer_tsumo_form(client, game)


@pytest.mark.django_db
def test_no_paarenchan_where_the_ruleset_has_none(players, client_for):
    """Seed 003 L81, L521: paarenchan not adopted by the home game."""
    game = hanchan_start(ruleset_id="home-nashinashi", members=players, played_on=DAY)
    for _ in range(7):
        # 2 han: the home game's 2-han minimum from 5 honba (L106).
        record(game, tsumo(0, han=2, fu=30))
    client = client_for(players[0])
    client.cookies["django_language"] = "en"
    assert "Paarenchan" not in dealer_tsumo_form(client, game)
