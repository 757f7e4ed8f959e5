"""The Japanese catalogues of the site, the meetups and the tournaments
(Japanese everywhere in the Japanese interface).

Django merges them at run time, the site's ``locale/`` first and then the apps in
``INSTALLED_APPS`` order, so a message that two catalogues translate differently shows the
first one's words everywhere: the tournaments page once read "これからの例会" (upcoming meetups)
over its upcoming tournaments. A word that needs other Japanese in one app has a context.
"""

from __future__ import annotations

import datetime
import gettext
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.services import event_create

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = {
    "site": ROOT / "locale",
    "meetings": ROOT / "meetings" / "locale",
    "tournaments": ROOT / "tournaments" / "locale",
}


def catalogue(name: str) -> dict[str, str]:
    """``{msgid (or "context\\x04msgid"): msgstr}`` of the compiled catalogue the server reads."""
    with (CATALOGUES[name] / "ja" / "LC_MESSAGES" / "django.mo").open("rb") as mo:
        messages = gettext.GNUTranslations(mo)._catalog  # type: ignore[attr-defined]
    return {key: value for key, value in messages.items() if isinstance(key, str) and key}


def test_no_two_catalogues_translate_one_message_differently():
    loaded = {name: catalogue(name) for name in CATALOGUES}
    names = list(loaded)
    clashes = [
        (first, second, key.replace("\x04", " | "), loaded[first][key], loaded[second][key])
        for i, first in enumerate(names)
        for second in names[i + 1 :]
        for key in loaded[first].keys() & loaded[second].keys()
        if loaded[first][key] != loaded[second][key]
    ]
    assert clashes == []


def test_each_compiled_catalogue_holds_what_its_po_file_says():
    for name, path in CATALOGUES.items():
        po = (path / "ja" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
        compiled = catalogue(name)
        # Single-line entries are enough to catch a catalogue not compiled again after an edit.
        entries = re.findall(
            r'^(?:msgctxt "([^"\n]*)"\n)?msgid "([^"\n]+)"\nmsgstr "([^"\n]+)"$', po, re.M
        )
        assert entries, name
        for context, msgid, msgstr in entries:
            key = f"{context}\x04{msgid}" if context else msgid
            assert compiled.get(key) == msgstr.replace('\\"', '"'), (name, key)


@pytest.fixture
def japanese_client(client_for, member) -> Client:
    client = client_for(member)
    client.cookies["django_language"] = "ja"
    return client


def test_the_tournament_and_meetup_lists_each_name_what_is_coming(japanese_client):
    event_create(
        name="名人戦 2027",
        format_key="meijin",
        ruleset_id="makura-1.5",
        starts_on=datetime.date(2027, 3, 7),
    )
    tournaments = japanese_client.get(reverse("tournaments:list")).text
    upcoming = re.search(
        r'<section class="ev-section" id="coming">.*?</section>', tournaments, re.S
    )
    assert upcoming is not None
    assert "<h2>これからの大会</h2>" in upcoming.group(0)
    assert "例会" not in upcoming.group(0)
    meetups = japanese_client.get(reverse("meetings:list")).text
    assert "<h2>これからの例会</h2>" in meetups


def test_a_tournament_calls_its_players_participants(client_for, staff_member):
    event = event_create(
        name="GP 2027",
        format_key="gp",
        ruleset_id="makura-1.5",
        starts_on=datetime.date(2027, 3, 7),
    )
    steward = client_for(staff_member)
    steward.cookies["django_language"] = "ja"
    page = steward.get(reverse("tournaments:detail", args=[event.pk])).text
    assert "<legend>参加者</legend>" in page
    assert "<legend>人数</legend>" not in page


def test_a_games_confirmation_is_one_word_across_the_site():
    """A result's confirmation read 承認 on the game pages and 確認 on the
    event page. A game's result is 承認 everywhere (the site's and the tournaments' messages,
    and a game in a meetup's notice); a meetup's 確認 is the players' "I will be there"."""
    for name in ("site", "tournaments"):
        about_confirming = {
            key: text for key, text in catalogue(name).items() if "confirm" in key.lower()
        }
        assert about_confirming, name
        assert {key: text for key, text in about_confirming.items() if "確認" in text} == {}
    assert catalogue("tournaments")["waiting for confirmation"] == "承認待ち"
    assert catalogue("meetings")["waiting for confirmation"] == "承認待ち"
