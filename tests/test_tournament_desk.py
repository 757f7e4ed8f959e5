"""The event desk: a steward edits an event (name, days and venue always, the
format only while no round has started), cancels it (the games played stay in the ledger and
count as any game, the event page marks them, no round starts any more) or deletes one that
has no games; the member picker lists one member a row with a search by name or reading.
Everyone else gets 403 and nothing changes; bad input comes back as the form with its errors."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from clubsite.models import Member
from scoring.ledger import counted_games
from scoring.models import Hanchan
from tests import test_tournament_pages
from tests.conftest import make_member
from tests.test_tournament_pages import drawn_gp, field, post
from tests.test_tournaments import play_round
from tournaments.forms import event_initial, members_matching
from tournaments.models import Event, Participant, Phase, Round, Table
from tournaments.services import (
    EventError,
    event_advance,
    event_cancel,
    event_create,
    event_delete,
    event_edit,
    participants_set,
    round_start,
)

# The pages' fixtures: English throughout, and the personas' clients reading English.
english = test_tournament_pages.english
client_for = test_tournament_pages.client_for

DAY = datetime.date(2026, 11, 28)


def gp(**kwargs) -> Event:
    return event_create(
        name="Autumn GP", format_key="gp", ruleset_id="makura-1.5", starts_on=DAY, **kwargs
    )


def played_round_one(event: Event) -> Round:
    first = Round.objects.get(event=event, number=1)
    round_start(round_id=first.pk)
    play_round(first, better=lambda n: n)
    return first


def phases_of(event: Event) -> list[tuple[str, int, str]]:
    return [(p.kind, p.rounds, p.seating) for p in Phase.objects.filter(event=event)]


# Edit


def test_it_edits_the_name_days_and_venue_of_an_event_being_played(db):
    event = drawn_gp(field(16))
    played_round_one(event)
    event_edit(
        event_id=event.pk,
        name="  Autumn GP (Kichijoji)  ",
        starts_on=DAY,
        ends_on=DAY + datetime.timedelta(days=1),
        venue="Makura Kichijoji",
    )
    event.refresh_from_db()
    assert (event.name, event.ends_on, event.venue) == (
        "Autumn GP (Kichijoji)",
        DAY + datetime.timedelta(days=1),
        "Makura Kichijoji",
    )
    assert event.status == Event.Status.RUNNING
    assert Round.objects.filter(event=event).count() == 4


def test_it_refuses_another_format_once_a_round_has_started(db):
    event = drawn_gp(field(16))
    played_round_one(event)
    before = phases_of(event)
    with pytest.raises(EventError, match="only while no round has started"):
        event_edit(
            event_id=event.pk,
            name="Renamed",
            starts_on=DAY,
            format_key="meijin",
            ruleset_id="makura-1.5",
        )
    event.refresh_from_db()
    assert (event.name, event.format) == ("Autumn GP", "gp")  # one transaction: nothing changed
    assert phases_of(event) == before


def test_it_keeps_the_draw_when_the_format_is_sent_unchanged(db):
    event = drawn_gp(field(16))
    event_edit(
        event_id=event.pk,
        name="Autumn GP",
        starts_on=DAY,
        venue="Hall",
        format_key="gp",
        ruleset_id="makura-1.5",
    )
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    assert Round.objects.filter(event=event).count() == 4


def test_it_changes_the_format_before_any_round_and_discards_the_draw(db):
    event = drawn_gp(field(16))
    event_edit(
        event_id=event.pk,
        name="Autumn Grand Champion",
        starts_on=DAY,
        format_key="grand_champion",
        ruleset_id="makura-1.5",
        carry_over=True,
    )
    event.refresh_from_db()
    assert event.format == "grand_champion"
    assert event.overrides == {}  # the GP's "no tobi" goes with the GP
    assert phases_of(event) == [("preliminary", 6, "lot"), ("final", 2, "standing")]
    assert Phase.objects.get(event=event, number=1).counts is True
    assert event_initial(event)["carry_over"] is True
    # The draw was for the GP: gone, and the event takes players again (its 16 stay).
    assert not Round.objects.filter(event=event).exists()
    assert event.status == Event.Status.OPEN
    assert event.participants.count() == 16


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": "  "}, "Give the tournament a name"),
        ({"ends_on": DAY - datetime.timedelta(days=1)}, "cannot be before the first"),
        ({"format_key": "chess", "ruleset_id": "makura-1.5"}, "Unknown tournament format"),
        ({"format_key": "gp", "ruleset_id": "no-such-rules"}, "Unknown ruleset"),
    ],
)
def test_it_refuses_bad_edits_and_changes_nothing(db, change, message):
    event = gp(venue="Hall")
    with pytest.raises(EventError, match=message):
        event_edit(event_id=event.pk, **({"name": "New", "starts_on": DAY} | change))
    event.refresh_from_db()
    assert (event.name, event.venue, event.ends_on) == ("Autumn GP", "Hall", DAY)


# Cancel


def test_a_cancelled_event_keeps_its_games_and_starts_no_more_rounds(db):
    event = drawn_gp(field(16))
    first = played_round_one(event)
    games = list(Hanchan.objects.filter(event_table__round=first))
    assert len(games) == 4 and counted_games().filter(pk__in=[g.pk for g in games]).count() == 4
    event_cancel(event_id=event.pk)
    event.refresh_from_db()
    assert event.status == Event.Status.CANCELLED and event.cancelled
    # The games stay in the ledger, counted as any game.
    assert counted_games().filter(pk__in=[g.pk for g in games]).count() == 4
    assert Table.objects.filter(round__event=event).count() == 4
    second = Round.objects.get(event=event, number=2)
    with pytest.raises(EventError, match="not running"):
        round_start(round_id=second.pk)
    with pytest.raises(EventError, match="not running"):
        event_advance(event_id=event.pk)
    with pytest.raises(EventError, match="cancelled already"):
        event_cancel(event_id=event.pk)
    assert not Table.objects.filter(round=second).exists()


def test_an_event_not_drawn_yet_can_be_cancelled_but_not_a_finished_one(db):
    open_event = gp()
    event_cancel(event_id=open_event.pk)
    open_event.refresh_from_db()
    assert open_event.status == Event.Status.CANCELLED
    with pytest.raises(EventError, match="players are set"):
        participants_set(event_id=open_event.pk, members=field(4))
    finished = gp()
    Event.objects.filter(pk=finished.pk).update(status=Event.Status.FINISHED)
    with pytest.raises(EventError, match="finished tournament cannot be cancelled"):
        event_cancel(event_id=finished.pk)
    finished.refresh_from_db()
    assert finished.status == Event.Status.FINISHED


# Delete


def test_it_deletes_an_event_without_games_with_its_draw(db):
    event = drawn_gp(field(16))
    event_delete(event_id=event.pk)
    assert not Event.objects.filter(pk=event.pk).exists()
    assert not Round.objects.filter(event_id=event.pk).exists()
    assert not Phase.objects.filter(event_id=event.pk).exists()
    assert not Participant.objects.filter(event_id=event.pk).exists()
    assert Member.objects.count() == 16  # the members stay


def test_it_refuses_to_delete_an_event_with_games(db):
    event = drawn_gp(field(16))
    played_round_one(event)
    event_cancel(event_id=event.pk)  # cancelled or not, its games keep it
    with pytest.raises(EventError, match="cancel the tournament instead"):
        event_delete(event_id=event.pk)
    assert Event.objects.filter(pk=event.pk).exists()
    assert Table.objects.filter(round__event=event).count() == 4


# The member picker's search


def test_the_search_finds_a_name_or_a_reading_in_either_kana_and_width(db):
    sato = make_member("sato", "佐藤 花子", "さとう はなこ")
    tanaka = make_member("tanaka", "Tanaka Ken", "たなか けん")
    everyone = [sato, tanaka]
    assert members_matching(everyone, "") == everyone
    assert members_matching(everyone, "佐藤") == [sato]
    assert members_matching(everyone, "サトウ") == [sato]  # katakana finds the hiragana reading
    assert members_matching(everyone, "ｻﾄｳ") == [sato]  # so does half-width
    assert members_matching(everyone, "tanaka") == [tanaka]  # case folded
    assert members_matching(everyone, "けん") == [tanaka]
    assert members_matching(everyone, "\x00") == everyone  # a control character is dropped
    assert members_matching(everyone, "鈴木") == []


# The pages


DESK_ACTIONS = {
    "edit": {"name": "Hijacked", "format": "meijin", "ruleset": "makura-1.5", "starts_on": DAY},
    "cancel": {},
    "delete": {},
    "participants": {"members": []},
}


@pytest.mark.parametrize("action", DESK_ACTIONS)
def test_a_member_who_is_no_steward_gets_403_and_nothing_changes(member, client_for, action):
    event = gp()
    players = field(8)
    participants_set(event_id=event.pk, members=players)
    client = client_for(member)
    path = reverse(f"tournaments:{action}", args=[event.pk])
    assert post(client, path, DESK_ACTIONS[action]).status_code == 403
    if action in ("edit", "participants"):
        assert client.get(path).status_code == 403
    event.refresh_from_db()
    assert (event.name, event.format, event.status) == ("Autumn GP", "gp", Event.Status.OPEN)
    assert event.participants.count() == 8
    assert phases_of(event) == [("preliminary", 4, "lot"), ("final", 2, "standing")]


def test_the_event_page_offers_the_desk_to_stewards_only(member, staff_member, client_for):
    event = gp()
    detail = reverse("tournaments:detail", args=[event.pk])
    assert 'id="edit-event"' not in client_for(member).get(detail).text
    assert 'id="edit-event"' in client_for(staff_member).get(detail).text


def test_a_steward_edits_an_event_on_its_desk(staff_member, client_for):
    event = gp()
    steward = client_for(staff_member)
    edit = reverse("tournaments:edit", args=[event.pk])
    page = steward.get(edit).text
    assert 'value="Autumn GP"' in page and 'id="confirm-delete"' in page
    # The GP's own "no tobi" and its counted preliminaries read as the format's defaults.
    assert '<option value="" selected>' in page
    assert 'name="carry_over" id="id_carry_over" checked' not in page
    response = post(
        steward,
        edit,
        {
            "name": "Winter GP",
            "format": "gp",
            "ruleset": "makura-1.5",
            "starts_on": "2026-12-05",
            "ends_on": "2026-12-06",
            "venue": "Makura Kichijoji",
            "tobi": "",
        },
        page=edit,
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:detail", args=[event.pk])
    event.refresh_from_db()
    assert (event.name, event.starts_on, event.ends_on, event.venue) == (
        "Winter GP",
        datetime.date(2026, 12, 5),
        datetime.date(2026, 12, 6),
        "Makura Kichijoji",
    )


def test_bad_input_comes_back_as_the_form_with_its_errors(staff_member, client_for):
    event = gp()
    steward = client_for(staff_member)
    edit = reverse("tournaments:edit", args=[event.pk])
    response = post(
        steward,
        edit,
        {
            "name": "",
            "format": "gp",
            "ruleset": "makura-1.5",
            "starts_on": "2026-12-05",
            "ends_on": "2026-12-01",
        },
        page=edit,
    )
    assert response.status_code == 200
    assert "This field is required." in response.text
    assert "The last day cannot be before the first." in response.text
    event.refresh_from_db()
    assert (event.name, event.starts_on) == ("Autumn GP", DAY)


def test_the_format_fields_are_locked_once_a_round_has_started(staff_member, client_for):
    event = drawn_gp(field(16))
    played_round_one(event)
    steward = client_for(staff_member)
    edit = reverse("tournaments:edit", args=[event.pk])
    page = steward.get(edit).text
    assert 'id="format-locked"' in page and 'id="no-delete"' in page
    assert 'id="confirm-delete"' not in page
    # A posted format is ignored (the fields are disabled); the name is saved.
    response = post(
        steward,
        edit,
        {
            "name": "GP, day 1",
            "format": "meijin",
            "ruleset": "makura-1.5",
            "starts_on": "2026-11-28",
        },
        page=edit,
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.format, event.status) == ("GP, day 1", "gp", "running")
    assert Round.objects.filter(event=event).count() == 4


def test_a_steward_cancels_and_the_event_page_marks_its_games(staff_member, client_for):
    event = drawn_gp(field(16))
    played_round_one(event)
    steward = client_for(staff_member)
    detail = reverse("tournaments:detail", args=[event.pk])
    response = post(steward, reverse("tournaments:cancel", args=[event.pk]), page=detail)
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.status == Event.Status.CANCELLED
    page = steward.get(detail).text
    assert 'id="cancelled-note"' in page
    assert page.count("A game of a cancelled tournament") == 4
    assert "not played: the tournament was cancelled" in page
    assert 'id="start-round"' not in page and 'id="next-step"' not in page
    assert "Ranking when the tournament was cancelled" in page
    ics = steward.get(reverse("tournaments:ics", args=[event.pk])).content.decode()
    assert "STATUS:CANCELLED" in ics
    listing = steward.get(reverse("tournaments:list")).text
    assert 'id="cancelled"' in listing
    game = Table.objects.filter(round__event=event).first().hanchan
    assert 'id="cancelled-tournament"' in steward.get(reverse("game_detail", args=[game.pk])).text
    # Cancelling twice is refused on the desk (409), nothing changed.
    again = post(steward, reverse("tournaments:cancel", args=[event.pk]), page=detail)
    assert again.status_code == 409 and "cancelled already" in again.text


def test_a_steward_deletes_an_event_without_games_and_not_one_with(staff_member, client_for):
    steward = client_for(staff_member)
    empty = gp()
    response = post(steward, reverse("tournaments:delete", args=[empty.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("tournaments:list")
    assert not Event.objects.filter(pk=empty.pk).exists()
    assert "is deleted." in steward.get(reverse("tournaments:list")).text
    played = drawn_gp(field(16))
    played_round_one(played)
    response = post(steward, reverse("tournaments:delete", args=[played.pk]))
    assert response.status_code == 409
    assert "cancel the tournament instead" in response.text
    assert Event.objects.filter(pk=played.pk).exists()


def test_the_picker_lists_members_one_a_row_and_searches_keeping_the_ticks(
    staff_member, client_for
):
    players = [make_member(f"m{i}", f"選手{i}", f"せんしゅ{i}") for i in range(8)]
    sato = make_member("sato", "佐藤", "さとう")
    event = gp()
    participants_set(event_id=event.pk, members=players[:4])
    steward = client_for(staff_member)
    picker = reverse("tournaments:participants", args=[event.pk])
    page = steward.get(picker).text
    assert page.count('class="ev-pick"') == Member.objects.count()
    assert page.count(" checked>") == 4  # the players saved
    assert '<output id="ticked-count">4</output>' in page
    assert "さとう" in page  # the reading under the name

    # A search (GET, as without JavaScript) keeps the ticks made so far.
    ticks = [p.pk for p in players[:5]]
    response = steward.get(picker, {"picked": "1", "q": "サトウ", "members": ticks})
    assert response.status_code == 200 and "<html" in response.text
    assert response.text.count('class="ev-pick"') == 1 and "佐藤" in response.text
    assert response.text.count('type="hidden" name="members"') == 5
    assert '<output id="ticked-count">5</output>' in response.text
    assert "5 ticked members are not in this search" in response.text

    # htmx swaps the list alone.
    fragment = steward.get(
        picker, {"picked": "1", "q": "せんしゅ", "members": ticks}, headers={"HX-Request": "true"}
    )
    assert "<html" not in fragment.text and 'id="picker-list"' in fragment.text
    assert fragment.text.count('class="ev-pick"') == 8 and fragment.text.count(" checked>") == 5

    # Saving enters exactly the ticked members.
    chosen = [p.pk for p in players]
    response = post(steward, picker, {"members": chosen, "q": ""}, page=picker)
    assert response.status_code == 302
    assert sorted(event.participants.values_list("member_id", flat=True)) == sorted(chosen)
    assert sato.pk not in event.participants.values_list("member_id", flat=True)


def test_the_picker_of_a_drawn_event_is_refused(staff_member, client_for):
    event = drawn_gp(field(16))
    steward = client_for(staff_member)
    response = steward.get(reverse("tournaments:participants", args=[event.pk]))
    assert response.status_code == 409
    assert "its players are set" in response.text


def test_a_steward_changes_the_format_of_a_drawn_event_and_draws_again(staff_member, client_for):
    event = drawn_gp(field(16))
    steward = client_for(staff_member)
    edit = reverse("tournaments:edit", args=[event.pk])
    assert 'id="format-redraw"' in steward.get(edit).text
    response = post(
        steward,
        edit,
        {
            "name": "Autumn custom",
            "format": "custom",
            "ruleset": "makura-1.5",
            "starts_on": DAY.isoformat(),
            "preliminary_rounds": "3",
            "preliminary_seating": "lot",
            "final_rounds": "1",
            "finalists": "4",
            "carry_over": "on",
        },
        page=edit,
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.format, event.status) == ("custom", Event.Status.OPEN)
    assert phases_of(event) == [("preliminary", 3, "lot"), ("final", 1, "standing")]
    assert not Round.objects.filter(event=event).exists()
    page = steward.get(reverse("tournaments:detail", args=[event.pk])).text
    assert 'id="draw"' in page and 'id="choose-players"' in page
    assert event_initial(event) | {"name": "x"} == event_initial(event) | {
        "name": "x",
        "preliminary_rounds": 3,
        "final_rounds": 1,
        "finalists": 4,
        "carry_over": True,
    }
