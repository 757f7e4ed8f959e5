"""Events between clubs (docs/clubs.md, "Events between clubs"): club A's event with a
guest from club B. The guest confirms their game under their own login, counts in the
event's ranking and not in A's standings; B counts the guest's game in its own standings
only when it chooses so; another member of B, and the guest beyond the event, find nothing
of A."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from clubsite.club_model import Club
from clubsite.club_scope import club_scope, current_club
from clubsite.members import membership_create
from clubsite.models import Member
from scoring.ledger import hanchan_final_scores
from scoring.models import Hanchan
from scoring.standings import club_today
from tests.conftest import make_member
from tournaments import formats, guests
from tournaments.live_ranking import event_ranking
from tournaments.models import Event, Round
from tournaments.services import EventError, event_create, event_draw, participants_set, round_start

pytestmark = pytest.mark.django_db

# Makura 1.5 §1 settlement of these final scores (as tests/test_tournaments.py): seat by
# seat, +56.0, +10.0, -21.0, -45.0.
SCORES = [45300, 30000, 19700, 5000]
POINTS = [56000, 10000, -21000, -45000]


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


class Setting:
    """Club A (the site's club) with Aoki (a steward), Baba and Chiba; club B ("north") with
    Kato, who plays at A's event as a guest, and Sato, who does not."""

    def __init__(self) -> None:
        self.a = current_club()
        self.aoki = make_member("aoki", "Aoki", "あおき", steward=True)
        self.baba = make_member("baba", "Baba", "ばば")
        self.chiba = make_member("chiba", "Chiba", "ちば")
        self.b = Club.objects.create(slug="north", name="North Club")
        with club_scope(self.b):
            self.kato_home = make_member("kato", "Kato", "かとう")
            self.sato = make_member("sato", "Sato", "さとう")
        self.event = event_create(
            name="League night",
            format_key="custom",
            ruleset_id="makura-1.5",
            starts_on=club_today(),
            plan=formats.custom(preliminary_rounds=1),
            seed=3,
        )


@pytest.fixture
def setting() -> Setting:
    return Setting()


def a_client(user: User, language: str = "en") -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def enter_guest(s: Setting) -> Member:
    """B invited, Kato entered as a guest, the four players set: Kato's host membership."""
    guests.club_invite(event_id=s.event.pk, club_id=s.b.pk)
    (kato,) = guests.guests_add(event_id=s.event.pk, home_member_ids=[s.kato_home.pk])
    participants_set(event_id=s.event.pk, members=[s.aoki, s.baba, s.chiba, kato])
    return kato


def play(s: Setting) -> tuple[Hanchan, dict[int, int]]:
    """Draw, start round 1, and Aoki enters the final scores: the game, and each host
    membership's points (from SCORES by seat, computed here)."""
    event_draw(event_id=s.event.pk)
    rnd = Round.objects.get(event=s.event, number=1)
    round_start(round_id=rnd.pk)
    game = rnd.tables.get().hanchan
    seats = list(game.seats.order_by("index"))
    hanchan_final_scores(
        hanchan_id=game.pk,
        final_scores={"scores": SCORES},
        expected_version=game.version,
        by=s.aoki,
    )
    game.refresh_from_db()
    return game, {seat.member_id: POINTS[seat.index] for seat in seats}


def test_a_guest_is_a_host_membership_of_role_guest(setting: Setting) -> None:
    s = setting
    kato = enter_guest(s)
    assert (kato.role, kato.club_id, kato.user_id) == ("guest", s.a.pk, s.kato_home.user_id)
    assert kato.home_id == s.kato_home.pk and kato.display_name == "Kato"
    assert sorted(s.event.participants.values_list("member__display_name", flat=True)) == [
        "Aoki", "Baba", "Chiba", "Kato"
    ]  # fmt: skip
    # No list of A's members offers the guest a seat beyond the event.
    assert "Kato" not in Member.objects.seatable().values_list("display_name", flat=True)
    assert "Kato" not in Member.objects.of_club().values_list("display_name", flat=True)
    assert set(guests.event_members(s.event).values_list("display_name", flat=True)) == {
        "Aoki", "Baba", "Chiba", "Kato"
    }  # fmt: skip


def test_a_guest_whose_name_is_taken_in_the_host_gets_their_club_after_it(
    setting: Setting,
) -> None:
    s = setting
    with club_scope(s.b):
        baba_b = make_member("baba-north", "Baba", "ばば")
    guests.club_invite(event_id=s.event.pk, club_id=s.b.pk)
    (guest,) = guests.guests_add(event_id=s.event.pk, home_member_ids=[baba_b.pk])
    assert guest.display_name == "Baba (North Club)"


def test_only_members_of_an_invited_club_are_entered_and_nothing_changes_else(
    setting: Setting,
) -> None:
    s = setting
    with pytest.raises(EventError, match="Only active members of an invited club"):
        guests.guests_add(event_id=s.event.pk, home_member_ids=[s.kato_home.pk])
    assert Member.objects.filter(role="guest").count() == 0
    guests.club_invite(event_id=s.event.pk, club_id=s.b.pk)
    with pytest.raises(EventError, match="invited already"):
        guests.club_invite(event_id=s.event.pk, club_id=s.b.pk)
    with pytest.raises(EventError, match="no such club"):
        guests.club_invite(event_id=s.event.pk, club_id=s.a.pk)
    guests.guests_add(event_id=s.event.pk, home_member_ids=[s.kato_home.pk])
    with pytest.raises(EventError, match="Already playing in this tournament: Kato"):
        guests.guests_add(event_id=s.event.pk, home_member_ids=[s.kato_home.pk, s.sato.pk])
    assert s.event.participants.count() == 1
    with pytest.raises(EventError, match="take them out first"):
        guests.club_uninvite(event_id=s.event.pk, club_id=s.b.pk)
    kato = Member.objects.get(role="guest")
    guests.guest_remove(event_id=s.event.pk, member_id=kato.pk)
    assert s.event.participants.count() == 0
    guests.club_uninvite(event_id=s.event.pk, club_id=s.b.pk)
    assert s.event.guest_clubs.count() == 0


def test_the_stewards_page_invites_a_club_and_enters_its_members_by_their_names(
    setting: Setting,
) -> None:
    s = setting
    client = a_client(s.aoki.user)
    url = f"/c/{s.a.slug}/tournaments/{s.event.pk}/guests/"
    page = client.get(url).content.decode()
    assert 'id="invite-club"' in page and ">North Club</option>" in page
    assert client.post(url, {"action": "invite", "club": s.b.pk}).status_code == 302
    page = client.get(url).content.decode()
    # B's members under B's own display names, to tick.
    assert f'value="{s.kato_home.pk}"' in page and "Kato" in page and "Sato" in page
    assert client.post(url, {"action": "add", "members": [s.kato_home.pk]}).status_code == 302
    page = client.get(url).content.decode()
    assert "North Club: Kato" in page and "(already entered)" in page
    refused = client.post(url, {"action": "add", "members": [s.baba.pk]})
    assert refused.status_code == 409
    assert "Only active members of an invited club" in refused.content.decode()
    # Not a steward: 403, nothing changed.
    assert a_client(s.baba.user).post(url, {"action": "invite", "club": s.b.pk}).status_code == 403
    assert s.event.participants.count() == 1


def test_the_guest_confirms_under_their_own_login_and_counts_in_the_event(
    setting: Setting, club_choices
) -> None:
    s = setting
    kato = enter_guest(s)
    club_choices(confirmation="every_other")
    game, points = play(s)
    assert game.counted_version is None  # Baba, Chiba and Kato must confirm
    for member in (s.baba, s.chiba):
        client = a_client(member.user)
        client.post(f"/c/{s.a.slug}/games/{game.pk}/confirm/", {"version": game.version})
    guest = a_client(kato.user)
    page = guest.get(f"/c/{s.a.slug}/games/{game.pk}/")
    assert page.status_code == 200 and "Kato" in page.content.decode()
    response = guest.post(f"/c/{s.a.slug}/games/{game.pk}/confirm/", {"version": game.version})
    assert response.status_code in (200, 302)
    game.refresh_from_db()
    assert game.counted_version == game.version
    confirmed = set(game.confirmations.values_list("user_id", flat=True))
    assert kato.user_id in confirmed
    rows = {row.name: row.total for row in event_ranking(s.event).rows}
    assert rows["Kato"] == points[kato.pk]
    assert rows == {m.display_name: points[m.pk] for m in (s.aoki, s.baba, s.chiba, kato)}
    event_page = guest.get(f"/c/{s.a.slug}/tournaments/{s.event.pk}/").content.decode()
    assert "League night" in event_page


def test_the_guest_opens_their_event_and_games_only(setting: Setting) -> None:
    s = setting
    kato = enter_guest(s)
    game, _points = play(s)
    other = event_create(
        name="Club cup", format_key="custom", ruleset_id="makura-1.5",
        starts_on=club_today(), plan=formats.custom(preliminary_rounds=1),
    )  # fmt: skip
    guest = a_client(kato.user)
    prefix = f"/c/{s.a.slug}"
    for path in (
        f"/tournaments/{s.event.pk}/",
        f"/tournaments/{s.event.pk}/seating/",
        f"/tournaments/{s.event.pk}/ranking.csv",
        f"/games/{game.pk}/",
        f"/members/{kato.pk}/",
        "/rulesets/",
    ):
        assert guest.get(prefix + path).status_code == 200, path
    listing = guest.get(prefix + "/tournaments/").content.decode()
    assert "League night" in listing and "Club cup" not in listing
    for path in (
        "/",
        "/standings/",
        "/standings/champions/",
        f"/members/{s.baba.pk}/",
        f"/tournaments/{other.pk}/",
        "/meetups/",
        "/ratings/",
        "/desk/",
        "/games/new/",
    ):
        assert guest.get(prefix + path).status_code == 404, path
    # The list of their clubs names A as a guest's, leading to their events.
    clubs = guest.get("/clubs/").content.decode()
    assert f'href="/c/{s.a.slug}/tournaments/"' in clubs and "guest at its tournaments" in clubs


def test_a_member_of_the_guest_club_who_is_no_guest_finds_nothing(setting: Setting) -> None:
    s = setting
    enter_guest(s)
    game, _points = play(s)
    sato = a_client(s.sato.user)
    for path in (f"/tournaments/{s.event.pk}/", f"/games/{game.pk}/", "/tournaments/"):
        assert sato.get(f"/c/{s.a.slug}{path}").status_code == 404, path


def test_a_login_that_is_a_member_of_both_plays_as_the_hosts_member(setting: Setting) -> None:
    s = setting
    with club_scope(s.b):
        chiba_b = membership_create(s.chiba.user, club=s.b, display_name="Chiba-san")
    guests.club_invite(event_id=s.event.pk, club_id=s.b.pk)
    (entered,) = guests.guests_add(event_id=s.event.pk, home_member_ids=[chiba_b.pk])
    assert entered.pk == s.chiba.pk and entered.role == "member"
    assert Member.objects.filter(role="guest").count() == 0


def test_the_event_page_of_a_running_event_says_its_guests_are_set(setting: Setting) -> None:
    s = setting
    enter_guest(s)
    play(s)
    page = a_client(s.aoki.user).get(f"/c/{s.a.slug}/tournaments/{s.event.pk}/guests/")
    text = page.content.decode()
    assert page.status_code == 200 and 'id="guests-set"' in text and "Kato" in text
    assert Event.objects.get(pk=s.event.pk).status == Event.Status.RUNNING
