"""What a member's display name may be: it is shown on every page, in every e-mail subject and
in CSV exports, so it is one line of visible text (a name with a line break once stopped a whole
batch of notice e-mails)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

# The longest display name (Member.display_name's max_length).
NAME_LIMIT = 60


def clean_display_name(name: str) -> str:
    """``name`` trimmed of surrounding spaces.

    Raises:
        ValidationError: empty, longer than :data:`NAME_LIMIT` characters, or holding a
            control character (a line break, a tab, a NUL byte, ...).
    """
    name = name.strip()
    if not name:
        raise ValidationError(_("A display name cannot be empty."), code="empty")
    if len(name) > NAME_LIMIT:
        raise ValidationError(
            _("A display name has at most %(n)d characters.") % {"n": NAME_LIMIT}, code="long"
        )
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise ValidationError(
            _("A display name is one line of text, without control characters."),
            code="control",
        )
    return name


def validate_display_name(name: str) -> None:
    """:func:`clean_display_name` as a model field validator (raises, returns nothing)."""
    if name != name.strip():
        raise ValidationError(_("A display name has no spaces around it."), code="spaces")
    clean_display_name(name)


def quoted_names(names: Iterable[str]) -> str:
    """Names as a sentence lists them, each quoted so that it does not read as part of the
    sentence: “A”, “B” in English, 「A」、「B」 in Japanese."""
    return pgettext("between quoted names", ", ").join(
        gettext("“%(name)s”") % {"name": name} for name in names
    )
