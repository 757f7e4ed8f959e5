"""Reading game-record files for the commands (``replay``, ``import_games``): whatever the
file holds, the result is a parsed JSON value or one line saying what is wrong.

A record is a small JSON document; a file over :data:`MAX_RECORD_BYTES`, bytes that are not
UTF-8, JSON nested deeper than any record is, or a number too long to convert are refused
here with a clear line, never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

# A whole hanchan is a few kilobytes; a file of many records stays well below this.
MAX_RECORD_BYTES = 20 * 1024 * 1024


class RecordFileError(ValueError):
    """A record file that cannot be read as JSON; ``str(error)`` is one line for the user."""


def read_json(path: str) -> Any:
    """The JSON value in the file at ``path`` (``-``: standard input).

    Raises:
        RecordFileError: the file cannot be read, is larger than :data:`MAX_RECORD_BYTES`,
            is not UTF-8, or is not valid JSON (including nesting too deep to parse and
            integers too long to convert).
    """
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        else:
            with Path(path).open("rb") as fh:
                data = fh.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise RecordFileError(f"{path}: {error.strerror or error}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordFileError(
            f"{path}: larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB: not a game record"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RecordFileError(
            f"{path}: not UTF-8 text (byte {error.start}): not a game record"
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordFileError(f"record: not valid JSON: {error}") from None
    except RecursionError:
        raise RecordFileError("record: not valid JSON: nested too deeply") from None
    except ValueError as error:  # e.g. an integer beyond Python's conversion limit
        raise RecordFileError(f"record: not valid JSON: {error}") from None
