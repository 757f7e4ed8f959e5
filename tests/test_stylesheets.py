"""The site's own stylesheets parse as a browser reads them: every block closed once. A stray
``}`` is no error to a browser, which drops the next rule without a word (a figure's
"too few for a range" note stopped wrapping that way)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHEETS = sorted(
    path
    for pattern in ("static/css/*.css", "*/static/*/*.css")
    for path in ROOT.glob(pattern)
    if "vendor" not in path.parts
)


def unbalanced_line(css: str) -> int | None:
    """The 1-based line of the first ``}`` that closes nothing, or of the end when a block is
    left open; ``None`` when every block closes once. Comments and strings are skipped."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), css, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', "''", text)
    depth = 0
    for index, char in enumerate(text):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return text.count("\n", 0, index) + 1
    return None if depth == 0 else text.count("\n") + 1


def test_the_sheets_are_found():
    assert {path.name for path in SHEETS} >= {"site.css", "scoring.css", "board.css"}


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda path: path.name)
def test_every_block_closes_once(sheet: Path):
    assert unbalanced_line(sheet.read_text()) is None, sheet


def test_a_stray_brace_is_found():
    assert unbalanced_line("a {\n  color: red;\n}\n}\nb { color: blue; }\n") == 4
    assert unbalanced_line("a { content: '}'; }\n/* } */\n") is None
    assert unbalanced_line("@media (x) {\n  a { b: c; }\n") == 3
