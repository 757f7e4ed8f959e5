"""Tournaments of seed 001 run end to end on the ledger (docs/rules-spec.md §4.1-§4.3,
T-01, T-03, T-07): each table a hanchan, results entered at the table (here as final scores),
phases seated by lot and by standing, the live ranking with and without carry-over."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from itertools import combinations

import pytest
from django.utils import translation

from clubsite.models import Member
from scoring.ledger import hanchan_final_scores
from scoring.models import Hanchan
from scoring.standings import club_today
from tests.conftest import make_member
from tournaments.live_ranking import event_ranking
from tournaments.models import Event, Round
from tournaments.services import (
    EventError,
    event_advance,
    event_create,
    event_draw,
    participants_set,
    round_call_time,
    round_start,
)

# Makura 1.5 §1 settlement of these final scores (floor to 1,000 after the 30,000 return,
# uma +20/+10/-10/-20, oka and the remainder to the top): +56.0, +10.0, -21.0, -45.0.
SCORES = [45300, 30000, 19700, 5000]
POINTS = [56000, 10000, -21000, -45000]


@pytest.fixture(autouse=True)
def english():
    """Refusals and generated names are read in English here (the pages choose per request)."""
    with translation.override("en"):
        yield


def members(count: int) -> list[Member]:
    return [make_member(f"p{i:02d}", f"P{i:02d}", "") for i in range(count)]


def play_round(rnd: Round, better: Callable[[int], int]) -> dict[int, int]:
    """Enter every table of ``rnd`` as final scores: at each table the participant with the
    smallest ``better(number)`` takes 45,300, the next 30,000, ... Returns the points each
    participant earned, computed here from POINTS (not by the code under test)."""
    earned: dict[int, int] = {}
    for table, seated in zip(rnd.tables.order_by("number"), rnd.seating, strict=True):
        order = sorted(seated, key=better)
        scores = [SCORES[order.index(number)] for number in seated]
        hanchan = table.hanchan
        hanchan.refresh_from_db()
        hanchan_final_scores(
            hanchan_id=hanchan.pk,
            final_scores={"scores": scores},
            expected_version=hanchan.version,
        )
        for number in seated:
            earned[number] = POINTS[order.index(number)]
    return earned


def run_rounds(event: Event, better: Callable[[int], int]) -> dict[int, list[int]]:
    """Start and play every drawn round not yet played; returns each participant's points."""
    earned: dict[int, list[int]] = {}
    for rnd in Round.objects.filter(event=event, started_at=None).order_by("number"):
        round_start(round_id=rnd.pk)
        for number, points in play_round(rnd, better).items():
            earned.setdefault(number, []).append(points)
    return earned


def test_a_gp_for_16_runs_to_its_final_ranking(db):
    field = members(16)
    event = event_create(
        name="GP 2026", format_key="gp", ruleset_id="makura-1.5", starts_on=club_today(), seed=4
    )
    participants_set(event_id=event.pk, members=field)
    event_draw(event_id=event.pk)
    preliminaries = list(Round.objects.filter(event=event).order_by("number"))
    assert len(preliminaries) == 4  # the pairing table is drawn in advance (§4.1)
    pairs = [p for r in preliminaries for t in r.seating for p in combinations(sorted(t), 2)]
    assert len(pairs) == len(set(pairs))  # nobody meets twice in the preliminaries

    # Preliminaries: lower participant numbers do better at every table.
    totals: dict[int, int] = {}
    for number, points in run_rounds(event, better=lambda n: n).items():
        totals[number] = sum(points)
    game = Round.objects.get(event=event, number=1).tables.first().hanchan
    assert game.ruleset().tobi is False  # "飛びは無し"
    # The table's number only: the pages name the event and round in the reader's language.
    assert game.table_name == str(game.event_table.number)

    event_advance(event_id=event.pk)
    finals = list(Round.objects.filter(event=event, number__gt=4).order_by("number"))
    assert len(finals) == 2
    by_prelims = sorted(range(16), key=lambda n: (-totals[n], n))
    for rnd in finals:  # 1st-4th of the preliminaries at table 1, 5th-8th at table 2, ...
        assert [sorted(t) for t in rnd.seating] == [
            sorted(by_prelims[i : i + 4]) for i in range(0, 16, 4)
        ]

    # Finals: now higher numbers do better.
    for number, points in run_rounds(event, better=lambda n: -n).items():
        totals[number] += sum(points)
    event_advance(event_id=event.pk)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    rows = event_ranking(event).rows
    assert [row.total for row in rows] == sorted(totals.values(), reverse=True)
    assert {row.number: row.total for row in rows} == totals  # all 6 games count
    assert all(row.games == 6 for row in rows)


def test_the_grand_champion_is_decided_by_the_finals_only(db):
    event = event_create(
        name="GC", format_key="grand_champion", ruleset_id="makura-1.5",
        starts_on=club_today(), seed=11,
    )  # fmt: skip
    participants_set(event_id=event.pk, members=members(8))
    event_draw(event_id=event.pk)
    prelims: dict[int, int] = {n: sum(p) for n, p in run_rounds(event, better=lambda n: n).items()}
    event_advance(event_id=event.pk)
    final_round = Round.objects.get(event=event, number=7)
    top4 = sorted(range(8), key=lambda n: (-prelims[n], n))[:4]
    assert [sorted(t) for t in final_round.seating] == [sorted(top4)]  # one table, the top 4
    finals = {n: sum(p) for n, p in run_rounds(event, better=lambda n: -n).items()}
    event_advance(event_id=event.pk)
    rows = event_ranking(event).rows
    # T-01: the champion has the best total of the 2 final games, whatever the preliminaries.
    champion = max(top4, key=lambda n: finals[n])
    assert rows[0].number == champion and rows[0].total == finals[champion]
    assert [row.finalist for row in rows] == [True] * 4 + [False] * 4
    # The others follow in their preliminary order.
    assert [row.number for row in rows[4:]] == sorted(
        set(range(8)) - set(top4), key=lambda n: (-prelims[n], n)
    )


def test_the_grand_champion_with_carry_over_adds_the_preliminaries(db):
    event = event_create(
        name="GC", format_key="grand_champion", ruleset_id="makura-1.5",
        starts_on=club_today(), seed=11, carry_over=True,
    )  # fmt: skip
    participants_set(event_id=event.pk, members=members(8))
    event_draw(event_id=event.pk)
    earned = run_rounds(event, better=lambda n: n)
    event_advance(event_id=event.pk)
    for number, points in run_rounds(event, better=lambda n: -n).items():
        earned[number] += points
    rows = event_ranking(event).rows
    finalists = [row for row in rows if row.finalist]
    assert {row.number: row.total for row in finalists} == {
        row.number: sum(earned[row.number]) for row in finalists
    }


def test_the_meijin_reseats_by_standing_before_games_3_5_and_7(db):
    event = event_create(
        name="名人戦", format_key="meijin", ruleset_id="makura-1.5", starts_on=club_today(), seed=2
    )
    participants_set(event_id=event.pk, members=members(8))
    event_draw(event_id=event.pk)
    assert Round.objects.filter(event=event).count() == 2  # games 1-2 by lot
    totals = dict.fromkeys(range(8), 0)
    for games in ((1, 2), (3, 4), (5, 6), (7, 8)):
        for number, points in run_rounds(event, better=lambda n: (n * 5) % 8).items():
            totals[number] += sum(points)
        event_advance(event_id=event.pk)
        if games[1] == 8:
            break
        standing = sorted(range(8), key=lambda n: (-totals[n], n))
        for number in (games[1] + 1, games[1] + 2):
            rnd = Round.objects.get(event=event, number=number)
            assert [sorted(t) for t in rnd.seating] == [sorted(standing[:4]), sorted(standing[4:])]
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    rows = event_ranking(event).rows
    assert {row.number: row.total for row in rows} == totals  # all 8 games count
    assert all(row.games == 8 for row in rows)


def test_equal_totals_are_ordered_by_average_rank(db):
    from tournaments.ranking import GameResult, ranking

    rows = ranking(
        [(0, "A", False), (1, "B", False)],
        [GameResult(0, 1, True, 10000, 2), GameResult(0, 1, True, 10000, 2),
         GameResult(1, 1, True, 56000, 1), GameResult(1, 1, True, -36000, 3)],
    )  # fmt: skip
    # Both +20.0: B's average rank is 2, A's 2 too; B's best game (+56.0) decides.
    assert [row.name for row in rows] == ["B", "A"]


def test_a_gp_round_can_be_called_at_every_table(db):
    event = event_create(name="GP", format_key="gp", ruleset_id="makura-1.5",
                         starts_on=club_today(), seed=1)  # fmt: skip
    participants_set(event_id=event.pk, members=members(8))
    event_draw(event_id=event.pk)
    rnd = Round.objects.get(event=event, number=1)
    round_start(round_id=rnd.pk)
    assert round_call_time(round_id=rnd.pk) == 2
    assert all(t.hanchan.time_called for t in rnd.tables.select_related("hanchan"))


def test_a_negative_score_does_not_end_a_gp_game(db):
    event = event_create(name="GP", format_key="gp", ruleset_id="makura-1.5",
                         starts_on=club_today(), seed=1)  # fmt: skip
    participants_set(event_id=event.pk, members=members(4))
    event_draw(event_id=event.pk)
    rnd = Round.objects.get(event=event, number=1)
    round_start(round_id=rnd.pk)
    game = rnd.tables.get().hanchan
    hanchan_final_scores(
        hanchan_id=game.pk,
        final_scores={"scores": [60000, 30000, 11000, -1000]},
        expected_version=game.version,
    )
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED and game.ended_by == "final_scores"
    assert sorted(s.points for s in game.seats.all()) == [-51000, -29000, 10000, 70000]


@pytest.mark.parametrize(
    ("format_key", "count", "says"),
    [("gp", 15, "cannot sit"), ("meijin", 12, "8 players"), ("grand_champion", 4, "8 players")],
)
def test_a_field_the_format_cannot_seat_is_refused(db, format_key, count, says):
    event = event_create(
        name="X", format_key=format_key, ruleset_id="makura-1.5", starts_on=club_today()
    )
    with pytest.raises(EventError, match=says):
        participants_set(event_id=event.pk, members=members(count))
    assert event.participants.count() == 0


def test_a_round_waits_for_the_games_before_it(db):
    event = event_create(name="GP", format_key="gp", ruleset_id="makura-1.5",
                         starts_on=club_today() - datetime.timedelta(days=1), seed=1)  # fmt: skip
    participants_set(event_id=event.pk, members=members(8))
    event_draw(event_id=event.pk)
    first, second = Round.objects.filter(event=event).order_by("number")[:2]
    with pytest.raises(EventError, match="earlier rounds"):
        round_start(round_id=second.pk)
    round_start(round_id=first.pk)
    with pytest.raises(EventError, match="finished"):
        round_start(round_id=second.pk)
    with pytest.raises(EventError, match="started already"):
        round_start(round_id=first.pk)
