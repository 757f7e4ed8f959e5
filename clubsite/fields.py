"""Form fields that choose rows by primary key without letting any text reach the database.

Django's model choice fields look a posted value up as it comes; a number too large for the
database's integer column makes SQLite raise ``OverflowError`` and PostgreSQL a data error,
a server error instead of "not a valid choice". These fields refuse such a
value first, with the field's own "invalid choice" message; :func:`posted_number` reads a
number a form posts by hand.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

# The largest primary key a 32-bit integer column holds (SQLite's and PostgreSQL's "integer").
MAX_KEY = 2**31 - 1


def posted_number(text: str, *, max_digits: int) -> int | None:
    """The number a posted text spells in at most ``max_digits`` ASCII digits (no sign, no
    spaces), else None. ``str.isdigit`` alone is not enough: it is true of ``"²"`` and
    ``"①"``, which ``int`` refuses, and of ``"１"`` (fullwidth), which ``int`` reads."""
    if text.isascii() and text.isdigit() and len(text) <= max_digits:
        return int(text)
    return None


def is_key(value: Any) -> bool:
    """``value`` could be a primary key: a positive integer within the column's range, or
    its decimal text (no sign, no spaces, no NUL bytes)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0 < value <= MAX_KEY
    number = posted_number(str(value), max_digits=10)
    return number is not None and 0 < number <= MAX_KEY


class KeyModelChoiceField(forms.ModelChoiceField):
    """A :class:`~django.forms.ModelChoiceField` that refuses values no key can have."""

    def to_python(self, value: Any) -> Any:
        if value in self.empty_values:
            return None
        if not is_key(value):
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class KeyModelMultipleChoiceField(forms.ModelMultipleChoiceField):
    """A :class:`~django.forms.ModelMultipleChoiceField` that refuses values no key can
    have."""

    def clean(self, value: Any) -> Any:
        for pk in value if isinstance(value, list | tuple) else ():
            if not is_key(pk):
                raise ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": str(pk)[:40]},
                )
        return super().clean(value)
