"""Substitutions at a running tournament (tournaments/substitutions.py): the
re-seat's bounds (40 players within 10 s, at most 2 repeat meetings added over the draw left
undisturbed), the rounds played untouched, the substitute seated, nothing written until the
steward accepts, a withdrawal that leaves whole tables and one that would leave a table short,
the event's log, and the steward's page in Japanese and English."""

from __future__ import annotations

import re
import time
from itertools import combinations
from types import SimpleNamespace

import pytest
from django.urls import reverse
from django.utils import translation

from clubsite.models import Member
from scoring.standings import club_today
from tests.conftest import make_member
from tests.test_tournaments import play_round
from tournaments import formats
from tournaments.live_ranking import event_ranking
from tournaments.models import Event, Participant, Round, Substitution
from tournaments.services import (
    event_advance,
    event_create,
    event_draw,
    participants_set,
    round_start,
)
from tournaments.substitutions import (
    MAX_ADDED_REPEATS,
    Change,
    SubstitutionError,
    accept,
    propose,
    registered_substitutes,
)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def field(count: int, prefix: str = "p") -> list[Member]:
    return [make_member(f"{prefix}{i:02d}", f"{prefix.upper()}{i:02d}", "") for i in range(count)]


def running(
    count: int, rounds: int, *, seed: int = 11, played: int = 1, ruleset: str = "makura-1.5"
) -> Event:
    """A custom event of ``count`` players over ``rounds`` rounds by lot, drawn, with its first
    ``played`` rounds started and entered."""
    event = event_create(
        name="Club open",
        format_key="custom",
        ruleset_id=ruleset,
        starts_on=club_today(),
        plan=formats.custom(preliminary_rounds=rounds),
        seed=seed,
    )
    participants_set(event_id=event.pk, members=field(count))
    event_draw(event_id=event.pk)
    event.refresh_from_db()
    for rnd in Round.objects.filter(event=event).order_by("number")[:played]:
        round_start(round_id=rnd.pk)
        rnd.refresh_from_db()
        play_round(rnd, better=lambda n: n)
    return event


def seatings(event: Event) -> dict[int, list[list[int]]]:
    return {r.number: r.seating for r in Round.objects.filter(event=event)}


def repeats(rounds: list[list[list[int]]], players: int) -> int:
    """Repeat meetings counted here, independently of the code under test."""
    met: dict[tuple[int, int], int] = {}
    for tables in rounds:
        for table in tables:
            for pair in combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + 1
    return sum(m - 1 for m in met.values())


def test_forty_players_are_reseated_within_10_s_adding_at_most_2_repeats(db):
    event = running(40, 8, seed=11, played=2)
    drawn = seatings(event)
    outsider = make_member("sub", "Sub", "さぶ")
    leaving = drawn[3][0][1]  # a player at table 1 of the first round not started

    started = time.monotonic()
    proposal = propose(event, [Change(leaving, outsider)])
    assert time.monotonic() - started < 10.0

    assert proposal.from_round == 3
    assert proposal.numbers == {leaving: 40}
    before = [drawn[n] for n in range(1, 9)]
    after = [drawn[1], drawn[2]] + [d.tables for d in proposal.after]
    assert proposal.repeats_before == repeats(before, 41)
    assert proposal.repeats_after == repeats(after, 41)
    assert proposal.repeats_after <= proposal.repeats_before + MAX_ADDED_REPEATS
    assert [d.number for d in proposal.before] == [3, 4, 5, 6, 7, 8]
    for draw in proposal.after:
        seated = sorted(p for table in draw.tables for p in table)
        assert seated == sorted(set(range(41)) - {leaving})  # the substitute in, the leaver out
        assert all(len(table) == 4 for table in draw.tables)
    # Nothing is written by the proposal.
    assert seatings(event) == drawn
    assert not Participant.objects.filter(event=event, member=outsider).exists()
    assert not Substitution.objects.exists()


def test_a_search_reseat_of_40_players_stays_within_the_bound(db):
    """With a withdrawal of a whole table (no seat-for-seat candidate), the re-seat is the
    search's alone: still within 2 repeat meetings of the undisturbed draw."""
    event = running(40, 8, seed=5, played=2)
    drawn = seatings(event)
    leavers = drawn[3][2]  # the four players of table 3 of round 3
    started = time.monotonic()
    proposal = propose(event, [Change(n) for n in leavers])
    assert time.monotonic() - started < 10.0
    assert not proposal.kept_seats
    after = [drawn[1], drawn[2]] + [d.tables for d in proposal.after]
    assert proposal.repeats_after == repeats(after, 40)
    assert proposal.repeats_after - proposal.repeats_before <= 2
    for draw in proposal.after:
        assert sorted(p for t in draw.tables for p in t) == sorted(set(range(40)) - set(leavers))
        assert len(draw.tables) == 9


def test_accepting_writes_the_substitution_and_keeps_the_played_rounds(db, staff_member):
    event = running(16, 4, seed=3, played=1)
    drawn = seatings(event)
    leaving = drawn[1][0][0]
    outsider = make_member("sub", "Sub", "さぶ")
    first = Round.objects.get(event=event, number=1)
    games = {
        t.number: list(t.hanchan.seats.values_list("member_id", flat=True))
        for t in first.tables.all()
    }
    ranked_before = {row.number: row.total for row in event_ranking(event).rows}

    proposal = propose(event, [Change(leaving, outsider)])
    assert proposal.kept_seats  # 16 at tables of 4: the seat for seat draw has no repeat
    assert proposal.attempt == -1
    assert proposal.repeats_after == 0 == proposal.repeats_before
    log = accept(
        event_id=event.pk,
        changes=[Change(leaving, outsider)],
        fingerprint=proposal.fingerprint,
        attempt=proposal.attempt,
        by=staff_member,
    )

    after = seatings(event)
    assert after[1] == drawn[1]  # the round played stays as it was
    assert games == {
        t.number: list(t.hanchan.seats.values_list("member_id", flat=True))
        for t in first.tables.all()
    }
    sub = Participant.objects.get(event=event, member=outsider)
    assert sub.number == 16 and not sub.withdrawn
    assert Participant.objects.get(event=event, number=leaving).withdrawn
    for number in (2, 3, 4):
        assert after[number] == [d.tables for d in proposal.after if d.number == number][0]
        assert any(sub.number in table for table in after[number])
        assert not any(leaving in table for table in after[number])
    # The leaving player keeps the results of round 1; the substitute has none yet.
    rows = {row.number: row for row in event_ranking(event).rows}
    assert rows[leaving].total == ranked_before[leaving] and rows[leaving].withdrawn
    assert rows[16].total == 0 and rows[16].games == 0
    # The log says who replaced whom from which round.
    assert [(s.left.number, s.substitute.number, s.from_round, s.by) for s in log] == [
        (leaving, 16, 2, staff_member)
    ]
    # The substitute plays round 2 under their own name.
    round_two = Round.objects.get(event=event, number=2)
    round_start(round_id=round_two.pk)
    table = next(
        t
        for t in round_two.tables.all()
        if outsider.pk in set(t.hanchan.seats.values_list("member_id", flat=True))
    )
    assert table.number == next(i for i, t in enumerate(after[2], 1) if 16 in t)


def test_a_stale_proposal_is_refused_and_nothing_is_written(db):
    event = running(16, 4, seed=3, played=1)
    drawn = seatings(event)
    outsider, other = make_member("sub", "Sub", ""), make_member("sub2", "Sub2", "")
    proposal = propose(event, [Change(drawn[1][0][0], outsider)])
    with pytest.raises(SubstitutionError, match="changed since"):
        accept(
            event_id=event.pk,
            changes=[Change(drawn[1][0][0], other)],
            fingerprint=proposal.fingerprint,
        )
    assert seatings(event) == drawn
    assert Participant.objects.filter(event=event).count() == 16
    assert not Participant.objects.filter(event=event, withdrawn=True).exists()
    assert not Substitution.objects.exists()


def test_a_withdrawal_that_leaves_a_table_short_needs_a_substitute(db):
    event = running(16, 4, seed=3, played=1)
    drawn = seatings(event)
    with pytest.raises(SubstitutionError, match="15 players would remain.*needs a substitute"):
        propose(event, [Change(drawn[1][0][0])])
    assert seatings(event) == drawn


def test_a_withdrawal_of_a_whole_table_reseats_the_players_who_remain(db, monkeypatch):
    """12 players left over 3 rounds where 16 were drawn: the search tries further seeds while
    over the bound; accepting draws the seed chosen again, however fast the machine is."""
    event = running(16, 4, seed=3, played=1)
    drawn = seatings(event)
    leavers = drawn[2][1]
    proposal = propose(event, [Change(n) for n in leavers])
    assert not proposal.kept_seats  # the search's or the short tables merged
    monkeypatch.setattr("tournaments.substitutions.TIME_BUDGET_SECONDS", 0.0)
    accept(
        event_id=event.pk,
        changes=[Change(n) for n in leavers],
        fingerprint=proposal.fingerprint,
        attempt=proposal.attempt,
    )
    after = seatings(event)
    assert after[1] == drawn[1]
    assert [after[n] for n in (2, 3, 4)] == [d.tables for d in proposal.after]
    assert proposal.searched_repeats is not None
    assert proposal.repeats_after <= proposal.searched_repeats
    if proposal.mended:  # the tables no leaver sat at stay as drawn
        for number in (3, 4):
            untouched = [t for t in drawn[number] if not set(t) & set(leavers)]
            assert all(t in after[number] for t in untouched)
    remaining = sorted(set(range(16)) - set(leavers))
    for number in (2, 3, 4):
        assert len(after[number]) == 3
        assert sorted(p for t in after[number] for p in t) == remaining
    assert set(
        Participant.objects.filter(event=event, withdrawn=True).values_list("number", flat=True)
    ) == set(leavers)
    assert [(s.left.number, s.substitute) for s in Substitution.objects.order_by("pk")] == [
        (n, None) for n in leavers
    ]


@pytest.mark.parametrize(
    ("case", "says"),
    [
        ("withdrawn", "still in the tournament"),
        ("entered", "not entered in the tournament"),
        ("twice", "chosen twice"),
    ],
)
def test_bad_substitutions_are_refused(db, case, says):
    event = running(16, 4, seed=3, played=1)
    participants = list(Participant.objects.filter(event=event).select_related("member"))
    outsider = make_member("sub", "Sub", "")
    if case == "withdrawn":
        Participant.objects.filter(pk=participants[0].pk).update(withdrawn=True)
        changes = [Change(participants[0].number, outsider)]
    elif case == "entered":
        changes = [Change(participants[0].number, participants[1].member)]
    else:
        changes = [Change(0, outsider), Change(1, outsider)]
    with pytest.raises(SubstitutionError, match=says):
        propose(event, changes)


def test_the_steward_sees_before_and_after_then_accepts(db, client, staff_member):
    event = running(16, 4, seed=3, played=1)
    drawn = seatings(event)
    leaving = drawn[1][0][0]
    outsider = make_member("sub", "Sub", "さぶ")
    client.force_login(staff_member.user)
    url = reverse("tournaments:substitutions", args=[event.pk])
    page = client.get(
        url, {"leaving": [leaving], "substitutes": [outsider.pk]}, HTTP_ACCEPT_LANGUAGE="en"
    )
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="before-2"' in html and 'id="after-2"' in html
    assert "Repeat meetings" in html and "Sub" in html
    assert seatings(event) == drawn  # showing it writes nothing
    fingerprint = page.context["proposal"].fingerprint
    done = client.post(
        reverse("tournaments:substitutions_accept", args=[event.pk]),
        {"leaving": [leaving], "substitutes": [outsider.pk], "fingerprint": fingerprint},
    )
    assert done.status_code == 302
    assert Participant.objects.get(event=event, member=outsider).number == 16
    log = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "から" in log and "Sub" in log  # the log: who replaced whom from which round
    # The event page too, for everyone: the log, and the substitute in the ranking.
    client.force_login(Member.objects.get(display_name="P00").user)
    detail = client.get(
        reverse("tournaments:detail", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    made = detail[detail.index('id="substitutions-made"') :]
    leaver = Participant.objects.get(event=event, number=leaving).member.display_name
    assert f"From round 2: Sub replaces {leaver}" in " ".join(made.split())
    assert 'id="substitutions"' not in detail  # the desk's button is the steward's


def test_a_member_cannot_open_the_substitutions_page(db, client, member):
    event = running(8, 2, seed=3, played=0)
    client.force_login(member.user)
    url = reverse("tournaments:substitutions", args=[event.pk])
    assert client.get(url).status_code == 403


def test_the_reseat_search_is_deterministic(db):
    event = running(40, 6, seed=2, played=1)
    leavers = seatings(event)[2][0]
    first = propose(event, [Change(n) for n in leavers])
    second = propose(event, [Change(n) for n in leavers])
    assert first.fingerprint == second.fingerprint
    assert [d.tables for d in first.after] == [d.tables for d in second.after]


def test_the_race_substitutes_of_a_meijin_come_first(db, client, staff_member, monkeypatch):
    """A Meijin's 補欠 (seed 001 L403) are listed first, in the race's order; the race itself
    is tested in tests/test_qualification.py, here it is given."""
    event = event_create(
        name="名人戦", format_key="meijin", ruleset_id="makura-1.5", starts_on=club_today(), seed=1
    )
    participants_set(event_id=event.pk, members=field(8))
    event_draw(event_id=event.pk)
    first_sub, second_sub = make_member("s1", "わ補欠", "わ"), make_member("s2", "あ補欠", "あ")
    entered = Participant.objects.filter(event=event).first()
    race = SimpleNamespace(
        substitutes=[
            SimpleNamespace(runner=SimpleNamespace(member_id=pk))
            for pk in (first_sub.pk, entered.member_id, second_sub.pk)
        ]
    )
    asked: list[int] = []
    monkeypatch.setattr("tournaments.races.meijin_race", lambda year: asked.append(year) or race)
    assert registered_substitutes(event) == [first_sub, second_sub]  # the entered one left out
    assert asked == [club_today().year]
    client.force_login(staff_member.user)
    page = client.get(
        reverse("tournaments:substitutions", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="ja"
    )
    html = page.content.decode()
    incoming = html[html.index('id="sub-incoming"') :]
    values = re.findall(r'name="substitutes" value="(\d+)"', incoming)
    assert values[:2] == [str(first_sub.pk), str(second_sub.pk)]
    assert "補欠1" in incoming and "補欠2" in incoming
    assert len(values) == Member.objects.count() - 8  # every member not entered


def test_tables_of_3_take_a_substitute_or_a_withdrawal_of_three(db):
    """At 3-player tables (a 3-player ruleset), before any round: the change starts with
    round 1; one withdrawal leaves a table short, three leave whole tables."""
    event = running(12, 4, seed=8, played=0, ruleset="tenhou-3p")
    drawn = seatings(event)
    outsider = make_member("sub", "Sub", "")
    proposal = propose(event, [Change(drawn[1][0][0], outsider)])
    assert proposal.from_round == 1 and proposal.repeats_after <= proposal.repeats_before + 2
    assert all(len(t) == 3 for d in proposal.after for t in d.tables)
    assert all(any(12 in t for t in d.tables) for d in proposal.after)
    with pytest.raises(SubstitutionError, match="11 players would remain, and tables seat 3"):
        propose(event, [Change(drawn[1][0][0])])
    three = propose(event, [Change(n) for n in drawn[1][0]])
    assert [len(d.tables) for d in three.after] == [3, 3, 3, 3]


def test_a_draw_with_repeats_gains_at_most_2_from_a_substitution(db):
    """24 players over 8 rounds cannot avoid repeat meetings (the best known table has 24):
    replacing a player after round 3 adds at most 2 to the pairing table's figure."""
    event = running(24, 8, seed=17, played=3)
    drawn = seatings(event)
    outsider = make_member("sub", "Sub", "")
    proposal = propose(event, [Change(drawn[4][1][2], outsider)])
    before = [drawn[n] for n in range(1, 9)]
    after = [drawn[n] for n in (1, 2, 3)] + [d.tables for d in proposal.after]
    assert proposal.repeats_before == repeats(before, 25) > 0
    assert proposal.repeats_after == repeats(after, 25)
    assert proposal.repeats_after <= proposal.repeats_before + MAX_ADDED_REPEATS


def test_rounds_by_standing_keep_their_tables_with_the_substitute_in_the_seat(db):
    """The Meijin's rounds 3-4, seated by standing (§4.3, T-03) and not started: the
    substitute sits where the leaver sat; no one else moves."""
    event = event_create(
        name="名人戦", format_key="meijin", ruleset_id="makura-1.5", starts_on=club_today(), seed=1
    )
    participants_set(event_id=event.pk, members=field(8))
    event_draw(event_id=event.pk)
    for rnd in Round.objects.filter(event=event).order_by("number"):
        round_start(round_id=rnd.pk)
        rnd.refresh_from_db()
        play_round(rnd, better=lambda n: n)
    event_advance(event_id=event.pk)
    event.refresh_from_db()
    drawn = seatings(event)
    assert sorted(drawn) == [1, 2, 3, 4]
    leaving = drawn[3][1][0]
    outsider = make_member("sub", "Sub", "")
    proposal = propose(event, [Change(leaving, outsider)])
    assert proposal.from_round == 3 and proposal.kept_seats
    for draw in proposal.after:
        assert draw.tables == [[8 if p == leaving else p for p in t] for t in drawn[draw.number]]
    # Four withdraw, two from each table: the four who remain make one table.
    leavers = drawn[3][0][:2] + drawn[3][1][:2]
    four = propose(event, [Change(n) for n in leavers])
    remaining = sorted(set(range(8)) - set(leavers))
    assert [[sorted(t) for t in d.tables] for d in four.after] == [[remaining], [remaining]]
