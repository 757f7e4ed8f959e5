"""The contract for the figures (docs/player-stats.md): ``manage.py
player_stats`` prints each member's plain counts over the counted games, every figure here
counted by hand from a small history: a 4-player game with a double ron, a pao, a chombo,
riichi and dealer wins and a draw with tenpai and noten; a 3-player game; a game entered as
final scores only; and games that count nowhere (waiting for confirmation, voided, out of
the range)."""

from __future__ import annotations

import datetime
import importlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command

from clubsite.models import Member
from scoring.ledger import hanchan_import, hanchan_void
from scoring.ledger.facts import hand_facts
from scoring.models import HandEntry, HandSeat
from scoring.standings import in_tenths
from tests.conftest import make_member, new_club_today

DAY = new_club_today()
MIGRATION = importlib.import_module("scoring.migrations.0017_hand_seat_stats")

# Seats: Aoki (the first dealer), Baba, Chiba, Doi. Scores in the comments are before/after.
FOUR_PLAYER_HANDS: list[dict[str, Any]] = [
    # E1, Aoki deals: Baba's riichi wins 3 han 30 fu (3,900) off Chiba.
    {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}], "riichi": [1]},
    # E2, Baba deals: a double ron off Doi: Aoki's riichi 2 han 30 fu (2,000) and the dealer
    # Baba 3 han 30 fu (5,800). Doi deals in once, to two winners; the dealer stays.
    {
        "result": "ron",
        "loser": 3,
        "wins": [{"winner": 0, "han": 2, "fu": 30}, {"winner": 1, "han": 3, "fu": 30}],
        "riichi": [0],
    },
    # E2-1: a draw, Aoki and Baba tenpai, Chiba and Doi noten (1,500 each).
    {"result": "draw", "tenpai": [0, 1]},
    # E2-2: Chiba's chombo (4,000 to each); Doi's riichi stick goes back: no hand of its own.
    {"result": "chombo", "offender": 2, "riichi": [3]},
    # E2-2 again: the dealer Baba's riichi tsumo mangan, 4,000 all (+200 honba each).
    {"result": "tsumo", "wins": [{"winner": 1, "limit": "mangan"}], "riichi": [1]},
    # E2-3: Aoki's daisangen (32,000) off Chiba, Doi liable (pao): 16,000 each, Chiba pays
    # the 900 honba (M-05). Chiba goes below 0: the game ends (tobi).
    {"result": "ron", "loser": 2, "wins": [{"winner": 0, "limit": "yakuman", "pao": 3}]},
]
# The engine's settlement of that game (replay): ranks 1, 2, 4, 3.
FOUR_PLAYER_POINTS = [73000, 32000, -64000, -41000]

# Seats: Aoki (the first dealer), Baba, Chiba (sanma-float, 35,000 start).
THREE_PLAYER_HANDS: list[dict[str, Any]] = [
    # E1: a draw, Baba alone tenpai; Aoki deals and is noten, so the deal moves.
    {"result": "draw", "tenpai": [1]},
    # E2, Baba deals: Baba's yakuman (48,000) off Chiba's riichi: Chiba below 0 (tobi).
    {"result": "ron", "loser": 2, "wins": [{"winner": 1, "limit": "yakuman"}], "riichi": [2]},
]
THREE_PLAYER_POINTS = [-6000, 62000, -56000]

# Final scores only: ranks 1-4 in seat order; makura-1.5 settles them to these points.
FINAL_SCORES = [40000, 30000, 20000, 10000]
FINAL_SCORES_POINTS = [50000, 10000, -20000, -40000]


@pytest.fixture
def club(db: None) -> dict[str, Member]:
    names = ["Aoki", "Baba", "Chiba", "Doi"]
    return {name: make_member(name.lower(), name, "") for name in names}


def store(
    members: list[Member],
    ruleset: str,
    *,
    hands: list[dict[str, Any]] | None = None,
    final_scores: list[int] | None = None,
    day: datetime.date = DAY,
    by: Member | None = None,
):
    record: dict[str, Any] = {
        "format": "club-game/1",
        "ruleset": ruleset,
        "players": [m.display_name for m in members],
    }
    if hands is not None:
        record["hands"] = hands
    else:
        record["final_scores"] = {"scores": final_scores}
    return hanchan_import(
        record=record,
        members_by_name={m.display_name: m for m in members},
        played_on=day,
        by=by,
        allow_duplicate=True,
    )


@pytest.fixture
def history(club: dict[str, Member]) -> dict[str, Member]:
    a, b, c, d = club.values()
    store([a, b, c, d], "makura-1.5", hands=FOUR_PLAYER_HANDS)
    store([a, b, c], "sanma-float", hands=THREE_PLAYER_HANDS)
    store([a, b, c, d], "makura-1.5", final_scores=FINAL_SCORES)
    # Counts nowhere: an upload waiting for the other players' confirmation, a voided game,
    # and (for a range ending yesterday) today's games. Doi wins each of them.
    doi_wins = [{"result": "ron", "loser": 0, "wins": [{"winner": 3, "limit": "yakuman"}]}]
    store([a, b, c, d], "makura-1.5", hands=doi_wins, by=a)
    voided = store([a, b, c, d], "makura-1.5", hands=doi_wins)
    hanchan_void(hanchan_id=voided.pk, expected_version=voided.version, steward=True)
    return club


def player_stats(*args: str) -> list[dict[str, Any]]:
    out = io.StringIO()
    call_command("player_stats", *args, stdout=out)
    return json.loads(out.getvalue())


NO_HANDS = {
    "hands": 0, "wins": 0, "tsumo_wins": 0, "deal_ins": 0, "riichi": 0, "riichi_wins": 0,
    "dealer_hands": 0, "dealer_wins": 0, "win_value": 0, "deal_in_value": 0, "draws": 0,
    "draws_tenpai": 0, "chombo": 0,
}  # fmt: skip


def test_it_counts_every_figure_of_the_4_player_history(history: dict[str, Member]) -> None:
    points = [g + f for g, f in zip(FOUR_PLAYER_POINTS, FINAL_SCORES_POINTS, strict=True)]
    assert player_stats() == [
        {
            "member": "Aoki",
            "games": 2,
            "placements": [2, 0, 0, 0],
            "points_x10": points[0] // 100,
            "hands": 5,  # six hands, the chombo hand is none of its own
            "wins": 2,  # the double ron and the daisangen
            "tsumo_wins": 0,
            "deal_ins": 0,
            "riichi": 1,
            "riichi_wins": 1,
            "dealer_hands": 1,  # E1
            "dealer_wins": 0,
            "win_value": 2000 + 32000,  # the pao's half counts: the win's whole value
            "deal_in_value": 0,
            "draws": 1,
            "draws_tenpai": 1,
            "chombo": 0,
            "fed": {},
        },
        {
            "member": "Baba",
            "games": 2,
            "placements": [0, 2, 0, 0],
            "points_x10": points[1] // 100,
            "hands": 5,
            "wins": 3,  # E1, the double ron, the tsumo
            "tsumo_wins": 1,
            "deal_ins": 0,
            "riichi": 2,
            "riichi_wins": 2,
            "dealer_hands": 4,  # E2 to E2-3 without the chombo hand
            "dealer_wins": 2,
            "win_value": 3900 + 5800 + 12000,  # the tsumo's honba left out
            "deal_in_value": 0,
            "draws": 1,
            "draws_tenpai": 1,
            "chombo": 0,
            "fed": {},
        },
        {
            "member": "Chiba",
            "games": 2,
            "placements": [0, 0, 1, 1],
            "points_x10": points[2] // 100,
            "hands": 5,
            "wins": 0,
            "tsumo_wins": 0,
            "deal_ins": 2,
            "riichi": 0,
            "riichi_wins": 0,
            "dealer_hands": 0,
            "dealer_wins": 0,
            "win_value": 0,
            "deal_in_value": 3900 + 16000,  # the discarder's half of the pao, no honba
            "draws": 1,
            "draws_tenpai": 0,
            "chombo": 1,
            "fed": {"Aoki": 1, "Baba": 1},
        },
        {
            "member": "Doi",
            "games": 2,
            "placements": [0, 0, 1, 1],
            "points_x10": points[3] // 100,
            "hands": 5,
            "wins": 0,
            "tsumo_wins": 0,
            "deal_ins": 1,  # the double ron: one deal-in, to two winners
            "riichi": 0,  # the riichi of the chombo hand went back
            "riichi_wins": 0,
            "dealer_hands": 0,
            "dealer_wins": 0,
            "win_value": 0,
            "deal_in_value": 2000 + 5800,  # the pao's 16,000 is no deal-in
            "draws": 1,
            "draws_tenpai": 0,
            "chombo": 0,
            "fed": {"Aoki": 1, "Baba": 1},
        },
    ]


def test_it_counts_the_3_player_family_apart(history: dict[str, Member]) -> None:
    rows = player_stats("--ruleset", "sanma-float")
    assert [row["member"] for row in rows] == ["Aoki", "Baba", "Chiba"]
    assert [row["placements"] for row in rows] == [[0, 1, 0], [1, 0, 0], [0, 0, 1]]
    assert [row["points_x10"] for row in rows] == [p // 100 for p in THREE_PLAYER_POINTS]
    aoki, baba, chiba = rows
    assert aoki | {"fed": None} == {
        "member": "Aoki", "games": 1, "placements": [0, 1, 0], "points_x10": -60, "fed": None,
        **NO_HANDS, "hands": 2, "dealer_hands": 1, "draws": 1,
    }  # fmt: skip
    assert (baba["wins"], baba["dealer_wins"], baba["win_value"], baba["draws_tenpai"]) == (
        1,
        1,
        48000,
        1,
    )
    assert (chiba["deal_ins"], chiba["deal_in_value"], chiba["riichi"], chiba["fed"]) == (
        1,
        48000,
        1,
        {"Baba": 1},
    )


def test_a_final_scores_game_counts_in_games_and_points_only(club: dict[str, Member]) -> None:
    members = list(club.values())
    store(members, "makura-1.5", final_scores=FINAL_SCORES)
    assert player_stats() == [
        {
            "member": member.display_name,
            "games": 1,
            "placements": [int(place == seat) for place in range(4)],
            "points_x10": FINAL_SCORES_POINTS[seat] // 100,
            **NO_HANDS,
            "fed": {},
        }
        for seat, member in enumerate(members)
    ]


def test_games_that_do_not_count_are_absent(club: dict[str, Member]) -> None:
    a, b, c, d = club.values()
    store([a, b, c, d], "makura-1.5", hands=FOUR_PLAYER_HANDS, by=a)  # waits for b, c, d
    assert player_stats() == []
    yesterday = (DAY - datetime.timedelta(days=1)).isoformat()
    store([a, b, c, d], "makura-1.5", final_scores=FINAL_SCORES)
    assert player_stats("--to", yesterday) == []
    assert player_stats("--from", DAY.isoformat(), "--to", DAY.isoformat())[0]["hands"] == 0


def test_the_range_and_rulesets_select_the_games(history: dict[str, Member]) -> None:
    a, b, c, d = history.values()
    earlier = DAY - datetime.timedelta(days=40)
    store([d, c, b, a], "makura-1.5", final_scores=FINAL_SCORES, day=earlier)
    day = earlier.isoformat()
    rows = player_stats("--from", day, "--to", day, "--ruleset", "makura-1.5")
    assert [(r["member"], r["placements"], r["points_x10"]) for r in rows] == [
        ("Aoki", [0, 0, 0, 1], -400),
        ("Baba", [0, 0, 1, 0], -200),
        ("Chiba", [0, 1, 0, 0], 100),
        ("Doi", [1, 0, 0, 0], 500),
    ]
    assert [r["games"] for r in player_stats()] == [3, 3, 3, 3]
    assert [r["games"] for r in player_stats("--from", DAY.isoformat())] == [2, 2, 2, 2]
    assert player_stats("--ruleset", "makura-1.3") == []
    assert player_stats("--ruleset", "tenhou-4p@tenhou") == []


def test_points_are_tenths_rounded_half_away_from_zero() -> None:
    assert [in_tenths(p) for p in (52000, -52000, 50, -50, 49, -149, 0)] == [
        520, -520, 1, -1, 0, -1, 0,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--ruleset", "makura-1.5", "--ruleset", "sanma-float"], "mixes 3- and 4-player"),
        (["--ruleset", "no-such-rules"], "no such ruleset"),
        (["--ruleset", "tenhou-4p@nowhere"], "no online service"),
        (["--from", "2026-05-01", "--to", "2026-04-30"], "is after"),
        (["--to", "2026-4-30"], "YYYY-MM-DD"),
    ],
)
def test_bad_arguments_say_why_in_one_line_and_exit_2(
    club: dict[str, Member], args: list[str], says: str
) -> None:
    err = io.StringIO()
    with pytest.raises(SystemExit) as exit:
        call_command("player_stats", *args, stdout=io.StringIO(), stderr=err)
    assert exit.value.code == 2
    assert says in err.getvalue() and err.getvalue().count("\n") == 1


@pytest.mark.parametrize("args", [["--bogus"], ["--from", "2026-02-30"], ["--to"]])
def test_bad_arguments_on_the_command_line_exit_2_with_one_line(args: list[str]) -> None:
    manage = Path(__file__).resolve().parent.parent / "manage.py"
    done = subprocess.run(
        [sys.executable, str(manage), "player_stats", *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("player_stats: ") and done.stderr.count("\n") == 1


def test_the_migration_derives_the_facts_the_ledger_writes(history: dict[str, Member]) -> None:
    entries = list(HandEntry.objects.all())
    assert len(entries) == 6 + 2 + 1 + 1
    for entry in entries:
        ledger = [
            (f.tenpai, f.deal_in_value, f.fed_by) for f in hand_facts(entry.data, entry.result)
        ]
        assert MIGRATION.derive(entry.data, entry.result) == ledger
    stored = sorted(HandSeat.objects.values_list("pk", "tenpai", "deal_in_value", "fed_by"))
    assert any(fed_by for *_, fed_by in stored) and any(tenpai for _, tenpai, *_ in stored)
    HandSeat.objects.update(tenpai=False, deal_in_value=0, fed_by=None)
    MIGRATION.backfill(apps, None)
    assert sorted(HandSeat.objects.values_list("pk", "tenpai", "deal_in_value", "fed_by")) == (
        stored
    )


def test_the_figures_cost_six_queries_whatever_the_history(
    history: dict[str, Member], django_assert_num_queries: Any
) -> None:
    a, b, c, d = history.values()
    for _ in range(3):
        store([a, b, c, d], "makura-1.5", hands=FOUR_PLAYER_HANDS)
    # The command's club (--club, or the site's one club) first, then the figures' five.
    with django_assert_num_queries(6):
        rows = player_stats()
    assert [row["games"] for row in rows] == [5, 5, 5, 5]
    assert rows[2]["fed"] == {"Aoki": 4, "Baba": 4}
