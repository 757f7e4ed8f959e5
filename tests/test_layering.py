"""The apps build on each other one way (issue 8): clubsite <- scoring <- meetings,
tournaments. No model module imports an app built on it, even inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# What each module may not import (at any depth): the apps built on it.
FORBIDDEN = {
    "clubsite/models.py": {"scoring", "meetings", "tournaments", "online"},
    "scoring/models.py": {"meetings", "tournaments", "online"},
    "meetings/models.py": {"tournaments", "online"},
}


def imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("module", sorted(FORBIDDEN))
def test_a_model_module_imports_no_app_built_on_it(module):
    assert not imported(ROOT / module) & FORBIDDEN[module]
