"""The meetup pages: the list, a meetup's page and its htmx fragment, every action's form
(post/redirect/get, htmx, refusals), the call form, venues, languages, and who sees phone
numbers (nobody but the meetup's coordinator and stewards, in no page, fragment or e-mail).

Personas as in ``test_meetings_flow``: Chiba coordinates and plays; Aoki (who has a phone
number), Baba and Fujii apply in that order, Goto after them; Doi is a steward; Endo an
outsider.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.core import mail
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoCaptureOnCommitCallbacks
from pytest_django.asserts import assertContains, assertNotContains, assertRedirects

from clubsite.models import Member
from meetings import services
from meetings.models import Meetup, MeetupProfile, State, Venue, phone_visible_to
from tests.test_meetings_support import (
    AOKI_PHONE,
    apply,
    confirmed,
    day,
    finished_game,
    fresh,
    more_members,
    post,
    provisional,
    seat_of,
    with_email,
)

ClientFor = Callable[[Member], Client]

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(member: Member, other_member: Member) -> list[Member]:
    """Aoki, Baba, Fujii and Goto, in order of arrival."""
    return [member, other_member, *more_members("fujii", "goto")]


def url(name: str, meetup: Meetup) -> str:
    return reverse(f"meetings:{name}", args=[meetup.pk])


def csrf_token(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.text)
    assert match, f"no form on {path}"
    return match.group(1)


def press(
    client: Client,
    meetup: Meetup,
    action: str,
    data: dict[str, object] | None = None,
    *,
    htmx: bool = False,
) -> Any:
    """Submit an action's form from the meetup's page, as a browser would (with htmx: as
    htmx would, the CSRF token in its header)."""
    token = csrf_token(client, url("detail", meetup))
    if htmx:
        return client.post(
            url(action, meetup), data or {}, headers={"HX-Request": "true", "X-CSRFToken": token}
        )
    return client.post(url(action, meetup), {**(data or {}), "csrfmiddlewaretoken": token})


def main_of(html: str) -> str:
    match = re.search(r"<main[^>]*>(.*)</main>", html, re.DOTALL)
    assert match
    return match.group(1)


# The list


def test_it_lists_open_calls_first(
    client_for: ClientFor, coordinator: Member, players: list[Member], outsider: Member
) -> None:
    final = confirmed(coordinator, players, days=(3,))
    open_call = post(outsider, days=(9, 10))

    response = client_for(players[0]).get(reverse("meetings:list"))

    html = response.text
    assert html.index('id="open-calls"') < html.index(f'id="meetup-{open_call.pk}"')
    assert html.index(f'id="meetup-{open_call.pk}"') < html.index('id="coming-up"')
    assert html.index('id="coming-up"') < html.index(f'id="meetup-{final.pk}"')
    assertContains(response, "面子募集")
    assertContains(response, "メンバー入り")  # Aoki is in the confirmed line-up


def test_it_asks_for_a_login(client: Client) -> None:
    response = client.get(reverse("meetings:list"))

    assertRedirects(response, f"{reverse('login')}?next={reverse('meetings:list')}")


def test_it_links_the_meetups_from_every_page(client_for: ClientFor, member: Member) -> None:
    response = client_for(member).get(reverse("ruleset_list"))

    assertContains(response, f'href="{reverse("meetings:list")}"')


# A meetup's page and its fragment


def test_it_shows_the_line_up_who_confirmed_and_the_notices(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    meetup = provisional(coordinator, players)

    response = client_for(players[1]).get(url("detail", meetup))

    assert response.status_code == 200
    assertContains(response, "<html")
    assertContains(response, 'id="meetup-state">仮成立<')
    lineup = re.search(r'<ol class="mu-people" id="lineup">(.*?)</ol>', response.text, re.DOTALL)
    assert lineup
    names = re.findall(r'data-member="([^"]+)"', lineup.group(1))
    assert names == ["Chiba", "Aoki", "Baba", "Fujii"]
    assert re.findall(r'data-confirmed="(\w+)"', lineup.group(1)) == ["yes", "no", "no", "no"]
    assertContains(response, 'data-member="Goto"')  # the waiting list
    assertContains(response, "成立、メンバーChiba、Aoki、Baba、Fujii — 確認をお願いします")
    assertContains(response, 'id="action-confirm"')


@pytest.mark.parametrize(
    ("who", "next_action"),
    [("aoki", "confirm"), ("goto", ""), ("chiba", ""), ("endo", "")],
)
def test_it_offers_each_viewer_their_next_action(
    client_for: ClientFor,
    coordinator: Member,
    players: list[Member],
    outsider: Member,
    who: str,
    next_action: str,
) -> None:
    meetup = provisional(coordinator, players)
    person = Member.objects.get(user__username=who)

    response = client_for(person).get(url("detail", meetup))

    assertContains(response, f'data-next-action="{next_action}"')


def test_it_offers_the_waiting_list_as_a_small_button_once_the_line_up_is_declared(
    client_for: ClientFor, coordinator: Member, players: list[Member], outsider: Member
) -> None:
    recruiting = post(coordinator)
    declared = provisional(coordinator, players)
    client = client_for(outsider)

    assertContains(client.get(url("detail", recruiting)), 'data-next-action="apply"')
    page = client.get(url("detail", declared))
    assertContains(page, 'data-next-action=""')
    assert re.search(r'class="mu-button plain"[^>]*id="action-apply"', page.text)
    assert press(client, declared, "apply").status_code == 302
    assert seat_of(fresh(declared), outsider).seated is False


def test_it_offers_the_coordinator_the_final_notice_once_everyone_confirmed(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    meetup = provisional(coordinator, players)
    for person in players[:3]:
        services.meetup_confirm(meetup_id=meetup.pk, by=person.user)

    response = client_for(coordinator).get(url("detail", meetup))

    assertContains(response, 'data-next-action="finalize"')
    assertContains(response, 'id="action-finalize"')


def test_it_serves_the_fragment_to_htmx_and_the_page_otherwise(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    meetup = provisional(coordinator, players)
    client = client_for(players[0])

    fragment = client.get(url("detail", meetup), headers={"HX-Request": "true"})
    boosted = client.get(
        url("detail", meetup), headers={"HX-Request": "true", "HX-Boosted": "true"}
    )
    restore = client.get(
        url("detail", meetup), headers={"HX-Request": "true", "HX-History-Restore-Request": "true"}
    )

    assert fragment.status_code == 200
    assert fragment.text.lstrip().startswith('<div id="meetup"')
    assertNotContains(fragment, "<html")
    assertContains(boosted, "<html")
    assertContains(restore, "<html")


def test_it_confirms_with_a_plain_form_then_redirects(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    meetup = provisional(coordinator, players)
    client = client_for(players[0])

    response = press(client, meetup, "confirm")

    assertRedirects(response, url("detail", meetup))
    assert seat_of(fresh(meetup), players[0]).confirmed_at is not None
    assertContains(client.get(url("detail", meetup)), "Aokiさんが確認しました。")


def test_it_confirms_under_htmx_and_answers_with_the_fragment(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    meetup = provisional(coordinator, players)

    response = press(client_for(players[0]), meetup, "confirm", htmx=True)

    assert response.status_code == 200
    assertNotContains(response, "<html")
    assertContains(response, 'data-next-action=""')
    assertContains(response, 'data-status="confirmed"')


@pytest.mark.parametrize(
    ("action", "stage"),
    [
        ("declare", "recruiting"),
        ("call_off", "recruiting"),
        ("confirm", "provisional"),
        ("withdraw", "provisional"),
        ("finalize", "provisional"),
        ("request_change", "confirmed"),
        ("rerecruit", "confirmed"),
        ("move", "confirmed"),
        ("cancel", "confirmed"),
        ("mark_held", "confirmed"),
        ("report", "held"),
    ],
)
def test_it_refuses_the_outsider_with_403_and_changes_nothing(
    client_for: ClientFor,
    coordinator: Member,
    players: list[Member],
    outsider: Member,
    action: str,
    stage: str,
) -> None:
    if stage == "recruiting":
        meetup = apply(post(coordinator), *players)
    elif stage == "provisional":
        meetup = provisional(coordinator, players)
    else:
        meetup = confirmed(coordinator, players, days=(0,))
        services.meetup_request_change(meetup_id=meetup.pk, by=players[0].user, kind="cancel")
        if stage == "held":
            services.meetup_mark_held(meetup_id=meetup.pk, by=coordinator.user)
    before = (fresh(meetup).state, fresh(meetup).notices.count())
    data = {
        "declare": {"date": day(7).isoformat(), "members": [m.pk for m in players]},
        "request_change": {"kind": "cancel"},
        "move": {"date": day(9).isoformat(), "start_time": "18:00"},
    }.get(action, {})

    response = press(client_for(outsider), meetup, action, data)

    assert response.status_code == 403
    assertContains(response, 'id="meetup-error"', status_code=403)
    assert (fresh(meetup).state, fresh(meetup).notices.count()) == before


def test_it_answers_a_wrong_moment_with_409_and_the_reason(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    meetup = provisional(coordinator, players)

    response = press(client_for(coordinator), meetup, "finalize")

    assert response.status_code == 409
    assertContains(response, "まだ全員の確認がそろっていません。", status_code=409)
    assert fresh(meetup).state == State.PROVISIONAL


def test_it_shows_a_refusal_in_the_fragment_under_htmx(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    meetup = provisional(coordinator, players)

    response = press(client_for(coordinator), meetup, "finalize", htmx=True)

    # 200, or htmx would not swap it in.
    assert response.status_code == 200
    assertNotContains(response, "<html")
    assertContains(response, "まだ全員の確認がそろっていません。")


def test_it_refuses_a_get_on_an_action(client_for: ClientFor, coordinator: Member) -> None:
    meetup = post(coordinator)

    response = client_for(coordinator).get(url("finalize", meetup))

    assert response.status_code == 405


# Each action through its form


def test_it_walks_a_meetup_through_its_pages_from_call_to_report(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    chiba = client_for(coordinator)
    token = csrf_token(chiba, reverse("meetings:new"))
    response = chiba.post(
        reverse("meetings:new"),
        {
            "csrfmiddlewaretoken": token,
            "dates_0": day(0).isoformat(),
            "dates_1": day(1).isoformat(),
            "dates_2": "",
            "start_time": "19:00",
            "venue": Venue.objects.get(name="ビック").pk,
            "ruleset": "makura-1.5",
            "tables": "1",
            "note": "よろしく",
            "coordinator_plays": "on",
        },
    )
    meetup = Meetup.objects.get()
    assertRedirects(response, url("detail", meetup))
    today = meetup.candidate_dates.get(date=day(0))
    for person in players:
        assert press(client_for(person), meetup, "apply", {"dates": [today.pk]}).status_code == 302
    # The coordinator picks Chiba, Aoki, Baba and Goto for today (Fujii waits).
    lineup = [coordinator, players[0], players[1], players[3]]
    response = press(
        chiba, meetup, "declare", {"date": day(0).isoformat(), "members": [m.pk for m in lineup]}
    )
    assert response.status_code == 302
    assert [a.member for a in fresh(meetup).lineup()] == lineup
    for person in lineup[1:]:
        assert press(client_for(person), meetup, "confirm").status_code == 302
    assert press(chiba, meetup, "finalize").status_code == 302
    # Aoki cannot come after all; the seat goes to Fujii, the next in order.
    response = press(
        client_for(players[0]), meetup, "request_change", {"kind": "cancel", "message": ""}
    )
    assert response.status_code == 302
    assert press(chiba, meetup, "rerecruit").status_code == 302
    assert press(client_for(players[2]), meetup, "confirm").status_code == 302
    assert press(chiba, meetup, "finalize").status_code == 302
    assert press(chiba, meetup, "mark_held").status_code == 302
    game = finished_game(day(0), [coordinator, players[1], players[3], players[2]])
    page = chiba.get(url("detail", meetup))
    assertContains(page, f'value="{game.pk}"')
    response = press(chiba, meetup, "report", {"hanchans": [game.pk], "note": ""})
    assert response.status_code == 302

    meetup = fresh(meetup)
    assert meetup.state == State.REPORTED
    page = client_for(players[0]).get(url("detail", meetup))
    assertContains(page, f'id="result-{game.pk}"')
    assertContains(page, "41,000")
    # The game's ruleset by its Japanese name, not the English one.
    assertContains(page, "<strong>A · 枕倶楽部 標準ルール v1.5</strong>", html=False)
    assertNotContains(page, "Makura Club standard rules")


def test_it_re_renders_an_invalid_call_with_its_errors(
    client_for: ClientFor, coordinator: Member
) -> None:
    client = client_for(coordinator)
    token = csrf_token(client, reverse("meetings:new"))

    response = client.post(
        reverse("meetings:new"),
        {"csrfmiddlewaretoken": token, "start_time": "19:00", "venue": "", "tables": "1"},
    )

    assert response.status_code == 200
    assertContains(response, 'class="errorlist')
    assert not Meetup.objects.exists()


def test_it_refuses_a_call_for_a_past_date_on_the_form(
    client_for: ClientFor, coordinator: Member
) -> None:
    client = client_for(coordinator)
    token = csrf_token(client, reverse("meetings:new"))

    response = client.post(
        reverse("meetings:new"),
        {
            "csrfmiddlewaretoken": token,
            "dates_0": day(-2).isoformat(),
            "start_time": "19:00",
            "venue": Venue.objects.get(name="ビック").pk,
            "ruleset": "makura-1.5",
            "tables": "1",
        },
    )

    assert response.status_code == 200
    assertContains(response, "過去の日は候補日にできません。")
    assert not Meetup.objects.exists()


def test_it_proposes_the_main_venue_seven_pm_and_the_club_rules(
    client_for: ClientFor, coordinator: Member
) -> None:
    response = client_for(coordinator).get(reverse("meetings:new"))

    html = response.text
    bic = Venue.objects.get(name="ビック")
    assert re.search(rf'<option value="{bic.pk}" selected>ビック</option>', html)
    assert 'value="19:00"' in html
    assert re.search(r'<option value="makura-1.5" selected>', html)
    assert 'id="id_dates_0"' in html and 'id="id_dates_2"' in html
    assert 'id="id_coordinator_plays" checked' in html


def test_it_keeps_the_call_form_from_accounts_without_a_profile(staff: User) -> None:
    client = Client()
    client.force_login(staff)

    assert client.get(reverse("meetings:new")).status_code == 404


def test_it_lets_a_coordinator_who_does_not_play_apply_with_the_small_button(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    """Once the call has applicants the big button is the declaration; the small one applies
    for every open date, which it carries in hidden fields."""
    meetup = apply(post(coordinator, plays=False), *players)
    client = client_for(coordinator)
    page = client.get(url("detail", meetup))
    assertContains(page, 'data-next-action="declare"')
    small = re.search(r'<section class="mu-actions" id="my-actions">.*?</form>', page.text, re.S)
    assert small and 'class="mu-button plain"' in small.group(0)
    dates = re.findall(r'type="hidden" name="dates" value="(\d+)"', small.group(0))
    assert len(dates) == 2

    assert press(client, meetup, "apply", {"dates": dates}).status_code == 302
    assert len(seat_of(fresh(meetup), coordinator).dates.all()) == 2


def test_it_re_renders_an_apply_form_without_dates(
    client_for: ClientFor, coordinator: Member, member: Member
) -> None:
    meetup = post(coordinator)

    response = press(client_for(member), meetup, "apply", {})

    assert response.status_code == 200
    assertContains(response, 'id="apply-form"')
    assert fresh(meetup).application_of(member) is None


# Languages


def test_it_speaks_english_to_an_english_browser(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    meetup = provisional(coordinator, players)

    response = client_for(players[0]).get(url("detail", meetup), headers={"Accept-Language": "en"})

    assertContains(response, '<html lang="en">')
    assertContains(response, 'id="meetup-state">provisional<')
    assertContains(response, "Confirm: I will be there")
    assertContains(response, "is on, members Chiba, Aoki, Baba, Fujii — please confirm.")
    assertNotContains(response, "確認しました")


def test_it_speaks_japanese_by_default(
    client_for: ClientFor, coordinator: Member, players: list[Member]
) -> None:
    meetup = provisional(coordinator, players)

    response = client_for(players[0]).get(url("detail", meetup))

    assertContains(response, '<html lang="ja">')
    assertContains(response, "確認しました")
    assertNotContains(response, "Confirm: I will be there")


def test_it_remembers_the_language_a_member_last_used(
    client_for: ClientFor, coordinator: Member, member: Member
) -> None:
    meetup = post(coordinator)
    client = client_for(member)

    client.get(url("detail", meetup), headers={"Accept-Language": "en"})
    assert MeetupProfile.objects.get(member=member).language == "en"
    client.get(reverse("meetings:list"), headers={"Accept-Language": "ja"})
    assert MeetupProfile.objects.get(member=member).language == "ja"


# Phone numbers


def meetups_in_every_state(coordinator: Member, players: list[Member]) -> list[Meetup]:
    """One meetup per state, each with Aoki (who has a phone number) applied or seated."""
    recruiting = apply(post(coordinator, days=(20, 21)), *players)
    provisional_one = provisional(coordinator, players, days=(22,))
    with_request = confirmed(coordinator, players, days=(23,))
    services.meetup_request_change(
        meetup_id=with_request.pk, by=players[0].user, kind="change", message=""
    )
    held = confirmed(coordinator, players, days=(0,))
    services.meetup_mark_held(meetup_id=held.pk, by=coordinator.user)
    reported = confirmed(coordinator, players, days=(0,))
    services.meetup_mark_held(meetup_id=reported.pk, by=coordinator.user)
    game = finished_game(day(0), [a.member for a in reported.lineup()])
    services.meetup_report(meetup_id=reported.pk, by=coordinator.user, hanchans=[game])
    called_off = apply(post(coordinator, days=(24,)), *players)
    services.meetup_call_off(meetup_id=called_off.pk, by=coordinator.user)
    cancelled = confirmed(coordinator, players, days=(25,))
    services.meetup_cancel(meetup_id=cancelled.pk, by=coordinator.user)
    return [recruiting, provisional_one, with_request, held, reported, called_off, cancelled]


def pages_of(client: Client, meetups: list[Meetup], member: Member) -> list[str]:
    """Every meetup page, fragment and file ``client`` can fetch."""
    texts = [
        client.get(reverse("meetings:list")).text,
        client.get(reverse("meetings:new")).text,
        client.get(reverse("meetings:venues")).text,
        client.get(
            reverse("meetings:feed", args=[MeetupProfile.of(member).calendar_token])
        ).content.decode(),
    ]
    for meetup in meetups:
        texts.append(client.get(url("detail", meetup)).text)
        texts.append(client.get(url("detail", meetup), headers={"HX-Request": "true"}).text)
        ics = client.get(url("ics", meetup))
        if ics.status_code == 200:
            texts.append(ics.content.decode())
        # A refused action's page too.
        texts.append(press(client, meetup, "finalize").text)
    return texts


def test_it_never_shows_phone_numbers_to_an_ordinary_member(
    client_for: ClientFor,
    coordinator: Member,
    players: list[Member],
    staff_member: Member,
    outsider: Member,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    with_email(coordinator, *players, staff_member, outsider)
    with django_capture_on_commit_callbacks(execute=True):
        meetups = meetups_in_every_state(coordinator, players)
    assert {m.state for m in Meetup.objects.all()} == set(State.values)
    assert len(mail.outbox) > 50

    # Baba, in every line-up, and Endo, in none.
    for person in (players[1], outsider):
        for text in pages_of(client_for(person), meetups, person):
            assert AOKI_PHONE not in text
    for message in mail.outbox:
        assert AOKI_PHONE not in message.subject + message.body


def test_it_shows_phone_numbers_to_the_coordinator_while_arranging_and_to_stewards(
    client_for: ClientFor, coordinator: Member, players: list[Member], staff_member: Member
) -> None:
    meetups = meetups_in_every_state(coordinator, players)
    recruiting, provisional_one, with_request, held, reported, called_off, cancelled = meetups

    chiba = client_for(coordinator)
    for meetup in (recruiting, provisional_one, with_request):
        assertContains(chiba.get(url("detail", meetup)), AOKI_PHONE)
        assertContains(chiba.get(url("detail", meetup), headers={"HX-Request": "true"}), AOKI_PHONE)
    for meetup in (held, reported, called_off, cancelled):
        assertNotContains(chiba.get(url("detail", meetup)), AOKI_PHONE)
    doi = client_for(staff_member)
    for meetup in meetups:
        assertContains(doi.get(url("detail", meetup)), f'href="tel:{AOKI_PHONE}"')


def test_it_lets_a_coordinator_see_the_phone_only_of_their_own_meetups_members(
    coordinator: Member, member: Member, other_member: Member, outsider: Member
) -> None:
    apply(post(coordinator), other_member)
    theirs = apply(post(outsider), member)

    assert not phone_visible_to(member, coordinator.user)
    assert phone_visible_to(member, outsider.user)
    services.meetup_withdraw(meetup_id=theirs.pk, by=member.user)
    assert not phone_visible_to(member, outsider.user)


# Buttons a browser test can find


def test_it_gives_every_button_an_id_and_an_action(
    client_for: ClientFor, coordinator: Member, players: list[Member], staff_member: Member
) -> None:
    meetups = meetups_in_every_state(coordinator, players)
    fresh_call = post(coordinator, days=(30, 31))
    confirmed_one = confirmed(coordinator, players, days=(26,))
    pages = [reverse("meetings:list"), reverse("meetings:new")]
    pages += [url("detail", m) for m in [*meetups, fresh_call, confirmed_one]]
    seen: set[str] = set()

    for person in (coordinator, players[0], players[3], staff_member):
        client = client_for(person)
        for path in pages:
            html = main_of(client.get(path).text)
            for tag in re.findall(r"<button[^>]*>", html) + re.findall(
                r'<a [^>]*class="mu-button[^>]*>', html
            ):
                assert re.search(r'\bid="[\w-]+"', tag), tag
                assert re.search(r'\bdata-action="\w+"', tag), tag
                seen.update(re.findall(r'data-action="(\w+)"', tag))
            ids = re.findall(r'\bid="([^"]+)"', html)
            assert len(ids) == len(set(ids)), path

    assert seen >= {
        "new",
        "post",
        "apply",
        "withdraw",
        "declare",
        "confirm",
        "call_off",
        "request_change",
        "rerecruit",
        "move",
        "cancel",
        "calendar",
        "new_feed_link",
    }


# Venues


def test_it_lists_the_venues_for_members(client_for: ClientFor, member: Member) -> None:
    response = client_for(member).get(reverse("meetings:venues"))

    for name in ("ビック", "麻雀クラブJUN", "さわやか麻雀"):
        assertContains(response, name)
    assertContains(response, "011-271-0102")
    assertNotContains(response, "/admin/")


def test_it_lets_a_steward_with_the_permission_edit_a_venue(
    client_for: ClientFor, staff_member: Member
) -> None:
    staff_member.user.user_permissions.add(
        Permission.objects.get(codename="change_venue"),
        Permission.objects.get(codename="view_venue"),
    )
    bic = Venue.objects.get(name="ビック")
    client = client_for(staff_member)
    change = reverse("admin:meetings_venue_change", args=[bic.pk])
    # The venues page links a steward to the desk's venue form; the admin's
    # form still works for a steward with the permission.
    assertContains(
        client.get(reverse("meetings:venues")), reverse("meetings:venue_edit", args=[bic.pk])
    )

    token = csrf_token(client, change)
    response = client.post(
        change,
        {
            "csrfmiddlewaretoken": token,
            "name": "ビック",
            "role": "main",
            "address": bic.address,
            "directions": "2026年に移転",
            "phone": "011-000-0000",
        },
    )

    assert response.status_code == 302
    bic.refresh_from_db()
    assert (bic.directions, bic.phone) == ("2026年に移転", "011-000-0000")


def test_it_keeps_venues_from_stewards_without_the_permission_and_from_members(
    client_for: ClientFor, staff_member: Member, member: Member
) -> None:
    bic = Venue.objects.get(name="ビック")
    change = reverse("admin:meetings_venue_change", args=[bic.pk])

    assert client_for(staff_member).get(change).status_code == 403
    response = client_for(member).get(change)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_it_shows_meetups_read_only_in_the_admin(
    client_for: ClientFor, coordinator: Member, players: list[Member], staff_member: Member
) -> None:
    meetup = provisional(coordinator, players)
    staff_member.user.user_permissions.add(
        *Permission.objects.filter(
            codename__in=["view_meetup", "change_meetup", "view_application", "view_notice"]
        )
    )
    client = client_for(staff_member)

    assertContains(client.get(reverse("admin:meetings_meetup_changelist")), str(meetup.pk))
    page = client.get(reverse("admin:meetings_meetup_change", args=[meetup.pk]))
    assertContains(page, "Aoki")
    assertNotContains(page, 'name="state"')
    assert client.get(reverse("admin:meetings_notice_changelist")).status_code == 200
