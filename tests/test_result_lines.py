"""Tenhou result lines into the ledger: each line a final-scores game under
its lobby's rules, settled by the engine to the stated points or refused in one line.

The lines are real (tests/data/online/result-lines/, tests/data/online/README.md): four-
and three-player, East-South and East-only, with and without open tanyao and red fives,
with chips (祝).
"""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils.translation import override

from clubsite.models import Member, OnlineLobby, OnlineName
from scoring.engine import final_settlement, load_ruleset
from scoring.ledger import counted_results, import_line_game, match_players, result_line_game
from scoring.ledger.fingerprint import game_fingerprint
from scoring.models import Hanchan, OnlineGame
from scoring.online.log import LogError
from scoring.online.reading import read_game_file
from scoring.online.result_lines import (
    LineUnreadable,
    LineUnsettled,
    read_lines,
    read_result_lines,
    settle_line,
)
from tests.conftest import make_member

LINES = Path(__file__).parent / "data" / "online" / "result-lines" / "tenhou-scores-cli.txt"
BRIEF = "L1000 | 00:30 | 四般南喰赤－ | A(+45.0) B(+10.0) C(-15.0) D(-40.0)"

# Each line's ruleset, lobby overrides and the final scores that settle to its points.
SETTLED = {
    1: ("tenhou-4p", {}, (51000, 20000, 15000, 14000)),
    2: ("tenhou-4p", {"chips": True}, (47000, 40000, 16000, -3000)),
    3: ("tenhou-4p", {}, (69000, 14000, 11000, 6000)),
    4: ("tenhou-4p", {"open_tanyao": False}, (49000, 31000, 11000, 9000)),
    5: ("tenhou-4p-east", {}, (39000, 32000, 18000, 11000)),
    6: ("tenhou-4p-east", {"chips": True}, (37000, 29000, 23000, 11000)),
    7: ("tenhou-3p", {}, (80000, 27000, -2000)),
    9: ("tenhou-3p-east", {}, (47000, 32000, 26000)),
    10: ("tenhou-3p-east", {"chips": True}, (81000, 27000, -3000)),
}


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    with override("en"):
        try:
            call_command("import_games", *args, stdout=out, stderr=err)
        except CommandError as error:
            assert error.returncode == 2
    return out.getvalue(), err.getvalue()


def test_the_real_lines_are_read_with_their_lobby_type_and_chips():
    lines = read_result_lines(LINES.read_text(encoding="utf-8"))
    assert len(lines) == 10
    first, chips = lines[0], lines[1]
    assert (first.lobby, first.time, first.rule) == ("L1002", "00:44", "四般南喰赤－")
    assert first.players == ("しきさん", "NoName", "あたまくん", "*芹澤六花*")
    assert first.points == (61000, 0, -25000, -36000) and first.chips is None
    assert chips.chips == (2, 6, -3, -5) and chips.points == (57000, 20000, -24000, -53000)
    assert [line.seats for line in lines] == [4, 4, 4, 4, 4, 4, 3, 3, 3, 3]
    assert read_game_file(LINES.read_bytes(), LINES.name).lines == lines


@pytest.mark.parametrize("number", sorted(SETTLED))
def test_each_line_settles_exactly_under_its_lobbys_preset(number):
    line = read_result_lines(LINES.read_text(encoding="utf-8"))[number - 1]
    ruleset_id, overrides, scores = SETTLED[number]
    settled = settle_line(line)
    assert (settled.ruleset, settled.overrides, settled.scores) == (ruleset_id, overrides, scores)
    ruleset = load_ruleset(ruleset_id, overrides or None)
    again = final_settlement(ruleset, scores)
    assert again.points == line.points
    assert again.ranks == tuple(range(1, line.seats + 1))


def test_a_line_that_does_not_settle_to_the_uma_is_refused_in_one_line():
    line = read_result_lines(LINES.read_text(encoding="utf-8"))[7]  # C2661, a chips lobby
    with pytest.raises(LineUnsettled) as refused:
        settle_line(line)
    assert str(refused.value) == (
        "line 8 (C2661 02:17): the points +40.0 +6.0 -46.0 do not settle under tenhou-3p "
        "(uma +20/+0/-20, return 40,000): the engine gives +5.0 +41.0 -46.0"
    )
    edited = read_result_lines(BRIEF.replace("D(-40.0)", "D(-45.0)"))[0]
    with pytest.raises(LineUnsettled, match=r"^line 1 \(L1000 00:30\): the points "):
        settle_line(edited)


def test_a_line_in_tenths_settles_unrounded_and_a_ranked_lobbys_line_is_read():
    tenths = read_result_lines("L1234 | 21:22 | 四般南喰赤－ | A(+40.9) B(+9.4) C(-11.2) D(-39.1)")[
        0
    ]
    settled = settle_line(tenths)
    assert settled.overrides == {"final_rounding": "none", "top_takes_remainder": False}
    assert settled.scores == (30900, 29400, 28800, 10900)
    ranked = read_result_lines(
        '00:03 | 20 | 四鳳東喰赤－ | <a href="http://tenhou.net/0/?log=2013022000gm-00e1-0000-'
        'b946ce74">牌譜</a> | ケロンパス(+44.0) (∩・ω・)∩(+6.0) evacania(-15.0) '
        "３ｐがツモれない(-35.0)<br>"
    )[0]
    assert ranked.lobby == "" and ranked.players[1] == "(∩・ω・)∩"
    assert settle_line(ranked).scores == (34000, 26000, 25000, 15000)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("L1000 | 00:30 | 四般南喰赤－ | A(+45.0) B(+10.0) C(-55.0)", "3 players in a 4-player"),
        ("L1000 | 00:30 | 四般南喰赤－ | A(+45.0) A(+10.0) C(-15.0) D(-40.0)", "written twice"),
        ("L1000 | 00:30 | 四般南喰赤祝 | A(+45.0,+1枚) B(+10.0) C(-15.0) D(-40.0)", "some"),
        (f"{BRIEF}\nhello", "line 2: not a result line"),
        (BRIEF.replace("A(", "A\x00("), "line 1: players: text with a NUL"),
    ],
)
def test_a_line_not_in_the_format_is_refused_naming_it(text, message):
    with pytest.raises(LineUnreadable, match=message):
        read_result_lines(text)


def test_a_club_ruleset_of_other_players_is_refused():
    with pytest.raises(LogError, match="tenhou-3p is a 3-player ruleset"):
        settle_line(read_result_lines(BRIEF)[0], "tenhou-3p")


def test_the_command_stores_each_line_as_a_final_scores_game(db):
    out, err = run(str(LINES), "--create-members", "--date", "2021-12-31")
    assert err.count("\n") == 1 and "line 8 (C2661 02:17): the points" in err
    assert out.count("imported as game") == 9
    games = Hanchan.objects.order_by("pk")
    assert games.count() == 9
    for game, number in zip(games, sorted(SETTLED), strict=True):
        ruleset_id, overrides, scores = SETTLED[number]
        line = read_result_lines(LINES.read_text(encoding="utf-8"))[number - 1]
        seats = list(game.seats.order_by("index"))
        assert game.final_scores_only and game.played_on.isoformat() == "2021-12-31"
        assert game.ruleset_version.standings_key == f"{ruleset_id}@tenhou"
        assert game.overrides == overrides
        assert tuple(s.final_score for s in seats) == scores
        assert tuple(s.points for s in seats) == line.points
        if line.chips is not None:
            assert tuple(s.chips for s in seats) == line.chips
        assert [s.member.display_name for s in seats] == list(line.players)
        assert game.online.log_format == "result-line" and game.online.lobby == line.lobby
    # NoName is nobody's online name; the other names are saved.
    assert not OnlineName.objects.filter(name="NoName").exists()
    assert OnlineName.objects.filter(service="tenhou").count() == 6 * 4 + 3 * 3 - 1
    again, err = run(str(LINES), "--create-members", "--date", "2021-12-31")
    assert again.count("already imported as game") == 9
    assert Hanchan.objects.count() == 9


def test_the_same_line_under_another_time_is_another_game(db, tmp_path):
    """The time, like the lobby, the day and the names, is part of what a
    line is; the same line of the same day is the one game."""
    run(str(LINES), "--create-members", "--date", "2021-12-31")
    moved = tmp_path / "moved.txt"
    text = LINES.read_text(encoding="utf-8").splitlines()[2].replace("19:58", "19:59")
    moved.write_text(text, encoding="utf-8")
    out, err = run(str(moved), "--date", "2021-12-31")
    game = Hanchan.objects.latest("pk")
    assert out.startswith(f"{moved}: line 1 (L4290 19:59): imported as game {game.pk}")
    assert err == "" and Hanchan.objects.count() == 10
    out, err = run(str(moved), "--date", "2021-12-31")
    assert out.startswith(f"{moved}: line 1 (L4290 19:59): already imported as game {game.pk}")
    out, err = run(str(moved), "--date", "2022-01-01")
    assert Hanchan.objects.latest("pk").played_on.isoformat() == "2022-01-01"
    assert out.startswith(f"{moved}: line 1 (L4290 19:59): imported as game ") and err == ""
    assert Hanchan.objects.count() == 11


# Seven games of one evening with the same point list: another time, another lobby, other
# players, the same players in another order (once one was stored, six were
# "already imported, game 8").
SEVEN = [
    BRIEF,
    BRIEF.replace("00:30", "01:05"),
    BRIEF.replace("00:30", "01:41"),
    BRIEF.replace("L1000", "L2000"),
    BRIEF.replace("A(", "E("),
    BRIEF.replace("A(", "X(").replace("B(", "A(").replace("X(", "B("),
    BRIEF.replace("00:30", "02:17").replace("C(", "F(").replace("D(", "C(").replace("F(", "D("),
]


def test_seven_games_with_the_same_points_are_seven_games(staff_member):
    assert len(set(SEVEN)) == 7
    client = logged_in(staff_member)
    paste = {"lines": "\n".join(SEVEN), "create_members": "on", "played_on": "2026-11-20"}
    html = client.post(reverse("game_import"), paste).content.decode()
    assert "Stored: 7. Refused: 0." in html and "Already imported" not in html
    games = Hanchan.objects.order_by("pk")
    assert games.count() == 7 and len({g.fingerprint for g in games}) == 7
    for game, text in zip(games, SEVEN, strict=True):
        line = read_result_lines(text)[0]
        assert game.online.log_id == line.log_id("2026-11-20")
        assert [s.member.display_name for s in game.seats.order_by("index")] == list(line.players)
        assert [s.points for s in game.seats.order_by("index")] == [45000, 10000, -15000, -40000]
    # The same evening pasted again: each line is the game stored, named to a steward.
    again = client.post(reverse("game_import"), paste).content.decode()
    assert again.count("Already imported: nothing stored.") == 7
    for game in games:
        assert f'href="/games/{game.pk}/"' in again
    assert Hanchan.objects.count() == 7


def test_a_line_is_its_lobby_day_time_and_names_in_its_fingerprint(db):
    """A line's fingerprint is its id (lobby, day, time, digest of the lobby type, names and
    points) with its scores; no line game shares one with another line of the same points."""
    prints = set()
    for number, text in enumerate(SEVEN):
        line = read_result_lines(text)[0]
        for day in ("2026-11-20", "2026-11-21"):
            players = match_players(result_line_game(line, date.fromisoformat(day)).log,
                                    create_members=True)  # fmt: skip
            game = import_line_game(result_line_game(line, date.fromisoformat(day)), players)
            assert game.fingerprint == game_fingerprint(
                played_on=date.fromisoformat(day),
                members=None,
                hand_results=[],
                final_scores={"scores": [35000, 30000, 25000, 10000]},
                line=line.log_id(day),
            ), number
            prints.add(game.fingerprint)
    assert len(prints) == 14


def test_a_lobby_the_club_lists_counts_in_its_own_table(db):
    OnlineLobby.objects.create(service="tenhou", lobby="L1002", ruleset_id="tenhou-4p")
    run(str(LINES), "--create-members", "--date", "2021-12-31")
    game = OnlineGame.objects.get(lobby="L1002").hanchan
    assert game.ruleset_version.standings_key == "tenhou-4p"
    assert {c.ruleset_version.standings_key for c in counted_results().filter(hanchan=game)} == {
        "tenhou-4p"
    }
    others = OnlineGame.objects.exclude(lobby="L1002")
    assert {o.hanchan.ruleset_version.service for o in others} == {"tenhou"}


def logged_in(member: Member, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(member.user)
    return client


@pytest.fixture
def brief_players(db: None) -> list[Member]:
    members = []
    for name in "ABCD":
        member = make_member(f"p{name.lower()}", f"Player {name}", f"ぷれいやー{name}")
        OnlineName.objects.create(member=member, service="tenhou", name=name)
        members.append(member)
    return members


def test_a_player_pastes_their_line_and_it_waits_for_the_table(brief_players, member):
    page = logged_in(brief_players[0]).get(reverse("game_import"))
    assert 'name="lines"' in page.content.decode()
    assert (
        "You did not play in this game"
        in logged_in(member)
        .post(reverse("game_import"), {"lines": BRIEF, "played_on": "2026-11-20"})
        .content.decode()
    )
    response = logged_in(brief_players[1]).post(
        reverse("game_import"), {"lines": BRIEF, "played_on": "2026-11-20"}
    )
    html = response.content.decode()
    game = Hanchan.objects.get()
    assert "Stored: final scores, " in html and "35,000 / 30,000 / 25,000 / 10,000" in html
    assert game.played_on.isoformat() == "2026-11-20" and game.counted_version is None
    assert [s.points for s in game.seats.order_by("index")] == [45000, 10000, -15000, -40000]
    detail = logged_in(brief_players[1]).get(reverse("game_detail", args=[game.pk]))
    assert "From a result line of lobby L1000. Lobby L1000 rules: red fives" in (
        detail.content.decode()
    )


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            "The points +45.0 / +10.0 / −15.0 / −45.0 do not settle under Tenhou 4-player",
        ),
        ("ja", "成績 +45.0 / +10.0 / −15.0 / −45.0 は"),
    ],
)
def test_the_page_refuses_a_line_that_does_not_settle_in_the_readers_language(
    staff_member, language, words
):
    bad = BRIEF.replace("D(-40.0)", "D(-45.0)")
    html = (
        logged_in(staff_member, language)
        .post(reverse("game_import"), {"lines": f"{BRIEF}\n{bad}", "create_members": "on"})
        .content.decode()
    )
    assert words in html
    assert Hanchan.objects.count() == 1  # the good line alone
    unreadable = (
        logged_in(staff_member, language)
        .post(reverse("game_import"), {"lines": f"{BRIEF}\nhello"})
        .content.decode()
    )
    expected = "Line 2 is not a Tenhou result line" if language == "en" else "2 行目は天鳳"
    assert expected in unreadable


def test_a_file_of_lines_on_the_import_page_is_one_outcome_a_line(staff_member):
    upload = SimpleUploadedFile(LINES.name, LINES.read_bytes())
    html = (
        logged_in(staff_member)
        .post(
            reverse("game_import"),
            {"logs": [upload], "create_members": "on", "played_on": "2021-12-31"},
        )
        .content.decode()
    )
    assert "Stored: 9. Refused: 1." in html
    assert "C2661 02:17" in html and "do not settle under Tenhou 3-player" in html
    assert Hanchan.objects.filter(final_scores_only=True).count() == 9
    assert {g.played_on.isoformat() for g in Hanchan.objects.all()} == {"2021-12-31"}


# Tenhou names may hold "|", spaces and parentheses; the players are read
# from their settlements, each "(+45.0)" ending one player.
BARRED = "L1000 | 00:31 | 四般南喰赤－ | A|B(+55.0) C D(+12.0) (x)|(-22.0) E | F(-45.0)"


def test_a_name_with_a_bar_a_space_or_parentheses_is_read_from_the_settlements():
    line = read_result_lines(BARRED)[0]
    assert line.players == ("A|B", "C D", "(x)|", "E | F")
    assert line.points == (55000, 12000, -22000, -45000)
    assert (line.lobby, line.time, line.rule) == ("L1000", "00:31", "四般南喰赤－")
    assert settle_line(line).scores == (45000, 32000, 18000, 5000)


def test_each_line_stands_on_its_own():
    lines = read_lines(f"{BRIEF}\nhello\n\n{BARRED}\n{BRIEF.replace(' D(-40.0)', '')}")
    assert [type(read).__name__ for read in lines] == [
        "ResultLine",
        "LineUnreadable",
        "ResultLine",
        "LineUnreadable",
    ]
    bad, short = lines[1], lines[3]
    assert isinstance(bad, LineUnreadable) and isinstance(short, LineUnreadable)
    assert (bad.number, bad.code) == (2, "format")
    assert (short.number, short.code, short.params) == (
        5,
        "seats",
        {"found": 3, "seats": 4, "rule": "四般南喰赤－"},
    )


def test_the_command_stores_the_good_lines_of_a_file_with_a_bad_one(db, tmp_path):
    path = tmp_path / "evening.txt"
    path.write_text(f"{BRIEF}\n{BARRED}|\n{BARRED}\n", encoding="utf-8")
    out, err = run(str(path), "--create-members", "--date", "2026-11-20")
    assert out.count("imported as game") == 2
    assert err.startswith(f"{path}: line 2: the players are not name(+45.0) ...")
    names = {tuple(s.member.display_name for s in g.seats.order_by("index"))
             for g in Hanchan.objects.all()}  # fmt: skip
    assert names == {("A", "B", "C", "D"), ("A|B", "C D", "(x)|", "E | F")}


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            [
                "Line 2 is not a Tenhou result line (lobby | time | lobby type | name(+45.0) …). "
                "Nothing was stored from this line.",
                "Line 4 has 3 players, but its lobby type “四般南喰赤－” has 4. Nothing was "
                "stored from this line.",
                "Line 5 names “A|B” at two seats.",
            ],
        ),
        (
            "ja",
            [
                "2 行目は天鳳の対戦結果の行ではありません",
                "4 行目はプレイヤーが3人ですが、卓種「四般南喰赤－」は4人打ちです。",
                "5 行目は「A|B」が2つの席にいます。",
            ],
        ),
    ],
)
def test_the_page_stores_the_good_lines_and_says_why_each_bad_one_is_refused(
    staff_member, language, words
):
    short = BRIEF.replace(" D(-40.0)", "").replace("A(", "X(").replace("C(-15.0)", "C(-55.0)")
    twice = BARRED.replace("E | F(", "A|B(")
    paste = f"{BRIEF}\nhello\n{BARRED}\n{short}\n{twice}"
    html = (
        logged_in(staff_member, language)
        .post(
            reverse("game_import"),
            {"lines": paste, "create_members": "on", "played_on": "2026-11-20"},
        )
        .content.decode()
    )
    for sentence in words:
        assert sentence in html
    assert Hanchan.objects.count() == 2
    assert {s.member.display_name for s in Hanchan.objects.latest("pk").seats.all()} == {
        "A|B",
        "C D",
        "(x)|",
        "E | F",
    }
    stored = "Stored: 2. Refused: 3." if language == "en" else "保存 2件、拒否 3件。"
    assert stored in html


def test_a_file_whose_first_line_is_faulty_is_still_read_as_result_lines(staff_member, tmp_path):
    """A file is result lines when any of its lines is one: a faulty first
    line is refused alone, not the file taken for a log that is no log."""
    text = f"L1000 | 00:29 | 四般南喰赤－ | A(+45.0) B(+10.0) C(-55.0)\n{BRIEF}\n"
    upload = SimpleUploadedFile("evening.txt", text.encode())
    html = (
        logged_in(staff_member)
        .post(
            reverse("game_import"),
            {"logs": [upload], "create_members": "on", "played_on": "2026-11-20"},
        )
        .content.decode()
    )
    assert "Stored: 1. Refused: 1." in html
    assert "Line 1 has 3 players, but its lobby type “四般南喰赤－” has 4." in html
    path = tmp_path / "evening.txt"
    path.write_text(text.replace("00:30", "00:31"), encoding="utf-8")
    out, err = run(str(path), "--date", "2026-11-20")
    assert "line 2 (L1000 00:31): imported as game" in out
    assert "line 1: 3 players in a 4-player lobby (四般南喰赤－)" in err
    assert Hanchan.objects.count() == 2


def test_a_line_of_a_lobby_the_club_counts_has_its_lines_fingerprint(db):
    """A game from a result line of a lobby the club lists is pinned to the club's version
    (service ``""``), as a club game is, and still fingerprinted as its line, not as a club
    game's date and members."""
    OnlineLobby.objects.create(service="tenhou", lobby="L1000", ruleset_id="tenhou-4p")
    line = read_result_lines(BRIEF)[0]
    game = result_line_game(line, date(2026, 11, 20))
    stored = import_line_game(game, match_players(game.log, create_members=True))
    assert stored.ruleset_version.service == ""
    assert stored.fingerprint == game_fingerprint(
        played_on=date(2026, 11, 20),
        members=None,
        hand_results=[],
        final_scores={"scores": [35000, 30000, 25000, 10000]},
        line=line.log_id("2026-11-20"),
    )
    # The same points at another time in that lobby: another game.
    other = result_line_game(
        read_result_lines(BRIEF.replace("00:30", "00:58"))[0], date(2026, 11, 20)
    )
    assert import_line_game(other, match_players(other.log)).pk != stored.pk
    assert Hanchan.objects.count() == 2


def test_two_anonymous_players_at_one_table_are_two_players(staff_member, tmp_path):
    """Tenhou's anonymous players are all NoName: a line with two is a game of two players
    (no legitimate game refused), seated by a steward as a log's would be;
    any other name twice is a faulty line."""
    text = "L1000 | 00:30 | 四般南喰赤－ | NoName(+45.0) NoName(+10.0) C(-15.0) D(-40.0)"
    assert read_result_lines(text)[0].players == ("NoName", "NoName", "C", "D")
    path = tmp_path / "anonymous.txt"
    path.write_text(text, encoding="utf-8")
    _, err = run(str(path), "--date", "2026-11-20")
    assert "seats 1, 2 are all called NoName" in err and not Hanchan.objects.exists()
    html = (
        logged_in(staff_member)
        .post(
            reverse("game_import"),
            {"lines": text, "create_members": "on", "played_on": "2026-11-20"},
        )
        .content.decode()
    )
    assert "Stored: 1. Refused: 0." in html
    game = Hanchan.objects.get()
    assert [s.member.display_name for s in game.seats.order_by("index")] == [
        "NoName",
        "NoName (2)",
        "C",
        "D",
    ]
    assert not OnlineName.objects.filter(name="NoName").exists()


def test_an_hour_without_its_zero_is_the_same_game_and_a_time_no_clock_shows_is_refused(
    staff_member,
):
    """The time is part of the game's id, so ``1:30`` is ``01:30`` (the
    same game was stored twice, and a third time as ``０1:30``); ``25:99`` and a time in
    full-width digits are no time of a result line, and nothing is stored from them."""
    assert read_result_lines(BRIEF.replace("00:30", "0:30"))[0].time == "00:30"
    client = logged_in(staff_member)
    paste = {"lines": BRIEF, "create_members": "on", "played_on": "2026-11-20"}
    client.post(reverse("game_import"), paste)
    game = Hanchan.objects.get()
    again = {**paste, "lines": BRIEF.replace("00:30", "0:30")}
    html = client.post(reverse("game_import"), again).content.decode()
    assert "Already imported: nothing stored." in html and f'href="/games/{game.pk}/"' in html
    for time in ("０0:30", "25:30", "00:99", "24:00"):
        refused = client.post(
            reverse("game_import"), {**paste, "lines": BRIEF.replace("00:30", time)}
        )
        assert "Line 1 is not a Tenhou result line" in refused.content.decode(), time
    assert Hanchan.objects.count() == 1


@pytest.mark.parametrize(
    "points",
    ["+99999999999999999999999.0", "+12345.0", "+４５.0", "+٤٥.٠"],
)
def test_points_longer_than_a_tables_or_not_in_ascii_digits_are_refused(points):
    """Points went through a float: ``+99999999999999999999999.0`` was read as
    +99999999999999998322278.4 and shown back so; a full-width or Arabic-Indic figure was
    read as its digits, a line Tenhou never writes."""
    (read,) = read_lines(BRIEF.replace("+45.0", points))
    assert isinstance(read, LineUnreadable) and read.code == "players"


def test_points_are_read_as_integers():
    line = read_result_lines("L1000 | 00:30 | 四般南喰赤－ | A(+45.5) B(+10.0) C(-0.5) D(-55.0)")[0]
    assert line.points == (45500, 10000, -500, -55000)
    assert all(type(p) is int for p in line.points)
