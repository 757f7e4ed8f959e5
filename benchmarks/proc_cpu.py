"""The CPU time of another process, read from Linux's ``/proc``, and the PostgreSQL backend
that serves one of its connections: what :mod:`benchmarks.hand_e2e` reads of a gunicorn worker
and of the database around each hand.

Two clocks of the same quantity (the time the kernel ran the process's threads):
``/proc/<pid>/stat``'s utime + stime, in clock ticks (``SC_CLK_TCK``, 100 a second here: 10 ms
steps, coarser than a request), and ``/proc/<pid>/task/<tid>/schedstat``'s first field, the
threads' run time in nanoseconds (Linux's ``sum_exec_runtime``, the total that utime and stime
split by sampling).
"""

from __future__ import annotations

import os
from pathlib import Path

PROC = Path("/proc")


def stat_cpu_seconds(pid: int, proc: Path = PROC) -> float:
    """User + system CPU seconds of process ``pid``, all its threads, from
    ``<proc>/<pid>/stat`` (fields 14 and 15, in clock ticks: 10 ms steps at 100 a second).

    The command name (field 2, in parentheses) may hold spaces and parentheses: the fields are
    counted after its last ``)``.

    Raises:
        OSError: no such process (it ended, or ``proc`` has no such file).
    """
    text = (proc / str(pid) / "stat").read_text()
    fields = text.rsplit(")", 1)[1].split()
    # After the name: field 3 (state) is fields[0], so utime (14) and stime (15) are 11 and 12.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def schedstat_cpu_seconds(pid: int, proc: Path = PROC) -> float:
    """CPU seconds of process ``pid``'s living threads, from each ``<proc>/<pid>/task/<tid>/
    schedstat`` (its first field: nanoseconds on a CPU), summed. A thread that ended is no
    longer counted (``stat`` keeps it): read processes whose threads live as long as they do
    (a gunicorn sync worker, a PostgreSQL backend: one thread each).

    Raises:
        OSError: no such process, or a kernel without schedstat (``CONFIG_SCHED_INFO``).
    """
    total = 0
    for task in (proc / str(pid) / "task").iterdir():
        total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


def cpu_seconds(pid: int, proc: Path = PROC) -> float:
    """CPU seconds of process ``pid`` by the finer clock this kernel has: ``schedstat``'s
    nanoseconds, else ``stat``'s ticks.

    Raises:
        OSError: no such process.
    """
    try:
        return schedstat_cpu_seconds(pid, proc)
    except (OSError, ValueError, IndexError):
        return stat_cpu_seconds(pid, proc)


def children(pid: int, proc: Path = PROC) -> list[int]:
    """The pids of process ``pid``'s children (those its main thread started: a gunicorn
    master's workers), from ``<proc>/<pid>/task/<pid>/children``; [] when it has none or ended.
    """
    try:
        text = (proc / str(pid) / "task" / str(pid) / "children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split()]


def connected_ports(pid: int, remote_port: int, proc: Path = PROC) -> list[int]:
    """The local TCP ports of process ``pid``'s sockets connected to ``remote_port`` (IPv4 and
    IPv6): its open descriptors' socket inodes (``<proc>/<pid>/fd/*`` -> ``socket:[inode]``)
    found in ``<proc>/<pid>/net/tcp`` and ``tcp6``, in state ESTABLISHED. A PostgreSQL backend
    shows the port as ``client_port`` in ``pg_stat_activity``.

    Raises:
        OSError: no such process, or its descriptors not readable (another user's, not root).
    """
    inodes = set()
    for fd in (proc / str(pid) / "fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue  # closed meanwhile
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    ports = []
    for table in ("tcp", "tcp6"):
        try:
            lines = (proc / str(pid) / "net" / table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            # sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
            fields = line.split()
            local, remote, state, inode = fields[1], fields[2], fields[3], fields[9]
            if (
                state == "01"
                and inode in inodes
                and int(remote.rsplit(":", 1)[1], 16) == (remote_port)
            ):
                ports.append(int(local.rsplit(":", 1)[1], 16))
    return sorted(ports)
