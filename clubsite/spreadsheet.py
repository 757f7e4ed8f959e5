"""Cells of the CSV files people open in a spreadsheet program (the standings, a member's
games, a tournament's ranking)."""

from __future__ import annotations

import re
from typing import Any

# What a spreadsheet program reads as the start of a formula (OWASP "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


def safe_cell(value: Any) -> Any:
    """``value`` as a spreadsheet should show it: text that would start a formula (a member
    named ``=HYPERLINK(...)`` or ``+cmd|...``) gets a leading apostrophe, which spreadsheets
    treat as "this is text"; numbers, ours with their sign included, stay numbers."""
    if not isinstance(value, str) or not value.startswith(_FORMULA_START):
        return value
    if _NUMBER.fullmatch(value):
        return value
    return "'" + value
