"""The offline panel's figures as a file of their own (scoring/views/offline_values.py): the
table screen names it instead of carrying 55 KB of JSON on every load; one address per stored
ruleset version, game overrides and language, fingerprinted, kept a year, the same for every
club; anything else asked for is 404."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubsite.club_model import Club
from clubsite.club_scope import club_scope
from clubsite.models import Member
from scoring.entry.offline_data import offline_values, offline_values_file
from scoring.ledger import hanchan_start
from scoring.models import Hanchan
from scoring.standings.periods import club_today
from scoring.views.offline_values import overrides_param

pytestmark = pytest.mark.django_db

SOURCE = re.compile(r'<script id="offline-values" type="application/json" data-src="([^"]+)">')


def figures_address(
    client: Client, game: Hanchan, *, prefix: str = "", language: str = "ja"
) -> str:
    page = client.get(
        prefix + reverse("game_detail", args=[game.pk]), headers={"accept-language": language}
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert '"rules"' not in html  # the figures are not on the page any more
    found = SOURCE.search(html)
    assert found, "the table names no figures file"
    return found.group(1).replace("&amp;", "&")


def test_the_table_names_its_rulesets_figures_file(
    table_game: Hanchan, client_for: Callable[[Member], Client], member: Member
) -> None:
    address = figures_address(client_for(member), table_game)
    rs = table_game.ruleset()
    digest = offline_values_file(rs, "ja").digest
    assert address == f"/offline-values/{table_game.ruleset_version_id}/ja/{digest}.json"
    # Fetched as a phone does; no login needed: the figures are the rules', nobody's.
    response = Client().get(address)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    with translation.override("ja"):
        assert json.loads(response.content) == json.loads(json.dumps(offline_values(rs)))
    assert json.loads(response.content)["depositsLabel"] == "供託"


def test_one_file_per_language_and_per_ruleset_not_per_game(
    table_game: Hanchan,
    client_for: Callable[[Member], Client],
    member: Member,
    other_member: Member,
    coordinator: Member,
    outsider: Member,
) -> None:
    client = client_for(member)
    second = hanchan_start(
        ruleset_id="makura-1.5",
        members=[outsider, coordinator, other_member, member],
        played_on=club_today(),
        by=member,
    )
    japanese = figures_address(client, table_game)
    assert figures_address(client, second) == japanese
    english = figures_address(client, table_game, language="en")
    assert english != japanese and "/en/" in english
    assert json.loads(Client().get(english).content)["depositsLabel"] == "Deposits"


def test_a_games_overrides_travel_in_the_address(
    client_for: Callable[[Member], Client],
    member: Member,
    other_member: Member,
    coordinator: Member,
    outsider: Member,
) -> None:
    game = hanchan_start(
        ruleset_id="makura-1.5",
        members=[member, other_member, coordinator, outsider],
        played_on=club_today(),
        overrides={"tobi": False},
        by=member,
    )
    address = figures_address(client_for(member), game)
    assert address.endswith("?o=" + overrides_param({"tobi": False}))
    rs = game.ruleset()
    assert not rs.tobi
    response = Client().get(address)
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    with translation.override("ja"):
        assert json.loads(response.content) == json.loads(json.dumps(offline_values(rs)))


def test_the_same_address_under_every_club(
    table_game: Hanchan, client_for: Callable[[Member], Client], member: Member
) -> None:
    home = Club.objects.order_by("pk").first()
    assert home is not None
    Club.objects.create(slug="fuji", name="Shinbashi FUJI Club")
    with club_scope(home):
        address = figures_address(client_for(member), table_game, prefix=f"/c/{home.slug}")
    assert address.startswith("/offline-values/")
    # A page of no club: it answers on a site of several clubs, without a prefix.
    assert Client().get(address).status_code == 200


def test_an_old_fingerprint_gets_todays_file_not_to_be_kept(table_game: Hanchan) -> None:
    version = table_game.ruleset_version_id
    digest = offline_values_file(table_game.ruleset(), "ja").digest
    current = Client().get(f"/offline-values/{version}/ja/{digest}.json")
    old = Client().get(f"/offline-values/{version}/ja/0123456789abcdef.json")
    assert old.status_code == 200 and old.content == current.content
    assert old["Cache-Control"] == "no-cache"


@pytest.mark.parametrize(
    "address",
    [
        "/offline-values/999999/ja/0123456789abcdef.json",  # no such version
        "/offline-values/{v}/fr/0123456789abcdef.json",  # no such language
        "/offline-values/{v}/ja/0123456789abcdef.json?o=%%%",  # not base64
        "/offline-values/{v}/ja/0123456789abcdef.json?o=" + overrides_param({"tobi": 5}),
        "/offline-values/{v}/ja/0123456789abcdef.json?o=" + overrides_param({"nonsense": 1}),
        "/offline-values/{v}/ja/0123456789abcdef.json?o=WzFd",  # a list, not overrides
        "/offline-values/{v}/ja/0123456789abcdef.json?o=" + "A" * 3000,
    ],
)
def test_anything_else_is_404(table_game: Hanchan, address: str) -> None:
    response = Client().get(address.replace("{v}", str(table_game.ruleset_version_id)))
    assert response.status_code == 404
