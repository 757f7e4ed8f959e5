"""Offline-tolerant entry, the server's side: the page carries the table
and the engine's payments for the offline panel; the outbox's JSON answers (recorded once,
stale, refused); the manifest and the service worker at the site's root."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable

from django.test import Client
from django.urls import reverse

from clubsite.models import Member
from scoring.ledger import hand_record
from scoring.models import Hanchan, HandEntry

JSON = {"HTTP_ACCEPT": "application/json"}


def offline_data(html: str) -> dict:
    """The table the page carries and the ruleset's figures it names (fetched as a phone
    does, without a login: they are the rules', nobody's)."""
    match = re.search(r'<script id="offline-data" type="application/json">(.*?)</script>', html)
    assert match, "no offline-data on the page"
    table = json.loads(match.group(1))
    source = re.search(
        r'<script id="offline-values" type="application/json" data-src="([^"]+)"></script>', html
    )
    assert source, "no offline-values on the page"
    response = Client().get(source.group(1).replace("&amp;", "&"))
    assert response.status_code == 200
    return json.loads(response.content) | table


def test_the_table_carries_the_engines_payments_for_offline_entry(
    table_game: Hanchan, client_for: Callable[[Member], Client], member: Member
) -> None:
    html = client_for(member).get(reverse("game_detail", args=[table_game.pk])).content.decode()
    data = offline_data(html)
    assert data["action"] == reverse("hand_create", args=[table_game.pk])
    assert (data["version"], data["dealer"], data["honba"], data["deposits"]) == (0, 0, 0, 0)
    assert data["scores"] == [25000, 25000, 25000, 25000]
    assert (data["position"], data["round"]) == (0, "E1")
    rules = data["rules"]
    hands = rules["hands"]
    # Each seat's change, seats counted from the dealer, as the engine plays the hand
    # (makura-1.5, §45f kiriage: 30 fu 4 han is a mangan): "r10" a ron by the dealer's right
    # off the dealer, "r01" the dealer's ron off his right, "t1" the right's tsumo.
    assert hands["r10"]["values"]["4-30"] == [-8000, 8000, 0, 0]
    assert hands["r01"]["values"]["3-30"] == [5800, -5800, 0, 0]
    assert hands["t1"]["values"]["3-30"] == [-2000, 4000, -1000, -1000]
    assert hands["r10"]["values"]["yakuman"] == [-32000, 32000, 0, 0]
    assert hands["r10"]["honba"] == [-300, 300, 0, 0]
    assert hands["t1"]["honba"] == [-100, 300, -100, -100]
    assert hands["r10"]["pot"] == [0, 1, 0, 0]  # the winner takes the deposits
    assert hands["d3"]["values"][""] == [1500, 1500, -1500, -1500]  # two tenpai
    assert hands["d3"]["pot"] == [0, 0, 0, 0]
    # What the pad offers per outcome is what the engine takes.
    assert "2-25" in hands["r10"]["values"] and "2-25" not in hands["t1"]["values"]
    assert "2-20" in hands["t1"]["values"] and "2-20" not in hands["r10"]["values"]
    assert "1-20" not in hands["t1"]["values"] and "1-25" not in hands["r10"]["values"]
    # East 1 after a non-dealer's win: East 2, honba 0; after the dealer's win or his tenpai
    # at a draw: East 1 again, honba + 1; after a draw with the dealer noten: East 2, + 1.
    assert rules["next"][0]["r10"] == [1, 0, 0]
    assert rules["next"][0]["r01"] == rules["next"][0]["d1"] == [0, 1, 1]
    assert rules["next"][0]["d2"] == [1, 1, 1]
    # South 4 (all-last): a non-dealer's win ends the game; the dealer's win goes on.
    assert rules["next"][7]["r10"] == "last_hand" and rules["next"][7]["r01"] == [7, 1, 1]
    assert (rules["stick"], rules["riichiFrom"], rules["bustAt"]) == (1000, None, -1)
    assert rules["rounds"] == ["E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4"]
    # The same grid as online: 2 han 20 fu a tsumo only, each button what it pays.
    tsumo_rows = data["pad"]["pads"]["tsumo"]["rows"]
    assert tsumo_rows[0]["cells"][1]["value"] == "2-20"
    assert tsumo_rows[0]["cells"][1]["lines"] == ["400/", "700"]
    assert data["pad"]["pads"]["ron"]["rows"][0]["cells"][1]["value"] == "2-25"
    assert data["labels"]["waiting"]
    assert data["user"] == member.user_id  # hands kept offline are sent by this login only
    assert '<div id="outbox"' in html
    assert "js/offline.js" in html and "idb.umd.js" in html


def csrf_token(client: Client, game: Hanchan) -> str:
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert match
    return match.group(1)


def outbox_post(client: Client, game: Hanchan, version: int, request_id: str) -> dict:
    """What static/js/offline.js sends: the form's fields, the token, Accept: JSON."""
    response = client.post(
        reverse("hand_create", args=[game.pk]),
        {
            "csrfmiddlewaretoken": csrf_token(client, game),
            "request_id": request_id,
            "version": str(version),
            "result": "ron",
            "loser": "2",
            "winners": "1",
            "value_1": "3-30",
            "riichi": "1",
        },
        **JSON,
    )
    return {"code": response.status_code, **response.json()}


def test_the_outbox_records_a_hand_once_and_learns_of_another_phone(
    table_game: Hanchan, client_for: Callable[[Member], Client], member: Member
) -> None:
    phone = client_for(member)
    request_id = str(uuid.uuid4())
    first = outbox_post(phone, table_game, 0, request_id)
    assert first["code"] == 200 and first["status"] == "recorded" and first["version"] == 1
    # The same hand again (the answer was lost on the way back): recorded once.
    again = outbox_post(phone, table_game, 0, request_id)
    assert again["status"] == "recorded"
    assert HandEntry.objects.filter(hanchan=table_game).count() == 1
    # Another phone entered a hand meanwhile: a hand kept on version 1 is stale now.
    hand_record(
        hanchan_id=table_game.pk,
        hand={"result": "draw", "tenpai": [0]},
        expected_version=1,
        request_id=uuid.uuid4(),
        by=member,
    )
    stale = outbox_post(phone, table_game, 1, str(uuid.uuid4()))
    assert (stale["code"], stale["status"], stale["version"]) == (409, "stale", 2)
    assert HandEntry.objects.filter(hanchan=table_game).count() == 2
    # The player chose to record it after them: the current version, the same hand.
    after = outbox_post(phone, table_game, 2, str(uuid.uuid4()))
    assert after["status"] == "recorded"
    assert HandEntry.objects.filter(hanchan=table_game).count() == 3


def test_the_outbox_hears_why_a_hand_is_refused(
    table_game: Hanchan, client_for: Callable[[Member], Client], member: Member
) -> None:
    phone = client_for(member)
    response = phone.post(
        reverse("hand_create", args=[table_game.pk]),
        {
            "csrfmiddlewaretoken": csrf_token(phone, table_game),
            "request_id": str(uuid.uuid4()),
            "version": "0",
            "result": "ron",
            "loser": "2",
        },
        **JSON,
    )
    assert response.status_code == 422
    answer = response.json()
    assert answer["status"] == "refused" and answer["errors"]
    assert not HandEntry.objects.exists()


def test_the_manifest_and_the_service_worker(client: Client) -> None:
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200
    assert manifest["Content-Type"] == "application/manifest+json"
    data = manifest.json()
    assert (data["start_url"], data["display"]) == ("/", "standalone")
    assert {icon["sizes"] for icon in data["icons"]} == {"192x192", "512x512"}
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker["Content-Type"].startswith("text/javascript")
    assert worker["Cache-Control"] == "no-cache"
    body = worker.content.decode()
    assert 'importScripts("/static/vendor/workbox-7.4.1/workbox-sw.js")' in body
    assert "NetworkFirst" in body and "StaleWhileRevalidate" in body
    assert 'caches.delete("clubsite-pages")' in body  # on log in and log out
    page = client.get(reverse("login")).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


def test_a_confirm_renews_the_table_for_offline_entry_but_not_the_payment_figures(
    table_game: Hanchan, client_for: Callable[[Member], Client], member: Member
) -> None:
    phone = client_for(member)
    response = phone.post(
        reverse("hand_create", args=[table_game.pk]),
        {
            "csrfmiddlewaretoken": csrf_token(phone, table_game),
            "request_id": str(uuid.uuid4()),
            "version": "0",
            "result": "tsumo",
            "winner": "0",
            "value_0": "mangan",
        },
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert 'id="offline-values"' not in html  # sent once, with the page
    match = re.search(r'<script id="offline-data" type="application/json">(.*?)</script>', html)
    assert match
    table = json.loads(match.group(1))
    assert (table["version"], table["dealer"], table["honba"]) == (1, 0, 1)
    assert table["scores"] == [37000, 21000, 21000, 21000]


def test_the_offline_table_names_its_position_in_the_engines_rounds() -> None:
    """The page's table is placed in offline_rules's positions (wind x players + dealer):
    South 2 of a 4-player hanchan is the 6th; a round the ruleset does not have, none."""
    from scoring.engine import load_ruleset
    from scoring.entry.offline_data import offline_data as table_data
    from scoring.entry.offline_data import offline_rules

    rs = load_ruleset("tenhou-4p")
    table = {"round": "S2", "dealer": 1, "honba": 2, "deposits": 1000, "scores": [1, 2, 3, 4]}
    data = table_data(rs, table, names=["A", "B", "C", "D"], version=9, action="/", labels={})
    assert (data["position"], data["honba"], data["deposits"]) == (5, 2, 1000)
    assert offline_rules(rs)["rounds"][5] == "S2"
    assert offline_rules(rs)["rounds"][8] == "W1"  # Tenhou's extension round
    east_only = load_ruleset("tenhou-4p-east")
    assert table_data(east_only, table | {"round": "N1"}, names=[], version=0, action="/",
                      labels={})["position"] is None  # fmt: skip


def test_the_words_in_place_of_the_hand_form_while_hands_wait_come_in_both_forms(
    table_game: Hanchan, client_for: Callable[[Member], Client], member: Member
) -> None:
    """The page holds its hand form while hands wait to send (static/js/offline.js holdEntry):
    its words, with a count, come as the forms for one and for more, "{n}" the count."""
    url = reverse("game_detail", args=[table_game.pk])
    client = client_for(member)
    english = offline_data(client.get(url, HTTP_ACCEPT_LANGUAGE="en").text)["labels"]
    assert english["sendingFirst"] == [
        "{n} hand is waiting to send. Sending it first.",
        "{n} hands are waiting to send. Sending them first.",
    ]
    assert english["heldFirst"][1] == (
        "{n} hands are waiting to send. First choose what to do with the hand held above."
    )
    assert english["sendNow"] == "Send now"
    japanese = offline_data(client.get(url, HTTP_ACCEPT_LANGUAGE="ja").text)["labels"]
    assert japanese["sendingFirst"] == ["送信待ちの局が{n}局あります。先に送信します。"] * 2
    assert japanese["sendNow"] == "今すぐ送信"
