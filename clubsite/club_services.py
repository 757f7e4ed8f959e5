"""Creating a club: the one write that adds a club to the site (``manage.py club_create``).

A club's short name (``slug``) names it in addresses (``/c/<slug>/``) and on the command line
(``--club SLUG``) and never changes, so it is checked here before anything is written: a
Django slug (ASCII letters, digits, ``-`` and ``_``), at most 40 characters, not another
club's in any letter case. Its other choices start as the site's ``CLUB_*`` settings
(:mod:`clubsite.club_model`) unless given.

Which rulesets exist is the scoring app's knowledge, not this app's (the apps build on each
other one way: ``[tool.importlinter]`` in pyproject.toml): an app that gives a club choice its
meaning registers a check of it with :func:`register_choice_check` when it is ready, as the
scoring app does for ``default_ruleset``.
"""

from __future__ import annotations

import unicodedata
import zoneinfo
from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubsite.club_model import Club

# A check of one club choice: returns nothing, raises ValidationError (one sentence) to refuse.
ChoiceCheck = Callable[[str], None]

_CHOICE_CHECKS: dict[str, list[ChoiceCheck]] = {}

SLUG_LIMIT = 40  # Club.slug's max_length
NAME_LIMIT = 80  # Club.name's max_length


class ClubRefused(ValueError):
    """A club that cannot be made as asked; ``str()`` is one line saying why, in the active
    language; ``code`` says which refusal it is, whatever the language: ``"slug_empty"``,
    ``"slug_invalid"``, ``"slug_long"``, ``"slug_taken"``, ``"name_empty"``, ``"name_long"``,
    ``"name_control"``, ``"time_zone"``, the code of a registered check's ValidationError (the
    scoring app's: ``"ruleset"``), or ``"invalid"`` (a field check of the model's). Nothing was
    written."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def register_choice_check(choice: str, check: ChoiceCheck) -> None:
    """Have :func:`club_create` run ``check`` on the club choice ``choice`` (a ``Club`` field
    name, e.g. ``"default_ruleset"``) whenever one is given. Registering the same check twice
    registers it once."""
    checks = _CHOICE_CHECKS.setdefault(choice, [])
    if check not in checks:
        checks.append(check)


def check_slug(slug: str) -> None:
    """Raises :class:`ClubRefused` unless ``slug`` may name a new club: a Django slug of at most
    :data:`SLUG_LIMIT` characters that no club has, in any letter case (``/c/North/`` beside
    ``/c/north/`` would be two clubs a reader cannot tell apart)."""
    if not slug:
        raise ClubRefused(_("A club's short name cannot be empty."), "slug_empty")
    try:
        validate_slug(slug)
    except ValidationError:
        raise ClubRefused(
            _("Short name %(slug)r: only ASCII letters, digits, hyphens and underscores.")
            % {"slug": slug},
            "slug_invalid",
        ) from None
    if len(slug) > SLUG_LIMIT:
        raise ClubRefused(
            _("Short name %(slug)r: at most %(n)d characters.") % {"slug": slug, "n": SLUG_LIMIT},
            "slug_long",
        )
    holder = Club.objects.filter(slug__iexact=slug).first()
    if holder is not None:
        raise ClubRefused(
            _("Short name %(slug)r: taken by the club %(name)s (%(holder)s).")
            % {"slug": slug, "name": holder.name, "holder": holder.slug},
            "slug_taken",
        )


def _clean_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise ClubRefused(_("A club's name cannot be empty."), "name_empty")
    if len(name) > NAME_LIMIT:
        raise ClubRefused(
            _("A club's name has at most %(n)d characters.") % {"n": NAME_LIMIT}, "name_long"
        )
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise ClubRefused(
            _("A club's name is one line of text, without control characters."), "name_control"
        )
    return name


def _check_time_zone(key: str) -> None:
    # The zoneinfo keys the system knows, not whatever ZoneInfo() happens to open (a
    # directory such as "Asia", or a file name's case on a case-insensitive disk).
    if key not in zoneinfo.available_timezones():
        raise ClubRefused(
            _("Time zone %(key)r: not a time zone name such as Asia/Tokyo.") % {"key": key},
            "time_zone",
        )


def _check_choice(choice: str, value: str) -> None:
    for check in _CHOICE_CHECKS.get(choice, []):
        try:
            check(value)
        except ValidationError as error:
            raise ClubRefused(
                " ".join(error.messages), getattr(error, "code", None) or "invalid"
            ) from None


def club_create(
    *,
    slug: str,
    name: str,
    time_zone: str | None = None,
    default_ruleset: str | None = None,
) -> Club:
    """Create a club.

    Args:
        slug: its short name, checked by :func:`check_slug`.
        name: as its pages show it: one line, at most :data:`NAME_LIMIT` characters
            (surrounding spaces dropped).
        time_zone: a zoneinfo key (``"Asia/Tokyo"``) where the club's days begin and end;
            ``None``: the site's ``CLUB_TIME_ZONE``.
        default_ruleset: the ruleset id a new game starts with, and the one ruleset the
            club's standings count when a table names none (its standard ruleset, rules-spec
            §4.4), checked by the checks registered for it; ``None``: the site's
            ``CLUB_DEFAULT_RULESET`` and ``CLUB_STANDARD_RULESETS``.

    Returns:
        The saved club, every other choice the site's ``CLUB_*`` setting.

    Raises:
        ClubRefused: any of the above is refused, or the short name was taken meanwhile;
            nothing is written.
    """
    check_slug(slug)
    fields: dict[str, object] = {"slug": slug, "name": _clean_name(name)}
    if time_zone is not None:
        _check_time_zone(time_zone)
        fields["time_zone"] = time_zone
    if default_ruleset is not None:
        _check_choice("default_ruleset", default_ruleset)
        fields["default_ruleset"] = default_ruleset
        fields["standard_rulesets"] = [default_ruleset]
    club = Club(**fields)
    try:
        # The ruleset is checked above by the app that knows the rulesets.
        club.full_clean()
    except ValidationError as error:
        raise ClubRefused(" ".join(error.messages), "invalid") from None
    try:
        with transaction.atomic():
            club.save()
    except IntegrityError:
        raise ClubRefused(
            _("Short name %(slug)r: taken meanwhile by another club.") % {"slug": slug},
            "slug_taken",
        ) from None
    return club
