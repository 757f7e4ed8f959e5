"""The qualification races of seed 001 on a fixed history, computed by hand
(docs/rules-spec.md §4.2, §4.3, T-02, T-04, T-05): the Grand Champion (10.0 per monthly
title plus GP and Meijin points, the top 6, last year's winner, a woman player) and the
Meijin (the half-year champions, then monthly champions by their champion month's points;
substitutes by total points July-June).

The history, members M0-M9, one game a month from July 2025 to June 2026 (Makura 1.5; BIG
final scores 60,000/20,000/15,000/5,000 settle +70.0/0.0/-25.0/-45.0, SMALL
45,300/30,000/19,700/5,000 settle +56.0/+10.0/-21.0/-45.0; the first player listed wins):

    2025-07 BIG   M0 M1 M2 M3     2026-01 SMALL M5 M6 M7 M8
    2025-08 SMALL M1 M2 M3 M4     2026-02 BIG   M6 M7 M8 M9
    2025-09 SMALL M0 M5 M6 M7     2026-03 SMALL M7 M8 M9 M0
    2025-10 SMALL M2 M5 M6 M7     2026-04 SMALL M8 M9 M0 M1
    2025-11 SMALL M3 M8 M9 M4     2026-05 SMALL M9 M0 M1 M2
    2025-12 BIG   M4 M8 M9 M5     2026-06 BIG   M1 M2 M3 M4

Second half of 2025: M0 +126.0 (champion), M1 +56.0, M2 +41.0, M8 +10.0, M3 -10.0, ...
First half of 2026: M6 +80.0 (champion), M5 +56.0, M7 +35.0, M1 +4.0, ...
Totals July-June: M8 +6.0, M9 -46.0 (the two monthly champions the Meijin leaves out).
"""

from __future__ import annotations

import datetime
import io
import json
import re

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from clubsite.models import Member
from scoring.ledger import hanchan_final_scores, hanchan_start
from tests.conftest import make_member
from tests.test_tournaments import run_rounds
from tournaments.models import Event, Round
from tournaments.races import grand_champion_race, meijin_race
from tournaments.services import (
    event_advance,
    event_create,
    event_draw,
    participants_set,
    round_start,
)

D = datetime.date
BIG = [60000, 20000, 15000, 5000]
SMALL = [45300, 30000, 19700, 5000]
GAMES = [
    (D(2025, 7, 5), BIG, (0, 1, 2, 3)),
    (D(2025, 8, 5), SMALL, (1, 2, 3, 4)),
    (D(2025, 9, 5), SMALL, (0, 5, 6, 7)),
    (D(2025, 10, 5), SMALL, (2, 5, 6, 7)),
    (D(2025, 11, 5), SMALL, (3, 8, 9, 4)),
    (D(2025, 12, 5), BIG, (4, 8, 9, 5)),
    (D(2026, 1, 5), SMALL, (5, 6, 7, 8)),
    (D(2026, 2, 5), BIG, (6, 7, 8, 9)),
    (D(2026, 3, 5), SMALL, (7, 8, 9, 0)),
    (D(2026, 4, 5), SMALL, (8, 9, 0, 1)),
    (D(2026, 5, 5), SMALL, (9, 0, 1, 2)),
    (D(2026, 6, 5), BIG, (1, 2, 3, 4)),
]
TODAY = D(2026, 11, 15)

pytestmark = pytest.mark.usefixtures("minimums")


@pytest.fixture
def minimums():
    """One game makes a monthly or half-year champion here (the spec sets no minimum)."""
    with override_settings(CHAMPION_MIN_GAMES=1, HALF_YEAR_CHAMPION_MIN_GAMES=1):
        yield


@pytest.fixture
def m(db) -> list[Member]:
    players = [make_member(f"m{i}", f"M{i}", "") for i in range(10)]
    for day, scores, seats in GAMES:
        game = hanchan_start(
            ruleset_id="makura-1.5", members=[players[s] for s in seats], played_on=day
        )
        hanchan_final_scores(
            hanchan_id=game.pk, final_scores={"scores": scores}, expected_version=game.version
        )
    return players


def names(entries) -> list[tuple[str, str, int]]:
    return [(e.runner.name, e.reason, e.points) for e in entries]


# -- the Meijin -------------------------------------------------------------------------------


def test_the_meijin_takes_the_half_year_champions_then_the_best_champion_months(m):
    race = meijin_race(2026, today=TODAY)
    assert names(race.qualified) == [
        ("M0", "second-half champion 2025", 1260),
        ("M6", "first-half champion 2026", 800),
        # M1 was champion twice (August +56.0, June +70.0): the best month counts. M4 and M1
        # are level on +70.0: by name. M0 and M6 are in already: their months give no seat.
        ("M1", "monthly champion 2026-06", 700),
        ("M4", "monthly champion 2025-12", 700),
        ("M2", "monthly champion 2025-10", 560),
        ("M3", "monthly champion 2025-11", 560),
        ("M5", "monthly champion 2026-01", 560),
        ("M7", "monthly champion 2026-03", 560),
    ]
    # T-05's recommended reading: the champions left out, by total points July-June.
    assert names(race.substitutes) == [
        ("M8", "monthly champion not selected", 60),
        ("M9", "monthly champion not selected", -460),
    ]
    assert [(r.name, gap) for r, gap in race.bubble()] == [("M8", 0), ("M9", 0)]


def test_a_member_holding_both_halves_leaves_the_second_seat_to_the_months(m):
    # Two more January wins for M0 (+70.0 each): M0 also takes the first half of 2026 (+84.0
    # against M6's +80.0) and January's title from M5.
    for day in (D(2026, 1, 20), D(2026, 1, 27)):
        extra = hanchan_start(
            ruleset_id="makura-1.5", members=[m[0], m[1], m[2], m[3]], played_on=day
        )
        hanchan_final_scores(
            hanchan_id=extra.pk, final_scores={"scores": BIG}, expected_version=extra.version
        )
    race = meijin_race(2026, today=TODAY)
    # One seat for M0 (T-05); seven monthly champions, M6 now among them with February.
    assert names(race.qualified) == [
        ("M0", "second-half champion 2025", 1260),
        ("M1", "monthly champion 2026-06", 700),
        ("M4", "monthly champion 2025-12", 700),
        ("M6", "monthly champion 2026-02", 700),
        ("M2", "monthly champion 2025-10", 560),
        ("M3", "monthly champion 2025-11", 560),
        ("M7", "monthly champion 2026-03", 560),
        ("M8", "monthly champion 2026-04", 560),
    ]
    assert names(race.substitutes) == [("M9", "monthly champion not selected", -460)]


def test_the_meijin_alternative_substitute_order(m):
    with override_settings(QUALIFICATION={"meijin_substitutes": "champions_first"}):
        race = meijin_race(2026, today=TODAY)
    # The champions left out first by their champion month, then everyone else by total.
    assert [e.runner.name for e in race.substitutes][:2] == ["M8", "M9"]
    assert race.substitutes[0].points == 560 and race.substitutes[1].points == 560


def test_only_decided_titles_count(m):
    # In May 2026 the first half is still being played: no first-half champion, no June title.
    race = meijin_race(2026, today=D(2026, 5, 20))
    reasons = [e.reason for e in race.qualified]
    assert "first-half champion 2026" not in reasons
    assert "monthly champion 2026-06" not in reasons
    assert reasons[0] == "second-half champion 2025"


# -- the Grand Champion -----------------------------------------------------------------------


def gp_2025(m: list[Member]) -> Event:
    """A GP that ended in 2025, one round played: M7 +56.0, M8 +10.0, M5 -21.0, M6 -45.0."""
    event = event_create(
        name="GP 2025", format_key="gp", ruleset_id="makura-1.5", starts_on=D(2025, 10, 12)
    )
    participants_set(event_id=event.pk, members=[m[7], m[8], m[5], m[6]])
    event_draw(event_id=event.pk)
    first = Round.objects.get(event=event, number=1)
    round_start(round_id=first.pk)
    order = [m[7].pk, m[8].pk, m[5].pk, m[6].pk]
    table = first.tables.get()
    game = table.hanchan
    seated = [seat.member_id for seat in game.seats.order_by("index")]
    scores = [SMALL[order.index(member)] for member in seated]
    hanchan_final_scores(
        hanchan_id=game.pk, final_scores={"scores": scores}, expected_version=game.version
    )
    return event


def grand_champion_2024(m: list[Member]) -> Event:
    """Last year's Grand Champion, won by M2 (participant 0 does best everywhere)."""
    field = [m[2], m[0], m[1], m[3], m[4], m[5], m[6], m[7]]
    event = event_create(
        name="GC 2024", format_key="grand_champion", ruleset_id="makura-1.5",
        starts_on=D(2024, 12, 1), seed=3,
    )  # fmt: skip
    participants_set(event_id=event.pk, members=field)
    event_draw(event_id=event.pk)
    run_rounds(event, better=lambda n: n)
    event_advance(event_id=event.pk)
    run_rounds(event, better=lambda n: n)
    event_advance(event_id=event.pk)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    return event


@pytest.fixture
def grand_champion_history(m):
    gp_2025(m)
    grand_champion_2024(m)
    return m


def flag(*members: Member) -> None:
    for member in members:
        member.women_division = True
        member.save(update_fields=["women_division"])


def test_the_grand_champion_race(grand_champion_history):
    m = grand_champion_history
    flag(m[5])
    race = grand_champion_race(2025, today=TODAY)
    # Titles of 2025 (July-December; 10.0 each): M0 twice, M1, M2, M3, M4. GP points: M7
    # +56.0, M8 +10.0, M5 -21.0, M6 -45.0. M8's 10.0 ranks below the title holders' 10.0.
    assert [(r.name, r.points, r.titles) for r in race.ranking] == [
        ("M7", 560, 0),
        ("M0", 200, 2),
        ("M1", 100, 1),
        ("M2", 100, 1),
        ("M3", 100, 1),
        ("M4", 100, 1),
        ("M8", 100, 0),
        ("M5", -210, 0),
        ("M6", -450, 0),
    ]
    assert names(race.qualified) == [
        ("M7", "top 6", 560),
        ("M0", "top 6", 200),
        ("M1", "top 6", 100),
        ("M2", "top 6", 100),
        ("M3", "top 6", 100),
        ("M4", "top 6", 100),
        # M2 won last year's Grand Champion but is in the top 6: the next in the ranking.
        ("M8", "next in the ranking (previous winner already in)", 100),
        ("M5", "women's division", -210),
    ]
    assert names(race.substitutes) == [("M6", "substitute", -450)]
    assert race.notes["previous_winner"] == "M2"


def test_with_no_woman_in_the_race_the_seat_goes_down_the_ranking(grand_champion_history):
    race = grand_champion_race(2025, today=TODAY)
    assert names(race.qualified)[-2:] == [
        ("M8", "next in the ranking (previous winner already in)", 100),
        ("M5", "next in the ranking (no woman in the race)", -210),
    ]
    # The last seat held is M5's (-21.0), not the 6th (+10.0): M6 (-45.0) is 24.0 behind.
    assert race.cutoff == -210
    assert [(r.name, behind) for r, behind in race.bubble()] == [("M6", 240)]


def test_the_stand_in_seats_say_what_they_stand_in_for(
    grand_champion_history, client_for, monkeypatch
):
    monkeypatch.setattr("tournaments.race_pages.club_today", lambda: TODAY)
    m = grand_champion_history
    for language, words in (
        ("en", ["next in the ranking, in last year's winner's seat (the winner is already in)",
                "next in the ranking, in the women's seat (no woman in the race)",
                "24.0 behind the last seat"]),
        ("ja", ["順位の次点（前年優勝者の枠：優勝者はすでに出場）",
                "順位の次点（女流枠：女流の候補なし）"]),
    ):  # fmt: skip
        client = client_for(m[0])
        client.cookies["django_language"] = language
        page = client.get(reverse("tournaments:race_grand_champion", args=[2025])).text
        for word in words:
            assert word.replace("'", "&#x27;") in page, word
        assert "69.0" not in page and 'id="empty-seats"' not in page


def test_a_race_short_of_players_says_why(m, client_for, monkeypatch):
    """2026 so far: six monthly titles (M5, M6, M7, M8, M9, M1), no tournament, no winner
    of 2025: six seats by the ranking, two empty."""
    monkeypatch.setattr("tournaments.race_pages.club_today", lambda: TODAY)
    race = grand_champion_race(2026, today=TODAY)
    assert (len(race.qualified), race.empty_seats) == (6, 2)
    client = client_for(m[0])
    client.cookies["django_language"] = "en"
    page = client.get(reverse("tournaments:race_grand_champion", args=[2026])).text
    said = " ".join(re.search(r'id="empty-seats">(.*?)</p>', page, re.S).group(1).split())
    assert said == (
        "2 of the 8 seats are empty. Nobody else has a monthly title or tournament points in "
        "2026. They fill as titles are decided and games are played."
    )
    client.cookies["django_language"] = "ja"
    page = client.get(reverse("tournaments:race_grand_champion", args=[2026])).text
    assert (
        "8席のうち2席が空いています。2026年に月間タイトルか大会ポイントのある会員はほかにいません。"
        in ("".join(page.split()))
    )


def test_a_meijin_race_short_of_champions_says_why(m, client_for, monkeypatch):
    """The Meijin of 2027 in November 2026: July 2026's champion (M3) is in; the half years
    are not decided and no other month has a champion."""
    game = hanchan_start(
        ruleset_id="makura-1.5", members=[m[3], m[4], m[5], m[6]], played_on=D(2026, 7, 5)
    )
    hanchan_final_scores(
        hanchan_id=game.pk, final_scores={"scores": SMALL}, expected_version=game.version
    )
    race = meijin_race(2027, today=TODAY)
    assert [e.runner.name for e in race.qualified] == ["M3"]
    assert (race.empty_seats, race.why_empty) == (7, ["half_open", "no_more_champions"])
    monkeypatch.setattr("tournaments.race_pages.club_today", lambda: TODAY)
    client = client_for(m[0])
    client.cookies["django_language"] = "en"
    page = client.get(reverse("tournaments:race_meijin", args=[2027])).text
    said = " ".join(re.search(r'id="empty-seats">(.*?)</p>', page, re.S).group(1).split())
    assert said.startswith(
        "7 of the 8 seats are empty. A half-year title is not decided yet: its seat waits "
        "for its champion. Every monthly champion of the period is in already."
    )


def test_a_woman_in_the_top_6_leaves_the_seat_to_the_next_woman(grand_champion_history):
    m = grand_champion_history
    flag(m[3], m[6])
    race = grand_champion_race(2025, today=TODAY)
    assert ("M3", "top 6", 100) in names(race.qualified)
    assert names(race.qualified)[-1] == ("M6", "women's division", -450)
    assert names(race.substitutes) == [("M5", "substitute", -210)]


def test_the_qualifiers_command_prints_the_race(grand_champion_history, monkeypatch):
    flag(grand_champion_history[5])
    monkeypatch.setattr("tournaments.races.club_today", lambda: TODAY)
    out = io.StringIO()
    call_command("qualifiers", "grand-champion", "--year", "2025", stdout=out)
    printed = json.loads(out.getvalue())
    assert printed["qualified"][0] == {"member": "M7", "reason": "top 6", "points": 560}
    assert printed["qualified"][-1] == {
        "member": "M5",
        "reason": "women's division",
        "points": -210,
    }
    assert printed["substitutes"] == [{"member": "M6", "reason": "substitute", "points": -450}]
    out = io.StringIO()
    call_command("qualifiers", "meijin", "--year", "2026", stdout=out)
    meijin = json.loads(out.getvalue())
    assert [q["member"] for q in meijin["qualified"]] == [
        "M0", "M6", "M1", "M4", "M2", "M3", "M5", "M7",
    ]  # fmt: skip


def test_the_race_pages(m, client_for, monkeypatch):
    monkeypatch.setattr("tournaments.race_pages.club_today", lambda: TODAY)
    client = client_for(m[0])
    client.cookies["django_language"] = "en"
    page = client.get(reverse("tournaments:race_meijin", args=[2026])).text
    qualified = re.search(r'id="qualified".*?</section>', page, re.S).group(0)
    assert qualified.index("M0") < qualified.index("M6") < qualified.index("M1")
    assert "second-half champion 2025" in qualified and "126.0" in qualified
    assert "70.0" in qualified
    assert "The race is over" in page
    substitutes = re.search(r'id="substitutes".*?</section>', page, re.S).group(0)
    assert "M8" in substitutes and "6.0" in substitutes
    gc = client.get(reverse("tournaments:race_grand_champion", args=[2025])).text
    assert "20.0" in gc  # M0: two titles
    assert client.get("/tournaments/races/meijin/1900/").status_code == 404
    assert 'href="/tournaments/races/grand-champion/' in client.get("/tournaments/").text


def test_the_meijin_b_seats_tie_by_titles_then_reading():
    """Equal champion months are ordered by the number of monthly titles
    (most first), then by the reading of the name, as the race page says."""
    from tournaments.races import Runner, meijin_b_order

    one_title = Runner(1, "Aoki", "あおき", False)
    three_titles = Runner(2, "Wada", "わだ", False)
    for runner, titles in ((one_title, 1), (three_titles, 3)):
        runner.best_month, runner.titles = 560, titles
    better_month = Runner(3, "Zen", "ぜん", False)
    better_month.best_month, better_month.titles = 700, 1
    assert sorted([one_title, three_titles, better_month], key=meijin_b_order) == [
        better_month,
        three_titles,
        one_title,
    ]


def test_a_half_year_decided_with_no_holder_gives_its_seat_to_the_months(m):
    # Nobody plays 99 games in a half year: both halves are decided without a holder.
    with override_settings(CHAMPION_MIN_GAMES=1, HALF_YEAR_CHAMPION_MIN_GAMES=99):
        race = meijin_race(2026, today=TODAY)
    assert len(race.qualified) == 8
    assert all(e.reason.startswith("monthly champion") for e in race.qualified)
    # The four +70.0 months first (M0 July, M1 June, M4 December, M6 February: by reading).
    assert [e.runner.name for e in race.qualified[:4]] == ["M0", "M1", "M4", "M6"]
