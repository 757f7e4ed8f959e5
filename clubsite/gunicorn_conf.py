"""gunicorn's settings for ``make serve`` (the ``Procfile``: ``--config
python:clubsite.gunicorn_conf``) and for a systemd unit (README, "Deploying").

One worker process per core this process may run on (``WEB_CONCURRENCY`` if set, gunicorn's
own convention), each with 2 threads (gunicorn's ``gthread`` worker): a request spends part of
its time waiting for PostgreSQL, and the other thread of the process runs meanwhile, while the
Python work of the pages, one thread at a time per process, gets one core per process. Each
thread keeps its own database connection (``CONN_MAX_AGE``): 4 on 2 cores.

Measured with ``python -m benchmarks.capacity`` on the 2-core machine of ``docs/capacity.md``
(200 phones at 20x a club's pace, the machine shared with other work). Runs one after the
other varied more with the other work than between settings, so settings were played side by
side, each server a third or a half of the tables, meeting the same load (confirm / preview
p95, ms): 2 processes of 2 threads 166 / 89 and 127 / 81 where 4 threads gave 325 / 188 and
278 / 133, and 8 threads 249 / 135 and 273 / 167; 4 threads 154 / 89 against 189 / 159 for 3
sync workers (the ``Procfile`` before) and 223 / 125 for 5; 2 threads 83 / 48 against 81 / 52
for 3 sync workers. So 2 x 2 is no worse than anything tried, with fewer processes.

The address stays on the command line (``--bind``), where the ``Procfile`` takes it from
``HOST`` and ``PORT``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

THREADS = 2


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
