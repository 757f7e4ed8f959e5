"""The prose says why in the code's own terms: no tracked file cites this project's tracker by
number ("issue" or "issues" and a number, with or without items). A reader of the code cannot
follow such a number, and ``git log`` keeps the history. Citations stay: the seeds and the spec
(seed 004 L54, rules-spec §2, M-21), and other projects' trackers, named by their repository
(owner/name) or as a link.

Not read: the translation catalogues (``locale/``), migrations (written once, kept as they
were), the seeds (``docs/seeds/``) and the spec the club gave (``docs/rules-spec.md``,
``docs/tenhou-rules.md``, kept as the originals), CI's own files (``.ci/``) and any change log."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The word, then a number (after a "#", or on the next line of a comment); the rest is the same.
TRACKER = re.compile(r"\bissues?\s+(?:(?:#|//|\*)\s+)?#?\d+", re.IGNORECASE)
# Another project's tracker, named just before: "ApplySci/aim issue 3".
OTHER_PROJECT = re.compile(r"[\w.-]+/[\w.-]+\s+$")
SKIPPED = re.compile(
    r"(^|/)locale/|(^|/)migrations/|^docs/seeds/|^docs/(rules-spec|tenhou-rules)\.md$|^\.ci/"
    r"|(^|/)(CHANGELOG|CHANGES|HISTORY|NEWS)[^/]*$",
    re.IGNORECASE,
)


def tracked_files() -> list[str]:
    """The repository's files as git tracks them, else every file under the root."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        listed = b""
    if listed:
        return [name for name in listed.decode().split("\0") if name]
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in {"node_modules"}]
        found += [str((Path(folder) / name).relative_to(ROOT)) for name in files]
    return found


def tracker_citations(name: str, text: str) -> list[str]:
    """Each citation of this project's tracker in ``text`` as ``file:line: the line``."""
    found = []
    for match in TRACKER.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        if OTHER_PROJECT.search(text[line_start : match.start()]):
            continue
        number = text.count("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.start())
        line = text[line_start : line_end if line_end != -1 else len(text)]
        cited = f"{name}:{number}: {line.strip()[:120]}"
        if cited not in found:
            found.append(cited)
    return found


def test_no_file_cites_the_trackers_numbers():
    cited = []
    for name in tracked_files():
        path = ROOT / name
        if SKIPPED.search(name) or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        cited += tracker_citations(name, text)
    assert not cited, "Say why in the code's own terms, not by tracker number:\n" + "\n".join(cited)


def test_it_finds_a_citation_and_leaves_other_projects_and_the_seeds_alone():
    issue = "issue"  # not written out with its number, so that this file passes its own test
    text = f"a = 1\n# Added for {issue} 7 item 2.\n# ({issue.title()}s\n# 3 and 4)\n"
    assert tracker_citations("x.py", text) == [
        f"x.py:2: # Added for {issue} 7 item 2.",
        f"x.py:3: # ({issue.title()}s",
    ]
    kept = "# MahjongRepository/mahjong issue #12; Pantheon #457; seed 004 L54; rules-spec §2\n"
    assert tracker_citations("x.py", kept) == []
