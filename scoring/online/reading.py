"""Telling a game file's format by its content, and reading it.

A file is one of: a club game record (docs/game-record-format.md; one object or a list), a
Tenhou JSON log (:mod:`.tenhou_json`, Mahjong Soul's conversions included), Tenhou's
result lines (:mod:`.result_lines`), an mjlog
(:mod:`.mjlog`, gzip-compressed as the Tenhou client saves it, or plain) or an mjai log
(:mod:`.mjai`). The name of the file is used only for a Tenhou log id in it.
"""

from __future__ import annotations

import gzip
import io
import zlib
from dataclasses import dataclass
from typing import Any

from scoring.engine import RecordError, check_record_values

from . import majsoul, mjai, mjlog, result_lines, tenhou_json
from .log import NotAGameLog, OnlineLog

# A whole game log is tens of kilobytes; anything this large is not one.
MAX_LOG_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class GameFile:
    """What a file holds: ``log`` for an online log, ``lines`` for Tenhou result lines
    (:mod:`.result_lines`: each a line read, or why it is not one), else ``records`` (club
    records)."""

    log: OnlineLog | None = None
    records: Any = None
    lines: tuple[result_lines.ResultLine | result_lines.LineUnreadable, ...] | None = None


def read_game_file(raw: bytes, filename: str = "", *, limit: int = MAX_LOG_BYTES) -> GameFile:
    """Read ``raw`` (a file's bytes) by its content: at most ``limit`` bytes, gzip unpacked
    (the upload page's is smaller than the command's).

    Returns:
        :class:`GameFile` with ``log`` set for an online log, or ``records`` set to the
        parsed JSON of a club record (or list of records), which the caller imports as such.

    Raises:
        LogError: too large, not UTF-8, a corrupt gzip stream, or in no known format; or a
            log of a known format with a fault (the reader's message).
    """
    if len(raw) > limit:
        raise NotAGameLog(f"larger than {_megabytes(limit)}: not a game log")
    if raw[:2] == b"\x1f\x8b":
        raw = _gunzip(raw, limit)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise NotAGameLog(f"not UTF-8 text (byte {error.start}): not a game log") from None
    if text.lstrip().startswith("<"):
        return GameFile(log=_storable(mjlog.read(text, raw, filename)))
    if mjai.looks_like(text) and "\n" in text.strip():
        return GameFile(log=_storable(mjai.read(text, raw)))
    stripped = text.strip()
    if not stripped:
        raise NotAGameLog("empty file: not a game log")
    if result_lines.looks_like(stripped):
        # Numbered as the file's own lines (blank lines before the first one included).
        return GameFile(lines=result_lines.read_lines(text))
    if stripped[0] not in "[{":
        raise NotAGameLog(
            "not a game log: neither a club record, a Tenhou JSON log, an mjlog nor an mjai log"
        )
    data = tenhou_json.parse_text(stripped)
    if tenhou_json.looks_like(data):
        return GameFile(log=_storable(tenhou_json.read(data, raw)))
    if majsoul.looks_like(data):
        return GameFile(log=_storable(majsoul.read(data, raw)))
    if isinstance(data, dict) and data.get("type") in ("start_game", "start_kyoku"):
        return GameFile(log=_storable(mjai.read(text, raw)))
    if isinstance(data, list) or (isinstance(data, dict) and "players" in data):
        return GameFile(records=data)
    raise NotAGameLog(
        "not a game log: neither a club record, a Tenhou JSON log, an mjlog nor an mjai log"
    )


def _storable(log: OnlineLog) -> OnlineLog:
    """``log``, if the ledger can store its names and ids: no NUL character (PostgreSQL
    refuses them) nor lone surrogate in them."""
    texts = {
        "players": list(log.players),
        "id": log.log_id,
        "lobby": log.lobby,
        "rule": log.rule_label,
    }
    try:
        check_record_values(texts)
    except RecordError as error:
        raise NotAGameLog(f"{error}: not a game log") from None
    return log


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):g} MB"


def _gunzip(raw: bytes, limit: int) -> bytes:
    """``raw`` unpacked, reading no more than ``limit`` bytes of it (a gzip bomb stops there)."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as stream:
            data = stream.read(limit + 1)
    except (OSError, EOFError, zlib.error) as error:
        raise NotAGameLog(f"a corrupt gzip file: {error}") from None
    if len(data) > limit:
        raise NotAGameLog(f"larger than {_megabytes(limit)}: not a game log")
    return data
