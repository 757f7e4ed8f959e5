"""The online import's words: the command writes English whatever the active
language (its "already imported" lines were Japanese, the site's language, among English
lines), and the upload page says that Mahjong Soul's own records are read, in English and
Japanese. The logs are real (tests/data/online/README.md): the Tenhou JSON of
SoliDeoGloria000/sanma-engine 34aafb3 and the mjlog/JSON pair of tsubakisakura/mjlog2json
74defac."""

from __future__ import annotations

import io
from pathlib import Path

from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils.translation import get_language, override

from scoring.models import Hanchan
from tests.conftest import make_member

DATA = Path(__file__).parent / "data" / "online"
SANMA = DATA / "tenhou-json" / "2024010120gm-00b9-0000-e324b88a.json"
PAIR = DATA / "pairs" / "2019103023gm-00a9-0000-f90e0fe9"


def run_in(language: str, *args: str) -> str:
    out = io.StringIO()
    with override(language):
        call_command("import_games", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_the_command_writes_english_when_the_site_is_japanese(db):
    first = run_in("ja", str(SANMA), "--create-members")
    game = Hanchan.objects.get()
    assert "imported tenhou 2024010120gm-00b9-0000-e324b88a" in first
    again = run_in("ja", str(SANMA), "--create-members")
    assert again == f"{SANMA}: already imported as game {game.pk}: nothing stored\n"
    run_in("ja", f"{PAIR}.xml", "--create-members")
    pair = Hanchan.objects.latest("pk")
    twin = run_in("ja", f"{PAIR}.json", "--create-members")  # the same game, its JSON
    assert twin == f"{PAIR}.json: already imported as game {pair.pk}: nothing stored\n"
    assert not any("\u3040" <= c <= "\u9fff" for c in again + twin)  # no kana nor kanji


def test_the_command_leaves_the_active_language_as_it_was(db):
    with override("ja"):
        call_command("import_games", str(SANMA), "--create-members", stdout=io.StringIO())
        assert get_language() == "ja"


def test_the_upload_page_says_mahjong_souls_own_records_are_read(db):
    member = make_member("aoki", "Aoki", "青木")
    for language, words in (
        (
            "en",
            "Mahjong Soul (its own game record, as replay tools and downloaders save it, "
            "or converted to Tenhou's JSON)",
        ),
        (
            "ja",
            "雀魂（牌譜ツールやダウンローダーで保存した雀魂そのものの牌譜、"
            "または天鳳JSONに変換した牌譜）",
        ),
    ):
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(member.user)
        html = client.get(reverse("game_import")).content.decode()
        assert words.replace("'", "&#x27;") in html, language
