"""The ledger's reads of what counts and what waits, on one game through its life: in play,
finished by a player (waiting), confirmed by a steward (counting), corrected (waiting while
the confirmed result counts), voided (a void waiting)."""

from __future__ import annotations

from scoring.ledger import (
    counts_current_version,
    hanchan_confirm,
    hanchan_final_scores,
    hanchan_void,
    has_counted_version,
    is_finished_waiting,
    is_waiting,
    waiting_games,
)
from scoring.models import Hanchan


def reads(game: Hanchan) -> dict[str, bool]:
    game = Hanchan.objects.get(pk=game.pk)
    return {
        "has_counted_version": has_counted_version(game),
        "counts_current_version": counts_current_version(game),
        "is_finished_waiting": is_finished_waiting(game),
        "is_waiting": is_waiting(game),
        "waiting": waiting_games().filter(pk=game.pk).exists(),
        "waiting_never_counted": waiting_games(never_counted=True).filter(pk=game.pk).exists(),
    }


def enter_final_scores(game: Hanchan, scores: list[int], by) -> Hanchan:
    game.refresh_from_db()
    return hanchan_final_scores(
        hanchan_id=game.pk,
        final_scores={"scores": scores},
        expected_version=game.version,
        by=by,
    )


def test_it_reads_a_game_in_play_as_neither_counting_nor_waiting(table_game):
    assert reads(table_game) == {
        "has_counted_version": False,
        "counts_current_version": False,
        "is_finished_waiting": False,
        "is_waiting": False,
        "waiting": False,
        "waiting_never_counted": False,
    }


def test_it_reads_a_finish_a_confirmation_a_correction_and_a_void(table_game, member, staff_member):
    enter_final_scores(table_game, [40000, 30000, 20000, 10000], member)
    # Finished by a player: the result waits and counts nowhere yet.
    assert reads(table_game) == {
        "has_counted_version": False,
        "counts_current_version": False,
        "is_finished_waiting": True,
        "is_waiting": True,
        "waiting": True,
        "waiting_never_counted": True,
    }

    table_game.refresh_from_db()
    assert hanchan_confirm(
        hanchan_id=table_game.pk,
        expected_version=table_game.version,
        user_id=staff_member.user_id,
        by=staff_member,
        steward=True,
    )
    # Confirmed by a steward: it counts as it stands, nothing waits.
    assert reads(table_game) == {
        "has_counted_version": True,
        "counts_current_version": True,
        "is_finished_waiting": False,
        "is_waiting": False,
        "waiting": False,
        "waiting_never_counted": False,
    }

    enter_final_scores(table_game, [30000, 40000, 20000, 10000], member)
    # A player's correction waits; the confirmed result still counts, so the game is not
    # among those that count nowhere.
    assert reads(table_game) == {
        "has_counted_version": True,
        "counts_current_version": False,
        "is_finished_waiting": True,
        "is_waiting": True,
        "waiting": True,
        "waiting_never_counted": False,
    }

    table_game.refresh_from_db()
    hanchan_void(hanchan_id=table_game.pk, expected_version=table_game.version, by=member)
    # A player's void of a counted game waits too, but it is no finished result waiting.
    assert reads(table_game) == {
        "has_counted_version": True,
        "counts_current_version": False,
        "is_finished_waiting": False,
        "is_waiting": True,
        "waiting": True,
        "waiting_never_counted": False,
    }


def test_it_reads_a_void_of_a_game_that_never_counted_as_settled(table_game, member):
    table_game.refresh_from_db()
    hanchan_void(hanchan_id=table_game.pk, expected_version=table_game.version, by=member)
    assert reads(table_game) == {
        "has_counted_version": False,
        "counts_current_version": False,
        "is_finished_waiting": False,
        "is_waiting": False,
        "waiting": False,
        "waiting_never_counted": False,
    }
