"""``manage.py replay`` on the worked examples of rules-spec §3 and on bad records.

Every ``tests/data/records/<ruleset>/<example>.json`` is replayed through the command and its
output compared with ``<example>.expected.json``, whose numbers were worked out by hand from
the spec (see tests/data/records/README.md for what each example asserts).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

RECORDS = Path(__file__).parent / "data" / "records"
EXAMPLES = sorted(p for p in RECORDS.glob("*/*.json") if not p.name.endswith(".expected.json"))
ROOT = Path(__file__).resolve().parent.parent


def replay_output(path: Path) -> dict:
    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    return json.loads(out.getvalue())


def refused(path: Path) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of ``replay`` refusing ``path``."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(path), stdout=out, stderr=err)
    return int(exited.value.code or 0), out.getvalue(), err.getvalue()


def run_replay(path: Path) -> subprocess.CompletedProcess[str]:
    """``manage.py replay`` in a process of its own: the real command line's exit status and
    streams (one test; the others call the command in this process)."""
    return subprocess.run(
        [sys.executable, "manage.py", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_it_has_worked_examples_for_every_club_ruleset():
    rulesets = {p.parent.name for p in EXAMPLES}
    assert {"makura-1.3", "makura-1.5", "sanma-float", "home-nashinashi", "fuji-sanma"} <= rulesets


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_it_replays_the_worked_example(path: Path):
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert replay_output(path) == expected


def test_it_replays_the_format_documents_example(tmp_path: Path):
    record = {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "overrides": {},
        "players": ["Aoki", "Baba", "Chiba", "Doi"],
        "hands": [
            {
                "result": "ron",
                "loser": 2,
                "wins": [{"winner": 1, "han": 3, "fu": 30}],
                "riichi": [1],
            },
        ],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = replay_output(path)
    assert out["hands"] == [
        {
            "round": "E1",
            "dealer": 0,
            "honba": 0,
            "deposits_before": 0,
            "deltas": [0, 3900, -3900, 0],
            "scores": [25000, 28900, 21100, 25000],
            "deposits_after": 0,
        }
    ]
    assert out["final"] is None


@pytest.mark.parametrize(
    ("hands", "line"),
    [
        (
            [{"result": "tsumo", "wins": [{"winner": 0, "limit": "mangan"}] * 2}],
            "hand 0: wins: the same seat wins twice",
        ),
        (
            [{"result": "ron", "loser": 4, "wins": [{"winner": 0, "han": 1, "fu": 30}]}],
            "hand 0: loser: seat 4 is out of range 0-3",
        ),
        (
            [
                {"result": "draw", "tenpai": []},
                {"result": "ron", "loser": 1, "wins": [{"winner": 0, "han": 1, "fu": 25}]},
            ],
            "hand 1: wins[0].fu: 25 fu is impossible for a 1-han ron here",
        ),
        (
            [{"result": "tsumo", "wins": [{"winner": 1, "han": 2, "fu": 25}]}],
            "hand 0: wins[0].fu: 25 fu is impossible for a 2-han tsumo here",
        ),
    ],
)
def test_it_exits_2_with_one_line_naming_the_hand_and_key(tmp_path: Path, hands, line):
    record = {"ruleset": "makura-1.5", "players": ["A", "B", "C", "D"], "hands": hands}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    status, stdout, stderr = refused(path)
    assert status == 2
    assert stdout == ""
    assert stderr.strip() == line
    assert "\n" not in stderr.strip()


def test_it_exits_2_on_a_file_that_is_not_json(tmp_path: Path):
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    done = run_replay(path)
    assert done.returncode == 2
    assert done.stderr.startswith("record: not valid JSON")
