"""Standings in each club's units: the floating uma of the 3-player club in
ep (seed 002 L10-24, rules-spec S-01: ep kept apart from points) and the home game's chips
(seed 003 L438-460, H-16), as columns of the standings page and its CSV, summed by the
ledger's counted results and the members' monthly totals. Points first, then ep, orders the
3-player table; chips order nothing."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from clubsite.models import Member
from scoring import standings as st
from scoring.ledger import hanchan_import
from scoring.models import CountedSeat, MemberMonth, MemberYear
from tests.conftest import make_member, new_club_today

DAY = new_club_today()


def record(ruleset: str, players: list[Member], final_scores: dict) -> dict:
    return {
        "format": "club-game/1",
        "ruleset": ruleset,
        "players": [m.display_name for m in players],
        "final_scores": final_scores,
    }


def store(ruleset: str, players: list[Member], final_scores: dict) -> None:
    hanchan_import(
        record=record(ruleset, players, final_scores),
        members_by_name={m.display_name: m for m in players},
        played_on=DAY,
    )


@pytest.fixture
def four(db: None) -> list[Member]:
    return [
        make_member(f"u{i}", name, "") for i, name in enumerate(["Aoki", "Baba", "Chiba", "Doi"])
    ]


def test_the_3_player_clubs_ep_are_summed_shown_and_exported(four: list[Member]) -> None:
    a, b, c, _ = four
    # 002-S1, one floating (>= 35,000, S-02): +600 / -200 / -400 ep by rank.
    store("sanma-float", [a, b, c], {"scores": [45000, 31000, 29000]})
    # 002-S2, two floating: +300 / 0 / -300 ep.
    store("sanma-float", [b, a, c], {"scores": [40000, 36000, 29000]})
    seats = {
        (s.member.display_name, s.hanchan_id): s.uma_ep
        for s in CountedSeat.objects.select_related("member")
    }
    assert sorted(seats.values()) == [-400, -300, -200, 0, 300, 600]
    table = st.period_standings(st.current_month_period(), ruleset_ids=["sanma-float"])
    assert table.units == ("ep",)
    assert {row.display_name: row.uma_ep for row in table.rows} == {
        "Aoki": 600,
        "Baba": 100,
        "Chiba": -700,
    }
    month = MemberMonth.objects.get(member=a)
    year = MemberYear.objects.get(member=a)
    assert (month.uma_ep, year.uma_ep, month.chips) == (600, 600, 0)

    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(a.user)
    html = client.get(reverse("standings") + "?ruleset=sanma-float").content.decode()
    assert '<th scope="col" class="col-uma_ep"' in html and "col-chips" not in html
    assert ">+600</td>" in html and ">+100</td>" in html and ">−700</td>" in html
    assert "Equal totals are ordered by ep" in html
    export = client.get(reverse("standings_export") + "?ruleset=sanma-float")
    rows = list(csv.reader(io.StringIO(export.content.decode("utf-8-sig"))))
    assert rows[0][:5] == ["Place", "Player", "Games", "Total", "ep"]
    assert {row[1]: row[4] for row in rows[1:]} == {"Aoki": "600", "Baba": "100", "Chiba": "-700"}


def test_points_first_then_ep_orders_the_3_player_table() -> None:
    """Equal totals are ordered by ep before average rank (seed 002, S-01); chips order
    nothing (H-16). The tie-breakers are a new club's (``CLUB_STANDINGS_TIES``)."""
    order = st.order_key(["average_rank", "best_points"])

    def row(name: str, ep: int, rank_sum: int, chips: int = 0) -> st.StandingsRow:
        return st.StandingsRow(
            member_id=len(name), display_name=name, games=2, total_points=10000,
            rank_sum=rank_sum, rank_counts=(1, 1, 0, 0), lasts=0, tobis=0, best_points=5000,
            best_hanchan_id=1, uma_ep=ep, chips=chips,
        )  # fmt: skip

    better_rank = row("Aoki", ep=100, rank_sum=2, chips=9)
    more_ep = row("Baba", ep=300, rank_sum=4)
    assert sorted([better_rank, more_ep], key=order) == [more_ep, better_rank]
    same_ep = row("Chiba", ep=100, rank_sum=3, chips=-9)
    assert sorted([same_ep, better_rank], key=order) == [better_rank, same_ep]


def test_the_home_games_chips_are_summed_shown_and_exported(four: list[Member]) -> None:
    a, b, c, d = four
    store("home-nashinashi", four, {"scores": [45000, 30000, 20000, 13000],
                                    "chips": [5, -1, -2, -2]})  # fmt: skip
    store("home-nashinashi", [b, a, c, d], {"scores": [40000, 30000, 25000, 13000],
                                            "chips": [3, -3, 0, 0]})  # fmt: skip
    table = st.period_standings(st.current_month_period(), ruleset_ids=["home-nashinashi"])
    assert table.units == ("chips",)
    assert {row.display_name: row.chips for row in table.rows} == {
        "Aoki": 2,
        "Baba": 2,
        "Chiba": -2,
        "Doi": -2,
    }
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    client.force_login(a.user)
    html = client.get(reverse("standings") + "?ruleset=home-nashinashi").content.decode()
    assert '<th scope="col" class="col-chips"' in html and "col-uma_ep" not in html
    assert "平均着順、次に最高得点" in html  # chips order nothing
    export = client.get(reverse("standings_export") + "?ruleset=home-nashinashi")
    rows = list(csv.reader(io.StringIO(export.content.decode("utf-8-sig"))))
    assert rows[0][4] == "チップ"
    assert {row[1]: row[4] for row in rows[1:]} == {"Aoki": "2", "Baba": "2", "Chiba": "-2",
                                                      "Doi": "-2"}  # fmt: skip


def test_a_table_without_club_units_has_no_such_columns(four: list[Member]) -> None:
    store("makura-1.5", four, {"scores": [45300, 30000, 19700, 5000]})
    table = st.period_standings(st.current_month_period(), ruleset_ids=None)
    assert table.units == ()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(four[0].user)
    html = client.get(reverse("standings")).content.decode()
    assert "col-uma_ep" not in html and "col-chips" not in html


def test_the_migration_fills_the_units_of_results_counted_before(four: list[Member]) -> None:
    import importlib

    from django.apps import apps

    a, b, c, _ = four
    store("sanma-float", [a, b, c], {"scores": [45000, 31000, 29000]})
    CountedSeat.objects.update(uma_ep=0, chips=0)
    MemberMonth.objects.update(uma_ep=0)
    MemberYear.objects.update(uma_ep=0)
    migration = importlib.import_module("scoring.migrations.0016_club_units_backfill")
    migration.backfill(apps, None)
    assert sorted(CountedSeat.objects.values_list("uma_ep", flat=True)) == [-400, -200, 600]
    assert MemberMonth.objects.get(member=a).uma_ep == 600
    assert MemberYear.objects.get(member=c).uma_ep == -400


def test_a_members_page_and_games_csv_show_their_ep(four: list[Member]) -> None:
    a, b, c, _ = four
    store("sanma-float", [a, b, c], {"scores": [45000, 31000, 29000]})
    store("sanma-float", [b, a, c], {"scores": [40000, 36000, 29000]})
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(b.user)
    query = "?ruleset=sanma-float&period=all"
    html = client.get(reverse("member_detail", args=[b.pk]) + query).content.decode()
    assert '<dt>ep</dt><dd class="settlement plus">+100</dd>' in html
    assert "<dt>Chips</dt>" not in html
    export = client.get(reverse("member_games_csv", args=[b.pk]) + query)
    rows = list(csv.reader(io.StringIO(export.content.decode("utf-8-sig"))))
    assert rows[0][7:] == ["ep"]
    assert sorted(int(row[7]) for row in rows[1:]) == [-200, 300]
    # A custom range reads the games, not the monthly totals: the same figure.
    custom = f"?ruleset=sanma-float&period=range&start={DAY}&end={DAY}"
    html = client.get(reverse("member_detail", args=[b.pk]) + custom).content.decode()
    assert '<dt>ep</dt><dd class="settlement plus">+100</dd>' in html
