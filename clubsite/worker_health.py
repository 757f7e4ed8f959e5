"""The task worker's heartbeat: a small task that runs every
``HEARTBEAT_SECONDS`` and queues its next run, so that a finished heartbeat younger than
``HEARTBEAT_STALE_SECONDS`` shows a worker taking tasks from the queue.

The worker starts the chain (``manage.py db_worker``, ``clubsite/management/commands``); a
heartbeat queues the next only when none waits, so that several workers keep one chain. The
beats keep no history: each deletes the finished beats before the last ``KEPT_BEATS``.
"""

from __future__ import annotations

import datetime

from django.db.models import QuerySet
from django.tasks import TaskResultStatus, task
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

HEARTBEAT_SECONDS = 60
# Three beats missed: the worker is down, stuck in a long task, or the queue is not taken.
HEARTBEAT_STALE_SECONDS = 3 * HEARTBEAT_SECONDS + 30
KEPT_BEATS = 5


def uses_worker() -> bool:
    """Whether the site's tasks go to a worker's queue (``CLUB_TASKS_BACKEND=database``)."""
    return heartbeat.get_backend().supports_defer


def _beats() -> QuerySet[DBTaskResult]:
    return DBTaskResult.objects.filter(task_path=heartbeat.module_path)


def start_heartbeat() -> bool:
    """Queue a heartbeat now unless one is waiting already; returns whether one was queued.
    Nothing with a backend that has no worker."""
    if not uses_worker() or _beats().filter(status=TaskResultStatus.READY).exists():
        return False
    heartbeat.enqueue()
    return True


@task
def heartbeat() -> str:
    """One beat: queue the next in ``HEARTBEAT_SECONDS`` (unless another worker's beat waits)
    and forget the old beats (this one is the last of the ``KEPT_BEATS`` kept). Returns when
    the next is due (ISO 8601), or "" if none was queued."""
    finished = _beats().exclude(status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING])
    old = list(finished.order_by("-finished_at").values_list("pk", flat=True)[KEPT_BEATS - 1 :])
    DBTaskResult.objects.filter(pk__in=old).delete()
    if _beats().filter(status=TaskResultStatus.READY).exists():
        return ""
    due = timezone.now() + datetime.timedelta(seconds=HEARTBEAT_SECONDS)
    heartbeat.using(run_after=due).enqueue()
    return due.isoformat()


def last_beat() -> datetime.datetime | None:
    """When the last heartbeat finished, or None if none has."""
    return (
        _beats()
        .filter(status=TaskResultStatus.SUCCESSFUL)
        .order_by("-finished_at")
        .values_list("finished_at", flat=True)
        .first()
    )


def worker_state(now: datetime.datetime | None = None) -> str:
    """``"ok"`` (a beat within ``HEARTBEAT_STALE_SECONDS``), ``"stale"`` (an older one, or
    none), or ``"not used"`` (the immediate backend: the tasks run in the requests)."""
    if not uses_worker():
        return "not used"
    beat = last_beat()
    now = now or timezone.now()
    stale = datetime.timedelta(seconds=HEARTBEAT_STALE_SECONDS)
    return "ok" if beat is not None and now - beat <= stale else "stale"
