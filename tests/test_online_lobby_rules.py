"""Private lobbies' rules derived from their logs, and the club's lobbies.

Real logs (tests/data/online/README.md): two Mahjong Soul tournament-room games at 30,000
(Pantheon's fixtures) are re-scored hand-exact under the derived start, uma and rounding;
two Tenhou tournament-lobby games at 30,000, a lobby without renchan, are re-scored
hand-exact under ``renchan: "none"`` too.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils.translation import override

from clubsite.models import Member, OnlineLobby, OnlineName, lobby_number
from scoring.engine import load_ruleset
from scoring.ledger import counted_results
from scoring.models import Hanchan, OnlineGame
from scoring.online.lobby_rules import is_private, lobby_flags, lobby_overrides
from scoring.online.log import LogMismatch, OnlineLog
from scoring.online.reading import read_game_file
from scoring.online.verify import verify

DATA = Path(__file__).parent / "data" / "online"
LOBBY = DATA / "lobby"
MAJSOUL_15 = LOBBY / "majsoul-all_tempai_bug.json"
MAJSOUL_30 = LOBBY / "majsoul-nagashi_mangan_riichi_bets_bug.json"
TENHOU_ROUNDED = LOBBY / "2021062012gm-0641-11000-af004d79.xml"
TENHOU_TENTHS = LOBBY / "2021061315gm-0641-11000-f25efe24.xml"


NO_RENCHAN = {"renchan": "none"}


def read(path: Path) -> OnlineLog:
    log = read_game_file(path.read_bytes(), path.name).log
    assert log is not None
    return log


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    with override("en"):
        try:
            call_command("import_games", *args, stdout=out, stderr=err)
        except CommandError as error:
            assert error.returncode == 2
    return out.getvalue(), err.getvalue()


def test_lobby_type_bits_and_strings_say_red_fives_open_tanyao_and_chips():
    tournament = lobby_flags("GO type 1601")  # 0x641: chips, East-only, red, kuitan
    assert (tournament.red_fives, tournament.open_tanyao, tournament.chips) == (True, True, True)
    phoenix = lobby_flags("GO type 169")  # 0xa9
    assert (phoenix.red_fives, phoenix.open_tanyao, phoenix.chips) == (True, True, False)
    no_red = lobby_flags("GO type 171")  # 0xab: bit 0x02, no red fives
    assert no_red.red_fives is False
    plain = lobby_flags("四般南－－－")
    assert (plain.red_fives, plain.open_tanyao, plain.chips) == (False, False, False)
    majsoul = lobby_flags("大会戦南喰")  # a room name may leave the red fives out
    assert (majsoul.red_fives, majsoul.open_tanyao) == (None, True)


@pytest.mark.parametrize(
    ("path", "uma"),
    [
        (MAJSOUL_15, [15000, 5000, -5000, -15000]),
        (MAJSOUL_30, [30000, 10000, -10000, -30000]),
    ],
)
def test_a_tournament_room_at_30000_is_rescored_hand_exact_under_its_own_rules(path, uma):
    log = read(path)
    assert log.service == "majsoul" and is_private(log)
    assert log.hands[0].start_scores == (30000, 30000, 30000, 30000)
    with pytest.raises(LogMismatch) as preset:
        verify(log, ("tenhou-4p",), overrides={})  # today's preset: refused at East 1
    assert str(preset.value).startswith("E1 0 honba: the engine gives [25000, 25000")
    verified = verify(log)
    assert verified.ruleset == "tenhou-4p"
    assert verified.overrides == {
        "start_points": 30000,
        "oka": 0,
        "final_rounding": "none",
        "uma": uma,
    }
    assert [p.result.deltas for p in verified.played] == [h.deltas for h in log.hands]
    assert tuple(verified.final["scores"]) == log.final_scores
    assert tuple(verified.final["points"]) == log.stated_points


def test_a_tenhou_tournament_lobby_without_renchan_is_rescored_hand_exact():
    rounded, tenths = read(TENHOU_ROUNDED), read(TENHOU_TENTHS)
    preset = load_ruleset("tenhou-4p-east")
    # The owari settles at 30,000 with Tenhou's rounding (+33.0) in one, in tenths in the other.
    assert lobby_overrides(rounded, preset) == {"start_points": 30000, "oka": 0}
    assert lobby_overrides(tenths, preset) == {
        "start_points": 30000,
        "oka": 0,
        "final_rounding": "none",
    }
    for log, deltas in ((rounded, "[-2600, 7800, -2600, -2600]"), (tenths, "[-1500, 500")):
        # With renchan East 2's dealer keeps the deal (a win, a tenpai at the draw); the lobby
        # passes it on: one line naming the hand, both figures and the next hand.
        base = lobby_overrides(log, preset)
        with pytest.raises(LogMismatch) as refused:
            verify(log, ("tenhou-4p-east",), overrides=base)
        line = str(refused.value)
        assert "\n" not in line
        assert line.startswith(f"E2 0 honba: the engine gives {deltas}")
        assert "the next hand is E2 1 honba" in line and "the log's E3" in line
        verified = verify(log)
        assert (verified.ruleset, verified.overrides) == ("tenhou-4p-east", base | NO_RENCHAN)
        assert [p.result.deltas for p in verified.played] == [h.deltas for h in log.hands]
        assert [(p.result.round, p.result.honba) for p in verified.played] == [
            (h.round, h.honba) for h in log.hands
        ]
        assert tuple(verified.final["scores"]) == log.final_scores
        assert verified.final["ended_by"] == "last_hand" and verified.settlement_note == ""
    # The rounded game: E2's dealer wins (E3 at 0 honba), E3 draws (E4 at 1 honba).
    assert [(h.round, h.honba) for h in rounded.hands] == [
        ("E1", 0), ("E2", 0), ("E3", 0), ("E4", 1)
    ]  # fmt: skip
    assert verify(rounded).final["points"] == [-16000, 33000, 19000, -36000]
    assert verify(tenths).final["points"] == [-13100, 28300, -28600, 13400]


def test_ranked_lobbies_keep_their_presets():
    """A ranked game keeps its preset but for the settlement Tenhou used on its day (the
    2009 East-only uma, results rounded to 1,000 in earlier years)."""
    era_keys = {"uma", "final_rounding", "top_takes_remainder"}
    for path in sorted(DATA.glob("*/*")):
        if path.suffix not in (".json", ".mjlog", ".xml") or path.parent == LOBBY:
            continue
        log = read(path)
        for ruleset_id in log.rulesets:
            overrides = lobby_overrides(log, load_ruleset(ruleset_id))
            if log.service == "majsoul" and log.log_format == "tenhou-json":
                # A Mahjong Soul ranked room under a Tenhou preset settles as Mahjong Soul:
                # back to its start, no oka, uma +15/0/-15 or +15/+5/-5/-15, not rounded.
                uma = [15000, 0, -15000] if len(log.players) == 3 else [15000, 5000, -5000, -15000]
                assert overrides.get("uma") == uma and overrides["oka"] == 0, path.name
                assert overrides["return_points"] == log.hands[0].start_scores[0], path.name
                continue
            assert set(overrides) <= era_keys, path.name
            if log.service != "tenhou":
                assert overrides == {}, path.name


def test_the_command_stores_the_lobby_rules_as_the_games_overrides(db):
    out, err = run(str(MAJSOUL_15), "--create-members")
    assert err == ""
    assert "start_points=30000" in out and "uma=[15000, 5000, -5000, -15000]" in out
    game = Hanchan.objects.get()
    assert game.overrides == {
        "start_points": 30000,
        "oka": 0,
        "final_rounding": "none",
        "uma": [15000, 5000, -5000, -15000],
    }
    assert game.ruleset_version.standings_key == "tenhou-4p@majsoul"
    assert [s.points for s in game.seats.order_by("index")] == [24100, 6500, -10300, -20300]
    assert [s.final_score for s in game.seats.order_by("index")] == [39100, 31500, 24700, 24700]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            "Lobby 1111 rules: start 30,000 · oka 0 · uma +15,000 / +5,000 / −5,000 / −15,000 "
            "· not rounded",
        ),
        (
            "ja",
            "ロビー 1111 のルール： 開始 30,000 · オカ 0 · ウマ +15,000 / +5,000 / −5,000 / "
            "−15,000 · 端数処理なし",
        ),
    ],
)
def test_the_game_page_says_the_lobby_rules_in_words(db, staff_member, language, words):
    run(str(MAJSOUL_15), "--create-members")
    game = Hanchan.objects.get()
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(staff_member.user)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert f'<p class="online-game" id="lobby-rules">{words}</p>' in html


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            "Lobby 1111 rules: start 30,000 · oka 0 · no renchan · red fives · chips (not counted)",
        ),
        (
            "ja",
            "ロビー 1111 のルール： 開始 30,000 · オカ 0 · 連荘なし · 赤ドラあり "
            "· 祝儀あり（集計外）",
        ),
    ],
)
def test_a_tenhou_lobby_without_renchan_is_stored_and_named_on_the_game_page(
    db, staff_member, language, words
):
    out, err = run(str(TENHOU_ROUNDED), "--create-members")
    assert err == "", err
    assert "renchan=none" in out
    game = Hanchan.objects.get()
    assert game.overrides == {"start_points": 30000, "oka": 0, "renchan": "none"}
    assert game.ruleset().renchan == "none"
    assert [s.points for s in game.seats.order_by("index")] == [-16000, 33000, 19000, -36000]
    assert [s.final_score for s in game.seats.order_by("index")] == [23800, 43200, 39200, 13800]
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(staff_member.user)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert f'<p class="online-game" id="lobby-rules">{words}</p>' in html


def test_a_lobby_the_club_lists_counts_under_the_clubs_ruleset(db):
    OnlineLobby.objects.create(service="majsoul", lobby="1111", ruleset_id="makura-1.5")
    out, err = run(str(MAJSOUL_30), "--create-members")
    assert err == "", err
    game = Hanchan.objects.get()
    assert f"as game {game.pk}, counted under the club's makura-1.5" in out
    assert game.ruleset_version.standings_key == "makura-1.5"  # the club's own table
    makura, played = load_ruleset("makura-1.5"), game.ruleset()
    assert game.overrides["start_points"] == 30000
    assert game.overrides["uma"] == [30000, 10000, -10000, -30000]
    ours, theirs = makura.parameters(), played.parameters()
    for name, value in game.overrides.items():
        assert theirs[name] == value and ours[name] != value, name
    assert (played.start_points, played.honba_ron, played.noten_total) == (30000, 300, 3000)
    # Every rule as the lobby played it, over the club's ruleset: the same settlement.
    assert [s.points for s in game.seats.order_by("index")] == [31500, -9700, 10500, -32300]
    counted = counted_results().filter(hanchan=game)
    assert counted.count() == 4
    assert {c.ruleset_version.standings_key for c in counted} == {"makura-1.5"}


def test_a_lobby_listed_under_a_ruleset_of_other_players_is_refused_in_one_line(db):
    OnlineLobby.objects.create(service="majsoul", lobby="1111", ruleset_id="tenhou-3p")
    out, err = run(str(MAJSOUL_30), "--create-members")
    assert err.strip().endswith(
        "Lobby 1111 counts under tenhou-3p, a 3-player ruleset; this game has 4 players."
    )
    assert err.count("\n") == 1
    assert Hanchan.objects.count() == 0 and Member.objects.count() == 0


def in_lobby(tmp_path: Path, lobby: str) -> Path:
    """A real Tenhou JSON log (riichi-rs's sample) with its log id's lobby part set to
    ``lobby``, as the same game from a private lobby names it (the JSON names it nowhere
    else); the file is named for the new id (tests/data/online/README.md, derived logs)."""
    source = DATA / "tenhou-json" / "2022081017gm-00e1-0000-2df24853.json"
    log_id = f"2022081017gm-00e1-{lobby}-2df24853"
    text = source.read_text(encoding="utf-8").replace("2022081017gm-00e1-0000-2df24853", log_id)
    path = tmp_path / f"{log_id}.json"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_tenhou_json_of_a_listed_lobby_is_found_by_its_log_id(db, tmp_path):
    OnlineLobby.objects.create(service="tenhou", lobby="L7447", ruleset_id="tenhou-4p")
    path = in_lobby(tmp_path, "7447")
    log = read(path)
    assert log.lobby == "" and is_private(log)
    ranked = verify(read(DATA / "tenhou-json" / "2022081017gm-00e1-0000-2df24853.json"))
    out, err = run(str(path), "--create-members")
    assert err == "", err
    game = Hanchan.objects.get()
    # The club's table of tenhou-4p, the East-only length as the game's overrides over it.
    assert game.ruleset_version.standings_key == "tenhou-4p"
    assert game.overrides["rounds"] == 1 and game.overrides["extension_winds"] == ["S"]
    assert OnlineGame.objects.get().lobby == "7447"
    settled = [s.points for s in game.seats.order_by("index")]
    assert settled == list(ranked.final["points"])  # the same game, the same settlement


def test_lobby_numbers_compare_with_or_without_their_letter():
    assert lobby_number("L1111") == lobby_number("1111") == lobby_number("01111") == "1111"
    assert lobby_number(" C2661 ") == "2661"
    assert lobby_number("friendly-room 77") == "friendly-room 77"


def steward_client(member: Member, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(member.user)
    return client


def test_stewards_keep_the_clubs_lobbies_on_a_page(staff_member, member):
    assert steward_client(member).get(reverse("online_lobbies")).status_code == 403
    client = steward_client(staff_member)
    assert client.get(reverse("online_lobbies")).status_code == 200
    added = client.post(
        reverse("online_lobbies"),
        {"service": "tenhou", "lobby": "L1111", "ruleset": "makura-1.5", "note": "Fridays"},
    )
    assert added.status_code == 302
    row = OnlineLobby.objects.get()
    assert (row.service, row.lobby, row.ruleset_id, row.note) == (
        "tenhou",
        "L1111",
        "makura-1.5",
        "Fridays",
    )
    assert OnlineLobby.ruleset_for("tenhou", "1111") == "makura-1.5"  # an mjlog's GO lobby
    again = client.post(
        reverse("online_lobbies"), {"service": "tenhou", "lobby": "1111", "ruleset": "tenhou-4p"}
    )
    assert "Lobby L1111 is listed already (under makura-1.5)." in again.content.decode()
    assert OnlineLobby.objects.count() == 1
    page = steward_client(staff_member, "ja").get(reverse("online_lobbies")).content.decode()
    assert "クラブのオンライン対局室" in page and "<b>L1111</b>" in page
    assert (
        steward_client(member).post(reverse("online_lobby_delete", args=[row.pk])).status_code
        == 403
    )
    client.post(reverse("online_lobby_delete", args=[row.pk]))
    assert OnlineLobby.objects.count() == 0


def test_a_lobby_listed_under_a_tenhou_preset_counts_in_the_clubs_table_of_it(db):
    OnlineLobby.objects.create(service="majsoul", lobby="1111", ruleset_id="tenhou-4p")
    run(str(MAJSOUL_15), "--create-members", "--check")
    assert Hanchan.objects.count() == 0
    run(str(MAJSOUL_15), "--create-members")
    game = Hanchan.objects.get()
    assert game.ruleset_version.standings_key == "tenhou-4p"  # the club's, not @majsoul
    assert OnlineGame.objects.get().lobby == "1111"
    assert OnlineName.objects.filter(service="majsoul").count() == 4


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "It counts under the club&#x27;s Makura Club standard rules v1.5."),
        ("ja", "クラブの 枕倶楽部 標準ルール v1.5 で集計します。"),
    ],
)
def test_the_upload_page_says_a_listed_lobbys_game_counts_under_the_clubs_ruleset(
    staff_member, language, words
):
    OnlineLobby.objects.create(service="majsoul", lobby="1111", ruleset_id="makura-1.5")
    upload = SimpleUploadedFile(MAJSOUL_30.name, MAJSOUL_30.read_bytes())
    html = (
        steward_client(staff_member, language)
        .post(reverse("game_import"), {"logs": [upload], "create_members": "on"})
        .content.decode()
    )
    assert words in html
    assert Hanchan.objects.get().ruleset_version.standings_key == "makura-1.5"
