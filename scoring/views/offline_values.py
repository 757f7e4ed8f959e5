"""The offline panel's figures as a file (:func:`scoring.entry.offline_data.offline_values_file`):
``/offline-values/<version>/<language>/<digest>.json[?o=<overrides>]``; and beside them the
value pads the phone draws on a winner's tap (:func:`scoring.views.value_pads.value_pads_file`):
``/offline-values/<version>/<language>/pads-<digest>.json[?o=<overrides>]``.

The address names everything the file is made of: the stored ruleset version (its rules
never change), the game's overrides (canonical JSON, URL-safe base64, none for none), the
language of its words and the fingerprint of its bytes. A file asked for by its current
fingerprint may be kept for a year (``immutable``); a page from before a deploy that changed
its words asks by an old fingerprint and gets today's file, not to be kept. The figures are
the rules', no club's or member's: the file is a page of no club and needs no login, so one
copy serves a phone at every club of the site.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from clubsite.club_links import root_path
from scoring.engine import RecordError, Ruleset
from scoring.entry.offline_data import offline_values_file
from scoring.models import RulesetVersion
from scoring.views.value_pads import ValuesFile, value_pads_file

A_YEAR = 365 * 24 * 3600
OVERRIDES_LIMIT = 2048  # characters of the encoded overrides: a game's are a few dozen


def overrides_param(overrides: dict[str, Any] | None) -> str:
    """A game's overrides as the address's ``o``: canonical JSON in URL-safe base64 without
    padding; "" for none."""
    if not overrides:
        return ""
    text = json.dumps(overrides, sort_keys=True, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _overrides_of(param: str) -> dict[str, Any] | None:
    """The overrides an address's ``o`` carries, or None for none.

    Raises:
        Http404: not what :func:`overrides_param` writes.
    """
    if not param:
        return None
    if len(param) > OVERRIDES_LIMIT:
        raise Http404("No such file.")
    try:
        text = base64.urlsafe_b64decode(param + "=" * (-len(param) % 4)).decode()
        overrides = json.loads(text)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise Http404("No such file.") from None
    if not isinstance(overrides, dict) or not overrides:
        raise Http404("No such file.")
    return overrides


def value_pads_url(
    version_id: int, overrides: dict[str, Any] | None, rs: Ruleset, language: str
) -> str:
    """The address of the value pads of ruleset ``rs`` (as :func:`offline_values_url`)."""
    digest = value_pads_file(rs, language).digest
    path = root_path("value_pads", [version_id, language, digest])
    param = overrides_param(overrides)
    return f"{path}?o={param}" if param else path


def offline_values_url(
    version_id: int, overrides: dict[str, Any] | None, rs: Ruleset, language: str
) -> str:
    """The address of the figures of ruleset ``rs`` (stored version ``version_id`` with the
    game's ``overrides``) in ``language``, from the site's root whatever club's page asks:
    one address, so one cached copy, for every club."""
    digest = offline_values_file(rs, language).digest
    path = root_path("offline_values", [version_id, language, digest])
    param = overrides_param(overrides)
    return f"{path}?o={param}" if param else path


def _file(
    request: HttpRequest,
    version: int,
    language: str,
    digest: str,
    made: Callable[[Ruleset, str], ValuesFile],
) -> HttpResponse:
    """One of the files of a stored ruleset version: ``made(ruleset, language)`` gives it.
    404 for an unknown version or language, or overrides that are not a game's."""
    if language not in dict(settings.LANGUAGES):
        raise Http404("No such file.")
    stored = get_object_or_404(RulesetVersion, pk=version)
    try:
        rs = stored.ruleset(_overrides_of(request.GET.get("o", "")))
    except RecordError:
        raise Http404("No such file.") from None
    file = made(rs, language)
    response = HttpResponse(file.body, content_type="application/json; charset=utf-8")
    response["Cache-Control"] = (
        f"public, max-age={A_YEAR}, immutable" if digest == file.digest else "no-cache"
    )
    return response


@login_not_required
@require_safe
def offline_values(request: HttpRequest, version: int, language: str, digest: str) -> HttpResponse:
    """The figures file (JSON). 404 for an unknown version or language, or overrides that
    are not a game's (``RecordError``).

    Raises:
        Http404: as above.
    """
    return _file(request, version, language, digest, offline_values_file)


@login_not_required
@require_safe
def value_pads(request: HttpRequest, version: int, language: str, digest: str) -> HttpResponse:
    """The value pads file (JSON), as :func:`offline_values`.

    Raises:
        Http404: as :func:`offline_values`.
    """
    return _file(request, version, language, digest, value_pads_file)
