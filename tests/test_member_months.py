"""Members' monthly totals: kept by the ledger in the transaction that counts a
game, equal at every step to a fresh sum of the counted results, and read by the standings so
that month, half-year, year and all-time pages read a few rows per member and month."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.urls import reverse

from clubsite.models import Member
from scoring.ledger import (
    hanchan_confirm,
    hanchan_import,
    hanchan_void,
    hand_correct,
    hand_undo_last,
)
from scoring.ledger.totals import HAND_SUMS
from scoring.models import CountedSeat, Hanchan, MemberMonth
from scoring.standings.periods import club_today

DAY = datetime.date(2026, 10, 14)
YAKUMAN = {"result": "ron", "loser": 2, "wins": [{"winner": 1, "limit": "yakuman"}]}
OTHER = {"result": "ron", "loser": 2, "wins": [{"winner": 3, "limit": "yakuman"}]}


@pytest.fixture
def players(member: Member, other_member: Member, coordinator: Member, outsider: Member):
    return [member, other_member, coordinator, outsider]


def fresh() -> dict[tuple[int, datetime.date, int], dict[str, Any]]:
    """The monthly totals as a sum of the counted results, computed here from scratch."""
    out = {}
    for seat in CountedSeat.objects.all():
        key = (seat.member_id, seat.played_on.replace(day=1), seat.ruleset_version_id)
        row = out.setdefault(key, {"games": 0, "total_points": 0, "lasts": 0, "tobis": 0,
                                   **dict.fromkeys(HAND_SUMS, 0)})  # fmt: skip
        row["games"] += 1
        row["total_points"] += seat.points
        row["lasts"] += seat.last_place
        row["tobis"] += seat.busted
        for name in HAND_SUMS:
            row[name] += getattr(seat, name)
    return out


def kept() -> dict[tuple[int, datetime.date, int], dict[str, Any]]:
    return {
        (m.member_id, m.month, m.ruleset_version_id): {
            "games": m.games, "total_points": m.total_points, "lasts": m.lasts,
            "tobis": m.tobis, **{name: getattr(m, name) for name in HAND_SUMS},
        }
        for m in MemberMonth.objects.all()
    }  # fmt: skip


def imported(players: list[Member], hands: list[dict[str, Any]], day: datetime.date = DAY):
    return hanchan_import(
        record={
            "ruleset": "makura-1.5",
            "players": [m.display_name for m in players],
            "hands": hands,
        },
        members_by_name={m.display_name: m for m in players},
        played_on=day,
    )


def test_totals_follow_every_change_of_a_counted_game(players):
    game = imported(players, [YAKUMAN])
    imported(players, [OTHER], day=DAY.replace(day=20))
    assert kept() == fresh() and len(kept()) == 4
    assert MemberMonth.objects.get(member=players[1]).total_points > 0

    # A correction by the steward's command path counts at once; totals follow.
    game.refresh_from_db()
    hand_correct(hanchan_id=game.pk, sequence=0, hand=OTHER, expected_version=game.version)
    assert kept() == fresh()
    game.refresh_from_db()
    hand_undo_last(hanchan_id=game.pk, expected_version=game.version)
    assert kept() == fresh()  # an undone game leaves the counted result in force...
    game.refresh_from_db()
    hanchan_void(hanchan_id=game.pk, expected_version=game.version)
    assert kept() == fresh()  # ... until a void takes it out
    assert MemberMonth.objects.get(member=players[0]).games == 1


def test_a_pending_change_does_not_move_the_totals(players):
    game = imported(players, [YAKUMAN], day=club_today())
    before = kept()
    game.refresh_from_db()
    # A player's correction waits for the others: the totals stay as they were.
    hand_correct(
        hanchan_id=game.pk, sequence=0, hand=OTHER, expected_version=game.version, by=players[0]
    )
    assert kept() == before == fresh()
    game.refresh_from_db()
    for member in players[1:]:
        hanchan_confirm(
            hanchan_id=game.pk,
            expected_version=game.version,
            user_id=member.user_id,
            by=member,
            steward=False,
        )
    assert kept() == fresh() != before


def test_month_pages_read_the_monthly_totals(players, django_assert_num_queries):
    from scoring import standings as st

    imported(players, [YAKUMAN])
    with django_assert_num_queries(3):  # versions, the monthly totals, names
        table = st.period_standings(st.all_time_period())
    assert {row.display_name: row.games for row in table.rows} == {
        "Aoki": 1, "Baba": 1, "Chiba": 1, "Endo": 1,
    }  # fmt: skip
    # A range that is not whole months reads the counted results directly, the same figures.
    ranged = st.standings(start=DAY, end=DAY, ruleset_ids=None, min_games=0)
    assert [r.total_points for r in ranged.rows] == [r.total_points for r in table.rows]


def test_the_player_page_lists_games_a_page_at_a_time(players, client_for):
    for day in range(1, 29):
        imported(players, [YAKUMAN], day=DAY.replace(day=day))
    for day in range(1, 29):
        imported(players, [OTHER], day=DAY.replace(month=9, day=day))
    client = client_for(players[0])
    url = reverse("member_detail", args=[players[0].pk])
    first = client.get(url, {"period": "all"}).text
    assert first.count('<tr id="game-') == 50
    pager = first[first.index('class="pager"') :]
    assert "page=2#games-head" in pager[: pager.index("</nav>")]
    second = client.get(url, {"period": "all", "page": "2"}).text
    assert second.count('<tr id="game-') == 6
    ids = set(Hanchan.objects.values_list("pk", flat=True))
    shown = {int(x) for x in re.findall(r'<tr id="game-(\d+)"', first + second)}
    assert shown == ids
