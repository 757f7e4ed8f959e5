"""The online games' pages: uploading online game logs, a member's online names, and an
imported game's origin on its page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils.translation import override

from clubsite.models import Member, OnlineName
from scoring.ledger import hanchan_confirm
from scoring.models import Hanchan, OnlineGame
from tests.conftest import make_member

DATA = Path(__file__).parent / "data" / "online"
SANMA = DATA / "tenhou-json" / "2024010120gm-00b9-0000-e324b88a.json"
SANMA_NAMES = ("代々木寿人", "傍若無人51", "れすこ")


def upload(path: Path, content: bytes | None = None) -> SimpleUploadedFile:
    return SimpleUploadedFile(path.name, content if content is not None else path.read_bytes())


@pytest.fixture
def sanma_members(db: None) -> list[Member]:
    members = []
    for number, name in enumerate(SANMA_NAMES):
        member = make_member(f"sanma{number}", f"Sanma {number}", f"さんま{number}")
        OnlineName.objects.create(member=member, service="tenhou", name=name)
        members.append(member)
    return members


def logged_in(member: Member, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(member.user)
    return client


def test_a_player_imports_their_own_game_and_sees_the_summary(sanma_members):
    client = logged_in(sanma_members[1])
    page = client.get(reverse("game_import"))
    assert page.status_code == 200
    assert 'name="create_members"' not in page.content.decode()  # stewards only
    response = client.post(reverse("game_import"), {"logs": [upload(SANMA)]})
    html = response.content.decode()
    game = Hanchan.objects.get()
    assert "Stored: 1. Refused: 0." in html
    assert f'href="/games/{game.pk}/"' in html
    assert "75,700 / 6,800 / 22,500" in html
    assert OnlineGame.objects.get().imported_by == sanma_members[1]
    again = client.post(reverse("game_import"), {"logs": [upload(SANMA)]})
    assert "Already imported: nothing stored." in again.content.decode()
    assert Hanchan.objects.count() == 1


def test_a_member_cannot_import_a_game_they_did_not_play(sanma_members, member):
    response = logged_in(member).post(reverse("game_import"), {"logs": [upload(SANMA)]})
    assert "You did not play in this game" in response.content.decode()
    assert Hanchan.objects.count() == 0


def test_a_steward_imports_several_files_and_each_is_judged_alone(staff_member):
    bad = json.loads(SANMA.read_bytes())
    bad["log"][1][1] = [52000, 26000, 27000, 0]  # East 1's changes no longer add up
    response = logged_in(staff_member).post(
        reverse("game_import"),
        {
            "logs": [
                upload(SANMA),
                upload(SANMA, json.dumps(bad, ensure_ascii=False).encode()),
                SimpleUploadedFile("notes.txt", b"hello"),
            ],
            "create_members": "on",
        },
    )
    html = response.content.decode()
    assert "Stored: 1. Refused: 2." in html
    assert "East 1 0 honba: the log&#x27;s changes are +17,000 / −9,000 / −8,000" in html
    assert "Not a game log: this page takes Tenhou logs (JSON or mjlog)" in html
    assert Hanchan.objects.count() == 1
    assert set(Member.objects.values_list("display_name", flat=True)) >= set(SANMA_NAMES)


def test_the_summary_speaks_japanese(sanma_members):
    client = logged_in(sanma_members[0], "ja")
    response = client.post(reverse("game_import"), {"logs": [upload(SANMA)], "check_only": "on"})
    html = response.content.decode()
    assert "オンライン対局の取り込み" in html
    assert "全局一致" in html
    assert Hanchan.objects.count() == 0


def test_an_imported_game_names_its_log_and_links_the_replay(sanma_members):
    client = logged_in(sanma_members[0])
    client.post(reverse("game_import"), {"logs": [upload(SANMA)]})
    game = Hanchan.objects.get()
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Online game (Tenhou), log 2024010120gm-00b9-0000-e324b88a" in html
    assert 'href="https://tenhou.net/0/?log=2024010120gm-00b9-0000-e324b88a"' in html


def test_a_member_keeps_their_own_online_names(member, other_member):
    client = logged_in(member)
    response = client.post(
        reverse("online_names"), {"service": "tenhou", "name": "ASAPIN"}, follow=True
    )
    assert "Online name added." in response.content.decode()
    assert list(member.online_names.values_list("service", "name")) == [("tenhou", "ASAPIN")]
    taken = logged_in(other_member).post(
        reverse("online_names"), {"service": "tenhou", "name": "ASAPIN"}
    )
    assert f"ASAPIN is already the online name of {member.display_name}." in taken.content.decode()
    page = client.get(reverse("member_detail", args=[member.pk])).content.decode()
    assert "Tenhou <b>ASAPIN</b>" in page
    online = member.online_names.get()
    # Another member cannot remove it; its owner can.
    assert (
        logged_in(other_member).post(reverse("online_name_delete", args=[online.pk])).status_code
        == 404
    )
    client.post(reverse("online_name_delete", args=[online.pk]))
    assert not OnlineName.objects.exists()


def test_the_import_page_in_japanese_lists_the_form(member):
    html = logged_in(member, "ja").get(reverse("game_import")).content.decode()
    assert "対局ログ" in html and "オンライン対局の取り込み" in html
    assert 'enctype="multipart/form-data"' in html
    assert 'name="logs"' in html and "multiple" in html


def test_an_online_game_keeps_its_logs_hands_but_may_be_voided(sanma_members):
    from scoring.ledger import LedgerError, hanchan_void, hand_correct, hand_undo_last

    client = logged_in(sanma_members[0])
    client.post(reverse("game_import"), {"logs": [upload(SANMA)]})
    game = Hanchan.objects.get()
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "hand_edit" not in html and "/hands/1/edit/" not in html
    assert "Undo the last hand" not in html
    assert "Void the game" in html
    first = game.hands.order_by("sequence").first()
    assert first is not None
    with pytest.raises(LedgerError, match="An online game keeps the hands of its log"):
        hand_correct(hanchan_id=game.pk, sequence=0, hand=first.data, expected_version=game.version)
    with pytest.raises(LedgerError, match="An online game keeps the hands of its log"):
        hand_undo_last(hanchan_id=game.pk, expected_version=game.version)
    hanchan_void(hanchan_id=game.pk, expected_version=game.version, steward=True)
    game.refresh_from_db()
    assert game.status == Hanchan.Status.VOIDED
    # Voided, the log may be imported again; the voided game keeps its origin.
    again = client.post(reverse("game_import"), {"logs": [upload(SANMA)]}).content.decode()
    assert "Stored: 1. Refused: 0." in again
    assert Hanchan.objects.count() == 2
    assert list(OnlineGame.objects.order_by("pk").values_list("active", flat=True)) == [
        False,
        True,
    ]


def test_online_games_count_in_their_own_standings_unless_the_club_says_so(
    sanma_members, club_choices
):
    from scoring import standings as st
    from scoring.views.standings_filters import ruleset_label

    logged_in(sanma_members[0]).post(reverse("game_import"), {"logs": [upload(SANMA)]})
    game = Hanchan.objects.get()
    for other in sanma_members[1:]:  # an upload counts once the others confirm
        hanchan_confirm(
            hanchan_id=game.pk, expected_version=game.version, user_id=other.user_id, by=other,
            steward=False,
        )  # fmt: skip
    version = game.ruleset_version
    assert (version.ruleset_id, version.service, version.standings_key) == (
        "tenhou-3p",
        "tenhou",
        "tenhou-3p@tenhou",
    )
    assert "tenhou-3p@tenhou" in st.stored_ruleset_ids()
    everything = st.all_time_period()

    def players(ruleset_ids: list[str] | None) -> int:
        return len(st.period_standings(everything, ruleset_ids=ruleset_ids).rows)

    club_choices(standard_rulesets=["makura-1.5", "tenhou-3p"])
    assert players(None) == 0  # the standard table: club games only
    assert players(["tenhou-3p"]) == 0
    assert players(["tenhou-3p@tenhou"]) == 3  # the online games' own filter
    club_choices(online_in_standings=["tenhou-3p@tenhou"])
    assert players(None) == 3
    with override("en"):
        assert ruleset_label("tenhou-3p@tenhou") == (
            "Tenhou 3-player East-South (三般南喰赤), online (Tenhou)"
        )


def test_a_misspelt_online_standings_setting_is_reported(settings):
    from scoring.checks import online_standings_setting

    settings.CLUB_ONLINE_IN_STANDINGS = ["tenhou-4p@tenhou", "tenhou4p@tenhou", "tenhou-4p"]
    errors = online_standings_setting()
    assert [e.msg for e in errors] == [
        "CLUB_ONLINE_IN_STANDINGS has 'tenhou4p@tenhou'",
        "CLUB_ONLINE_IN_STANDINGS has 'tenhou-4p'",
    ]
