"""gunicorn's settings for ``make serve`` (the ``Procfile``: ``--config
python:clubsite.gunicorn_conf``) and for a systemd unit (README, "Deploying").

Sync workers, one request each, one more than the cores this process may run on
(``WEB_CONCURRENCY`` if set, gunicorn's own convention): 3 on this 2-core machine. A request
spends part of its time waiting for PostgreSQL, on the same machine, and the extra worker uses
the core meanwhile; each worker keeps one database connection (``CONN_MAX_AGE``).

Measured with ``python -m benchmarks.capacity`` (200 phones at 20x a club's pace; figures are
confirm / preview p95, ms; ``docs/capacity.md``). On the machine quiet (load average about 1),
3 sync workers 77 / 58 and 65 / 51 where 2 processes of 2 threads (``gthread``) gave 112 / 107
and 125 / 102. With other work keeping a core busy, runs one after the other varied more
with that work than between settings; played side by side (each server a share of the tables)
2 x 2 threads matched 3 sync workers (83 / 48 against 81 / 52), 4 threads a process did worse
than 2, and 5 sync workers no better than 3.

Limits (the body's are Django's, clubsite/request_limits.py): a request line
of at most 4,094 bytes, 64 header fields of at most 8,190 bytes each; a bigger one is refused
by gunicorn with 400 before a worker's Django sees it. A worker silent for ``timeout`` seconds
is killed and replaced; no request comes near it (the body limits keep the worst at a few
seconds, ``python -m benchmarks.request_limits``), and a worker stopping (a deploy) gets
``graceful_timeout`` to finish its request.

The address stays on the command line (``--bind``), where the ``Procfile`` takes it from
``HOST`` and ``PORT``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping


def worker_count(environ: Mapping[str, str] = os.environ) -> int:
    """``WEB_CONCURRENCY`` (a positive integer) if set, else the usable cores + 1.

    Raises:
        ValueError: ``WEB_CONCURRENCY`` is not a positive integer.
    """
    configured = environ.get("WEB_CONCURRENCY", "").strip()
    if not configured:
        return len(os.sched_getaffinity(0)) + 1
    if not configured.isdigit() or int(configured) < 1:
        raise ValueError(f"WEB_CONCURRENCY must be a positive integer, not {configured!r}")
    return int(configured)


workers = worker_count()
worker_class = "sync"
limit_request_line = 4094
limit_request_fields = 64
limit_request_field_size = 8190
timeout = 30
graceful_timeout = 30
