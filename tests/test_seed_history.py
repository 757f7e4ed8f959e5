"""``seed_history`` and the bulk import it uses: the same rows as ``hanchan_import``, games that
replay to what is stored, and the same history for the same seed."""

from __future__ import annotations

import datetime
import io
import random
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from clubsite.models import Member
from scoring.engine import HandResult, replay_record
from scoring.ledger import (
    GameToImport,
    LedgerError,
    hanchan_import,
    hanchan_record,
    hanchans_import_bulk,
)
from scoring.models import Hanchan, HandEntry, LedgerChange, Seat
from scoring.upkeep import history_seeding
from scoring.upkeep.sample_games import sample_hands
from tests.conftest import make_member

DAY = datetime.date(2026, 11, 20)
END = "2026-11-21"


@pytest.fixture
def players(db: None) -> list[Member]:
    return [make_member(n.lower(), n, "") for n in ("Aoki", "Baba", "Chiba", "Doi")]


def records() -> list[dict[str, Any]]:
    """Finished games under several rulesets (chips, ep uma, overrides) and one in play."""
    rng = random.Random(11)
    names = ["Aoki", "Baba", "Chiba", "Doi"]

    def record(ruleset: str, players: int = 4, **extra: Any) -> dict[str, Any]:
        hands = sample_hands(rng, ruleset, in_play_after=extra.pop("in_play_after", None))
        return {
            "format": "club-game/1",
            "ruleset": ruleset,
            "players": names[:players],
            "hands": hands,
            **extra,
        }

    return [
        record("makura-1.5", venue="ビック", table="A"),
        record("makura-1.5", overrides={"tobi": False}, table="B"),
        record("home-nashinashi"),
        record("sanma-float", players=3),
        record("makura-1.5", in_play_after=5),
    ]


def stored(hanchan: Hanchan) -> dict[str, Any]:
    """Everything the ledger keeps about a game, without ids and timestamps."""
    hanchan.refresh_from_db()
    return {
        "game": {
            name: getattr(hanchan, name)
            for name in (
                "ruleset_version_id",
                "overrides",
                "played_on",
                "venue",
                "table_name",
                "status",
                "version",
                "state",
                "ended_by",
                "created_by_id",
            )
        },
        "finished": hanchan.finished_at is not None,
        "seats": list(
            Seat.objects.filter(hanchan=hanchan)
            .order_by("index")
            .values("index", "member_id", "final_score", "rank", "points", "chips", "uma_ep")
        ),
        "hands": list(
            HandEntry.objects.filter(hanchan=hanchan)
            .order_by("sequence")
            .values("sequence", "data", "result", "request_id", "entered_by_id")
        ),
        "changes": list(
            LedgerChange.objects.filter(hanchan=hanchan).values(
                "action", "sequence", "before", "after", "by_id"
            )
        ),
    }


def test_it_stores_exactly_what_hanchan_import_stores(players: list[Member]) -> None:
    by_name = {m.display_name: m for m in players}
    for record in records():
        [bulk] = hanchans_import_bulk(
            [GameToImport(record=record, members_by_name=by_name, played_on=DAY, by=players[1])]
        )
        # The same game again: a twin, said so (the fingerprint refuses it otherwise); with a
        # steward's authority, as the seeding's games come.
        one = hanchan_import(
            record=record,
            members_by_name=by_name,
            played_on=DAY,
            by=players[1],
            steward=True,
            allow_duplicate=True,
        )
        assert stored(bulk) == stored(one), record["ruleset"]
    statuses = Hanchan.objects.values_list("status", flat=True)
    assert sorted(set(statuses)) == ["finished", "in_play"]


def test_it_refuses_what_hanchan_import_refuses_and_writes_nothing(
    players: list[Member],
) -> None:
    by_name = {m.display_name: m for m in players}
    good, *_ = records()
    bad_hand = {**good, "hands": [{"result": "ron", "loser": 1, "wins": [{"winner": 1}]}]}
    stranger = {**good, "players": ["Aoki", "Baba", "Chiba", "Nobody"]}
    twice = {"Aoki": players[0], "Baba": players[1], "Chiba": players[2], "Doi": players[0]}
    for record, members in ((bad_hand, by_name), (stranger, by_name), (good, twice)):
        with pytest.raises(LedgerError):
            hanchan_import(record=record, members_by_name=members, played_on=DAY)
        with pytest.raises(LedgerError):
            hanchans_import_bulk(
                [
                    GameToImport(record=good, members_by_name=by_name, played_on=DAY),
                    GameToImport(record=record, members_by_name=members, played_on=DAY),
                ]
            )
    assert not Hanchan.objects.exists()


def expected_result(result: HandResult) -> dict[str, Any]:
    data = result.to_json()
    data["payments"] = [p.to_json() for p in result.payments]
    if any(result.chips):
        data["chips"] = list(result.chips)
    return data


def seed(*, seed: int = 1, years: int = 1, members: int = 12) -> str:
    out = io.StringIO()
    arguments = ["--seed", seed, "--years", years, "--members", members, "--end", END]
    call_command("seed_history", *map(str, arguments), stdout=out)
    return out.getvalue()


def test_it_seeds_a_history_whose_games_replay_to_what_is_stored(db: None) -> None:
    output = seed(seed=3)
    assert "Created 12 members" in output
    assert "2026:" in output
    assert Member.objects.count() == 12
    assert all(" " in m.display_name and m.furigana for m in Member.objects.all())
    games = list(
        Hanchan.objects.prefetch_related("seats__member", "hands").select_related("ruleset_version")
    )
    assert len(games) > 50
    first = datetime.date(2025, 11, 22)
    assert all(first <= g.played_on <= datetime.date(2026, 11, 21) for g in games)
    # Club nights only: Wednesdays, Saturdays and every other Friday.
    assert {g.played_on.weekday() for g in games} <= {2, 4, 5}
    assert {g.ruleset_version.ruleset_id for g in games} >= {"makura-1.5"}
    for game in games:
        replay = replay_record(hanchan_record(game))
        hands = sorted(game.hands.all(), key=lambda e: e.sequence)
        assert [e.result for e in hands] == [expected_result(r) for r in replay.results]
        assert replay.settlement is not None
        assert game.status in (Hanchan.Status.FINISHED, Hanchan.Status.VOIDED)
        assert game.ended_by == replay.settlement.ended_by
        seats = sorted(game.seats.all(), key=lambda s: s.index)
        assert [s.final_score for s in seats] == list(replay.settlement.scores)
        assert [s.rank for s in seats] == list(replay.settlement.ranks)
        assert [s.points for s in seats] == list(replay.settlement.points)


def test_it_voids_some_games_through_the_ledger(db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history_seeding, "VOID_RATE", 0.2)
    output = seed(seed=4, members=8)
    voided = Hanchan.objects.filter(status=Hanchan.Status.VOIDED)
    assert voided.exists()
    assert f"({voided.count()} voided;" in output
    for game in voided:
        change = game.changes.get(action=LedgerChange.Action.VOIDED)
        assert change.before == {"status": "finished"}


def test_it_makes_the_same_history_for_the_same_seed(db: None) -> None:
    def fingerprint(games: Any) -> list[tuple]:
        members = sorted(
            {s.member for g in games for s in g.seats.all()}, key=lambda m: m.user.username
        )
        ordinal = {m.pk: n for n, m in enumerate(members)}
        return [
            (
                g.played_on,
                g.table_name,
                g.venue,
                g.ruleset_version.ruleset_id,
                g.status,
                [ordinal[s.member_id] for s in sorted(g.seats.all(), key=lambda s: s.index)],
                [s.points for s in sorted(g.seats.all(), key=lambda s: s.index)],
                [e.data for e in sorted(g.hands.all(), key=lambda e: e.sequence)],
            )
            for g in games
        ]

    def games(after: int) -> Any:
        return (
            Hanchan.objects.filter(pk__gt=after)
            .order_by("pk")
            .select_related("ruleset_version")
            .prefetch_related("seats__member__user", "hands")
        )

    seed(seed=5)
    first = fingerprint(games(0))
    last_id = max(g.pk for g in games(0))
    names = set(Member.objects.values_list("display_name", flat=True))
    seed(seed=5)
    # Names in use are skipped, so the second club has other names but the same games.
    assert Member.objects.count() == 24
    assert len(set(Member.objects.values_list("display_name", flat=True)) - names) == 12
    assert fingerprint(games(last_id)) == first
    seed(seed=6)
    assert fingerprint(games(last_id * 2)) != first


def test_it_refuses_bad_arguments(db: None) -> None:
    with pytest.raises(CommandError):
        seed(members=3)
    with pytest.raises(CommandError):
        seed(years=0)
