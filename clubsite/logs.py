"""The format of the site's log: one line per record, as a process manager collects it."""

from __future__ import annotations

import logging


class OneLineFormatter(logging.Formatter):
    """``time level logger message`` (the time with its UTC offset), with line breaks written
    as ``\\n`` so that a record, traceback and all, stays one line of the log."""

    def __init__(self) -> None:
        super().__init__(
            "{asctime} {levelname} {name} {message}", datefmt="%Y-%m-%dT%H:%M:%S%z", style="{"
        )

    def format(self, record: logging.LogRecord) -> str:
        return super().format(record).replace("\r", "\\r").replace("\n", "\\n")
