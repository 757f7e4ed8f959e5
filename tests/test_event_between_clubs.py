"""Events between clubs (docs/clubs.md, "Events between clubs"): club A's event with a
guest from club B. The guest confirms their game under their own login, counts in the
event's ranking and not in A's standings; B counts the guest's game in its own standings
only when it chooses so; another member of B, and the guest beyond the event, find nothing
of A."""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import translation

from clubsite.club_model import Club
from clubsite.club_scope import club_scope, current_club
from clubsite.members import membership_create
from clubsite.models import Member
from ratings.display import rating_list
from ratings.models import Family, Rating
from scoring.club_choices import club_choices_save
from scoring.ledger import (
    copied_key_disagreements,
    hanchan_final_scores,
    hanchan_void,
    recount_guest_games,
)
from scoring.models import CountedSeat, Hanchan, MemberMonth, MemberYear
from scoring.standings import club_today, month_period, period_standings, range_period
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
    # The header links the pages a guest opens, not the club's others.
    assert f'href="{prefix}/tournaments/">Tournaments</a>' in listing
    assert (
        f'href="{prefix}/standings/"' not in listing and f'href="{prefix}/meetups/"' not in listing
    )
    member_view = a_client(s.baba.user).get(prefix + "/tournaments/").content.decode()
    assert f'href="{prefix}/standings/"' in member_view
    # The club's home is its public page for a guest, as for any login of other clubs: no
    # games list, no member's name (clubsite/public.py).
    home = guest.get(prefix + "/")
    assert home.status_code == 200 and 'id="public-page"' in home.content.decode()
    assert s.baba.display_name not in home.content.decode()
    for path in (
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


# Counting in the clubs' standings.


def figures(club: Club) -> dict[str, list[tuple[object, ...]]]:
    """``club``'s counted rows and totals, read in its own scope."""
    with club_scope(club):
        return {
            "seats": sorted(
                CountedSeat.objects.values_list(
                    "member_id", "hanchan_id", "seat", "points", "rank", "guest"
                )
            ),
            "months": sorted(
                MemberMonth.objects.values_list(
                    "member_id", "month", "games", "total_points", "best"
                )
            ),
            "years": sorted(
                MemberYear.objects.values_list("member_id", "year", "games", "total_points", "best")
            ),
        }


def table(club: Club, *, aligned: bool = True) -> dict[str, tuple[int, int]]:
    """``club``'s standings this month (from the monthly totals) or over a range that is no
    whole month (from the counted seats): ``{name: (games, points)}``."""
    today = club_today()
    with club_scope(club):
        if aligned:
            period = month_period(today.year, today.month)
        else:
            period = range_period(today - datetime.timedelta(days=3), today)
        rows = period_standings(period).rows
    return {row.display_name: (row.games, row.total_points) for row in rows}


def test_the_hosts_standings_leave_the_guest_out_and_the_guest_club_counts_by_choice(
    setting: Setting, club_choices
) -> None:
    s = setting
    club_choices(confirmation="none")
    kato = enter_guest(s)
    game, points = play(s)
    assert game.counted_version == game.version
    hosts = {m.display_name: (1, points[m.pk]) for m in (s.aoki, s.baba, s.chiba)}
    # The event's ranking: everyone, the guest too.
    ranking = {row.name: row.total for row in event_ranking(s.event).rows}
    assert ranking["Kato"] == points[kato.pk] and len(ranking) == 4
    # A's standings: its own members' seats only, from the totals and from the seats alike.
    assert table(s.a) == hosts and table(s.a, aligned=False) == hosts
    assert "Kato" not in a_client(s.baba.user).get(f"/c/{s.a.slug}/standings/").text
    a_rows = figures(s.a)
    assert [row[0] for row in a_rows["seats"] if row[5]] == [kato.pk]  # marked a guest's
    assert kato.pk not in {row[0] for row in a_rows["months"] + a_rows["years"]}
    # B does not count its members' guest games (its default): nothing of the game there.
    assert s.b.guest_events_in_standings is False
    assert table(s.b) == {} and figures(s.b) == {"seats": [], "months": [], "years": []}
    # B chooses to count them: Kato's game comes in at once, with its exact figures.
    club_choices_save(s.b, {"guest_events_in_standings": True})
    kato_figures = {"Kato": (1, points[kato.pk])}
    assert table(s.b) == kato_figures and table(s.b, aligned=False) == kato_figures
    b_rows = figures(s.b)
    assert b_rows["seats"] == [
        (s.kato_home.pk, game.pk, next(r[2] for r in a_rows["seats"] if r[0] == kato.pk),
         points[kato.pk], next(r[4] for r in a_rows["seats"] if r[0] == kato.pk), False)
    ]  # fmt: skip
    assert [row[:4] for row in b_rows["months"]] == [
        (s.kato_home.pk, club_today().replace(day=1), 1, points[kato.pk])
    ]
    sato = a_client(s.sato.user)
    b_standings = sato.get(f"/c/{s.b.slug}/standings/").text
    assert "Kato" in b_standings
    # B's pages link the game by its id under B's prefix, where it is not B's: Kato, a guest
    # of A, is sent on to its page under A's prefix; Sato, no guest of A, finds nothing.
    assert f'href="/c/{s.b.slug}/games/{game.pk}/"' in b_standings
    there = a_client(s.kato_home.user).get(f"/c/{s.b.slug}/games/{game.pk}/")
    assert (there.status_code, there["Location"]) == (302, f"/c/{s.a.slug}/games/{game.pk}/")
    assert a_client(s.kato_home.user).get(there["Location"]).status_code == 200
    assert sato.get(f"/c/{s.b.slug}/games/{game.pk}/").status_code == 404
    # A is untouched by B's choice.
    assert figures(s.a) == a_rows
    # And out again when B turns it off.
    club_choices_save(s.b, {"guest_events_in_standings": False})
    assert table(s.b) == {} and figures(s.b) == {"seats": [], "months": [], "years": []}
    assert "Kato" not in sato.get(f"/c/{s.b.slug}/standings/").text
    assert copied_key_disagreements() == dict.fromkeys(copied_key_disagreements(), 0)


def test_live_counting_and_the_recount_give_the_same_rows_through_a_correction_and_a_void(
    setting: Setting, club_choices
) -> None:
    s = setting
    club_choices(confirmation="none")
    s.b.guest_events_in_standings = True
    s.b.save(update_fields=["guest_events_in_standings"])
    kato = enter_guest(s)
    game, points = play(s)
    live = figures(s.b)
    assert table(s.b) == {"Kato": (1, points[kato.pk])}
    assert recount_guest_games(s.b) == 1
    assert figures(s.b) == live
    # A correction: the scores entered again the other way round.
    hanchan_final_scores(
        hanchan_id=game.pk,
        final_scores={"scores": list(reversed(SCORES))},
        expected_version=game.version,
        by=s.aoki,
    )
    game.refresh_from_db()
    corrected = {seat.member_id: POINTS[3 - seat.index] for seat in game.seats.all()}
    assert corrected[kato.pk] != points[kato.pk]
    assert table(s.b) == {"Kato": (1, corrected[kato.pk])}
    assert table(s.a) == {m.display_name: (1, corrected[m.pk]) for m in (s.aoki, s.baba, s.chiba)}
    live = figures(s.b)
    recount_guest_games(s.b)
    assert figures(s.b) == live
    with club_scope(s.b):
        assert copied_key_disagreements() == dict.fromkeys(copied_key_disagreements(), 0)
    # A void takes the game out of both clubs.
    hanchan_void(hanchan_id=game.pk, expected_version=game.version, steward=True)
    assert table(s.b) == {} and figures(s.b) == {"seats": [], "months": [], "years": []}
    assert table(s.a) == {}
    assert recount_guest_games(s.b) == 0
    assert figures(s.b) == {"seats": [], "months": [], "years": []}


def test_the_club_settings_page_offers_the_choice(setting: Setting) -> None:
    s = setting
    with club_scope(s.b):
        steward = make_member("north-steward", "Ueda", "うえだ", steward=True)
    page = a_client(steward.user).get(f"/c/{s.b.slug}/desk/club/").text
    assert 'id="guest-events"' in page
    assert "Our members" in page and 'name="guest_events_in_standings"' in page
    ja = a_client(steward.user, "ja").get(f"/c/{s.b.slug}/desk/club/").text
    assert "他クラブの大会" in ja


def test_the_recount_command_counts_the_clubs_guest_games(setting: Setting, club_choices) -> None:
    s = setting
    club_choices(confirmation="none")
    kato = enter_guest(s)
    _game, points = play(s)
    assert figures(s.b)["seats"] == []
    Club.objects.filter(pk=s.b.pk).update(guest_events_in_standings=True)
    out = io.StringIO()
    call_command("recount_guest_games", "--club", "north", stdout=out)
    assert out.getvalue() == "1 guest seats counted in north.\n"
    assert table(Club.objects.get(pk=s.b.pk)) == {"Kato": (1, points[kato.pk])}


def test_the_hosts_ratings_rate_the_guest_as_an_opponent_but_do_not_list_them(
    setting: Setting, club_choices
) -> None:
    s = setting
    club_choices(confirmation="none")
    kato = enter_guest(s)
    play(s)
    call_command("rating_rebuild", "--club", s.a.slug, stdout=io.StringIO())
    assert set(Rating.objects.values_list("member_id", flat=True)) == {
        s.aoki.pk, s.baba.pk, s.chiba.pk, kato.pk
    }  # fmt: skip
    ranked, new = rating_list(Family.FOUR)
    assert sorted(line.name for line in ranked + new) == ["Aoki", "Baba", "Chiba"]


def test_an_imported_record_does_not_seat_a_guest(setting: Setting, tmp_path) -> None:
    """import_games matches a record's names to the club's own members: a guest's name is
    refused in one line, exit 2, nothing stored (a guest is another club's member)."""
    s = setting
    enter_guest(s)
    record = {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": ["Aoki", "Baba", "Chiba", "Kato"],
        "hands": [{"result": "ron", "loser": 0, "wins": [{"winner": 1, "limit": "yakuman"}]}],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    games = Hanchan.objects.count()
    err = io.StringIO()
    with pytest.raises(CommandError) as raised:
        call_command(
            "import_games", str(path), "--club", s.a.slug, "--date", "2026-11-20",
            stdout=io.StringIO(), stderr=err,
        )  # fmt: skip
    assert raised.value.returncode == 2
    assert "Kato: a guest of this club's events, not a member" in err.getvalue()
    assert Hanchan.objects.count() == games
