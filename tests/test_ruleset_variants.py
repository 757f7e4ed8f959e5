"""The variants a built-in ruleset offers when a game starts: the home game's East round only
(seed 003 L53-57, rules-spec H-20, H-26), chosen on the new-game page, stored as the game's
overrides, named on the table screen, replayed exactly from the game's record."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from scoring.engine import RecordError, load_ruleset, replay_record, ruleset_variants, variant_of
from scoring.ledger import hanchan_record
from scoring.models import Hanchan
from scoring.rulebook.choices import game_ruleset_choices, split_choice
from tests.test_engine_game import NAMES, draw, ron, tsumo
from tests.test_game_views import token

EAST_ONLY = {"rounds": 1, "extension_winds": ["S", "W", "N"], "agari_yame": False,
             "tenpai_yame": False}  # fmt: skip


@pytest.fixture
def members(member, other_member, coordinator, staff_member):
    return [member, other_member, coordinator, staff_member]


def replay_east_only(hands: list[dict]) -> dict:
    record = {
        "format": "club-game/1",
        "ruleset": "home-nashinashi",
        "overrides": EAST_ONLY,
        "players": NAMES,
        "hands": hands,
    }
    return replay_record(record).to_json()


def test_the_home_game_offers_the_east_round_only():
    (variant,) = ruleset_variants("home-nashinashi")
    assert (variant.key, variant.choice) == ("east-only", "home-nashinashi:east-only")
    assert dict(variant.overrides) == EAST_ONLY
    assert "seed 003 L53-57, L49, L139" in variant.sources
    assert variant_of("home-nashinashi", EAST_ONLY) == variant
    assert variant_of("home-nashinashi", {"rounds": 1}) is None
    assert variant_of("home-nashinashi", {}) is None
    assert ruleset_variants("makura-1.5") == ()


def test_every_variant_of_every_builtin_loads():
    from scoring.engine import available_rulesets

    for ruleset_id in available_rulesets():
        for variant in ruleset_variants(ruleset_id):
            load_ruleset(ruleset_id, variant.overrides)


def test_an_east_4_dealer_not_tenpai_ends_the_game():
    """Seed 003 L55: "東4局では親がテンパイしていなければ終わりになる" (someone has 30,000
    or more)."""
    # E1-E3: non-dealer wins, B gets past 30,000 (a mangan ron from D).
    hands = [ron(loser=3, winner=1, han=5, fu=None), ron(loser=2, winner=3), ron(loser=0, winner=1)]
    hands.append(draw(0, 1))  # E4, dealer D noten
    out = replay_east_only(hands)
    assert [h["round"] for h in out["hands"]] == ["E1", "E2", "E3", "E4"]
    assert out["final"]["ended_by"] == "last_hand"
    assert out["final"]["scores"][1] >= 30000


def test_an_east_4_dealer_who_wins_or_is_tenpai_must_go_on():
    """Seed 003 L57: "上がりやめという選択はできなく、続ける必要がある" — no agari-yame, and a
    tenpai dealer keeps the deal (L55)."""
    hands = [ron(loser=3, winner=1, han=5, fu=None), ron(loser=2, winner=3), ron(loser=0, winner=1)]
    out = replay_east_only([*hands, tsumo(3, han=1, fu=30), draw(3)])
    assert [(h["round"], h["honba"]) for h in out["hands"]][3:] == [("E4", 0), ("E4", 1)]
    assert out["final"] is None
    with pytest.raises(RecordError) as refused:
        replay_east_only([*hands, {**tsumo(3, han=1, fu=30), "dealer_stops": True}])
    assert refused.value.code == "no_agari_yame"


def test_nobody_at_30000_after_east_4_enters_the_south_round():
    """H-20's recommendation (configurable: the variant's ``extension_winds``): by analogy
    with the hanchan's West rule (L39-49), the South round follows, under the South rule of
    draws (L139: every draw keeps the dealer)."""
    hands = [ron(loser=(d + 2) % 4, winner=(d + 1) % 4) for d in range(4)]
    out = replay_east_only([*hands, draw(1)])
    assert [h["round"] for h in out["hands"]] == ["E1", "E2", "E3", "E4", "S1"]
    assert max(out["hands"][3]["scores"]) < 30000
    assert out["hands"][4]["dealer"] == 0
    assert out["final"] is None
    after = replay_east_only([*hands, draw(1), draw(1)])
    # South 1's dealer is noten and keeps the deal all the same (L139).
    assert (after["hands"][5]["round"], after["hands"][5]["honba"]) == ("S1", 1)


@pytest.mark.django_db  # the club's default ruleset comes first
def test_the_new_game_page_offers_the_variant_and_splits_it():
    values = [value for value, _label in game_ruleset_choices()]
    assert values.index("home-nashinashi:east-only") == values.index("home-nashinashi") + 1
    assert split_choice("home-nashinashi:east-only") == ("home-nashinashi", EAST_ONLY)
    assert split_choice("makura-1.5") == ("makura-1.5", {})
    with pytest.raises(KeyError):
        split_choice("home-nashinashi:west-only")
    with pytest.raises(KeyError):
        split_choice("nothing:east-only")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "label", "title"),
    [
        ("en", "Home game house rules (nashi-nashi, chips) · East round only (short of time) "
               "(4 players)", "East round only (short of time)"),
        ("ja", "東場のみ（時間のないとき）", "東場のみ（時間のないとき）"),
    ],
)  # fmt: skip
def test_a_steward_starts_an_east_only_home_game(members, client_for, language, label, title):
    client = client_for(members[0])
    client.cookies["django_language"] = language
    page = client.get(reverse("game_new")).text
    assert 'value="home-nashinashi:east-only"' in page
    assert label in page
    response = client.post(
        reverse("game_new"),
        {
            "csrfmiddlewaretoken": token(client, reverse("game_new")),
            "ruleset": "home-nashinashi:east-only",
            "played_on": "2026-11-20",
            **{f"player_{seat}": member.pk for seat, member in enumerate(members[:4])},
        },
    )
    assert response.status_code == 302
    game = Hanchan.objects.get()
    assert (game.ruleset_version.ruleset_id, game.overrides) == ("home-nashinashi", EAST_ONLY)
    assert game.played_on == datetime.date(2026, 11, 20)
    table = client.get(reverse("game_detail", args=[game.pk])).text
    assert title in table
    record = hanchan_record(game)
    assert record["overrides"]["rounds"] == 1 and record["ruleset"] == "home-nashinashi"


@pytest.mark.django_db
def test_an_unknown_variant_is_refused_and_nothing_is_written(members, client_for):
    client = client_for(members[0])
    client.cookies["django_language"] = "en"
    response = client.post(
        reverse("game_new"),
        {
            "csrfmiddlewaretoken": token(client, reverse("game_new")),
            "ruleset": "home-nashinashi:west-only",
            "played_on": "2026-11-20",
            **{f"player_{seat}": member.pk for seat, member in enumerate(members[:4])},
        },
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.text
    assert not Hanchan.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            [
                "Variant: East round only (short of time)",
                "tonpuusen (East round)",
                "South, West, North",
            ],
        ),
        ("ja", ["バリエーション：東場のみ（時間のないとき）"]),
    ],
)
def test_the_rules_page_shows_what_a_variant_changes(member, client_for, language, words):
    client = client_for(member)
    client.cookies["django_language"] = language
    page = client.get(reverse("ruleset_detail", args=["home-nashinashi"])).text
    section = page[page.index('id="variant-1"') :]
    section = section[: section.index("</section>")]
    for word in words:
        assert word in section
    # Only the rows the variant changes: the start points stay as the sheet says them.
    # Length, extension rounds, agari-yame (tenpai-yame is "no" in the hanchan already).
    assert section.count("<dt>") == 3
    assert "27,000" not in section
