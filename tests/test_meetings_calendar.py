"""Calendar files: the .ics of a confirmed meetup and a member's feed of their confirmed meetups
(fetched by calendar apps without a login, by the secret in its address)."""

from __future__ import annotations

import datetime
import importlib
from collections.abc import Callable

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from clubsite.models import Member
from meetings import services
from meetings.models import Meetup, MeetupProfile, Venue
from tests.test_meetings_support import (
    AOKI_PHONE,
    confirmed,
    day,
    fresh,
    more_members,
    post,
    provisional,
    seat_of,
)

ClientFor = Callable[[Member], Client]

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(member: Member, other_member: Member) -> list[Member]:
    return [member, other_member, *more_members("fujii", "goto")]


def events(content: bytes) -> list[dict[str, object]]:
    calendar = Calendar.from_ical(content)
    return [dict(event) for event in calendar.walk("VEVENT")]


def test_it_serves_an_ics_file_for_a_confirmed_meetup(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    meetup = confirmed(coordinator, players, days=(7,))

    response = client_for(players[0]).get(reverse("meetings:ics", args=[meetup.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert f'filename="meetup-{meetup.pk}.ics"' in response["Content-Disposition"]
    text = response.content.decode()
    assert f"DTSTART;TZID=Asia/Tokyo:{day(7):%Y%m%d}T190000" in text
    assert f"DTEND;TZID=Asia/Tokyo:{day(7):%Y%m%d}T230000" in text
    assert "BEGIN:VTIMEZONE" in text and "TZID:Asia/Tokyo" in text
    assert "SUMMARY:麻雀例会（ビック）" in text
    assert "LOCATION:ビック\\, 札幌市中央区北4条西2丁目 Aiビル4F" in text
    assert AOKI_PHONE not in text
    (event,) = events(response.content)
    assert event["UID"] == f"meetup-{meetup.pk}@clubsite"
    assert event["DTSTART"].dt == datetime.datetime.combine(day(7), datetime.time(19, 0)).replace(
        tzinfo=datetime.timezone(datetime.timedelta(hours=9))
    )
    assert "Chiba、Aoki、Baba、Fujii" in str(event["DESCRIPTION"])


def test_it_writes_the_ics_in_the_readers_language(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    meetup = confirmed(coordinator, players, days=(7,))

    response = client_for(players[0]).get(
        reverse("meetings:ics", args=[meetup.pk]), headers={"Accept-Language": "en"}
    )

    assert "SUMMARY:Mahjong meetup at ビック" in response.content.decode()


def test_it_revises_the_event_when_the_date_moves(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    meetup = confirmed(coordinator, players, days=(7,))
    before = sequence_of(client_for(players[0]), meetup)
    services.meetup_move(
        meetup_id=meetup.pk, by=coordinator.user, date=day(8), start_time=datetime.time(18, 0)
    )
    for application in meetup.lineup()[1:]:
        services.meetup_confirm(meetup_id=meetup.pk, by=application.member.user)
    services.meetup_finalize(meetup_id=meetup.pk, by=coordinator.user)

    response = client_for(players[0]).get(reverse("meetings:ics", args=[meetup.pk]))

    text = response.content.decode()
    assert f"DTSTART;TZID=Asia/Tokyo:{day(8):%Y%m%d}T180000" in text
    # Moved, then finalized again: two revisions.
    assert sequence_of(client_for(players[0]), meetup) == before + 2


def sequence_of(client: Client, meetup: Meetup) -> int:
    """The SEQUENCE of the meetup's event in its .ics file."""
    response = client.get(reverse("meetings:ics", args=[meetup.pk]))
    assert response.status_code == 200
    (event,) = events(response.content)
    return int(event["SEQUENCE"])


def test_it_revises_the_event_with_every_change_of_the_meetup(
    client_for: ClientFor, coordinator: Member, players: list[Member], staff: User
) -> None:
    """Line-up, state and venue changes each raise the SEQUENCE, so that calendar apps replace
    the event they hold; a confirmation or a change request alone does not."""
    meetup = confirmed(coordinator, players, days=(7,))
    reader = client_for(players[0])
    seen = [sequence_of(reader, meetup)]
    # Fujii cannot come; Goto, waiting, takes the seat, confirms, and the notice is out again.
    fujii, goto = players[2], players[3]
    services.meetup_request_change(meetup_id=meetup.pk, by=fujii.user, kind="cancel")
    assert fresh(meetup).sequence == seen[-1]
    services.meetup_rerecruit(meetup_id=meetup.pk, by=coordinator.user)
    services.meetup_confirm(meetup_id=meetup.pk, by=goto.user)
    assert fresh(meetup).sequence == seen[-1] + 1
    services.meetup_finalize(meetup_id=meetup.pk, by=coordinator.user)
    seen.append(sequence_of(reader, meetup))
    assert "Goto" in str(
        events(reader.get(reverse("meetings:ics", args=[meetup.pk])).content)[0]["DESCRIPTION"]
    )
    # Another venue, set by a steward in the admin.
    backup = Venue.objects.create(name="雀荘B", address="札幌市北区", role=Venue.Role.BACKUP)
    model_admin = admin.site._registry[Meetup]
    request = RequestFactory().post("/")
    request.user = staff
    instance = fresh(meetup)
    form = model_admin.get_form(request, instance)(
        data={"venue": backup.pk, "note": instance.note, "report_note": ""}, instance=instance
    )
    assert form.is_valid(), form.errors
    model_admin.save_model(request, form.save(commit=False), form, change=True)
    seen.append(sequence_of(reader, meetup))
    # Held: a new state.
    Meetup.objects.filter(pk=meetup.pk).update(date=timezone.localdate())
    services.meetup_mark_held(meetup_id=meetup.pk, by=coordinator.user)
    seen.append(sequence_of(reader, meetup))

    assert seen == sorted(set(seen)), seen
    assert len(seen) == 4


def test_it_has_no_ics_before_the_final_notice(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    recruiting = post(coordinator)
    provisional_one = provisional(coordinator, players, days=(9,))

    for meetup in (recruiting, provisional_one):
        response = client_for(players[0]).get(reverse("meetings:ics", args=[meetup.pk]))
        assert response.status_code == 404


def test_it_feeds_a_members_confirmed_meetups_to_calendar_apps_without_a_login(
    client: Client, coordinator: Member, players: list[Member], outsider: Member
) -> None:
    mine = confirmed(coordinator, players, days=(7,))
    confirmed(outsider, more_members("harada", "imai", "kanda"), days=(8,))  # not Aoki's
    provisional(coordinator, players, days=(9,))  # not confirmed yet
    waiting = confirmed(coordinator, [players[1], players[2], players[3], players[0]], days=(10,))
    assert seat_of(waiting, players[0]).seated is False
    token = MeetupProfile.of(players[0]).calendar_token

    response = client.get(reverse("meetings:feed", args=[token]))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert [str(event["UID"]) for event in events(response.content)] == [
        f"meetup-{mine.pk}@clubsite"
    ]
    assert "X-WR-CALNAME:麻雀クラブの例会" in response.content.decode()


def test_it_writes_the_feed_in_the_members_language(
    client: Client, coordinator: Member, players: list[Member]
) -> None:
    confirmed(coordinator, players, days=(7,))
    MeetupProfile.remember_language(players[0], "en")

    response = client.get(
        reverse("meetings:feed", args=[MeetupProfile.of(players[0]).calendar_token])
    )

    assert "SUMMARY:Mahjong meetup at ビック" in response.content.decode()


def test_it_refuses_an_unknown_feed_address(client: Client, member: Member) -> None:
    MeetupProfile.of(member)

    assert client.get(reverse("meetings:feed", args=["not-the-secret"])).status_code == 404


def test_it_makes_a_new_feed_address_that_retires_the_old_one(
    client: Client, client_for: ClientFor, member: Member
) -> None:
    old = MeetupProfile.of(member).calendar_token
    member_client = client_for(member)
    page = member_client.get(reverse("meetings:list"))
    assert f"/meetups/calendar/{old}.ics" in page.text
    token = page.text.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]

    response = member_client.post(
        reverse("meetings:calendar_reset"), {"csrfmiddlewaretoken": token}
    )

    assert response.status_code == 302
    new = MeetupProfile.of(member).calendar_token
    assert new != old
    assert client.get(reverse("meetings:feed", args=[old])).status_code == 404
    assert client.get(reverse("meetings:feed", args=[new])).status_code == 200


def test_the_migration_starts_existing_meetups_at_the_revisions_their_notices_record(
    coordinator: Member, players: list[Member]
) -> None:
    """Calendar apps already hold these events: their SEQUENCE must not go back."""
    from django.apps import apps

    migration = importlib.import_module("meetings.migrations.0004_meetup_sequence")
    meetup = confirmed(coordinator, players, days=(7,))
    services.meetup_move(
        meetup_id=meetup.pk, by=coordinator.user, date=day(8), start_time=datetime.time(18, 0)
    )
    expected = fresh(meetup).sequence
    untouched = post(coordinator)
    Meetup.objects.update(sequence=0)

    migration.count_revisions(apps, None)

    # Declared, finalized, moved: the confirmations and the call itself are no revisions.
    assert expected == 3
    assert fresh(meetup).sequence == expected
    assert fresh(untouched).sequence == 0


def test_a_clubs_meetups_are_at_its_own_time_zones_hour(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    """A club whose stewards set its time zone (Club.time_zone): its meetup at 19:00 is 19:00
    there, in the calendar file as on the page."""
    club = coordinator.club
    club.time_zone = "Europe/London"
    club.save(update_fields=["time_zone"])
    meetup = confirmed(coordinator, players, days=(7,))
    assert fresh(meetup).starts_at().utcoffset() in {  # type: ignore[union-attr]
        datetime.timedelta(0),
        datetime.timedelta(hours=1),
    }
    response = client_for(players[0]).get(
        f"/c/{club.slug}" + reverse("meetings:ics", args=[meetup.pk])
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert f"DTSTART;TZID=Europe/London:{day(7):%Y%m%d}T190000" in text
    assert "TZID:Europe/London" in text and "Asia/Tokyo" not in text
