"""The value pads the phone draws on a winner's tap (scoring/views/value_pads.py): a file per
stored ruleset version and language beside the engine's figures, named by the table screen,
kept a year; each pad, filled in with a seat and a name as static/js/table_steps.js fills it,
is exactly the pad the server draws for that winner (the same partial, the same fields), for
every shipped ruleset, a dealer's and a non-dealer's ron and tsumo, in Japanese and English."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubsite.models import Member
from scoring.engine import available_rulesets, load_ruleset
from scoring.ledger import hanchan_start
from scoring.models import Hanchan
from scoring.standings.periods import club_today
from scoring.views.value_pads import value_pads, value_pads_file

pytestmark = pytest.mark.django_db

SOURCE = re.compile(r'<script id="value-pads" type="application/json" data-src="([^"]+)">')
PAD = re.compile(r'<fieldset class="step value-pad" id="value-pad-\d">.*?</fieldset>', re.DOTALL)


def filled(pad: str, seat: int, name: str) -> str:
    """The pad as the phone fills it (static/js/table_steps.js, drawPad)."""
    return pad.replace("{seat}", str(seat)).replace("__NAME__", html.escape(name))


def _squeezed(text: str) -> str:
    return re.sub(r">\s+<", "><", text.strip())


def test_the_table_names_its_pads_file_and_it_is_kept_a_year(
    table_game: Hanchan, client_for: Callable[[Member], Client], member: Member
) -> None:
    page = client_for(member).get(reverse("game_detail", args=[table_game.pk]))
    found = SOURCE.search(page.content.decode())
    assert found, "the table names no pads file"
    rs = table_game.ruleset()
    digest = value_pads_file(rs, "ja").digest
    assert (
        found.group(1) == f"/offline-values/{table_game.ruleset_version_id}/ja/pads-{digest}.json"
    )
    response = Client().get(found.group(1))
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    pads = json.loads(response.content)
    assert sorted(pads) == ["dealerRon", "dealerTsumo", "ron", "tsumo"]
    assert "__NAME__の点数" in pads["ron"] and 'name="value_{seat}"' in pads["ron"]
    # An old fingerprint gets today's file, not to be kept; an unknown language is 404.
    old = Client().get(found.group(1).replace(digest, "0" * 16))
    assert old.status_code == 200 and old["Cache-Control"] == "no-cache"
    assert Client().get(found.group(1).replace("/ja/", "/xx/")).status_code == 404


@pytest.mark.parametrize("language", ["ja", "en"])
def test_each_pad_filled_in_is_the_servers_pad_for_that_winner(
    language: str,
    client_for: Callable[[Member], Client],
    member: Member,
    other_member: Member,
    coordinator: Member,
    outsider: Member,
) -> None:
    players = [member, other_member, coordinator, outsider]
    client = Client()
    client.force_login(member.user)
    compared = 0
    for rule_id in available_rulesets():
        rs = load_ruleset(rule_id)
        game = hanchan_start(
            ruleset_id=rule_id, members=players[: rs.players], played_on=club_today(), by=member
        )
        names = [seat.member.display_name for seat in game.seats.order_by("index")]
        with translation.override(language):
            pads = value_pads(rs)
        url = reverse("hand_preview", args=[game.pk])
        for seat in range(rs.players):
            for outcome in ("ron", "tsumo"):
                fields = {"request_id": "", "version": "0", "result": outcome}
                if outcome == "ron":
                    fields |= {"loser": str((seat + 1) % rs.players), "winners": str(seat)}
                else:
                    fields["winner"] = str(seat)
                answer = client.post(
                    url,
                    fields,
                    headers={"hx-request": "true", "accept-language": language},
                )
                [server] = PAD.findall(answer.content.decode())
                kind = ("dealer" + outcome.title()) if seat == 0 else outcome
                assert _squeezed(filled(pads[kind], seat, names[seat])) == _squeezed(server), (
                    rule_id,
                    seat,
                    outcome,
                )
                compared += 1
    assert compared == sum(load_ruleset(rule_id).players * 2 for rule_id in available_rulesets())
