"""What the end-to-end hand benchmark (benchmarks/hand_e2e.py) stands on: the table screen's
requests for a ron, shared with the in-process bench (benchmarks/page_requests.py), record the
hand they describe; and the CPU, children and connections of a process read from /proc
(benchmarks/proc_cpu.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from benchmarks import proc_cpu
from benchmarks.hand_e2e import Rounds, report
from benchmarks.hand_entry import _Phone, _uncompressed
from benchmarks.page_requests import asks_server, ron_requests
from tests.test_hand_entry_views import game, players  # noqa: F401  (fixtures)

# -- the table screen's requests ------------------------------------------------------------


def test_the_ron_is_the_confirm_alone_with_every_tap() -> None:
    sent = ron_requests("rid", 4)
    base = [("request_id", "rid"), ("version", "4")]
    # Who dealt in, who won, the riichi and the value are drawn on the phone and go with the
    # confirm.
    assert [(request.path, request.fields) for request in sent] == [
        (
            "",
            [
                *base,
                ("result", "ron"),
                ("loser", "2"),
                ("winners", "1"),
                ("riichi", "1"),
                ("value_1", "3-30"),
            ],
        ),
    ]
    assert [request.confirm for request in sent] == [True]


def test_the_requests_record_the_ron_as_a_phone_sends_them(game, players) -> None:  # noqa: F811
    phone = _Phone(players[0])
    [confirm] = ron_requests(str(uuid.uuid4()), 0)
    answer = phone.post(f"/games/{game.pk}/hands/{confirm.path}", confirm.fields)
    assert answer.status_code == 200
    assert 'class="notice success"' in _uncompressed(answer).decode()
    entry = game.hands.get()
    assert entry.data == {
        "result": "ron",
        "loser": 2,
        "wins": [{"winner": 1, "han": 3, "fu": 30}],
        "riichi": [1],
    }
    # Baba's riichi stick comes back to Baba with the ron: 3,900 from Chiba, net.
    assert entry.result["deltas"] == [0, 3900, -3900, 0]
    assert entry.result["scores"] == [25000, 28900, 21100, 25000]


def test_the_taps_that_ask_the_server_are_the_ones_the_phone_cannot_draw() -> None:
    assert asks_server("result", "draw") and asks_server("result", "chombo")
    for name, value in (
        ("result", "ron"),
        ("result", "tsumo"),
        ("loser", "2"),
        ("winners", "1"),
        ("winner", "0"),
        ("riichi", "1"),
        ("value_1", "3-30"),
        ("tenpai", "0"),
    ):
        assert not asks_server(name, value), name


# -- /proc ----------------------------------------------------------------------------------


def test_stat_counts_user_and_system_ticks_after_the_name(tmp_path: Path) -> None:
    # A command name may hold spaces and parentheses; utime and stime are fields 14 and 15.
    after_name = ["S"] + [str(n) for n in range(4, 14)] + ["250", "30", "7", "9"] + ["0"] * 30
    (tmp_path / "4242").mkdir()
    (tmp_path / "4242" / "stat").write_text("4242 (post (gres) x) " + " ".join(after_name))
    tick = os.sysconf("SC_CLK_TCK")
    assert proc_cpu.stat_cpu_seconds(4242, tmp_path) == pytest.approx(280 / tick)


def test_schedstat_sums_the_threads_nanoseconds(tmp_path: Path) -> None:
    for tid, line in ((7, "1500000000 2000 3\n"), (8, "250000000 1 1\n")):
        (tmp_path / "7" / "task" / str(tid)).mkdir(parents=True)
        (tmp_path / "7" / "task" / str(tid) / "schedstat").write_text(line)
    assert proc_cpu.schedstat_cpu_seconds(7, tmp_path) == pytest.approx(1.75)
    # The finer clock wins when there is one...
    (tmp_path / "7" / "stat").write_text("7 (w) S " + " ".join(["1"] * 10 + ["900", "100"]))
    assert proc_cpu.cpu_seconds(7, tmp_path) == pytest.approx(1.75)
    # ... and stat's ticks serve without it.
    (tmp_path / "9").mkdir()
    (tmp_path / "9" / "stat").write_text("9 (w) S " + " ".join(["1"] * 10 + ["900", "100"]))
    assert proc_cpu.cpu_seconds(9, tmp_path) == pytest.approx(1000 / os.sysconf("SC_CLK_TCK"))
    with pytest.raises(OSError):
        proc_cpu.cpu_seconds(10, tmp_path)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="Linux's /proc")
def test_both_clocks_follow_this_process_cpu() -> None:
    pid = os.getpid()
    before = (proc_cpu.cpu_seconds(pid), proc_cpu.stat_cpu_seconds(pid), time.process_time())
    while time.process_time() - before[2] < 0.3:
        pass
    spent = time.process_time() - before[2]
    assert proc_cpu.cpu_seconds(pid) - before[0] == pytest.approx(spent, abs=0.02)
    # Ticks of 10 ms at either end.
    assert proc_cpu.stat_cpu_seconds(pid) - before[1] == pytest.approx(spent, abs=0.03)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="Linux's /proc")
def test_it_finds_a_child_and_the_port_of_a_connection() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert child.pid in proc_cpu.children(os.getpid())
    finally:
        child.kill()
        child.wait()
    assert proc_cpu.children(2**22 + 1) == []  # no such process

    with socket.socket() as server, socket.socket() as client:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        client.connect(("127.0.0.1", port))
        accepted, _ = server.accept()
        with accepted:
            # The client's end, not the listening socket nor the accepted end (whose remote
            # port is the client's).
            assert proc_cpu.connected_ports(os.getpid(), port) == [client.getsockname()[1]]
            assert proc_cpu.connected_ports(os.getpid(), client.getsockname()[1]) == [port]


# -- the report -----------------------------------------------------------------------------


def test_the_report_judges_worker_and_database_by_the_median() -> None:
    rounds = Rounds()
    # Per round, the seconds of 10 hands: worker 150 ms, database 40 ms a hand, and so on.
    for worker in (0.150, 0.160, 0.170):
        for name, seconds in {
            "worker": worker,
            "database": 0.040,
            "wall": 0.300,
            "worker ticks": worker,
            "database ticks": 0.040,
            "confirm worker": 0.080,
            "confirm database": 0.020,
            "confirm wall": 0.100,
            "handler": 0.140,
            "handler database": 0.040,
            "confirm handler": 0.070,
            "confirm handler database": 0.020,
        }.items():
            rounds.add(name, seconds, 10)
    ok, lines = report(rounds, errors=[])
    assert ok
    assert lines[0].startswith("e2e ron: worker + database CPU")
    assert " 20.0 ms target <= 20 ok (p10-p90 19.2-20.8; best 19.0; 3 rounds)" in lines[0]
    assert "  2.0 ms (1.14x" in lines[8]  # 16 - 14, of the medians
    assert " 10.0 ms (p10-p90 10.0-10.0" in lines[9]  # the confirm, worker + database

    rounds.values["worker"][1] = 16.5
    ok, lines = report(rounds, errors=["game 3 confirm: 503"])
    assert not ok
    assert "20.5 ms target <= 20 ABOVE" in lines[0]
    assert lines[-2:] == [
        f"{'requests failed':<44}      1   target 0 FAILED",
        "   game 3 confirm: 503",
    ]
