"""The fault runs' pieces (benchmarks/faults.py, ``make faults``) on tiny scenarios in
process: a hand resent with its request id is stored once and passes; a hand lost, a hand
stored twice, a hand no phone sent and a stored state that is not its record's replay are
each caught. The venue's network as the runs cut it: no answer while down; while lossy the
request reaches the server, the answer is lost. The private PostgreSQL cluster starts,
answers on its own port, stops (connections refused), starts again and is removed. The kill
hook kills once per arming, only after a recorded hand's commit, only for the kind armed.
The browser tables' hands make a game that does not end."""

from __future__ import annotations

import http.server
import importlib
import json
import threading
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client, override_settings

from benchmarks import fault_hooks
from benchmarks.fault_browser import browser_hand
from benchmarks.faults import NETWORK, Figures, Phone, Venue, check_games
from benchmarks.pg_cluster import MACHINE_PORT, PG_ROOT, PrivateCluster
from clubsite.models import Member
from scoring.engine import replay_record
from scoring.ledger import hand_record
from scoring.models import Hanchan, HandEntry

DRAW: dict[str, Any] = {"result": "draw", "tenpai": [0, 1, 2, 3]}
TSUMO: dict[str, Any] = {"result": "tsumo", "wins": [{"winner": 1, "limit": "mangan"}]}


def _record(game: Hanchan, hand: Mapping[str, Any], version: int, rid: uuid.UUID) -> bool:
    return hand_record(
        hanchan_id=game.pk, hand=hand, expected_version=version, request_id=rid
    ).created


@pytest.mark.django_db
def test_a_resent_hand_is_stored_once_and_the_game_replays(table_game: Hanchan) -> None:
    first, confirm, outbox = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    assert _record(table_game, DRAW, 0, first) is True
    assert _record(table_game, TSUMO, 1, confirm) is True
    # The outbox sends the tsumo again with the same request id: the ledger answers with the
    # stored hand, writes nothing.
    assert _record(table_game, TSUMO, 1, confirm) is False
    [check] = check_games({table_game.pk: [{first}, {confirm, outbox}]})
    assert (check.lost, check.doubled, check.strays, check.out_of_order) == (0, 0, 0, 0)
    assert check.replay == []
    assert check.ok
    table_game.refresh_from_db()
    # Everyone tenpai: the dealer stays, 1 honba; then Baba's mangan tsumo, 8,000 and 300
    # for the honba (the dealer 4,100, the others 2,100).
    assert table_game.state["table"]["scores"] == [20900, 33300, 22900, 22900]


@pytest.mark.django_db
def test_lost_doubled_and_stray_hands_are_counted(table_game: Hanchan) -> None:
    draw, again, stray = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    _record(table_game, DRAW, 0, draw)
    # The same hand sent once more under a new request id (a phone that did not know its
    # first confirm got through, recorded after it): stored twice.
    _record(table_game, DRAW, 1, again)
    _record(table_game, DRAW, 2, stray)
    [check] = check_games({table_game.pk: [{draw, again}, {uuid.uuid4()}]})
    assert (check.lost, check.doubled, check.strays) == (1, 1, 1)
    assert not check.ok


@pytest.mark.django_db
def test_hands_out_of_order_are_counted(table_game: Hanchan) -> None:
    second, first = uuid.uuid4(), uuid.uuid4()
    _record(table_game, DRAW, 0, second)
    _record(table_game, DRAW, 1, first)
    [check] = check_games({table_game.pk: [{first}, {second}]})
    assert (check.lost, check.doubled, check.out_of_order) == (0, 0, 1)


@pytest.mark.django_db
def test_a_state_unlike_the_replay_is_caught(table_game: Hanchan) -> None:
    rid = uuid.uuid4()
    _record(table_game, TSUMO, 0, rid)
    state = Hanchan.objects.get(pk=table_game.pk).state
    state["table"]["scores"] = [25000, 25000, 25000, 25000]
    Hanchan.objects.filter(pk=table_game.pk).update(state=state)
    [check] = check_games({table_game.pk: [{rid}]})
    assert (check.lost, check.doubled) == (0, 0)
    assert len(check.replay) == 1
    assert "stored table" in check.replay[0] and "[25000, 25000, 25000, 25000]" in check.replay[0]


class _Counter(http.server.BaseHTTPRequestHandler):
    seen: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self.seen.append(self.path)
        body = b"ok"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return


@pytest.fixture
def server() -> Iterator[int]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counter)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield int(httpd.server_address[1])
    httpd.shutdown()
    httpd.server_close()


def test_the_venue_network_cuts_and_loses_answers(server: int) -> None:
    _Counter.seen = []
    venue = Venue(server)
    figures = Figures()
    phone = Phone(f"http://127.0.0.1:{venue.port}", "s", figures)
    try:
        assert phone.request("/up", None, {}).body == b"ok"
        venue.set_mode("down")
        assert phone.request("/down", None, {}).status == NETWORK
        venue.set_mode("lossy")
        assert phone.request("/lossy", None, {}).status == NETWORK
        venue.set_mode("up")
        assert phone.request("/back", None, {}).status == 200
    finally:
        venue.close()
    # Down, nothing reached the server; lossy, the request did, its answer did not.
    assert _Counter.seen == ["/up", "/lossy", "/back"]
    assert figures.statuses == {200: 2, NETWORK: 2}


def test_the_venue_says_how_long_a_cut_has_left(server: int) -> None:
    venue = Venue(server)
    try:
        assert venue.cut_left() == 0
        venue.set_mode("down", 10)
        assert 9 < venue.cut_left() <= 10
        venue.set_mode("up")
        assert venue.cut_left() == 0
    finally:
        venue.close()


# -- the private cluster ------------------------------------------------------------------------


@pytest.mark.skipif(not PG_ROOT.exists(), reason="no PostgreSQL server binaries")
def test_the_private_cluster_starts_stops_and_is_removed() -> None:
    with PrivateCluster() as cluster:
        assert cluster.port != MACHINE_PORT
        assert cluster.url == f"postgres://postgres@127.0.0.1:{cluster.port}"
        with psycopg.connect(f"{cluster.url}/postgres") as conn:
            [(port,)] = conn.execute("SHOW port").fetchall()
            [(data,)] = conn.execute("SHOW data_directory").fetchall()
        assert int(port) == cluster.port
        assert Path(data) == cluster.data
        assert cluster.stop() < 10
        assert not cluster.running()
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(f"{cluster.url}/postgres", connect_timeout=3)
        cluster.start()
        assert cluster.running()
        with psycopg.connect(f"{cluster.url}/postgres") as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        folder = cluster.folder
    assert not folder.exists()


# -- the kill hook --------------------------------------------------------------------------------

HOOKED = [*settings.MIDDLEWARE, "benchmarks.fault_hooks.KillAfterCommitMiddleware"]
DRAW_FORM = {"result": "draw", "tenpai": ["0"]}


def test_the_hook_is_in_the_fault_runs_settings_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks import fault_settings

    hook = "benchmarks.fault_hooks.KillAfterCommitMiddleware"
    assert hook not in settings.MIDDLEWARE
    try:
        monkeypatch.delenv("FAULTS_HOOK_DIR", raising=False)
        without = importlib.reload(fault_settings).MIDDLEWARE
        assert without == settings.MIDDLEWARE
        monkeypatch.setenv("FAULTS_HOOK_DIR", "/tmp")
        hooked = importlib.reload(fault_settings).MIDDLEWARE
        # Innermost: it sees the view's answer before any other middleware.
        assert hooked == [*settings.MIDDLEWARE, hook]
    finally:
        monkeypatch.undo()
        importlib.reload(fault_settings)


class Hook:
    """The hook's folder (FAULTS_HOOK_DIR) and the request ids whose answers it killed."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.killed: list[str] = []

    def kill(self) -> None:
        self.killed.append(fault_hooks.kills(self.folder)[-1]["request_id"])


@pytest.fixture
def hook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Hook]:
    """The hook in the middleware, its kill replaced (this process lives on)."""
    hook = Hook(tmp_path)
    monkeypatch.setenv("FAULTS_HOOK_DIR", str(tmp_path))
    monkeypatch.setattr(fault_hooks.KillAfterCommitMiddleware, "kill", staticmethod(hook.kill))
    with override_settings(MIDDLEWARE=HOOKED):
        yield hook


def _confirm(client: Client, game: Hanchan, version: int, **headers: str) -> tuple[str, Any]:
    rid = str(uuid.uuid4())
    data = {"request_id": rid, "version": str(version), "confirm": "1", **DRAW_FORM}
    return rid, client.post(f"/games/{game.pk}/hands/", data, **headers)


@pytest.mark.django_db(transaction=True)
def test_the_hook_kills_once_after_the_commit_of_the_kind_armed(
    hook: Hook, table_game: Hanchan, member: Member
) -> None:
    hooks = hook.folder
    client = Client()
    client.force_login(member.user)
    fault_hooks.arm(hooks, "json")
    # An online confirm (htmx) while only an outbox send is armed: answered.
    first, answer = _confirm(client, table_game, 0, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and hook.killed == []
    fault_hooks.arm(hooks, "htmx")
    second, answer = _confirm(client, table_game, 1, HTTP_HX_REQUEST="true")
    assert hook.killed == [second]
    # An outbox send: the armed json kill; then nothing is armed.
    third, answer = _confirm(client, table_game, 2, HTTP_ACCEPT="application/json")
    assert json.loads(answer.content)["status"] == "recorded"
    fourth, _ = _confirm(client, table_game, 3, HTTP_ACCEPT="application/json")
    assert hook.killed == [second, third]
    # Killed after the commit: each hand stored once; the log says which and how.
    stored = list(HandEntry.objects.filter(hanchan=table_game).order_by("sequence"))
    assert [str(entry.request_id) for entry in stored] == [first, second, third, fourth]
    assert [(k["kind"], k["request_id"], k["game"]) for k in fault_hooks.kills(hooks)] == [
        ("htmx", second, table_game.pk),
        ("json", third, table_game.pk),
    ]
    assert sorted(p.name for p in hooks.iterdir()) == ["kills.log"]


@pytest.mark.django_db(transaction=True)
def test_the_hook_spares_answers_that_record_nothing(
    hook: Hook, table_game: Hanchan, member: Member
) -> None:
    hooks = hook.folder
    client = Client()
    client.force_login(member.user)
    fault_hooks.arm(hooks, "json")
    # A stale version (409) and a preview: nothing recorded, the kill stays armed.
    _, answer = _confirm(client, table_game, 5, HTTP_ACCEPT="application/json")
    assert answer.status_code == 409
    client.post(
        f"/games/{table_game.pk}/hands/preview/",
        {"request_id": str(uuid.uuid4()), "version": "0", **DRAW_FORM},
        HTTP_ACCEPT="application/json",
    )
    assert hook.killed == [] and (hooks / "arm-json").exists()


@pytest.mark.django_db(transaction=True)
def test_a_hand_inside_an_open_transaction_is_not_committed(table_game: Hanchan) -> None:
    rid = uuid.uuid4()
    with transaction.atomic():
        hand_record(hanchan_id=table_game.pk, hand=DRAW, expected_version=0, request_id=rid)
        assert not fault_hooks.committed(str(rid))
    assert fault_hooks.committed(str(rid))


# -- the browser tables' hands --------------------------------------------------------------------


def test_the_browser_tables_hands_make_a_game_that_does_not_end() -> None:
    hands = []
    for number in range(24):
        fields = browser_hand(number)
        if fields["result"] == "draw":
            hands.append({"result": "draw", "tenpai": [int(s) for s in fields["tenpai"]]})
        else:
            winner = int(str(fields["winner"]))
            hands.append({"result": "tsumo", "wins": [{"winner": winner, "limit": "mangan"}]})
    record = {"format": "club-game/1", "ruleset": "makura-1.5", "players": list("ABCD")}
    replay = replay_record({**record, "hands": hands})
    assert replay.settlement is None
    assert (replay.state.round, replay.state.dealer, replay.state.hands_played) == ("S3", 2, 24)
