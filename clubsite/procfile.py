"""Run a Procfile's processes together: `make serve`'s web server and task worker.

A Procfile holds one process a line, ``name: command`` (blank lines and ``#`` comments aside),
as honcho, foreman and hosting platforms read it. Each command runs under ``sh -c`` (so that it
may use ``$HOST``, ``$PORT`` and the like) with this Python's directory first on ``PATH`` (the
virtualenv's ``gunicorn`` and ``python``), in a process group of its own: a Ctrl-C at the
terminal reaches the runner alone, which stops each process once, gracefully.

The processes stop together. When one of them ends, or the runner gets SIGINT or SIGTERM, each
process group gets SIGTERM (gunicorn and ``db_worker`` finish what they are doing), and SIGKILL
after ``grace`` seconds or at a second Ctrl-C. The runner exits with the status of the process
that ended first, or 0 when a signal stopped it::

    python -m clubsite.procfile Procfile [NAME ...]    # NAME ...: only those processes
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import FrameType

GRACE_SECONDS = 30.0
POLL_SECONDS = 0.1


def read(text: str) -> dict[str, str]:
    """The processes of a Procfile's text, by name, in the file's order."""
    processes: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, colon, command = (part.strip() for part in line.partition(":"))
        if not colon or not name.replace("_", "").replace("-", "").isalnum() or not command:
            raise ValueError(f"Procfile line {number} is not 'name: command': {line!r}")
        processes[name] = command
    return processes


def run(processes: Mapping[str, str], *, grace: float = GRACE_SECONDS) -> int:
    """Start the processes and stop them all when one ends or a signal comes; returns the exit
    status (see the module's description)."""
    signals_received: list[int] = []

    def received(number: int, frame: FrameType | None) -> None:
        signals_received.append(number)

    handled = (signal.SIGINT, signal.SIGTERM)
    previous = {number: signal.signal(number, received) for number in handled}
    bin_dir = str(Path(sys.executable).parent)
    environment = {**os.environ, "PATH": os.pathsep.join([bin_dir, os.environ.get("PATH", "")])}
    children: dict[str, subprocess.Popen[bytes]] = {}
    try:
        for name, command in processes.items():
            children[name] = subprocess.Popen(
                ["/bin/sh", "-c", command], env=environment, start_new_session=True
            )
            _say(f"{name} started (pid {children[name].pid}): {command}")
        status = 0
        while not signals_received:
            ended = [(name, child) for name, child in children.items() if child.poll() is not None]
            if ended:
                name, child = ended[0]
                _say(f"{name} ended with status {child.returncode}")
                status = child.returncode if child.returncode >= 0 else 128 - child.returncode
                break
            time.sleep(POLL_SECONDS)
        else:
            _say(f"{signal.Signals(signals_received[0]).name} received")
        _stop(children, grace, signals_received)
        return status
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _stop(
    children: Mapping[str, subprocess.Popen[bytes]], grace: float, signals_received: list[int]
) -> None:
    """SIGTERM to every process group still running, SIGKILL to those left after ``grace``
    seconds or at one more signal."""
    running = [name for name, child in children.items() if _group_alive(child)]
    if running:
        _say(f"stopping {', '.join(running)}")
    for name in running:
        _signal_group(children[name], signal.SIGTERM)
    signals_before = len(signals_received)
    deadline = time.monotonic() + grace
    while any(_group_alive(child) for child in children.values()):
        if time.monotonic() >= deadline or len(signals_received) > signals_before:
            left = [name for name, child in children.items() if _group_alive(child)]
            _say(f"killing {', '.join(left)}")
            for name in left:
                _signal_group(children[name], signal.SIGKILL)
            break
        time.sleep(POLL_SECONDS)
    for child in children.values():
        child.wait()


def _group_alive(child: subprocess.Popen[bytes]) -> bool:
    """Whether any process of the child's group is left: the shell, or what it started."""
    child.poll()  # a shell that has ended is reaped, so that only live processes count
    try:
        os.killpg(child.pid, 0)
    except ProcessLookupError:
        return False
    return True


def _signal_group(child: subprocess.Popen[bytes], number: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # the whole group has ended meanwhile
        os.killpg(child.pid, number)


def _say(message: str) -> None:
    print(f"procfile: {message}", file=sys.stderr, flush=True)


def main(arguments: Sequence[str]) -> int:
    """The command line: ``arguments`` are a Procfile's path and, optionally, the names of
    the processes to run (all by default). Returns :func:`run`'s status, or 2 without a path
    or for a name the Procfile lacks; a malformed Procfile raises :class:`ValueError`."""
    if not arguments:
        _say("usage: python -m clubsite.procfile PROCFILE [NAME ...]")
        return 2
    processes = read(Path(arguments[0]).read_text())
    names = list(arguments[1:]) or list(processes)
    unknown = [name for name in names if name not in processes]
    if unknown:
        _say(f"no process {', '.join(unknown)} in {arguments[0]}")
        return 2
    return run({name: processes[name] for name in names})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
