"""A club's choices (the fields of :class:`clubsite.club_model.Club`): what each may hold,
checked in one place, and their one write.

The stewards' club settings page (:mod:`scoring.views.club_settings`) cleans what a steward
sends with these; the start-up checks (:mod:`scoring.checks`) test the site's ``CLUB_*``
settings, which are what a new club starts with, with the same ones. Every ``validate_*``
takes a value as a form or the settings give it and returns it cleaned, or raises
``ValidationError`` with a message in the reader's language and a stable ``code``.

These live in scoring, not beside the model: the rulesets (the engine), the tie-breakers
(the standings) and the confirmation policies (the ledger) are scoring's, and clubsite
imports nothing of scoring (the ``apps`` layers of pyproject.toml).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _

from clubsite.club_model import Club
from clubsite.models import ONLINE_SERVICES
from scoring.engine import available_rulesets
from scoring.ledger import POLICIES, recount_guest_games
from scoring.standings.table import TIE_BREAKERS

# The columns' lengths (clubsite.club_model.Club).
NAME_LIMIT = 80
TIME_ZONE_LIMIT = 60
ADDRESS_LIMIT = 254

# Files of a host's time zone database that are no zone of their own: "localtime" is the
# host's clock (whatever the host is set to), "posixrules" a template for POSIX strings.
NOT_ZONES = frozenset({"localtime", "posixrules"})


@functools.cache
def time_zone_keys() -> tuple[str, ...]:
    """Every zoneinfo key the time zone database has, sorted (``"Africa/Abidjan"`` ...
    ``"Zulu"``), as the stewards' page offers them. Cached: reading the database takes about
    a quarter of a second."""
    return tuple(sorted(available_timezones() - NOT_ZONES))


def validate_name(value: object) -> str:
    """The club's name: one line of 1 to 80 characters, trimmed.

    Raises ValidationError: ``required``, ``control`` (a control character such as a line
    break), ``max_length``."""
    name = str(value).strip()
    if not name:
        raise ValidationError(_("The club needs a name."), code="required")
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise ValidationError(_("One line of text, without control characters."), code="control")
    if len(name) > NAME_LIMIT:
        raise ValidationError(
            _("At most %(limit)d characters.") % {"limit": NAME_LIMIT}, code="max_length"
        )
    return name


def validate_time_zone(value: object) -> str:
    """A zoneinfo key such as ``"Asia/Tokyo"`` or ``"UTC"`` (where "this month" and a new
    game's date are taken, :func:`clubsite.dates.club_today`).

    Raises ValidationError: ``required`` for none, ``time_zone`` for no zone of the time
    zone database by that key."""
    key = str(value).strip()
    if not key:
        raise ValidationError(_("Pick a time zone."), code="required")
    if key not in NOT_ZONES and len(key) <= TIME_ZONE_LIMIT:
        try:
            ZoneInfo(key)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            # ValueError: a path rather than a key ("../x", "/etc/x"); OSError: a folder.
            pass
        else:
            return key
    raise ValidationError(
        _("%(value)s is not a time zone: pick one such as Asia/Tokyo.") % {"value": key},
        code="time_zone",
    )


def validate_ruleset(value: object) -> str:
    """A built-in ruleset's id (:func:`scoring.engine.available_rulesets`), the default ruleset
    of a new game.

    Raises ValidationError: ``required`` for none, ``ruleset`` for no built-in ruleset by
    that id."""
    ruleset_id = str(value).strip()
    if not ruleset_id:
        raise ValidationError(_("Pick a ruleset."), code="required")
    if ruleset_id not in available_rulesets():
        raise ValidationError(
            _("%(value)s is not a ruleset of this site.") % {"value": ruleset_id},
            code="ruleset",
        )
    return ruleset_id


def _listed(values: object) -> list[str]:
    # A bare string is one of the settings' easy mistakes ("a,b" for ["a", "b"]).
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise ValidationError(_("A list is wanted."), code="not_a_list")
    return [str(value).strip() for value in values]


def validate_standard_rulesets(values: object) -> list[str]:
    """The standard rulesets (rules-spec §4.4 "standard-rule games": what a standings table
    counts when it names none): one or more built-in ruleset ids, each kept once, in order.

    Raises ValidationError: ``required`` for none; ``ruleset`` for an unknown id, one error
    per id; ``not_a_list``."""
    ruleset_ids = list(dict.fromkeys(_listed(values)))
    if not ruleset_ids:
        raise ValidationError(_("Pick at least one standard ruleset."), code="required")
    errors = []
    for ruleset_id in ruleset_ids:
        try:
            validate_ruleset(ruleset_id)
        except ValidationError as error:
            errors.append(error)
    if errors:
        raise ValidationError(errors)
    return ruleset_ids


def validate_online_key(value: object) -> str:
    """One online standings key: ``"<built-in ruleset>@<online service>"``, e.g.
    ``"tenhou-4p@tenhou"`` (services: ``clubsite.models.ONLINE_SERVICES``).

    Raises ValidationError ``online_key``."""
    key = str(value).strip()
    ruleset_id, _at, service = key.partition("@")
    services = [name for name, _label in ONLINE_SERVICES]
    if ruleset_id not in available_rulesets() or service not in services:
        raise ValidationError(
            _(
                "%(value)s is not an online key: write <ruleset>@<service>, e.g. "
                "tenhou-4p@tenhou; services: %(services)s."
            )
            % {"value": key, "services": ", ".join(services)},
            code="online_key",
        )
    return key


def validate_online_in_standings(values: object) -> list[str]:
    """The online games that also count in the standard table: keys of
    :func:`validate_online_key`, each kept once, in order; none is the default (online games
    then count only under their own filter). A string is read as keys separated by commas or
    spaces, as the stewards' page and the environment write them.

    Raises ValidationError ``online_key``, one error per bad key; ``not_a_list``."""
    if isinstance(values, str):
        values = values.replace(",", " ").split()
    keys = list(dict.fromkeys(key for key in _listed(values) if key))
    errors = []
    for key in keys:
        try:
            validate_online_key(key)
        except ValidationError as error:
            errors.append(error)
    if errors:
        raise ValidationError(errors)
    return keys


def validate_tournaments_in_standings(value: object) -> bool:
    """Whether tournament games count in the standings unless the page's filter says
    otherwise (rules-spec §4.4 leaves it to the club): a boolean.

    Raises ValidationError ``not_a_boolean``."""
    if not isinstance(value, bool):
        raise ValidationError(_("Yes or no is wanted."), code="not_a_boolean")
    return value


def validate_guest_events_in_standings(value: object) -> bool:
    """Whether the club's members' games as guests at other clubs' events count in its
    standings (events between clubs, ``scoring.ledger.guests``): a boolean.

    Raises ValidationError ``not_a_boolean``."""
    return validate_tournaments_in_standings(value)


def validate_standings_ties(values: object) -> list[str]:
    """The order of the tie-breakers of equal totals (the seeds are silent, rules-spec T-06):
    names of :data:`scoring.standings.table.TIE_BREAKERS`, each once; none leaves equal totals
    to the display name.

    Raises ValidationError: ``tie_breaker`` for an unknown name, ``twice`` for a name given
    twice; ``not_a_list``."""
    names = [name for name in _listed(values) if name]
    for name in names:
        if name not in TIE_BREAKERS:
            raise ValidationError(
                _("%(value)s is not a tie-breaker: use some of %(names)s.")
                % {"value": name, "names": ", ".join(TIE_BREAKERS)},
                code="tie_breaker",
            )
    repeated = [name for i, name in enumerate(names) if name in names[:i]]
    if repeated:
        raise ValidationError(
            _("Each tie-breaker once: %(value)s is given twice.") % {"value": repeated[0]},
            code="twice",
        )
    return names


def validate_confirmation(value: object) -> str:
    """Who confirms a finished game before it counts: one of
    :data:`scoring.ledger.POLICIES` (``"every_other"``, ``"one_other"``, ``"steward"``,
    ``"none"``).

    Raises ValidationError: ``required`` for none, ``confirmation`` for another word."""
    policy = str(value).strip()
    if not policy:
        raise ValidationError(_("Pick who confirms a finished game."), code="required")
    if policy not in POLICIES:
        raise ValidationError(
            _("%(value)s is not a confirmation rule: use one of %(names)s.")
            % {"value": policy, "names": ", ".join(POLICIES)},
            code="confirmation",
        )
    return policy


def validate_list_address(value: object) -> str:
    """The club's mailing list, which every meetup notice also goes to: an e-mail address of
    at most 254 characters, or empty for none.

    Raises ValidationError ``list_address``."""
    address = str(value).strip()
    if not address:
        return ""
    if len(address) <= ADDRESS_LIMIT:
        try:
            validate_email(address)
        except ValidationError:
            pass
        else:
            return address
    raise ValidationError(
        _("%(value)s is not an e-mail address.") % {"value": address[:ADDRESS_LIMIT]},
        code="list_address",
    )


PUBLIC_TEXT_LIMIT = 4000


def validate_public_text(value: object) -> str:
    """The text of the club's public page: plain text of at most 4,000 characters, trimmed,
    its line breaks kept (a blank line starts a paragraph); empty for none.

    Raises ValidationError: ``control`` (a control character other than a line break or a
    tab, a NUL among them), ``max_length``."""
    text = str(value).replace("\r\n", "\n").strip()
    if any(unicodedata.category(c).startswith("C") and c not in "\n\t" for c in text):
        raise ValidationError(
            _("Plain text only: the text holds a control character."), code="control"
        )
    if len(text) > PUBLIC_TEXT_LIMIT:
        raise ValidationError(
            _("At most %(limit)d characters.") % {"limit": PUBLIC_TEXT_LIMIT}, code="max_length"
        )
    return text


def validate_switch(value: object) -> bool:
    """A section of the public page shown or not: a boolean.

    Raises ValidationError ``not_a_boolean``."""
    return validate_tournaments_in_standings(value)


# Each choice a club has, with its check: the fields of Club a steward may change.
VALIDATORS: Mapping[str, Callable[[Any], Any]] = {
    "name": validate_name,
    "time_zone": validate_time_zone,
    "default_ruleset": validate_ruleset,
    "standard_rulesets": validate_standard_rulesets,
    "online_in_standings": validate_online_in_standings,
    "tournaments_in_standings": validate_tournaments_in_standings,
    "guest_events_in_standings": validate_guest_events_in_standings,
    "standings_ties": validate_standings_ties,
    "confirmation": validate_confirmation,
    "list_address": validate_list_address,
    "public_text": validate_public_text,
    "public_rules": validate_switch,
    "public_venues": validate_switch,
    "public_meetups": validate_switch,
    "public_boards": validate_switch,
    "public_join": validate_switch,
}


def clean_choices(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` (some of :data:`VALIDATORS`' names) each cleaned by its validator.

    Raises:
        ValidationError: with ``{name: [errors]}`` for every refused value (and every name
            that is no choice of a club), so that a page shows them all at once.
    """
    cleaned: dict[str, Any] = {}
    errors: dict[str, Any] = {}
    for name, value in values.items():
        validator = VALIDATORS.get(name)
        if validator is None:
            errors[name] = ValidationError(
                _("%(value)s is not a choice of a club.") % {"value": name}, code="unknown"
            )
            continue
        try:
            cleaned[name] = validator(value)
        except ValidationError as error:
            errors[name] = error
    if errors:
        raise ValidationError(errors)
    return cleaned


def club_choices_save(club: Club, values: Mapping[str, Any]) -> Club:
    """Write ``values`` (names of :data:`VALIDATORS`) over ``club``: all of them in one
    transaction once every one is clean (:func:`clean_choices`), or none.

    ``club`` itself (as the scope's club, :func:`clubsite.club_scope.current_club`) answers the
    new choices from the moment they are written; other requests read them from the row. A
    change of ``guest_events_in_standings`` recounts the members' games at other clubs'
    events into the club's standings, or out of them, in the same transaction
    (:func:`scoring.ledger.recount_guest_games`).

    Raises:
        ValidationError: as :func:`clean_choices`; nothing is written.
        Club.DoesNotExist: ``club`` is no longer stored.
    """
    cleaned = clean_choices(values)
    guests_turn = (
        "guest_events_in_standings" in cleaned
        and cleaned["guest_events_in_standings"] != club.guest_events_in_standings
    )
    with transaction.atomic():
        if cleaned and not Club.objects.filter(pk=club.pk).update(**cleaned):
            raise Club.DoesNotExist(f"club {club.pk} is not stored")
        for name, value in cleaned.items():
            setattr(club, name, value)
        if guests_turn:
            # The members' guest games come into the standings, or leave them, at once.
            recount_guest_games(club)
    return club
