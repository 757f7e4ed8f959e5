"""The documents in docs/ are the club's originals (../shared/ beside the repository), unchanged;
the record format's copy only adds its "Extensions" section at the end (docs/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
needs_originals = pytest.mark.skipif(
    not SHARED.is_dir(), reason="the originals (../shared) are not beside this clone"
)


@needs_originals
@pytest.mark.parametrize(
    "name",
    ["rules-spec.md", "tenhou-rules.md"]
    + sorted(f"seeds/{p.name}" for p in (SHARED / "seeds").glob("*") if SHARED.is_dir()),
)
def test_the_copy_is_the_original(name):
    assert (ROOT / "docs" / name).read_bytes() == (SHARED / name).read_bytes()


@needs_originals
def test_the_record_format_only_adds_extensions_at_its_end():
    original = (SHARED / "game-record-format.md").read_text(encoding="utf-8")
    copy = (ROOT / "docs" / "game-record-format.md").read_text(encoding="utf-8")
    assert copy.startswith(original)
    assert copy[len(original) :].lstrip().startswith("## Extensions in this repository")


def test_every_seed_is_in_the_repository():
    seeds = sorted(p.name for p in (ROOT / "docs" / "seeds").glob("*.txt"))
    assert [name[:3] for name in seeds] == ["000", "001", "002", "003", "004"]
