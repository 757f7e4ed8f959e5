"""The preview drawn on the phone agrees with the server's: for every shipped ruleset, in
Japanese and English, 300 generated sequences of the hands the engine's figures cover (a ron
with one winner, a tsumo, an exhaustive draw, with riichi) are played through the engine and
shown as the server shows a preview (scoring.views.display.Preview and NextHand, from the
ledger's stored result: scoring.ledger.stored.hand_result_json), and through
static/js/hand_preview.js under Node, fed only the figures file the phone fetches
(scoring.entry.offline_data.offline_values). Every line the phone draws (each payment with its
reason, the confirm bar's netted line, each seat's change and score, the deposits, the next
round, honba and dealer) is the server's; where the phone draws nothing (a hand that ends the
game, a table the figures cannot follow) it asks the server."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from scoring.engine import Game, RecordError, available_rulesets, load_ruleset, parse_hand
from scoring.entry.offline_data import offline_values
from scoring.entry.pad_values import value_choices
from scoring.ledger.stored import hand_result_json
from scoring.views.display import NextHand, Preview
from tests.test_offline_agreement import offline_hand, record_hand

SEQUENCES = 300
PREVIEW_JS = Path(__file__).resolve().parent.parent / "static" / "js" / "hand_preview.js"
NAMES = ["Aoki", "Baba", "Chiba", "Doi"]
# Reads {key: {values, cases: [{table, hand}]}} on stdin; writes the previews per case.
DRIVER = """
const preview = require(process.argv[1]);
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const out = {};
  for (const [key, run] of Object.entries(JSON.parse(input))) {
    out[key] = run.cases.map((c) => preview.preview(run.values, c.table, c.hand, run.names));
  }
  process.stdout.write(JSON.stringify(out));
});
"""


def server_preview(before: dict[str, Any], game: Game, data: dict[str, Any], names: list[str]):
    """What the server's preview shows of a hand that does not end the game, as plain data in
    hand_preview.js's shape."""
    preview = Preview.of(data, names, None)
    after = game.state()
    following = NextHand.of(
        before,
        {
            "round": after.round,
            "honba": after.honba,
            "dealer": after.dealer,
            "deposits": after.deposits,
        },
        names,
    )

    def line(payment: Any) -> dict[str, str]:
        return {
            "payer": payment.payer,
            "payee": payment.payee,
            "amount": payment.amount,
            "reason": payment.reason,
        }

    return {
        "payments": [line(p) for p in preview.payments],
        "summary": [line(p) for p in preview.summary],
        "seats": [
            {
                "name": s.name,
                "delta": {"text": s.delta.text, "sign": s.delta.sign},
                "score": s.score,
            }
            for s in preview.seats
        ],
        "depositsAfter": preview.deposits_after,
        "next": {
            "round": following.round,
            "honba": following.honba,
            "dealer": following.dealer,
            "renchan": following.renchan,
        },
    }


def cases_of(rule_id: str, rng: random.Random) -> tuple[list[dict[str, Any]], list[Any]]:
    """Hands over generated sequences, each with the table before it as the phone knows it,
    and the server's preview of it (None where the hand is refused or ends the game: the
    phone must then draw nothing)."""
    rs = load_ruleset(rule_id)
    n = rs.players
    names = NAMES[:n]
    values = [value for value, _label in value_choices(rs, "en")]
    common = [v for v in values if v.endswith("-30") or v.endswith("-40")] + values
    rounds = [f"{wind}{p + 1}" for wind in rs.round_winds() for p in range(n)]
    cases: list[dict[str, Any]] = []
    expected: list[Any] = []
    for _ in range(SEQUENCES):
        game = Game(rs)
        for _hand in range(rng.randint(1, 24)):
            hand = offline_hand(rng, n, common)
            state = game.state()
            if state.round not in rounds:
                break
            table = {
                "position": rounds.index(state.round),
                "honba": state.honba,
                "deposits": state.deposits,
                "scores": list(state.scores),
            }
            before = {
                "round": state.round,
                "dealer": state.dealer,
                "honba": state.honba,
                "deposits": state.deposits,
            }
            try:
                result = game.play(parse_hand(record_hand(hand), n, game.hands_played))
            except RecordError:
                cases.append({"table": table, "hand": hand})
                expected.append(None)
                break
            cases.append({"table": table, "hand": hand})
            if game.ended_by is not None:
                expected.append(None)
                break
            expected.append(server_preview(before, game, hand_result_json(result), names))
    return cases, expected


@pytest.mark.skipif(
    shutil.which("node") is None and os.environ.get("CI") != "true", reason="needs Node"
)
@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_phone_draws_the_servers_preview_for_every_shipped_ruleset(language: str) -> None:
    rng = random.Random(35)
    runs: dict[str, Any] = {}
    expected: dict[str, list[Any]] = {}
    with translation.override(language):
        for rule_id in available_rulesets():
            rs = load_ruleset(rule_id)
            cases, wanted = cases_of(rule_id, rng)
            runs[rule_id] = {
                "values": offline_values(rs),
                "cases": cases,
                "names": NAMES[: rs.players],
            }
            expected[rule_id] = wanted
    answer = subprocess.run(
        ["node", "-e", DRIVER, str(PREVIEW_JS)],
        input=json.dumps(runs),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        cwd=PREVIEW_JS.parent,
    )
    drawn = json.loads(answer.stdout)
    found: list[str] = []
    shown: dict[str, tuple[int, int]] = {}
    for rule_id, wanted in expected.items():
        phone = drawn[rule_id]
        assert len(phone) == len(wanted)
        for index, (js, server) in enumerate(zip(phone, wanted, strict=True)):
            if server is None and js is not None:
                found.append(f"{rule_id} case {index}: the phone draws {js}, the server none")
            elif js is not None and js != server:
                found.append(f"{rule_id} case {index}: {js} != {server}")
        covered = sum(1 for w in wanted if w is not None)
        shown[rule_id] = (sum(1 for js in phone if js is not None), covered)
    assert found == [], f"{len(found)} differences, first: {found[:3]}"
    # The phone draws most previews itself: all but those after which the figures cannot
    # follow the table (a dealer-top end that depends on the ranks).
    assert all(drew >= 0.8 * covered for drew, covered in shown.values()), shown
    assert sum(covered for _drew, covered in shown.values()) > 13 * SEQUENCES
