"""A club's choices are the club's (``clubsite.club_model.Club``), not the site's settings:
the stewards' page ``/desk/club/`` changes them, checked by ``scoring.club_choices`` and
written in one transaction or not at all, and the next page follows them (a new game's
ruleset and date, "this month" of the standings, the confirmation rule, the tie-breakers).
The site's ``CLUB_*`` settings are only what a new club starts with, checked at start-up by
the same rules."""

from __future__ import annotations

import datetime
import re
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from clubsite.club_model import Club
from clubsite.club_scope import club_scope, current_club
from clubsite.models import Member
from scoring import club_choices
from scoring.checks import new_club_settings
from scoring.ledger.confirmation import policy
from scoring.standings.counted import standard_keys, tournaments_counted_by_default

PAGE = "/desk/club/"
CHOICES = list(club_choices.VALIDATORS)
# 15:30 UTC on 31 January 2026: already 1 February in Tokyo, still 31 January in UTC.
MOMENT = datetime.datetime(2026, 1, 31, 15, 30, tzinfo=datetime.UTC)


def english(member: Member) -> Client:
    client = Client(enforce_csrf_checks=False, HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(member.user)
    return client


def stored(club: Club) -> dict[str, Any]:
    """The club's choices as its row holds them."""
    return dict(Club.objects.filter(pk=club.pk).values(*CHOICES).get())


def form_data(club: Club, **changes: Any) -> dict[str, Any]:
    """What the page's form sends for ``club`` as it is, with ``changes``."""
    data: dict[str, Any] = {
        "name": club.name,
        "time_zone": club.time_zone,
        "default_ruleset": club.default_ruleset,
        "standard_rulesets": list(club.standard_rulesets),
        "online_in_standings": ", ".join(club.online_in_standings),
        "confirmation": club.confirmation,
        "list_address": club.list_address,
    }
    if club.tournaments_in_standings:
        data["tournaments_in_standings"] = "on"
    if club.guest_events_in_standings:
        data["guest_events_in_standings"] = "on"
    for place, name in enumerate(club.standings_ties, start=1):
        data[f"tie_{place}"] = name
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


@pytest.fixture
def club(db: None, club_choices: Any) -> Club:
    """The site's club as a one-club site has it: Tokyo, makura-1.5, the settings' defaults."""
    club_choices(
        name="Makura club",
        time_zone="Asia/Tokyo",
        default_ruleset="makura-1.5",
        standard_rulesets=["makura-1.5"],
        online_in_standings=[],
        tournaments_in_standings=True,
        standings_ties=["average_rank", "best_points"],
        confirmation="every_other",
        list_address="club-list@example.org",
    )
    return current_club()


def test_a_steward_changes_the_time_zone_and_ruleset_and_the_next_pages_follow(
    club: Club, staff_member: Member, monkeypatch: pytest.MonkeyPatch
) -> None:
    steward = english(staff_member)
    monkeypatch.setattr("django.utils.timezone.now", lambda: MOMENT)
    this_month = '<a href="?period=month&amp;month={}" aria-current="page">This month</a>'
    assert this_month.format("2026-02") in steward.get(reverse("standings")).text  # Tokyo's

    page = steward.get(PAGE)
    assert page.status_code == 200
    assert '<option value="Asia/Tokyo" selected>Asia/Tokyo</option>' in page.text
    response = steward.post(
        PAGE, form_data(club, time_zone="UTC", default_ruleset="sanma-float"), follow=True
    )
    assert response.redirect_chain == [(PAGE, 302)]
    assert "The club’s settings were saved." in response.text
    assert '<option value="UTC" selected>UTC</option>' in response.text
    assert stored(club)["time_zone"] == "UTC"
    assert stored(club)["default_ruleset"] == "sanma-float"

    # "This month" of the standings is now UTC's: still January.
    assert this_month.format("2026-01") in steward.get(reverse("standings")).text
    # A new game starts under the club's ruleset, dated today where the club now is.
    new_game = steward.get(reverse("game_new")).text
    rulesets = re.findall(r'<option value="([a-z][\w.-]*)"( selected)?>', new_game)
    assert rulesets[0] == ("sanma-float", " selected")
    assert 'value="2026-01-31"' in new_game


def test_each_choice_is_written_and_read_by_what_uses_it(club: Club, staff_member: Member) -> None:
    steward = english(staff_member)
    response = steward.post(
        PAGE,
        form_data(
            club,
            name="  Fuji sanma club ",
            standard_rulesets=["sanma-float", "fuji-sanma"],
            online_in_standings="tenhou-3p@tenhou,  tenhou-3p@tenhou majsoul-3p@majsoul",
            tournaments_in_standings=None,
            tie_1="games",
            tie_2="",
            tie_3="best_points",
            tie_4="",
            confirmation="one_other",
            list_address="sanma@example.org",
        ),
    )
    assert response.status_code == 302
    assert stored(club) == {
        "name": "Fuji sanma club",
        "time_zone": "Asia/Tokyo",
        "default_ruleset": "makura-1.5",
        "standard_rulesets": ["sanma-float", "fuji-sanma"],
        "online_in_standings": ["tenhou-3p@tenhou", "majsoul-3p@majsoul"],
        "tournaments_in_standings": False,
        "guest_events_in_standings": False,
        "standings_ties": ["games", "best_points"],
        "confirmation": "one_other",
        "list_address": "sanma@example.org",
        # The public page's choices, not sent: as a new club has them (nothing published).
        "public_text": "",
        "public_rules": False,
        "public_venues": False,
        "public_meetups": False,
        "public_boards": False,
        "public_join": False,
    }
    # Read as the next request or command reads it: the club as stored now.
    with club_scope(Club.objects.get(pk=club.pk)):
        assert standard_keys() == (
            "sanma-float",
            "fuji-sanma",
            "tenhou-3p@tenhou",
            "majsoul-3p@majsoul",
        )
        assert tournaments_counted_by_default() is False
        assert policy() == "one_other"
    standings = steward.get(reverse("standings")).text
    assert "games played, then best game." in standings
    # The page shows what was stored, the tie-breakers in their places.
    page = steward.get(PAGE).text
    assert 'value="tenhou-3p@tenhou, majsoul-3p@majsoul"' in page
    selects = re.findall(r'<select name="tie_\d"[^>]*>(.*?)</select>', page, re.DOTALL)
    chosen = [re.findall(r'<option value="(\w*)" selected>', select) for select in selects]
    assert chosen == [["games"], ["best_points"], [""], [""]]


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"time_zone": "Mars/Olympus_Mons"}, "time_zone", "Mars/Olympus_Mons is not a time zone"),
        ({"time_zone": "localtime"}, "time_zone", "localtime is not a time zone"),
        ({"time_zone": "../../etc/passwd"}, "time_zone", "is not a time zone"),
        ({"default_ruleset": "makura-9"}, "default_ruleset", "makura-9 is not a ruleset"),
        ({"standard_rulesets": []}, "standard_rulesets", "Pick at least one standard ruleset."),
        (
            {"standard_rulesets": ["makura-1.5", "chess"]},
            "standard_rulesets",
            "chess is not a ruleset",
        ),
        (
            {"online_in_standings": "tenhou-4p@tenhou, tenhou4p@tenhou"},
            "online_in_standings",
            "tenhou4p@tenhou is not an online key",
        ),
        (
            {"online_in_standings": "tenhou-4p@mahjongsoul"},
            "online_in_standings",
            "tenhou-4p@mahjongsoul is not an online key",
        ),
        ({"tie_1": "games", "tie_2": "games"}, "tie_2", "games is given twice"),
        ({"tie_3": "luck"}, "tie_3", "luck is not a tie-breaker"),
        ({"confirmation": "everyone"}, "confirmation", "everyone is not a confirmation rule"),
        ({"confirmation": None}, "confirmation", "Pick who confirms a finished game."),
        ({"time_zone": ""}, "time_zone", "Pick a time zone."),
        ({"list_address": "list at example"}, "list_address", "is not an e-mail address"),
        ({"name": "   "}, "name", "The club needs a name."),
        ({"name": "Club\nnight"}, "name", "without control characters"),
        ({"name": "x" * 81}, "name", "At most 80 characters."),
    ],
)
def test_a_bad_value_is_refused_and_nothing_changes(
    club: Club, staff_member: Member, changes: dict[str, Any], field: str, message: str
) -> None:
    before = stored(club)
    # A good change sent with the bad one is not written either.
    data = form_data(club, name="Renamed", default_ruleset="sanma-float")
    data.update({key: value for key, value in changes.items() if value is not None})
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
    response = english(staff_member).post(PAGE, data)
    assert response.status_code == 200
    assert "Nothing was saved: correct the values marked below." in response.text
    assert message in response.context["form"].errors[field][0]
    assert message.replace("'", "&#x27;") in response.text
    assert stored(club) == before
    assert {name: getattr(current_club(), name) for name in CHOICES} == before


@pytest.mark.parametrize("who", ["member", "anonymous"])
def test_only_a_steward_sees_or_changes_the_clubs_settings(
    club: Club, member: Member, who: str
) -> None:
    before = stored(club)
    client = english(member) if who == "member" else Client()
    changes = form_data(club, time_zone="UTC", confirmation="none")
    if who == "member":
        assert client.get(PAGE).status_code == 403
        assert client.post(PAGE, changes).status_code == 403
    else:
        login = f"{reverse('login')}?next={PAGE}"
        assert client.get(PAGE)["Location"] == login
        assert client.post(PAGE, changes)["Location"] == login
    assert stored(club) == before


def test_the_desk_links_to_it_and_the_page_reads_in_japanese(
    club: Club, staff_member: Member
) -> None:
    steward = english(staff_member)
    assert f'href="{PAGE}" id="desk-club">Club settings</a>' in steward.get("/desk/members/").text
    page = Client(HTTP_ACCEPT_LANGUAGE="ja")
    page.force_login(staff_member.user)
    text = page.get(PAGE).text
    assert "<h1>クラブの設定</h1>" in text
    assert "同卓の他の対局者全員" in text and "世話役（すべての対局）" in text
    assert "同点の順序" in text
    refused = page.post(PAGE, form_data(club, time_zone="Mars/Olympus_Mons")).text
    assert "Mars/Olympus_Mons はタイムゾーンではありません" in refused


def test_the_page_has_no_fixed_widths(club: Club, staff_member: Member) -> None:
    """A phone 390 px wide: the page's own rules size nothing in pixels but the 44 px tap
    targets, and the tie-breakers' selects shrink with the page."""
    from pathlib import Path

    text = english(staff_member).get(PAGE).text
    assert 'style="' not in text  # the Content-Security-Policy allows no inline style
    css = (Path(__file__).resolve().parent.parent / "static/css/desk.css").read_text()
    ours = css[css.index("/* The club's settings") :]
    assert re.findall(r"\b(?!44px)\d+px\b", ours) == []
    assert "minmax(0, 1fr)" in ours and "min-width: 0" in ours


# -- the rules themselves ------------------------------------------------------------------


def test_the_validators_clean_what_they_take() -> None:
    assert club_choices.validate_time_zone(" Asia/Tokyo ") == "Asia/Tokyo"
    assert club_choices.validate_time_zone("UTC") == "UTC"
    assert "Asia/Tokyo" in club_choices.time_zone_keys()
    assert "localtime" not in club_choices.time_zone_keys()
    assert club_choices.validate_online_in_standings("tenhou-4p@tenhou majsoul@majsoul") == [
        "tenhou-4p@tenhou",
        "majsoul@majsoul",
    ]
    assert club_choices.validate_online_in_standings([]) == []
    assert club_choices.validate_standard_rulesets(["sanma-float", "sanma-float"]) == [
        "sanma-float"
    ]
    assert club_choices.validate_standings_ties(["top_rate", "", "games"]) == ["top_rate", "games"]
    assert club_choices.validate_standings_ties([]) == []
    assert club_choices.validate_list_address("") == ""
    with pytest.raises(ValidationError) as refused:
        club_choices.validate_standings_ties("games")
    assert refused.value.code == "not_a_list"
    with pytest.raises(ValidationError) as refused:
        club_choices.validate_standings_ties(["games", "top_rate", "games"])
    assert refused.value.code == "twice"
    with pytest.raises(ValidationError) as refused:
        club_choices.validate_tournaments_in_standings("yes")
    assert refused.value.code == "not_a_boolean"


def test_the_write_is_all_or_nothing(club: Club) -> None:
    before = stored(club)
    with pytest.raises(ValidationError) as refused:
        club_choices.club_choices_save(
            club, {"time_zone": "UTC", "confirmation": "everyone", "colour": "green"}
        )
    assert set(refused.value.error_dict) == {"confirmation", "colour"}
    assert stored(club) == before and club.time_zone == "Asia/Tokyo"

    club_choices.club_choices_save(club, {"time_zone": "UTC", "confirmation": "steward"})
    assert stored(club) == {**before, "time_zone": "UTC", "confirmation": "steward"}
    # The scope's club answers at once.
    assert current_club().time_zone == "UTC" and policy() == "steward"


def test_a_new_clubs_settings_are_checked_at_start_up(settings: Any, db: None) -> None:
    assert new_club_settings() == []
    settings.CLUB_TIME_ZONE = "Mars/Olympus_Mons"
    settings.CLUB_DEFAULT_RULESET = "makura-9"
    settings.CLUB_STANDARD_RULESETS = []
    settings.CLUB_LIST_ADDRESS = "list at example"
    errors = new_club_settings()
    assert [(e.id, e.msg) for e in errors] == [
        ("scoring.E004", "CLUB_TIME_ZONE is 'Mars/Olympus_Mons'"),
        ("scoring.E004", "CLUB_DEFAULT_RULESET is 'makura-9'"),
        ("scoring.E004", "CLUB_STANDARD_RULESETS is []"),
        ("scoring.E004", "CLUB_LIST_ADDRESS is 'list at example'"),
    ]
    # A new club starts as the settings say.
    settings.CLUB_TIME_ZONE = "Pacific/Auckland"
    settings.CLUB_CONFIRMATION = "steward"
    new = Club.objects.create(slug="second", name="Second club")
    assert (new.time_zone, new.confirmation) == ("Pacific/Auckland", "steward")


def test_a_club_s_today_is_its_own(club: Club, club_choices: Any) -> None:
    from clubsite.dates import club_today

    assert club_today(MOMENT) == datetime.date(2026, 2, 1)
    with club_choices(time_zone="Pacific/Pago_Pago"):
        assert club_today(MOMENT) == datetime.date(2026, 1, 31)
        assert club_today(MOMENT) == MOMENT.astimezone(ZoneInfo("Pacific/Pago_Pago")).date()
    assert club_today(MOMENT) == datetime.date(2026, 2, 1)
