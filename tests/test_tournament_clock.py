"""The round's clock (rules-spec T-07, §4.1): a GP preliminary round starts
with its length, every table shows the time left, time is called by a steward or by the clock
at the end, a table sees "time up" before the tap (its preview ends the game), and a table
given extra time keeps playing."""

from __future__ import annotations

import datetime
import re
import uuid
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from clubsite.models import Member
from scoring.ledger import hand_record
from scoring.models import Hanchan, LedgerChange
from tests.conftest import make_member
from tournaments import clock
from tournaments.formats import GP_ROUND_MINUTES
from tournaments.models import Event, Round, Table
from tournaments.services import (
    EventError,
    event_create,
    event_draw,
    participants_set,
    round_call_time,
    round_start,
)

RON = {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]}


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def gp(db) -> Event:
    """A GP for 8 drawn, its first (time-limited) round not started."""
    event = event_create(
        name="GP", format_key="gp", ruleset_id="makura-1.5", starts_on=timezone.localdate(), seed=3
    )
    players = [make_member(f"c{i}", f"C{i}", "") for i in range(8)]
    participants_set(event_id=event.pk, members=players)
    event_draw(event_id=event.pk)
    return event


def first_round(event: Event) -> Round:
    return Round.objects.select_related("phase").get(event=event, number=1)


def rewind(rnd: Round, minutes: int) -> None:
    """Move the round's start and end ``minutes`` into the past (the clock ran that long)."""
    rnd.refresh_from_db()
    delta = datetime.timedelta(minutes=minutes)
    Round.objects.filter(pk=rnd.pk).update(
        started_at=rnd.started_at - delta, ends_at=rnd.ends_at - delta
    )


def english_client(client_for: Callable[[Member], Client], member: Member) -> Client:
    client = client_for(member)
    client.cookies["django_language"] = "en"
    return client


def test_the_gp_preliminaries_have_a_clock_and_the_finals_none(gp):
    phases = list(gp.phases.order_by("number"))
    limits = [(p.time_limited, p.minutes) for p in phases]
    assert limits == [(True, GP_ROUND_MINUTES), (False, None)]
    rnd = first_round(gp)
    before = timezone.now()
    round_start(round_id=rnd.pk)
    rnd.refresh_from_db()
    assert rnd.ends_at - rnd.started_at == datetime.timedelta(minutes=60)
    assert rnd.started_at >= before


def test_the_steward_gives_the_round_its_length(gp):
    rnd = first_round(gp)
    with pytest.raises(EventError, match="1 to 300 minutes"):
        round_start(round_id=rnd.pk, minutes=0)
    assert Round.objects.get(pk=rnd.pk).started_at is None  # refused: nothing started
    round_start(round_id=rnd.pk, minutes=45)
    rnd.refresh_from_db()
    assert rnd.ends_at - rnd.started_at == datetime.timedelta(minutes=45)


def test_the_clock_counts_down_and_calls_time_at_the_end():
    start = timezone.now()
    running = clock.Clock(start + datetime.timedelta(seconds=61), 0, False, True, start)
    assert (running.state, running.minutes_left, running.due) == ("running", 2, False)
    over = clock.Clock(start, 0, False, True, start + datetime.timedelta(seconds=1))
    assert (over.state, over.minutes_left, over.due, over.time_up) == ("time_up", 0, True, True)
    finished = clock.Clock(start, 0, True, False, start + datetime.timedelta(seconds=1))
    assert (finished.state, finished.due) == ("over", False)


def test_the_table_polls_its_clock_in_one_small_query(gp, client_for, outsider):
    rnd = first_round(gp)
    round_start(round_id=rnd.pk)
    game = rnd.tables.get(number=1).hanchan
    client = english_client(client_for, outsider)
    client.get(f"/tournaments/games/{game.pk}/clock/")  # the session and the user, cached
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/tournaments/games/{game.pk}/clock/?seen=running")
    mine = [q["sql"] for q in queries if "tournaments_table" in q["sql"]]
    assert len(mine) == 1 and '"state"' not in mine[0]  # the game's state is not read
    assert len(queries) <= 4  # the session, the club, the user, the clock
    html = response.text
    assert 'hx-trigger="every 10s"' in html
    assert re.search(r'id="clock-left">60 min<', html)
    assert "Time up" not in html


def test_at_the_end_the_clock_calls_time_and_the_table_says_so(gp, client_for, outsider):
    rnd = first_round(gp)
    round_start(round_id=rnd.pk)
    rewind(rnd, 61)
    game = rnd.tables.get(number=1).hanchan
    client = english_client(client_for, outsider)
    html = client.get(f"/tournaments/games/{game.pk}/clock/?seen=running").text
    assert "Time up: this hand ends the game." in html
    # The phone that showed the clock running draws its hand form again, once.
    assert f'hx-get="/games/{game.pk}/"' in html and 'hx-target="#hand-entry"' in html
    game.refresh_from_db()
    assert game.time_called
    calls = game.changes.filter(action=LedgerChange.Action.TIME_CALLED)
    assert [(c.after, c.by_id) for c in calls] == [({"time_called": True}, None)]
    again = client.get(f"/tournaments/games/{game.pk}/clock/?seen=time_up").text
    assert 'hx-target="#hand-entry"' not in again
    assert game.changes.filter(action=LedgerChange.Action.TIME_CALLED).count() == 1
    # The other table is called by its own poll, the event page or the board.
    other = rnd.tables.get(number=2).hanchan
    assert not Hanchan.objects.get(pk=other.pk).time_called
    client.get(f"/tournaments/{gp.pk}/")
    assert Hanchan.objects.get(pk=other.pk).time_called


def test_the_table_screen_says_time_up_before_the_tap(gp, client_for):
    rnd = first_round(gp)
    round_start(round_id=rnd.pk)
    table = rnd.tables.get(number=1)
    game = table.hanchan
    seated = Member.objects.get(pk=game.seats.get(index=0).member_id)
    client = english_client(client_for, seated)
    page = client.get(f"/games/{game.pk}/").text
    assert 'id="table-clock"' in page and 'id="clock-left">60 min<' in page
    assert "time-up-confirm" not in page
    round_call_time(round_id=rnd.pk)
    game.refresh_from_db()
    page = client.get(f"/games/{game.pk}/").text
    assert 'id="time-up"' in page and 'id="time-up-confirm"' in page
    # The preview of the next hand already ends the game with its settlement ...
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    preview = client.post(
        f"/games/{game.pk}/hands/preview/",
        {
            "csrfmiddlewaretoken": token,
            "request_id": str(uuid.uuid4()),
            "version": game.version,
            "result": "ron",
            "loser": "2",
            "winners": "1",
            "value_1": "3-30",
        },
        headers={"HX-Request": "true"},
    ).text
    assert "The game ends: Time was called" in preview
    assert 'id="preview-final"' in preview and 'id="preview-next"' not in preview
    assert 'id="time-up-confirm"' in preview
    # ... as the hand then recorded does.
    hand_record(
        hanchan_id=game.pk, hand=RON, expected_version=game.version, request_id=uuid.uuid4()
    )
    game.refresh_from_db()
    assert (game.status, game.ended_by) == (Hanchan.Status.FINISHED, "time_up")


def test_a_table_given_extra_time_plays_on(gp, client_for, staff_member):
    rnd = first_round(gp)
    round_start(round_id=rnd.pk)
    rewind(rnd, 58)
    table = rnd.tables.get(number=2)
    steward = english_client(client_for, staff_member)
    page = steward.get(f"/tournaments/{gp.pk}/").text
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    url = f"/tournaments/{gp.pk}/games/{table.hanchan_id}/extra-time/"
    refused = steward.post(url, {"csrfmiddlewaretoken": token, "minutes": "61"})
    assert refused.status_code == 409 and "1 to 60 minutes" in refused.text
    assert Table.objects.get(pk=table.pk).extra_minutes == 0
    assert steward.post(url, {"csrfmiddlewaretoken": token, "minutes": "5"}).status_code == 302
    rewind(rnd, 3)  # 61 minutes in: table 1 is over time, table 2 has 4 minutes left
    page = steward.get(f"/tournaments/{gp.pk}/").text
    assert re.search(r'id="extra-2">Table 2: 5 min extra time · 4 min left<', page)
    called = {t.number: t.hanchan.time_called for t in rnd.tables.select_related("hanchan")}
    assert called == {1: True, 2: False}


def test_extra_time_takes_back_a_call_the_clock_made(gp):
    rnd = first_round(gp)
    round_start(round_id=rnd.pk)
    rewind(rnd, 61)
    table = rnd.tables.select_related("hanchan").get(number=1)
    assert clock.call_due([(Round.objects.get(pk=rnd.pk), table, table.hanchan)]) == 1
    clock.table_extra_time(table_id=table.pk, minutes=10)
    table.hanchan.refresh_from_db()
    assert not table.hanchan.time_called  # 9 minutes are left to it
    calls = table.hanchan.changes.filter(action="time_called")
    actions = list(calls.values_list("after", flat=True))
    assert actions == [{"time_called": True}, {"time_called": False}]


def test_the_steward_calls_time_early_but_extra_time_still_runs(gp):
    rnd = first_round(gp)
    round_start(round_id=rnd.pk)
    table = rnd.tables.get(number=2)
    clock.table_extra_time(table_id=table.pk, minutes=5)
    assert round_call_time(round_id=rnd.pk) == 1
    rnd.refresh_from_db()
    assert rnd.ends_at <= timezone.now()
    called = {t.number: t.hanchan.time_called for t in rnd.tables.select_related("hanchan")}
    assert called == {1: True, 2: False}


def test_the_finals_have_no_clock_to_give_extra_time(gp):
    rnd = first_round(gp)
    round_start(round_id=rnd.pk)
    Round.objects.filter(pk=rnd.pk).update(ends_at=None)
    with pytest.raises(clock.ClockError, match="no clock"):
        clock.table_extra_time(table_id=rnd.tables.get(number=1).pk, minutes=5)


def test_the_event_page_shows_the_round_clock_polling(gp, client_for, outsider):
    rnd = first_round(gp)
    round_start(round_id=rnd.pk, minutes=90)
    html = english_client(client_for, outsider).get(f"/tournaments/{gp.pk}/").text
    assert 'id="round-clock-1"' in html and 'hx-trigger="every 15s"' in html
    assert re.search(r'class="clock-left">90 min<', html)
    fragment = english_client(client_for, outsider).get(f"/tournaments/{gp.pk}/rounds/1/clock/")
    assert fragment.status_code == 200 and "90 min" in fragment.text


def test_the_steward_starts_the_round_with_a_length_and_calls_time_from_the_page(
    gp, client_for, staff_member
):
    steward = english_client(client_for, staff_member)
    page = steward.get(f"/tournaments/{gp.pk}/").text
    assert re.search(r'<input type="number" id="round-minutes" [^>]*value="60"', page)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    start = f"/tournaments/{gp.pk}/rounds/1/start/"
    refused = steward.post(start, {"csrfmiddlewaretoken": token, "minutes": "an hour"})
    assert refused.status_code == 409 and "Give the round&#x27;s length in minutes." in refused.text
    assert steward.post(start, {"csrfmiddlewaretoken": token, "minutes": "45"}).status_code == 302
    rnd = first_round(gp)
    assert rnd.ends_at - rnd.started_at == datetime.timedelta(minutes=45)
    page = steward.get(f"/tournaments/{gp.pk}/").text
    assert 'id="call-time-step"' in page and "Yes, call time now" in page
    call = f"/tournaments/{gp.pk}/rounds/1/call-time/"
    called = steward.post(call, {"csrfmiddlewaretoken": token})
    assert called.status_code == 302
    assert all(t.hanchan.time_called for t in rnd.tables.select_related("hanchan"))
    page = steward.get(f"/tournaments/{gp.pk}/").text
    assert re.search(r'class="clock-left">Time up</b> · 2 tables finishing their last hand', page)


def test_a_phone_that_saw_time_up_draws_its_form_again_when_extra_time_takes_it_back(
    gp, client_for, outsider
):
    rnd = first_round(gp)
    round_start(round_id=rnd.pk)
    table = rnd.tables.get(number=1)
    round_call_time(round_id=rnd.pk)
    clock.table_extra_time(table_id=table.pk, minutes=5)
    client = english_client(client_for, outsider)
    html = client.get(f"/tournaments/games/{table.hanchan_id}/clock/?seen=time_up").text
    assert 'hx-target="#hand-entry"' in html and "Time up" not in html
    assert re.search(r'id="clock-left">5 min<', html) and "5 min extra time" in html
    again = client.get(f"/tournaments/games/{table.hanchan_id}/clock/?seen=running").text
    assert 'hx-target="#hand-entry"' not in again


def test_the_japanese_time_call_counts_the_tables_on_their_last_hand():
    """The time call's "最終局の卓：4卓" was once read as "table 4"; the count says how many
    remain."""
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    context = {
        "rnd": SimpleNamespace(number=1, event_id=1),
        "clock": SimpleNamespace(time_up=True),
        "playing": 4,
    }
    with translation.override("ja"):
        html = render_to_string("tournaments/_round_clock.html", context)
    assert "時間切れ</b> · 最終局の卓が残り4卓</p>" in html
