"""The move into one club loses nothing: a site with a history (the demo club, a seeded year of
club nights, an online import, an online name and lobby, a tournament round in play, the
ratings) is migrated back to before the clubs migrations and forward again, as an existing
one-club site is migrated once. Every row of every table (all but its ``club`` column), every
table's row count, every standings figure and champion the restore drill compares
(scoring.upkeep.restore_drill.figures) and the replay of every stored game are the same after,
and every row a club owns is club 1's.

Transactional: migrations change the schema, which a test's wrapping transaction cannot hold
on SQLite. The test database is left migrated to the latest state, whatever happens, for the
tests after it."""

from __future__ import annotations

import datetime
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Model

from clubsite.club_model import Club
from clubsite.club_scope import club_scope, site_club_defaults
from clubsite.dates import club_today
from clubsite.models import Member, OnlineLobby, OnlineName
from scoring.engine import RecordError, replay_record
from scoring.ledger import hanchan_record
from scoring.models import Hanchan, OnlineGame, PlacementFit
from scoring.upkeep import restore_drill
from scoring.upkeep.history_seeding import seed_history
from tournaments.models import Event, Round
from tournaments.services import event_create, event_draw, participants_set, round_start

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

# Each app's last migration before clubs came in (its *_clubs migration's parent).
BEFORE_CLUBS = [
    ("clubsite", "0007_lobby_note_label"),
    ("meetings", "0005_verbose_names"),
    ("scoring", "0022_fuji_tile_set"),
    ("tournaments", "0005_substitutions"),
    ("ratings", "0001_initial"),
]
ONLINE_LOG = (
    Path(__file__).parent
    / "data"
    / "online"
    / "tenhou-json"
    / "2022080600gm-00a9-0000-06406b7f.json"
)


def club_owned(model: type[Model]) -> bool:
    return any(
        field.name == "club" and field.related_model is Club
        for field in model._meta.concrete_fields
    )


def every_model() -> list[type[Model]]:
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy and model is not Club
    ]


def rows(model: type[Model]) -> list[tuple[Any, ...]]:
    """Every row of ``model``, every column but ``club``, in id order."""
    columns = [f.attname for f in model._meta.concrete_fields if f.name != "club"]
    return list(model._base_manager.order_by("pk").values_list(*columns))


def table_counts() -> dict[str, int]:
    counts = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def replays() -> dict[int, Any]:
    """What the engine makes of every stored game's record (a game in play too): its hands
    and settlement, or the line it refuses the record with."""
    out: dict[int, Any] = {}
    games = Hanchan.objects.select_related("ruleset_version").prefetch_related(
        "seats__member", "hands"
    )
    for game in games.order_by("pk"):
        try:
            out[game.pk] = replay_record(hanchan_record(game)).to_json()
        except RecordError as error:
            out[game.pk] = error.line()
    return out


def snapshot(today: datetime.date) -> dict[str, Any]:
    return {
        "figures": restore_drill.figures(today),
        "replays": replays(),
        "tables": table_counts(),
        "rows": {model._meta.label: rows(model) for model in every_model()},
        "club": list(
            Club.objects.values_list(
                "pk", "slug", "name", "time_zone", "default_ruleset", "standard_rulesets",
                "online_in_standings", "tournaments_in_standings", "standings_ties",
                "confirmation", "list_address",
            )
        ),
    }  # fmt: skip


def migrate_to(targets: list[tuple[str, str]] | None) -> None:
    """Migrate the database to ``targets`` (None: every app's latest migration)."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets if targets is not None else executor.loader.graph.leaf_nodes())


@pytest.fixture
def latest_after() -> Iterator[None]:
    """Whatever the test does, the database is at the latest migrations after it."""
    try:
        yield
    finally:
        migrate_to(None)


def first_club() -> Club:
    """Club 1, as the clubs migration made it: an earlier transactional test's flush may have
    emptied the table, and then it is made again with id 1, as the migration makes it."""
    club = Club.objects.filter(pk=1).first()
    if club is not None:
        return club
    club = Club.objects.create(pk=1, **site_club_defaults())
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [Club]):
            cursor.execute(sql)
    return club


def a_history(django_capture_on_commit_callbacks: Any) -> None:
    """The rows a one-club site has, of every kind the clubs migrations move."""
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo", "--force", stdout=io.StringIO())
    seed_history(years=1, members=10, seed=5, games_per_night=1, end=datetime.date(2026, 10, 31))
    call_command("import_games", str(ONLINE_LOG), "--create-members", stdout=io.StringIO())
    by_login = {m.user.username: m for m in Member.objects.select_related("user")}
    OnlineName.objects.create(member=by_login["baba"], service="majsoul", name="ババ")
    OnlineLobby.objects.create(service="tenhou", lobby="L1111", ruleset_id="makura-1.5")
    event = event_create(
        name="Meijin",
        format_key="meijin",
        ruleset_id="makura-1.5",
        starts_on=club_today(),
        ends_on=club_today() + datetime.timedelta(days=1),
        seed=7,
    )
    players = ["baba", "chiba", "endo", "fujii", "harada", "imai", "kobayashi", "matsumoto"]
    participants_set(event_id=event.pk, members=[by_login[login] for login in players])
    event_draw(event_id=event.pk)
    with django_capture_on_commit_callbacks(execute=True):
        round_start(round_id=Round.objects.get(event=event, number=1).pk)
    call_command("rating_rebuild", stdout=io.StringIO())
    # The placement model's fits came after the clubs (a site before them had none) and are
    # fitted again from the games as they count: not part of what the move must keep.
    PlacementFit.objects.all().delete()


def test_migrating_back_before_clubs_and_forward_again_loses_nothing(
    latest_after: None, django_capture_on_commit_callbacks: Any
) -> None:
    club = first_club()
    with club_scope(club):
        a_history(django_capture_on_commit_callbacks)
        today = club_today()
        before = snapshot(today)

        migrate_to(BEFORE_CLUBS)
        with connection.cursor() as cursor:
            tables = connection.introspection.table_names(cursor)
            member_columns = {
                c.name
                for c in connection.introspection.get_table_description(cursor, "clubsite_member")
            }
        assert "clubsite_club" not in tables and "club_id" not in member_columns
        migrate_to(None)

        after = snapshot(today)

    # What was compared holds what the history made.
    figures = before["figures"]
    assert figures["replays"]["replayed"] > 30 and figures["replays"]["differences"] == []
    assert len(figures["standings"]) > 20 and figures["champions"]["months"]
    assert len(before["replays"]) == Hanchan.objects.count() > 40
    defaults = site_club_defaults()
    assert [row[:3] for row in before["club"]] == [(1, defaults["slug"], defaults["name"])]
    for kind in (Member, Hanchan, OnlineGame, OnlineName, OnlineLobby, Event):
        assert before["rows"][kind._meta.label], f"no {kind.__name__} in the history"

    for part in ("figures", "replays", "tables", "club"):
        assert after[part] == before[part], part
    changed = [label for label, old in before["rows"].items() if after["rows"][label] != old]
    assert changed == []

    owners = [model for model in every_model() if club_owned(model)]
    assert {owner.__name__ for owner in owners} >= {
        "Member", "OnlineName", "OnlineLobby", "Hanchan", "OnlineGame", "CountedSeat",
        "MemberMonth", "MemberYear", "Venue", "Meetup", "Event", "Rating", "RatedGame",
        "RatingBook",
    }  # fmt: skip
    for owner in owners:
        held = before["rows"][owner._meta.label]
        assert set(owner._base_manager.values_list("club_id", flat=True)) == (
            {1} if held else set()
        )
        assert owner._base_manager.count() == len(held)
