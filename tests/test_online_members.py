"""Members from online names without crashes: equal nicknames and
Tenhou's anonymous "NoName" seats become distinct new members, a display name alone never
puts a seat on a member (only ``--map`` does), and every refusal is one line. Real logs
(tests/data/online/README.md) with their names edited."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils.translation import override

from clubsite.models import Member, OnlineName
from scoring.models import Hanchan
from tests.conftest import make_member

DATA = Path(__file__).parent / "data" / "online"
SANMA = DATA / "tenhou-json" / "2024010120gm-00b9-0000-e324b88a.json"
MJLOG = DATA / "mjlog" / "2019082700gm-00a9-0000-63d1f136.mjlog"


def renamed(tmp_path: Path, names: list[str]) -> Path:
    """The sanma log with its players renamed (its log id kept)."""
    data = json.loads(SANMA.read_bytes())
    data["name"][: len(names)] = names
    path = tmp_path / SANMA.name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def renamed_mjlog(tmp_path: Path, names: list[str]) -> Path:
    """A real mjlog with its players renamed in ``<UN>`` (URL-encoded, as Tenhou writes)."""
    text = MJLOG.read_text(encoding="utf-8")
    start = text.index("<UN ")
    end = text.index("/>", start)
    un = text[start:end]
    for seat, name in enumerate(names):
        attr = f'n{seat}="'
        i = un.index(attr) + len(attr)
        j = un.index('"', i)
        un = un[:i] + quote(name) + un[j:]
    path = tmp_path / MJLOG.name
    path.write_text(text[:start] + un + text[end:], encoding="utf-8")
    return path


def run(*args: str) -> tuple[str, str]:
    """The command's output and error lines; a refusal's status is 2, never a traceback."""
    out, err = io.StringIO(), io.StringIO()
    with override("en"):
        try:
            call_command("import_games", *args, stdout=out, stderr=err)
        except CommandError as error:
            assert error.returncode == 2
    return out.getvalue(), err.getvalue()


def seated(game: Hanchan) -> list[str]:
    return [s.member.display_name for s in game.seats.order_by("index")]


def test_two_seats_with_one_nickname_become_two_members(db, tmp_path):
    path = renamed(tmp_path, ["同じ名前", "同じ名前", "れすこ"])
    out, err = run(str(path))
    [line] = err.splitlines()
    assert "seats 1, 2 are all called 同じ名前: no online name tells them apart" in line
    assert Hanchan.objects.count() == 0 and Member.objects.count() == 0
    out, err = run(str(path), "--create-members")
    assert err == ""
    game = Hanchan.objects.get()
    assert seated(game) == ["同じ名前", "同じ名前 (2)", "れすこ"]
    assert "new member(s): 同じ名前, 同じ名前 (2) (tenhou name 同じ名前), れすこ" in out
    # The shared nickname names nobody: only the distinct name is saved.
    assert list(OnlineName.objects.values_list("name", flat=True)) == ["れすこ"]


def test_a_saved_name_at_two_seats_matches_neither(db, tmp_path):
    aoki = make_member("aoki", "Aoki", "あおき")
    OnlineName.objects.create(member=aoki, service="tenhou", name="同じ名前")
    path = renamed(tmp_path, ["同じ名前", "同じ名前", "れすこ"])
    out, err = run(str(path), "--map", "同じ名前=Aoki")
    assert err.splitlines() == [
        f"{path}: --map 同じ名前=Aoki: 同じ名前 is at seats 1, 2; one member cannot sit at several."
    ]
    assert Hanchan.objects.count() == 0
    out, err = run(str(path), "--create-members")
    assert seated(Hanchan.objects.get()) == ["同じ名前", "同じ名前 (2)", "れすこ"]
    assert aoki.seats.count() == 0


def test_noname_seats_become_distinct_members_and_no_online_name(db, tmp_path):
    make_member("noname", "NoName (2)", "")  # a name the numbering must skip
    path = renamed(tmp_path, ["NoName", "NoName", "NoName"])
    out, err = run(str(path))
    [line] = err.splitlines()
    assert "seats 1, 2, 3 are all called NoName" in line
    run(str(path), "--create-members")
    assert seated(Hanchan.objects.get()) == ["NoName", "NoName (3)", "NoName (4)"]
    assert not OnlineName.objects.exists()


def test_one_noname_seat_is_mapped_but_not_saved(db, tmp_path):
    aoki = make_member("aoki", "Aoki", "あおき")
    path = renamed(tmp_path, ["代々木寿人", "NoName", "れすこ"])
    out, err = run(str(path), "--map", "代々木寿人=Aoki", "--map", "れすこ=Aoki")
    [line] = err.splitlines()
    assert line.endswith(
        "seat 2 is NoName, an anonymous player: no online name is saved for it (give --map "
        '"NoName=member" or use --create-members)'
    )
    baba = make_member("baba", "Baba", "ばば")
    chiba = make_member("chiba", "Chiba", "ちば")
    out, err = run(
        str(path), "--map", "代々木寿人=Aoki", "--map", "NoName=Baba", "--map", "れすこ=Chiba"
    )
    assert err == ""
    assert seated(Hanchan.objects.get()) == ["Aoki", "Baba", "Chiba"]
    assert sorted(OnlineName.objects.values_list("name", flat=True)) == ["れすこ", "代々木寿人"]
    assert not baba.online_names.exists()
    assert aoki.online_names.count() == 1 and chiba.online_names.count() == 1


def test_a_name_equal_to_a_display_name_is_that_member_only_when_mapped(db, tmp_path):
    aoki = make_member("aoki", "Aoki", "あおき")
    path = renamed(tmp_path, ["Aoki", "傍若無人51", "れすこ"])
    out, err = run(str(path))
    assert "unknown tenhou name(s): Aoki, 傍若無人51, れすこ" in err
    out, err = run(str(path), "--create-members")
    game = Hanchan.objects.get()
    assert seated(game) == ["Aoki (2)", "傍若無人51", "れすこ"]
    assert "Aoki (2) (tenhou name Aoki)" in out
    assert aoki.seats.count() == 0
    # The online name now belongs to the new member, as the import said.
    assert OnlineName.objects.get(name="Aoki").member.display_name == "Aoki (2)"


def test_a_name_equal_to_a_display_name_mapped_to_that_member(db, tmp_path):
    aoki = make_member("aoki", "Aoki", "あおき")
    path = renamed_mjlog(tmp_path, ["Aoki", "Aoki", "NoName", "Sato"])
    out, err = run(str(path), "--create-members", "--map", "Sato=Aoki")
    assert err == ""
    assert seated(Hanchan.objects.get()) == ["Aoki (2)", "Aoki (3)", "NoName", "Aoki"]
    assert OnlineName.objects.get().member == aoki


# -- the upload page says it in the site's words --------------------------------------------


def page_outcome(member: Member, path: Path, language: str, **data: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(member.user)
    upload = SimpleUploadedFile(path.name, path.read_bytes())
    html = client.post(reverse("game_import"), {"logs": [upload], **data}).content.decode()
    assert Hanchan.objects.count() == 0
    [message] = re.findall(r'<span class="import-message">(.*?)</span>', html, re.S)
    return message


def majsoul(tmp_path: Path, names: list[str]) -> Path:
    """The sanma log as a Mahjong Soul room's (its ``rule.disp``), players renamed."""
    path = renamed(tmp_path, names)
    data = json.loads(path.read_bytes())
    data["rule"]["disp"] = "玉の間南喰赤"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("language", "service", "words"),
    [
        ("en", "Tenhou", "No member has these Tenhou names: “傍若無人51”, “れすこ”."),
        ("ja", "天鳳", "天鳳の名前「傍若無人51」、「れすこ」のメンバーがいません。"),
    ],
)
def test_unknown_names_on_the_page_name_the_service_and_link_the_names_page(
    db, tmp_path, language, service, words
):
    aoki = make_member("aoki", "Aoki", "あおき")
    OnlineName.objects.create(member=aoki, service="tenhou", name="代々木寿人")
    message = page_outcome(aoki, SANMA, language)
    assert words in message
    assert 'href="/members/online-names/"' in message
    assert "--map" not in message and "--create-members" not in message
    assert "tenhou" not in message  # the service's name, not its key


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "No member has these Mahjong Soul names: “代々木寿人”, “傍若無人51”, “れすこ”."),
        ("ja", "雀魂の名前「代々木寿人」、「傍若無人51」、「れすこ」のメンバーがいません。"),
    ],
)
def test_a_mahjong_soul_game_is_named_so_on_the_page(db, tmp_path, language, words):
    aoki = make_member("aoki", "Aoki", "あおき", steward=True)
    path = majsoul(tmp_path, ["代々木寿人", "傍若無人51", "れすこ"])
    message = page_outcome(aoki, path, language)
    assert words in message and 'href="/members/online-names/"' in message
    assert "majsoul" not in message and "--map" not in message


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            "Seats 1, 2 are all called “NoName” on Tenhou: online names cannot tell them apart, "
            "so a steward imports this game, adding a member for each.",
        ),
        ("ja", "席1, 2はどれも天鳳で「NoName」という名前です"),
    ],
)
def test_equal_names_on_the_page_are_one_sentence_without_command_advice(
    db, tmp_path, language, words
):
    doi = make_member("doi", "Doi", "どい", steward=True)
    message = page_outcome(doi, renamed(tmp_path, ["NoName", "NoName", "れすこ"]), language)
    assert words in message
    assert "--create-members" not in message
    # Ticked, the steward's upload adds a member for each.
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(doi.user)
    upload = SimpleUploadedFile(
        SANMA.name, renamed(tmp_path, ["NoName", "NoName", "れすこ"]).read_bytes()
    )
    html = client.post(
        reverse("game_import"), {"logs": [upload], "create_members": "on"}
    ).content.decode()
    assert seated(Hanchan.objects.get()) == ["NoName", "NoName (2)", "れすこ"]
    new = {
        "en": "New members: NoName, NoName (2), れすこ.",
        "ja": "新しいメンバー：NoName, NoName (2), れすこ。",
    }
    assert new[language] in html


def test_a_club_record_with_a_name_at_two_seats_is_refused_in_one_line(db, tmp_path):
    path = tmp_path / "record.json"
    record = {"format": "club-game/1", "ruleset": "tenhou-4p", "players": ["Z", "Z", "Y", "X"]}
    path.write_text(json.dumps({**record, "hands": []}), encoding="utf-8")
    out, err = run(str(path), "--create-members")
    assert err.splitlines() == [f"{path}: players: the same name sits twice"]
    assert not Member.objects.exists()
