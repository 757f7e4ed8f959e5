"""``manage.py club_create SLUG --name NAME [--time-zone TZ] [--default-ruleset ID]`` and the
service under it (clubsite.club_services.club_create): a new club with its choices; a taken or
invalid short name or value refused in one line with exit status 2, nothing written."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from clubsite.club_model import Club
from clubsite.club_scope import only_club
from clubsite.club_services import ClubRefused, club_create

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> str:
    """The command's standard output; its CommandError (and status) left to the caller."""
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def refusal(*args: str) -> tuple[int, str]:
    """The exit status and message of a command that stops: a CommandError's (call_command
    raises it) or a one-line ``sys.exit`` of the command's own (``player_stats``)."""
    err = io.StringIO()
    try:
        call_command(*args, stdout=io.StringIO(), stderr=err)
    except CommandError as error:
        return error.returncode, str(error)
    except SystemExit as exited:
        return int(exited.code or 0), err.getvalue()
    raise AssertionError(f"{args[0]} ran to the end")


def test_club_create_makes_a_club_with_its_choices() -> None:
    site = only_club()
    out = run(
        "club_create",
        "north",
        "--name",
        "  North Mahjong Club ",
        "--time-zone",
        "Europe/London",
        "--default-ruleset",
        "fuji-sanma",
    )
    club = Club.objects.get(slug="north")
    assert out == f"Created club north (id {club.pk}): North Mahjong Club\n"
    assert club.pk != site.pk and club.name == "North Mahjong Club"
    assert (club.time_zone, club.default_ruleset) == ("Europe/London", "fuji-sanma")
    assert club.standard_rulesets == ["fuji-sanma"]
    # The choices not given are the site's settings, as the first club's were.
    assert club.confirmation == settings.CLUB_CONFIRMATION
    assert club.standings_ties == settings.CLUB_STANDINGS_TIES


def test_club_create_without_choices_takes_the_sites_settings() -> None:
    run("club_create", "south", "--name", "South")
    club = Club.objects.get(slug="south")
    assert club.time_zone == settings.CLUB_TIME_ZONE
    assert club.default_ruleset == settings.CLUB_DEFAULT_RULESET
    assert club.standard_rulesets == settings.CLUB_STANDARD_RULESETS


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["club", "--name", "Again"], "Short name 'club': taken by the club"),
        (["CLUB", "--name", "Again"], "Short name 'CLUB': taken by the club"),
        (["north club", "--name", "N"], "only ASCII letters, digits, hyphens and underscores"),
        (["北", "--name", "N"], "only ASCII letters, digits, hyphens and underscores"),
        (["", "--name", "N"], "short name cannot be empty"),
        (["n" * 41, "--name", "N"], "at most 40 characters"),
        (["north", "--name", "   "], "name cannot be empty"),
        (["north", "--name", "North\nClub"], "one line of text"),
        (["north", "--name", "N" * 81], "at most 80 characters"),
        (["north", "--name", "N", "--time-zone", "Mars/Base"], "Time zone 'Mars/Base'"),
        (["north", "--name", "N", "--time-zone", "Asia"], "Time zone 'Asia'"),
        (["north", "--name", "N", "--default-ruleset", "no-such"], "No built-in ruleset"),
    ],
)
def test_club_create_refuses_in_one_line_with_status_2_and_writes_nothing(
    args: list[str], says: str
) -> None:
    site = only_club()
    status, message = refusal("club_create", *args)
    assert status == 2
    assert says in message and "\n" not in message
    assert list(Club.objects.values_list("pk", flat=True)) == [site.pk]


def test_club_create_on_the_command_line_says_why_on_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "club_create", "north club", "--name", "North"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "CommandError: Short name 'north club': only ASCII letters, digits, hyphens and "
        "underscores.\n"
    )


def test_the_service_names_the_club_holding_a_short_name() -> None:
    site = only_club()
    with translation.override("en"), pytest.raises(ClubRefused) as refused:
        club_create(slug=site.slug, name="Another")
    assert str(refused.value) == (
        f"Short name '{site.slug}': taken by the club {site.name} ({site.slug})."
    )
    assert refused.value.code == "slug_taken"
    made = club_create(slug="east", name="East", default_ruleset="makura-1.3")
    assert (made.default_ruleset, made.standard_rulesets) == ("makura-1.3", ["makura-1.3"])


def test_the_service_says_why_in_the_readers_language() -> None:
    with translation.override("ja"), pytest.raises(ClubRefused) as refused:
        club_create(slug="north", name="North", default_ruleset="no-such")
    assert str(refused.value).startswith("'no-such' という組み込みルールはありません。ルール：")
    assert refused.value.code == "ruleset"
    assert not Club.objects.filter(slug="north").exists()


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"slug": "", "name": "N"}, "slug_empty"),
        ({"slug": "a/b", "name": "N"}, "slug_invalid"),
        ({"slug": "n" * 41, "name": "N"}, "slug_long"),
        ({"slug": "Club", "name": "N"}, "slug_taken"),
        ({"slug": "north", "name": ""}, "name_empty"),
        ({"slug": "north", "name": "N" * 81}, "name_long"),
        ({"slug": "north", "name": "N\tC"}, "name_control"),
        ({"slug": "north", "name": "N", "time_zone": "Asia/Nowhere"}, "time_zone"),
        ({"slug": "north", "name": "N", "default_ruleset": "makura-9"}, "ruleset"),
    ],
)
def test_each_refusal_has_its_code_whatever_the_language(fields: dict[str, str], code: str) -> None:
    only_club()
    with pytest.raises(ClubRefused) as refused:
        club_create(**fields)
    assert refused.value.code == code
    assert Club.objects.count() == 1
