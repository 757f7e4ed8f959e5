"""gunicorn's settings for ``make serve`` (the ``Procfile``: ``--config
python:clubsite.gunicorn_conf``) and for a systemd unit (README, "Deploying").

One worker process per core this process may run on (``WEB_CONCURRENCY`` if set, gunicorn's
own convention), each with 4 threads (gunicorn's ``gthread`` worker): a request spends part of
its time waiting for PostgreSQL, and another thread of the process runs meanwhile, while the
Python work of the pages, held to one thread at a time per process, gets one core per process.
Each thread keeps its own database connection (``CONN_MAX_AGE``): 8 on 2 cores.

Measured with ``python -m benchmarks.capacity`` on the 2-core machine of ``docs/capacity.md``
(200 phones at 20x a club's pace, the machine shared with other work): three servers played
at once, a third of the tables each, so that each met the same load, gave confirm / preview
p95 of 154 / 89 ms for 2 processes of 4 threads, 189 / 159 ms for 3 sync workers (the
``Procfile`` before) and 223 / 125 ms for 5 sync workers; 2 x 4 was also ahead of 5 sync
workers when two were played at once, and in 3 of 4 runs one after the other.

The address stays on the command line (``--bind``), where the ``Procfile`` takes it from
``HOST`` and ``PORT``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

THREADS = 4


def worker_count(environ: Mapping[str, str] = os.environ) -> int:
    """``WEB_CONCURRENCY`` (a positive integer) if set, else the cores this process may run on.

    Raises:
        ValueError: ``WEB_CONCURRENCY`` is not a positive integer.
    """
    configured = environ.get("WEB_CONCURRENCY", "").strip()
    if not configured:
        return len(os.sched_getaffinity(0))
    if not configured.isdigit() or int(configured) < 1:
        raise ValueError(f"WEB_CONCURRENCY must be a positive integer, not {configured!r}")
    return int(configured)


workers = worker_count()
worker_class = "gthread"
threads = THREADS
