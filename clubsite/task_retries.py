"""Tasks tried again later, with backoff: django-tasks-db runs a task once
(0.13: a task that raises is marked failed), so a task whose failure may pass (a mail server
away, a database deadlock) queues its own next attempt with :func:`requeue`.

Attempt 2 runs a minute after the first failed, then 5 minutes, 30 minutes, 2 hours and 6
hours after each failure (``RETRY_DELAYS``, ``MAX_ATTEMPTS`` = 6, about 8.5 hours in all).
Such a task takes two keyword arguments of its own, ``attempt`` (1 the first time) and
``last_error`` (why the previous attempt failed, one line); the stewards' task page shows them
while the next attempt waits (``clubsite.task_queue``). A task past its last attempt raises,
so it ends failed with its error. The immediate backend (``make run``, the tests) has no
"later": there nothing is queued again.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from django.tasks import Task
from django.utils import timezone

logger = logging.getLogger("clubsite.tasks")

# The wait before attempt 2, 3, ...; attempt 1 is the first run.
RETRY_DELAYS = (
    datetime.timedelta(minutes=1),
    datetime.timedelta(minutes=5),
    datetime.timedelta(minutes=30),
    datetime.timedelta(hours=2),
    datetime.timedelta(hours=6),
)
MAX_ATTEMPTS = 1 + len(RETRY_DELAYS)


def error_text(error: BaseException) -> str:
    """An error as one line for the task page: its class and message."""
    return f"{type(error).__name__}: {error}".strip().rstrip(":")


def requeue(
    task: Task,
    args: Sequence[Any],
    *,
    attempt: int,
    error: BaseException,
    kwargs: Mapping[str, Any] | None = None,
) -> bool:
    """Queue attempt number ``attempt`` (2 or more) of ``task`` with ``args`` (and ``kwargs``,
    JSON) after its delay, with ``attempt`` and ``last_error`` as keyword arguments; returns
    whether it was queued: not past ``MAX_ATTEMPTS``, nor with a backend that runs nothing
    later."""
    if attempt < 2 or attempt > MAX_ATTEMPTS or not task.get_backend().supports_defer:
        return False
    run_after = timezone.now() + RETRY_DELAYS[attempt - 2]
    task.using(run_after=run_after).enqueue(
        *args, **(kwargs or {}), attempt=attempt, last_error=error_text(error)
    )
    logger.warning(
        "%s: attempt %d of %d queued for %s after %s",
        task.name,
        attempt,
        MAX_ATTEMPTS,
        run_after.isoformat(timespec="seconds"),
        error_text(error),
    )
    return True
