"""A deactivated member is offered no seat: the new game's seat lists (and so
the games entered as final scores, started there), the tournament picker and its count, the
draw and its rounds, the substitutes, the meetup line-up and the online-name mapping; a
seating that holds one is refused with their name and nothing is written."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubsite.models import Member, deactivated_names
from meetings import services as meetup_services
from meetings.models import Application
from meetings.services import MeetupError
from meetings.views import declare_picks
from scoring.ledger import LedgerError, hanchan_start, match_players
from scoring.models import Hanchan
from scoring.online.log import OnlineLog
from scoring.standings import club_today
from tests.conftest import make_member
from tests.test_meetings_support import apply, day, fresh, more_members
from tests.test_meetings_support import post as call_for_players
from tests.test_tournament_pages import post
from tests.test_tournaments import play_round
from tournaments import formats
from tournaments.models import Event, Round
from tournaments.services import (
    EventError,
    event_advance,
    event_create,
    event_draw,
    participants_set,
    round_start,
)
from tournaments.substitutions import Change, SubstitutionError, propose, registered_substitutes

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def client_for(client_for: Callable[[Member], Client]) -> Callable[[Member], Client]:
    """The personas' clients, reading the pages in English."""

    def english_client(member: Member) -> Client:
        client = client_for(member)
        client.cookies["django_language"] = "en"
        return client

    return english_client


def deactivate(member: Member) -> Member:
    member.active = False
    member.save(update_fields=["active"])
    return member


def players(count: int, prefix: str = "p") -> list[Member]:
    return [make_member(f"{prefix}{i:02d}", f"{prefix.upper()}{i:02d}", "") for i in range(count)]


def test_deactivated_names_lists_them_in_the_order_given():
    a, b, c = players(3)
    deactivate(c)
    deactivate(a)
    assert deactivated_names([b, c, a]) == ["P02", "P00"]
    assert list(Member.objects.seatable()) == [b]


# -- a game at the club ---------------------------------------------------------------------


def test_the_new_game_seat_lists_leave_a_deactivated_member_out(member, client_for):
    others = players(4)
    deactivate(others[3])
    page = client_for(member).get(reverse("game_new")).content.decode()
    assert f'value="{others[0].pk}"' in page
    assert f'value="{others[3].pk}"' not in page and "P03" not in page
    # Nor does a search by name find them.
    found = client_for(member).get(reverse("game_new"), {"q": "P0"}).content.decode()
    assert "P00" in found and "P03" not in found


def test_a_game_seating_a_deactivated_member_is_refused_and_nothing_is_written(member):
    others = players(3)
    deactivate(others[2])
    with pytest.raises(LedgerError) as refused:
        hanchan_start(
            ruleset_id="makura-1.5", members=[member, *others], played_on=club_today(), by=member
        )
    assert str(refused.value) == (
        "A deactivated member cannot be seated: “P02”. A steward can reactivate them at the "
        "members desk."
    )
    assert refused.value.field == "players"
    assert not Hanchan.objects.exists()


def test_a_posted_seat_of_a_deactivated_member_is_refused(member, client_for):
    others = players(3)
    deactivate(others[1])
    client = client_for(member)
    client.get(reverse("game_new"))
    data = {
        "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
        "ruleset": "makura-1.5",
        "played_on": club_today().isoformat(),
        **{f"player_{i}": m.pk for i, m in enumerate([member, *others])},
    }
    response = client.post(reverse("game_new"), data)
    assert response.status_code == 200
    assert "player_2" in response.context["form"].errors
    assert not Hanchan.objects.exists()


def test_the_refusal_names_them_in_japanese(member):
    others = players(3)
    deactivate(others[0])
    deactivate(others[2])
    with translation.override("ja"), pytest.raises(LedgerError) as refused:
        hanchan_start(ruleset_id="makura-1.5", members=[member, *others], played_on=club_today())
    assert "「P00」、「P02」" in str(refused.value)


# -- tournaments ------------------------------------------------------------------------------


def custom_event(rounds: int = 4, **plan: int) -> Event:
    return event_create(
        name="Club open",
        format_key="custom",
        ruleset_id="makura-1.5",
        starts_on=club_today(),
        plan=formats.custom(preliminary_rounds=rounds, **plan),
        seed=5,
    )


def test_the_tournament_picker_neither_lists_nor_counts_a_deactivated_member(
    staff_member, client_for
):
    field = players(8)
    event = custom_event()
    participants_set(event_id=event.pk, members=field)
    deactivate(field[7])
    deactivate(make_member("gone", "Gone", "ごーん"))
    page = client_for(staff_member).get(reverse("tournaments:participants", args=[event.pk]))
    html = page.content.decode()
    # 8 active members: the steward and P00-P06; the one entered before is named apart.
    assert html.count('class="ev-pick"') == 8
    assert f'value="{field[7].pk}"' not in html and "Gone" not in html
    assert '<output id="ticked-count">7</output>' in html
    assert page.context["member_count"] == 8
    assert "Deactivated since they were entered, left out when you save: “P07”." in html


def test_the_picker_refuses_a_posted_deactivated_member(staff_member, client_for):
    field = players(8)
    event = custom_event()
    deactivate(field[0])
    steward = client_for(staff_member)
    picker = reverse("tournaments:participants", args=[event.pk])
    response = post(steward, picker, {"members": [m.pk for m in field]}, page=picker)
    assert response.status_code == 200
    assert list(response.context["form"].errors) == ["members"]
    assert not event.participants.exists()


def test_entering_a_deactivated_member_is_refused():
    field = players(8)
    event = custom_event()
    deactivate(field[3])
    with pytest.raises(EventError, match="cannot be seated: “P03”"):
        participants_set(event_id=event.pk, members=field)
    assert not event.participants.exists()


def test_the_draw_refuses_a_player_deactivated_since_they_were_entered():
    field = players(8)
    event = custom_event()
    participants_set(event_id=event.pk, members=field)
    deactivate(field[5])
    with pytest.raises(EventError, match="cannot be seated: “P05”"):
        event_draw(event_id=event.pk)
    event.refresh_from_db()
    assert event.status == Event.Status.OPEN
    assert not Round.objects.filter(event=event).exists()


def test_a_round_seating_a_deactivated_player_does_not_start():
    field = players(8)
    event = custom_event()
    participants_set(event_id=event.pk, members=field)
    event_draw(event_id=event.pk)
    deactivate(field[2])
    first = Round.objects.get(event=event, number=1)
    with pytest.raises(EventError, match="cannot be seated: “P02”"):
        round_start(round_id=first.pk)
    first.refresh_from_db()
    assert first.started_at is None
    assert not Hanchan.objects.exists()


def test_the_rounds_by_standing_are_not_drawn_with_a_deactivated_player():
    field = players(8)
    event = custom_event(rounds=1, final_rounds=1, finalists=4)
    participants_set(event_id=event.pk, members=field)
    event_draw(event_id=event.pk)
    first = Round.objects.get(event=event, number=1)
    round_start(round_id=first.pk)
    first.refresh_from_db()
    play_round(first, better=lambda n: n)
    # Five of eight deactivated: at least one of the four finalists.
    for member in field[:5]:
        deactivate(member)
    with pytest.raises(EventError, match="cannot be seated"):
        event_advance(event_id=event.pk)
    assert Round.objects.filter(event=event).count() == 1


def test_a_deactivated_member_is_no_substitute(staff_member, client_for):
    field = players(8)
    event = custom_event()
    participants_set(event_id=event.pk, members=field)
    event_draw(event_id=event.pk)
    event.refresh_from_db()
    gone = deactivate(make_member("gone", "Gone", "ごーん"))
    spare = make_member("spare", "Spare", "すぺあ")
    page = client_for(staff_member).get(reverse("tournaments:substitutions", args=[event.pk]))
    outsiders = [m.display_name for m in page.context["outsiders"]]
    assert "Spare" in outsiders and "Gone" not in outsiders
    with pytest.raises(SubstitutionError, match="cannot be seated: “Gone”"):
        propose(event, [Change(0, gone)])
    assert propose(event, [Change(0, spare)]).changes[0].substitute == spare


def test_the_race_substitutes_leave_a_deactivated_member_out(monkeypatch):
    field = players(8)
    event = event_create(
        name="Meijin", format_key="meijin", ruleset_id="makura-1.5", starts_on=club_today()
    )
    participants_set(event_id=event.pk, members=field)
    event_draw(event_id=event.pk)
    first, second = players(2, prefix="s")
    deactivate(first)

    class Runner:
        def __init__(self, member_id: int) -> None:
            self.member_id = member_id

    class Entry:
        def __init__(self, member: Member) -> None:
            self.runner = Runner(member.pk)

    class Race:
        substitutes = [Entry(first), Entry(second)]

    from tournaments import races

    monkeypatch.setattr(races, "meijin_race", lambda year: Race())
    assert registered_substitutes(event) == [second]


# -- meetups ----------------------------------------------------------------------------------


def test_the_line_up_passes_over_a_deactivated_applicant(coordinator, member, other_member):
    fujii, goto, harada = more_members("fujii", "goto", "harada")
    meetup = apply(call_for_players(coordinator), member, other_member, fujii, goto, harada)
    deactivate(other_member)
    meetup = fresh(meetup)
    # The default line-up: the coordinator and the first three who may be seated.
    assert [a.member for a in meetup.default_lineup(day(7))] == [
        coordinator,
        member,
        fujii,
        goto,
    ]
    # The coordinator's picks do not offer them.
    picks = declare_picks(meetup, meetup.roster_for(coordinator.user))
    offered = [row.application.member for row, _ticked, _can in picks[0].rows]
    assert other_member not in offered and harada in offered

    meetup_services.meetup_declare(meetup_id=meetup.pk, by=coordinator.user, date=day(7))
    meetup = fresh(meetup)
    assert [a.member for a in meetup.lineup()] == [coordinator, member, fujii, goto]


def test_a_line_up_picking_a_deactivated_applicant_is_refused(coordinator, member, other_member):
    fujii, goto = more_members("fujii", "goto")
    meetup = apply(call_for_players(coordinator), member, other_member, fujii, goto)
    deactivate(fujii)
    with pytest.raises(MeetupError, match="cannot be seated: “Fujii”"):
        meetup_services.meetup_declare(
            meetup_id=meetup.pk,
            by=coordinator.user,
            date=day(7),
            members=[coordinator, member, fujii, goto],
        )
    assert not Application.objects.filter(meetup=meetup, seated=True).exists()
    assert fresh(meetup).date is None


def test_an_open_seat_is_not_given_to_a_deactivated_applicant(coordinator, member, other_member):
    fujii, harada, imai = more_members("fujii", "harada", "imai")
    meetup = apply(call_for_players(coordinator), member, other_member, fujii, harada, imai)
    meetup_services.meetup_declare(
        meetup_id=meetup.pk,
        by=coordinator.user,
        date=day(7),
        members=[coordinator, member, other_member, fujii],
    )
    deactivate(harada)
    meetup = fresh(meetup)
    assert [a.member for a in meetup.waiting_for(day(7))] == [imai]


# -- online names -----------------------------------------------------------------------------


def test_an_online_name_is_not_mapped_to_a_deactivated_member():
    field = players(4)
    deactivate(field[1])
    log = OnlineLog(
        service="tenhou",
        log_format="tenhou-json",
        log_id="2026112901gm-0009-0000-00000000",
        lobby="",
        rule_label="",
        rulesets=("tenhou",),
        players=("a", "b", "c", "d"),
        hands=(),
        final_scores=None,
        final_points=None,
        played_on=None,
        replay_url="",
    )
    mapping = {name: m.display_name for name, m in zip("abcd", field, strict=True)}
    with pytest.raises(LedgerError, match="--map b=P01: P01 is deactivated"):
        match_players(log, mapping=mapping)


def test_the_upload_pages_seat_choice_leaves_a_deactivated_member_out(staff_member, client_for):
    field = players(2)
    deactivate(field[1])
    html = client_for(staff_member).get(reverse("game_import")).content.decode()
    seat = html[html.index('name="seat_1"') : html.index("</select>", html.index('name="seat_1"'))]
    assert f'value="{field[0].pk}"' in seat and f'value="{field[1].pk}"' not in seat
