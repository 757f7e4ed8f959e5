"""Every URL of the site, rendered: the URL configuration is walked, each pattern's
parameters are filled from the demo club (``manage.py load_demo``) and a tournament with a
round in play added to it, and every page is asked for with GET by an anonymous visitor, a
member, a steward and a superuser steward (the demo's aoki). No answer may be a server error.

The walk must reach every pattern: a new URL with a parameter this file cannot fill fails the
test before any page is asked for, so a page is never left out silently. The admin is walked
too: every registered model's pages, filled with the model's first row.
"""

from __future__ import annotations

import datetime
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import Group
from django.contrib.auth.tokens import default_token_generator
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.timezone import now

from clubsite.mail import resend_email
from clubsite.models import JoinApplication, Member, OnlineLobby, OnlineName
from meetings.management.commands.load_demo import DEMO_PASSWORD
from meetings.models import Meetup, MeetupProfile, Venue
from scoring.engine import available_rulesets
from scoring.entry.offline_data import offline_values_file
from scoring.models import Hanchan
from scoring.standings.periods import club_today
from scoring.views.value_pads import value_pads_file
from tests.test_tasks import DATABASE
from tournaments.models import Event, Round
from tournaments.services import event_create, event_draw, participants_set, round_start

Kwargs = dict[str, object]

pytestmark = pytest.mark.django_db


def walked_names() -> Iterator[tuple[str, str]]:
    """``(name, route)`` of every pattern of the URL configuration, names with their
    namespaces (``"meetings:detail"``); an unnamed pattern is named by its route."""

    def walk(patterns: list, prefix: str, namespace: str) -> Iterator[tuple[str, str]]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = namespace
                if pattern.namespace:
                    inner = f"{namespace}{pattern.namespace}:"
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
            else:
                assert isinstance(pattern, URLPattern)
                route = prefix + str(pattern.pattern)
                yield (f"{namespace}{pattern.name}" if pattern.name else route), route

    yield from walk(get_resolver().url_patterns, "", "")


@dataclass
class Demo:
    """The ids the patterns are filled with."""

    superuser: Member  # aoki, the demo's steward
    steward: Member  # doi, made a steward who is not a superuser; seated at the game in play
    member: Member  # goto, seated at the game in play
    other: Member  # baba
    in_play: Hanchan
    finished: list[Hanchan]  # the demo's six, under five rulesets
    meetups: list[int]
    venue: Venue
    online_name: OnlineName
    lobby: OnlineLobby
    event: Event
    round: Round
    event_game: Hanchan
    application: JoinApplication  # a join application waiting at the desk


def app_kwargs(demo: Demo) -> dict[str, list[Kwargs]]:
    """The parameters of every app pattern that has some: each list is requested in full."""
    games = [demo.in_play, *demo.finished]
    game_ids = [{"pk": game.pk} for game in games]
    members = [demo.superuser, demo.member, demo.other]
    year = club_today().year
    reset_user = demo.member.user
    return {
        "online_lobby_delete": [{"pk": demo.lobby.pk}],
        **dict.fromkeys(
            (
                "game_detail",
                "game_record",
                "game_chart",
                "hand_create",
                "hand_preview",
                "hand_undo",
                "game_void",
                "game_confirm",
                "game_final_scores",
                "game_manners",
            ),
            game_ids,
        ),
        **{
            name: [{"pk": game.pk, "number": 1} for game in games]
            for name in ("hand_edit", "hand_edit_preview")
        },
        **{
            name: [{"member_id": m.pk} for m in members]
            for name in (
                "member_detail",
                "member_games_csv",
                "member_figures",
                "member_swings",
                "head_to_head_pick",
            )
        },
        "member_figures_family": [
            {"member_id": demo.superuser.pk, "players": players} for players in (3, 4)
        ],
        "head_to_head": [{"member_id": demo.superuser.pk, "other_id": demo.other.pk}],
        "head_to_head_family": [
            {"member_id": demo.superuser.pk, "other_id": demo.member.pk, "players": players}
            for players in (3, 4)
        ],
        "ruleset_detail": [{"ruleset_id": ruleset_id} for ruleset_id in available_rulesets()],
        # The figures of the game's ruleset, by its current fingerprint and by an old one.
        "offline_values": [
            {
                "version": games[0].ruleset_version_id,
                "language": "ja",
                "digest": offline_values_file(games[0].ruleset(), "ja").digest,
            },
            {"version": games[0].ruleset_version_id, "language": "en", "digest": "0" * 16},
        ],
        # The value pads beside them, likewise.
        "value_pads": [
            {
                "version": games[0].ruleset_version_id,
                "language": "ja",
                "digest": value_pads_file(games[0].ruleset(), "ja").digest,
            },
            {"version": games[0].ruleset_version_id, "language": "en", "digest": "0" * 16},
        ],
        "online_name_delete": [{"pk": demo.online_name.pk}],
        # Baba's profile is public; the others' answer 404.
        "public_profile": [{"member_id": m.pk} for m in members],
        **{
            f"desk:{name}": [{"pk": demo.application.pk}]
            for name in ("application_accept", "application_decline")
        },
        **{
            f"desk:{name}": [{"pk": m.pk} for m in members]
            for name in (
                "member_edit",
                "member_active",
                "member_unlock",
                "member_welcome",
                "member_password",
                "member_online_name_add",
            )
        },
        "desk:member_online_name_delete": [
            {"pk": demo.online_name.member_id, "name_pk": demo.online_name.pk}
        ],
        "meetings:venue_edit": [{"pk": demo.venue.pk}],
        "meetings:feed": [{"token": MeetupProfile.of(demo.member).calendar_token}],
        **{
            f"meetings:{name}": [{"pk": pk} for pk in demo.meetups]
            for name in (
                "detail",
                "ics",
                "apply",
                "withdraw",
                "declare",
                "confirm",
                "finalize",
                "call_off",
                "request_change",
                "rerecruit",
                "move",
                "cancel",
                "mark_held",
                "report",
            )
        },
        "tournaments:race_grand_champion": [{"year": year}, {"year": year - 1}],
        "tournaments:race_meijin": [{"year": year}, {"year": year - 1}],
        **{
            f"tournaments:{name}": [{"pk": demo.event.pk}]
            for name in (
                "detail",
                "my_table",
                "chart",
                "csv",
                "ics",
                "participants",
                "guests",
                "edit",
                "cancel",
                "delete",
                "substitutions",
                "substitutions_accept",
                "draw",
                "withdraw",
                "advance",
                "board",
            )
        },
        **{
            f"tournaments:{name}": [
                {"pk": demo.event.pk, "number": number} for number in (1, demo.round.number + 1)
            ]
            for name in ("round_start", "call_time", "round_clock")
        },
        "tournaments:extra_time": [{"pk": demo.event.pk, "hanchan_id": demo.event_game.pk}],
        "tournaments:table_clock": [{"hanchan_id": demo.event_game.pk}],
        "password_reset_confirm": [
            {
                "uidb64": urlsafe_base64_encode(force_bytes(reset_user.pk)),
                "token": default_token_generator.make_token(reset_user),
            },
            {"uidb64": "MA", "token": "set-password"},
        ],
    }


def admin_kwargs() -> dict[str, list[Kwargs]]:
    """The admin's patterns with parameters: each registered model's pages (change, delete,
    history and the bare id's redirect) with its first row, or with no such row where the
    model has none (which must answer a redirect or 404, never 500); every app's list; the
    "view on site" of a member; a URL the admin does not have."""
    found: dict[str, list[Kwargs]] = {}
    labels = sorted({model._meta.app_label for model in admin.site._registry})
    for name, route in walked_names():
        if not route.startswith("admin/"):
            continue
        parts = route.split("/")
        if len(parts) > 3 and parts[3] == "<path:object_id>" and name != "admin:view_on_site":
            model = apps.get_model(parts[1], parts[2])
            first = model._default_manager.order_by("pk").first()
            found[name] = [{"object_id": str(first.pk) if first is not None else "0"}]
    found["admin:app_list"] = [{"app_label": label} for label in labels]
    user = Member.objects.order_by("pk").first().user
    found["admin:auth_user_password_change"] = [{"id": str(user.pk)}]
    found["admin:view_on_site"] = [
        {
            "content_type_id": str(ContentType.objects.get_for_model(Member).pk),
            "object_id": str(Member.objects.order_by("pk").first().pk),
        }
    ]
    found["admin/(?P<url>.*)$"] = [{"url": "no-such-page/"}]
    return found


def every_kwargs(demo: Demo) -> dict[str, list[Kwargs]]:
    return {**app_kwargs(demo), **admin_kwargs()}


def url_of(name: str, route: str, kwargs: Kwargs) -> str:
    """The path of a pattern with ``kwargs``: reversed by its name, or for an unnamed pattern
    (the admin's redirects) its route with the values put in."""
    if name != route:
        return reverse(name, kwargs=kwargs)
    filled = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: str(kwargs[m.group(1)]), route)
    filled = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(kwargs[m.group(1)]), filled)
    return "/" + filled.lstrip("^").rstrip("$")


@pytest.fixture
def demo(django_capture_on_commit_callbacks, settings) -> Demo:
    """The demo club, with what it lacks for some pages: a steward who is not a superuser, an
    online name and lobby, a tournament whose first round is in play, a login refused and
    one let in (the admin's login records), a group, a task in the database queue (as in
    production, where the task page lists it and links the admin's list)."""
    settings.TASKS = DATABASE
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo", "--force", stdout=io.StringIO())
    refused = {"username": "kanda", "password": "wrong"}
    assert Client().post(reverse("login"), refused).status_code == 200
    let_in = {"username": "kanda", "password": DEMO_PASSWORD}
    assert Client().post(reverse("login"), let_in).status_code == 302
    Group.objects.create(name="Scorers")
    resend_email.enqueue(
        {
            "subject": "Hello",
            "body": "Body",
            "from_email": "club@example.org",
            "to": ["aoki@example.org"],
            "cc": [],
            "bcc": [],
            "reply_to": [],
            "headers": {},
        },
        "greeting",
        attempt=2,
        last_error="SMTPServerDisconnected: gone",
    )
    by_login = {m.user.username: m for m in Member.objects.select_related("user")}
    steward = by_login["doi"]
    steward.user.is_superuser = False
    steward.user.save()
    online_name = OnlineName.objects.create(member=by_login["baba"], service="tenhou", name="ババ")
    lobby = OnlineLobby.objects.create(service="tenhou", lobby="L1111", ruleset_id="makura-1.5")
    not_playing = ["baba", "chiba", "endo", "fujii", "harada", "imai", "kobayashi", "matsumoto"]
    event = event_create(
        name="Meijin",
        format_key="meijin",
        ruleset_id="makura-1.5",
        starts_on=club_today(),
        ends_on=club_today() + datetime.timedelta(days=1),
        seed=7,
    )
    participants_set(event_id=event.pk, members=[by_login[login] for login in not_playing])
    event_draw(event_id=event.pk)
    first = Round.objects.get(event=event, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        round_start(round_id=first.pk)
    event_game = first.tables.order_by("number").first().hanchan
    by_login["baba"].public_profile = True
    by_login["baba"].save(update_fields=["public_profile"])
    application = JoinApplication.objects.create(
        name="Ogawa", email="ogawa@example.org", message="I play on Fridays.", created_at=now()
    )
    finished = list(Hanchan.objects.finished().order_by("pk"))
    return Demo(
        superuser=by_login["aoki"],
        steward=steward,
        member=by_login["goto"],
        other=by_login["baba"],
        in_play=Hanchan.objects.get(status="in_play", event_table__isnull=True),
        finished=finished,
        meetups=sorted(Meetup.objects.values_list("pk", flat=True)),
        venue=Venue.objects.order_by("pk").first(),
        online_name=online_name,
        lobby=lobby,
        event=event,
        round=first,
        event_game=event_game,
        application=application,
    )


def test_every_url_answers_every_role_without_a_server_error(demo: Demo, settings):
    """Every URL, GET, as each role (the app's pages in Japanese, and in English for a member
    and a superuser steward): none answers
    500 or more. Views that only take POST answer 405 (nothing changes on a GET); a page a
    role may not see answers 302 to the login, 403 or 404.

    First, the walk covers every pattern: one with parameters and no entry in
    :func:`every_kwargs` (a new page), or an entry for a pattern that is gone, fails."""
    routes = dict(walked_names())
    kwargs = every_kwargs(demo)
    unfilled = sorted(n for n, route in routes.items() if n not in kwargs and "<" in route)
    assert unfilled == []
    assert sorted(set(kwargs) - set(routes)) == []
    every = sorted(
        {
            url_of(name, route, one)
            for name, route in routes.items()
            for one in kwargs.get(name, [{}])
        }
    )
    assert len(every) > 250

    settings.DEBUG_PROPAGATE_EXCEPTIONS = False
    roles: dict[str, Callable[[], Client]] = {
        "anonymous": lambda: Client(raise_request_exception=False),
        "member": lambda: logged_in(demo.member),
        "steward": lambda: logged_in(demo.steward),
        "superuser steward": lambda: logged_in(demo.superuser),
    }
    failures = []
    statuses: dict[str, dict[int, int]] = {}
    for role, make in roles.items():
        counts = statuses.setdefault(role, {})
        # English for the two roles whose pages differ most (the admin is not translated by
        # the site); Japanese, the site's language, for all.
        languages = ("ja", "en") if role in ("member", "superuser steward") else ("ja",)
        for language in languages:
            client = make()
            client.cookies["django_language"] = language
            for url in every if language == "ja" else _pages_in_english(every):
                response = client.get(url)
                counts[response.status_code] = counts.get(response.status_code, 0) + 1
                if response.status_code >= 500:
                    failures.append(f"{role} ({language}) {url}: {response.status_code}")
    assert failures == []
    # Pages are seen, not only refused: most answer 200 to a superuser steward.
    assert statuses["superuser steward"][200] > 300, statuses


def _pages_in_english(every: list[str]) -> list[str]:
    """English on the app's own pages (the admin is one language's text over the same code)."""
    return [url for url in every if not url.startswith("/admin/")]


def logged_in(member: Member) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(member.user)
    return client
