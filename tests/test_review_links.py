"""Review links of an imported online game: the service's replay and, for
Tenhou and Mahjong Soul games, mjai-reviewer's web app (scoring/online/links.py), on the
game page in English and Japanese; none where the log has no service id (an mjai log)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils.translation import override

from clubsite.models import Member
from scoring.models import Hanchan
from scoring.online.links import REVIEW_PAGE, replay_url, review_url
from tests.online_conversions import load, tenhou_to_majsoul, tenhou_to_mjai_3p

DATA = Path(__file__).parent / "data" / "online"
TENHOU = DATA / "tenhou-json" / "2024010120gm-00b9-0000-e324b88a.json"
MAJSOUL_UUID = "191105-de74c8bc-1725-4171-9587-9b91d0c6dddf"


def test_the_replay_and_review_of_each_service():
    tenhou = "2024010120gm-00b9-0000-e324b88a"
    assert replay_url("tenhou", tenhou) == f"https://tenhou.net/0/?log={tenhou}"
    assert review_url("tenhou", tenhou) == REVIEW_PAGE == "https://mjai.ekyu.moe/"
    assert replay_url("majsoul", MAJSOUL_UUID) == (
        f"https://game.mahjongsoul.com/?paipu={MAJSOUL_UUID}"
    )
    assert review_url("majsoul", MAJSOUL_UUID) == REVIEW_PAGE
    # No service id, no replay and nothing to review from.
    for service in ("tenhou", "majsoul", "mjai"):
        assert replay_url(service, "sha256:0123abcd") == ""
        assert review_url(service, "sha256:0123abcd") == ""
    assert replay_url("tenhou", "not-an-id") == "" and review_url("mjai", "x") == ""


def import_file(path: Path) -> Hanchan:
    with override("en"):
        call_command("import_games", str(path), "--create-members", stdout=io.StringIO())
    return Hanchan.objects.latest("pk")


def game_page(game: Hanchan, language: str) -> str:
    member = Member.objects.filter(seats__hanchan=game).first()
    assert member is not None
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(member.user)
    return client.get(reverse("game_detail", args=[game.pk])).content.decode()


def test_a_tenhou_game_links_its_replay_and_the_review_page(db):
    game = import_file(TENHOU)
    html = game_page(game, "en")
    assert 'href="https://tenhou.net/0/?log=2024010120gm-00b9-0000-e324b88a"' in html
    assert f'href="{REVIEW_PAGE}" rel="noopener noreferrer" id="online-review"' in html
    assert ">AI review (Mortal)</a>" in html and "Paste the replay link into the page" in html
    ja = game_page(game, "ja")
    assert ">AI検討（Mortal）</a>" in ja and "牌譜を見る" in ja


def test_a_mahjong_soul_game_links_its_paipu_and_the_review_page(db, tmp_path):
    record = tenhou_to_majsoul(load(TENHOU))
    record["head"]["uuid"] = MAJSOUL_UUID
    path = tmp_path / "paipu.json"
    path.write_text(json.dumps(record, ensure_ascii=False))
    html = game_page(import_file(path), "en")
    assert "Online game (Mahjong Soul), log " + MAJSOUL_UUID in html
    assert f'href="https://game.mahjongsoul.com/?paipu={MAJSOUL_UUID}"' in html
    assert 'id="online-review"' in html


def test_an_mjai_game_has_no_replay_nor_review(db, tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text(tenhou_to_mjai_3p(load(TENHOU)))
    html = game_page(import_file(path), "en")
    assert "Online game (mjai), log sha256:" in html
    assert 'id="online-review"' not in html and ">Replay</a>" not in html
