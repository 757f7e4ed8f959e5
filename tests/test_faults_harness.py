"""The fault runs' checks (benchmarks/faults.py, ``make faults``) on a tiny scenario in
process, restarting nothing: a hand resent with its request id is stored once and passes; a
hand lost, a hand stored twice, a hand no phone sent and a stored state that is not its
record's replay are each caught. And the venue's network as the runs cut it: no answer while
down; while lossy the request reaches the server, the answer is lost."""

from __future__ import annotations

import http.server
import threading
import uuid
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from benchmarks.faults import NETWORK, Figures, Phone, Venue, check_games
from scoring.ledger import hand_record
from scoring.models import Hanchan

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
