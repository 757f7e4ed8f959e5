"""``replay`` on files that are no game record: one line on standard error, exit status 2,
never a traceback."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from scoring.upkeep.record_files import MAX_RECORD_BYTES


def replay(path: Path) -> tuple[int, str]:
    err = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(path), stdout=io.StringIO(), stderr=err)
    return exited.value.code, err.getvalue()


RECORD = {"ruleset": "makura-1.5", "players": ["A", "B", "C", "D"], "hands": []}


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"\xff\xfe\x00{", "not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"ruleset": "makura-1.5", "players": ' + b"9" * 5000 + b"}", "not valid JSON"),
        (json.dumps({**RECORD, "ruleset": "x" * 300}).encode(), "ruleset: unknown ruleset"),
        (json.dumps({**RECORD, "ruleset": "a\x00b"}).encode(), "ruleset: unknown ruleset"),
        (json.dumps({**RECORD, "overrides": {"start_points": 10**12}}).encode(),
         "overrides.start_points: must be between"),
        (b"", "not valid JSON"),
    ],
)  # fmt: skip
def test_a_bad_file_is_one_line_and_status_2(tmp_path, content, says):
    path = tmp_path / "record.json"
    path.write_bytes(content)
    status, err = replay(path)
    assert status == 2
    assert says in err
    assert err.count("\n") <= 1 and "Traceback" not in err


def test_a_file_larger_than_any_record_is_refused_unread(tmp_path):
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * (MAX_RECORD_BYTES + 1))
    status, err = replay(path)
    assert status == 2 and "larger than" in err


def test_a_missing_file_is_one_line(tmp_path):
    status, err = replay(tmp_path / "nowhere.json")
    assert status == 2 and "No such file" in err
