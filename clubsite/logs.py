"""The site's log: one line per record, as a process manager collects it; at most one error
mail per cause every few minutes."""

from __future__ import annotations

import logging
import threading
import traceback


class OneLineFormatter(logging.Formatter):
    """``time level logger message`` (the time with its UTC offset), with line breaks written
    as ``\\n`` so that a record, traceback and all, stays one line of the log."""

    def __init__(self) -> None:
        super().__init__(
            "{asctime} {levelname} {name} {message}", datefmt="%Y-%m-%dT%H:%M:%S%z", style="{"
        )

    def format(self, record: logging.LogRecord) -> str:
        return super().format(record).replace("\r", "\\r").replace("\n", "\\n")


class OncePerCause(logging.Filter):
    """Lets the first record of a cause through and drops its repeats for ``minutes`` (on the
    handler that mails ``ADMINS``): a fault that every request hits, or that someone hits on
    purpose, is one e-mail every few minutes, not one per request. Standard error still gets
    every record.

    A record's cause is, with an exception, the exception's type and the place it was raised
    (file and line of the innermost frame), whatever the request or the message; without,
    its logger and its message before formatting (``"Internal Server Error: %s"``, not the
    path) and where it was logged. Each process keeps its own memory of what it sent (each
    gunicorn worker mails a cause once per window).
    """

    # Causes remembered at most; older ones are forgotten first when there are more.
    MAX_CAUSES = 1000

    def __init__(self, minutes: float = 5) -> None:
        super().__init__()
        self.window = minutes * 60
        self._sent: dict[tuple[object, ...], float] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        cause = cause_of(record)
        with self._lock:
            last = self._sent.get(cause)
            if last is not None and 0 <= record.created - last < self.window:
                return False
            self._sent.pop(cause, None)
            self._sent[cause] = record.created
            while len(self._sent) > self.MAX_CAUSES:
                del self._sent[next(iter(self._sent))]
        return True


def cause_of(record: logging.LogRecord) -> tuple[object, ...]:
    """What makes two records "the same error" for :class:`OncePerCause`."""
    error = record.exc_info[1] if record.exc_info else None
    if error is not None:
        frames = traceback.extract_tb(error.__traceback__)
        where = (frames[-1].filename, frames[-1].lineno) if frames else ("", 0)
        return (type(error).__module__, type(error).__qualname__, *where)
    return (record.name, str(record.msg), record.pathname, record.lineno)
