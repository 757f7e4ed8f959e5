"""3-player mjai logs, as Mortal's 3-player fork of mjai-reviewer writes them.

``mjai3p/refused/mjsoul_3p_double_ron_excerpt.jsonl`` is that fork's output for the first hand
of a real Mahjong Soul 3-player game (a double ron on a kita), as smly/RiichiEnv keeps it
(tests/data/online/README.md): no whole game, so it is refused in one line, and its hand is
read right. The whole games are the five real Tenhou 3-player games of tenhou-json/, written as
the fork's converter writes them (tests/online_conversions.py): four scores with an empty
fourth seat, a ``hora`` per winner, a ``ryukyoku`` with no reason; and numbered on past East 3
(South 1 as ``kyoku`` 4) or with ``bakaze`` left at East, which were once refused after
East 3.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils.translation import override

from scoring.models import Hanchan, OnlineGame
from scoring.online import mjai
from scoring.online.log import LogError, LogMismatch
from scoring.online.reading import read_game_file
from scoring.online.verify import verify
from tests.online_conversions import load, tenhou_to_mjai_3p

DATA = Path(__file__).parent / "data" / "online"
EXCERPT = DATA / "mjai3p" / "refused" / "mjsoul_3p_double_ron_excerpt.jsonl"
SANMA = sorted((DATA / "tenhou-json").glob("2024*.json"))


def read(text: str):
    log = read_game_file(text.encode(), "game.jsonl").log
    assert log is not None
    return log


def test_the_forks_real_excerpt_is_refused_in_one_line_and_its_hand_read_right():
    text = EXCERPT.read_text()
    with pytest.raises(LogError) as refused:
        read(text)
    assert str(refused.value) == "end_game: the log stops before the game ended"
    # Its one whole hand, ended there: the double ron on the kita agrees with the engine, and
    # the game goes on (East 1, 1 honba: the dealer won), which the log does not show.
    lines = text.splitlines()
    first = lines[: lines.index('{"type":"end_kyoku"}') + 1] + ['{"type":"end_game"}']
    log = read("\n".join(first))
    assert log.players == ("A", "B", "C")
    (hand,) = log.hands
    assert (hand.label, hand.deltas) == ("E1 0 honba", (12000, 16000, -28000))
    assert hand.candidates[0]["loser"] == 2 and len(hand.candidates[0]["wins"]) == 2
    with pytest.raises(LogMismatch) as mismatch:
        verify(log)
    assert "the game goes on to E1 1 honba" in str(mismatch.value)


@pytest.mark.parametrize("numbering", ["per_wind", "counted_on", "east_throughout"])
@pytest.mark.parametrize("path", SANMA, ids=lambda p: p.name)
def test_a_whole_three_player_game_is_re_scored_hand_by_hand(path, numbering):
    game = load(path)
    text = tenhou_to_mjai_3p(game, numbering=numbering)
    log = read(text)
    assert log.players == tuple(game["name"][:3])
    assert log.rulesets == ("tenhou-3p", "tenhou-3p-east")
    expected = [f"{'ESWN'[r[0][0] // 4]}{r[0][0] % 4 + 1} {r[0][1]} honba" for r in game["log"]]
    assert [h.label for h in log.hands] == expected
    verified = verify(log)
    assert verified.ruleset == "tenhou-3p"
    for result, hand in zip(verified.results, log.hands, strict=True):
        assert result.deltas == hand.deltas, hand.label
    assert tuple(verified.final["scores"]) == tuple(game["sc"][0:6:2])


def test_south_counted_on_is_south_by_its_dealers():
    text = tenhou_to_mjai_3p(load(SANMA[0]), numbering="counted_on")
    assert '"bakaze": "S", "kyoku": 4' in text  # South 1 numbered as the fourth hand
    assert [h.round for h in read(text).hands][-3:] == ["S1", "S2", "S3"]
    assert mjai.looks_like(text)


def test_a_three_player_mjai_game_imports(db, tmp_path):
    target = tmp_path / "sanma.jsonl"
    target.write_text(tenhou_to_mjai_3p(load(SANMA[0]), numbering="counted_on"))
    out = io.StringIO()
    with override("en"):
        call_command("import_games", str(target), "--create-members", stdout=out)
    assert "imported mjai" in out.getvalue(), out.getvalue()
    game = Hanchan.objects.get()
    assert game.seats.count() == 3
    online = OnlineGame.objects.get(hanchan=game)
    assert (online.service, online.replay_url) == ("mjai", "")
