"""A PostgreSQL cluster of a benchmark's own: ``initdb`` into a temporary folder, served on a
free loopback port with trust authentication, stopped and started at will (the fault runs
hold it down), stopped and removed when done. The machine's own cluster (port 5432) is never
touched.

Debian's server binaries (``/usr/lib/postgresql/<newest>/bin``) refuse to run as root: run
as root, every command runs as the ``postgres`` OS user (``runuser -u postgres --``) and the
folder is made that user's; run as anyone else, as that user.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

PG_ROOT = Path("/usr/lib/postgresql")
MACHINE_PORT = 5432


def newest_bin(root: Path = PG_ROOT) -> Path:
    """The ``bin`` folder of the newest PostgreSQL installed under ``root`` (``17``, ``16``,
    ...); FileNotFoundError when there is none."""
    versions = (
        [p for p in root.iterdir() if (p / "bin" / "initdb").exists()] if root.exists() else []
    )
    if not versions:
        raise FileNotFoundError(f"no PostgreSQL server binaries under {root}")
    newest = max(
        versions, key=lambda p: [int(part) for part in p.name.split(".") if part.isdigit()]
    )
    return newest / "bin"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    if port == MACHINE_PORT:  # pragma: no cover - the kernel does not hand out 5432 here
        return _free_port()
    return port


class PrivateCluster:
    """A throw-away cluster: ``start()`` runs ``initdb`` (the first time) and ``pg_ctl
    start``; ``stop()`` is ``pg_ctl stop -m fast`` (open connections are ended, the data
    kept); ``remove()`` stops it and deletes its folder. ``url`` is
    ``postgres://postgres@127.0.0.1:<port>`` (no database), for
    :func:`benchmarks.scratch_db.create_database`. A context manager: started on entry,
    removed on exit, whatever happened."""

    def __init__(self, bin_dir: Path | None = None) -> None:
        self.bin_dir = bin_dir or newest_bin()
        self.port = _free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="clubsite-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            account = pwd.getpwnam("postgres")
            os.chown(self.folder, account.pw_uid, account.pw_gid)
        self._initialised = False

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}"

    def _run(self, *command: str) -> subprocess.CompletedProcess[str]:
        argv = [str(self.bin_dir / command[0]), *command[1:]]
        if self._as_postgres:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        return subprocess.run(argv, capture_output=True, text=True, check=False, cwd="/")

    def _check(self, result: subprocess.CompletedProcess[str], what: str) -> None:
        if result.returncode != 0:
            raise RuntimeError(f"{what} failed ({result.returncode}): {result.stderr.strip()}")

    def start(self) -> float:
        """Start the cluster (``initdb`` first, the first time); the seconds it took until
        it accepts connections."""
        began = time.monotonic()
        if not self._initialised:
            self._check(
                self._run(
                    "initdb",
                    "-D",
                    str(self.data),
                    "-U",
                    "postgres",
                    "--auth=trust",
                    "--encoding=UTF8",
                    "--no-sync",
                ),
                "initdb",
            )
            self._initialised = True
        # Its own port on the loopback, its socket in its own folder: nothing shared with the
        # machine's cluster (its lock file and socket are in /var/run/postgresql).
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} "
            f"-c unix_socket_directories={self.folder} -c fsync=off -c max_connections=100"
        )
        self._check(
            self._run(
                "pg_ctl", "start", "-D", str(self.data), "-l", str(self.log), "-w", "-o", options
            ),
            "pg_ctl start",
        )
        return time.monotonic() - began

    def stop(self) -> float:
        """``pg_ctl stop -m fast``: the seconds it took."""
        began = time.monotonic()
        self._check(
            self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "fast", "-w"), "pg_ctl stop"
        )
        return time.monotonic() - began

    def running(self) -> bool:
        """Whether the server is up (``pg_ctl status``)."""
        return (
            self._initialised
            and self._run("pg_ctl", "status", "-D", str(self.data)).returncode == 0
        )

    def remove(self) -> None:
        """Stop the server if it runs and delete the folder."""
        try:
            if self.running():
                self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> PrivateCluster:
        try:
            self.start()
        except BaseException:
            self.remove()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.remove()
