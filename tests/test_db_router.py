"""The database router for a read replica: the standings pages read from
the alias ``replica`` when one is configured (``DATABASE_REPLICA_URL``), everything else from
the default database, and every write goes to the default database.

The tests give the replica an alias of its own, mirroring the default test database (as the
settings do with ``DATABASE_REPLICA_URL``), so that the queries each connection runs can be
told apart; transactional tests, so that the replica's connection sees committed rows.
"""

from __future__ import annotations

import copy

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubsite.db_router import ReplicaRouter, read_alias, replica_reads
from clubsite.models import Member, OnlineName
from scoring.models import Hanchan
from tests.test_standings_views import JANUARY, History, history  # noqa: F401

REPLICA = "replica"

# The alias exists from the start of the session, before the test databases are set up, as the
# settings make it; it is read only where CLUB_READ_REPLICA names it (the tests below).
if REPLICA not in settings.DATABASES:
    settings.DATABASES[REPLICA] = {
        **copy.deepcopy(settings.DATABASES["default"]),
        "TEST": {"MIRROR": "default"},
    }
    if REPLICA not in connections.settings:
        connections.settings[REPLICA] = {
            **copy.deepcopy(connections.settings["default"]),
            "TEST": {**connections.settings["default"]["TEST"], "MIRROR": "default"},
        }

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", REPLICA])


@pytest.fixture
def replica(settings) -> str:
    settings.CLUB_READ_REPLICA = REPLICA
    return REPLICA


def scoring_queries(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if "scoring_" in q["sql"]]


def test_reads_go_to_the_replica_only_when_asked_and_configured(settings):
    router = ReplicaRouter()
    settings.CLUB_READ_REPLICA = ""
    with replica_reads():
        assert router.db_for_read(Hanchan) == "default" == read_alias()
    settings.CLUB_READ_REPLICA = REPLICA
    assert router.db_for_read(Hanchan) == "default"
    with replica_reads():
        assert router.db_for_read(Hanchan) == REPLICA
        assert router.db_for_write(Hanchan) == "default"
    assert router.db_for_read(Member) == "default"
    assert router.allow_migrate(REPLICA, "scoring") is False
    assert router.allow_migrate("default", "scoring") is True


@pytest.mark.parametrize(
    "page", ["standings", "standings_export", "champions", "yaku_records", "what_if"]
)
def test_the_standings_pages_read_the_replica(replica, history, client_for, page):  # noqa: F811
    client = client_for(history.m["A"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    with (
        CaptureQueriesContext(connections["default"]) as on_default,
        CaptureQueriesContext(connections[REPLICA]) as on_replica,
    ):
        response = client.get(reverse(page) + JANUARY)
    assert response.status_code == 200
    assert scoring_queries(on_replica), "the page read nothing from the replica"
    assert scoring_queries(on_default) == []
    # The session and the login were read from the default database, before the view.
    assert any("django_session" in q["sql"] for q in on_default.captured_queries)
    assert not any("django_session" in q["sql"] for q in on_replica.captured_queries)
    if page == "standings":
        html = response.text
        row = html[html.index(f'id="standing-{history.m["A"].pk}"') :]
        assert "+102.0" in row[: row.index("</tr>")]


def test_other_pages_and_every_write_use_the_default_database(replica, history):  # noqa: F811
    client = Client()
    client.force_login(history.m["A"].user)
    with CaptureQueriesContext(connections[REPLICA]) as on_replica:
        assert client.get(reverse("game_list")).status_code == 200
        assert client.get(reverse("member_detail", args=[history.m["A"].pk])).status_code == 200
        response = client.post(reverse("online_names"), {"service": "tenhou", "name": "Aoki_K"})
    assert response.status_code == 302
    assert on_replica.captured_queries == []
    assert OnlineName.objects.using("default").get(member=history.m["A"]).name == "Aoki_K"


def test_without_a_replica_the_standings_read_the_default_database(history, client_for):  # noqa: F811
    assert settings.CLUB_READ_REPLICA == ""
    client = client_for(history.m["A"])
    with CaptureQueriesContext(connections[REPLICA]) as on_replica:
        assert client.get(reverse("standings") + JANUARY).status_code == 200
    assert on_replica.captured_queries == []
