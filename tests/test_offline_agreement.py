"""The offline panel agrees with the engine: for every shipped ruleset,
1,000 generated sequences of the hands offline offers (a ron with one winner, a tsumo, an
exhaustive draw, with riichi) are played through the engine (scoring.engine.Game) and through
static/js/offline_table.js under Node, fed only offline_rules's data; every figure the offline
code shows (each seat's change, the scores, the deposits, the round, honba and dealer after,
the end of the game) is the engine's, and every hand it calls refused, the engine refuses."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from scoring.engine import Game, RecordError, available_rulesets, load_ruleset, parse_hand
from scoring.entry.offline_data import offline_rules, win_of
from scoring.entry.pad_values import value_choices

SEQUENCES = 1000
TABLE_JS = Path(__file__).resolve().parent.parent / "static" / "js" / "offline_table.js"
# Reads {ruleset id: {rules, start, sequences}} on stdin; writes the results per sequence.
DRIVER = """
const table = require(process.argv[1]);
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const out = {};
  for (const [id, run] of Object.entries(JSON.parse(input))) {
    out[id] = run.sequences.map((hands) => table.advanceAll(run.rules, run.start, hands).results);
  }
  process.stdout.write(JSON.stringify(out));
});
"""


def offline_hand(rng: random.Random, players: int, values: list[str]) -> dict[str, Any]:
    """A hand as the offline panel keeps it: outcome, seats, a pad value, riichi."""
    outcome = rng.choice(("ron", "tsumo", "draw"))
    hand: dict[str, Any] = {
        "outcome": outcome,
        "winner": None,
        "loser": None,
        "value": None,
        "tenpai": [],
        "riichi": sorted(s for s in range(players) if rng.random() < 0.15),
    }
    if outcome == "draw":
        hand["tenpai"] = sorted(s for s in range(players) if rng.random() < 0.5)
        return hand
    hand["winner"] = rng.randrange(players)
    if outcome == "ron":
        hand["loser"] = rng.choice([s for s in range(players) if s != hand["winner"]])
    # Mostly the cheap values a game is made of, so that games run to their end; now and then
    # any value of the pad, those the engine refuses for this outcome included.
    hand["value"] = rng.choice(values[:12] if rng.random() < 0.8 else values)
    return hand


def record_hand(hand: dict[str, Any]) -> dict[str, Any]:
    """The record hand the server makes of the panel's hand (its fields as sent)."""
    out: dict[str, Any] = {"result": hand["outcome"]}
    if hand["outcome"] == "draw":
        out["tenpai"] = hand["tenpai"]
    else:
        out["wins"] = [{"winner": hand["winner"], **win_of(hand["value"])}]
        if hand["outcome"] == "ron":
            out["loser"] = hand["loser"]
    if hand["riichi"]:
        out["riichi"] = hand["riichi"]
    return out


def engine_results(rule_id: str, hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The engine's answer per hand: refused, over (the game had ended), or its figures."""
    rs = load_ruleset(rule_id)
    game = Game(rs)
    n = rs.players
    out: list[dict[str, Any]] = []
    for hand in hands:
        if game.ended_by is not None:
            out.append({"status": "over"})
            continue
        try:
            result = game.play(parse_hand(record_hand(hand), n, game.hands_played))
        except RecordError:
            out.append({"status": "refused"})
            # The outbox stops at a refused hand: nothing after it is compared.
            break
        out.append(
            {
                "status": "ok",
                "deltas": list(result.deltas),
                "scores": list(result.scores),
                "deposits": result.deposits_after,
                "ended": game.ended_by,
                "position": game.wind_index * n + game.hand_number,
                "honba": game.honba,
            }
        )
    return out


def differences(js: dict[str, Any], engine: dict[str, Any]) -> list[str]:
    """Where the offline code shows a figure the engine does not give."""
    if js["status"] == "unknown":
        return []  # no figure shown
    if js["status"] != engine["status"]:
        return [f"status {js['status']} vs {engine['status']}"]
    if js["status"] != "ok":
        return []
    found = [
        f"{key} {js[key]} vs {engine[key]}"
        for key in ("deltas", "scores", "deposits")
        if js[key] != engine[key]
    ]
    after = js["table"]
    if after is None:
        return found  # the table after it: no figure shown
    if after.get("ended"):
        if after["ended"] != engine["ended"]:
            found.append(f"offline ends by {after['ended']}, the engine by {engine['ended']}")
    elif engine["ended"] is not None:
        found.append(f"offline goes on, the engine ends by {engine['ended']}")
    elif (after["position"], after["honba"]) != (engine["position"], engine["honba"]):
        found.append(f"table after {after} vs {engine}")
    return found


# Skipped locally without Node; under CI (CI=true, as .ci/run sets it) a missing Node fails,
# as a missing Chromium does for the browser tests.
@pytest.mark.skipif(
    shutil.which("node") is None and os.environ.get("CI") != "true", reason="needs Node"
)
def test_the_offline_table_agrees_with_the_engine_over_1000_sequences_per_ruleset() -> None:
    rng = random.Random(25)
    runs: dict[str, Any] = {}
    expected: dict[str, list[list[dict[str, Any]]]] = {}
    for rule_id in available_rulesets():
        rs = load_ruleset(rule_id)
        values = [value for value, _label in value_choices(rs, "en")]
        # The pad's common values first (1-4 han at 30 fu and the like): see offline_hand.
        common = [v for v in values if v.endswith("-30") or v.endswith("-40")] + values
        sequences = [
            [offline_hand(rng, rs.players, common) for _ in range(rng.randint(1, 30))]
            for _ in range(SEQUENCES)
        ]
        start = Game(rs).state()
        runs[rule_id] = {
            "rules": offline_rules(rs),
            "start": {
                "position": 0,
                "honba": start.honba,
                "deposits": start.deposits,
                "scores": list(start.scores),
            },
            "sequences": sequences,
        }
        expected[rule_id] = [engine_results(rule_id, hands) for hands in sequences]
    answer = subprocess.run(
        ["node", "-e", DRIVER, str(TABLE_JS)],
        input=json.dumps(runs),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    results = json.loads(answer.stdout)
    found: list[str] = []
    shown = compared = 0
    per_ruleset: dict[str, tuple[int, int]] = {}
    for rule_id, sequences in expected.items():
        ok = total = 0
        for number, (engine_seq, js_seq) in enumerate(
            zip(sequences, results[rule_id], strict=True)
        ):
            for index, engine in enumerate(engine_seq):
                js = js_seq[index]
                total += 1
                ok += js["status"] != "unknown"
                found += [
                    f"{rule_id} sequence {number} hand {index}: {d}"
                    for d in differences(js, engine)
                ]
        per_ruleset[rule_id] = (ok, total)
        shown += ok
        compared += total
    assert found == [], f"{len(found)} differences, first: {found[:5]}"
    # Offline is not silent: most hands get their figures (the rest follow a hand after which
    # a dealer-top end may come, which depends on the ranks; sequences of up to 30 hands run
    # an East-only game well past its all-last). Measured: 62-100 % per ruleset.
    assert all(ok / total > 0.55 for ok, total in per_ruleset.values()), str(per_ruleset)
    assert compared > 13 * SEQUENCES
    assert shown > compared * 0.75, (shown, compared)
