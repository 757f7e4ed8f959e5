"""A member's statistics with how sure each is: rates with their Wilson
interval, means with their t interval (:mod:`scoring.stats.intervals`: none under ten values),
over one ruleset family and period (:func:`scoring.stats.families.family_selection`). A mean
win or deal-in value's interval is cut at the least win or ron the family's rules pay.

Built on the contract's reads (:mod:`scoring.stats.counts`, docs/player-stats.md): the
game-level figures add up the counted results (``CountedSeat``, through
:func:`scoring.ledger.counted_results`), the hand-level ones the ``HandSeat`` facts of those
games with the contract's own counts (``HAND_COUNTS``), so ``manage.py player_stats`` and this
page agree figure for figure. Games entered as final scores only have no hands: they count in
the game-level figures and in none of the hand-level ones. Four queries whatever the size of
the history: results, hand facts, yakuman, and the dealer's hands for the renchan streak.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from django.db.models import BigIntegerField, Count, F, Q, Sum
from django.db.models.functions import Cast

from scoring.ledger import counted_yaku
from scoring.models import HandSeat
from scoring.stats.counts import HAND_COUNTS, NOT_CHOMBO, Selection, counted_seats
from scoring.stats.intervals import Estimate, count_only, t_mean, wilson

Level = Literal["game", "hand"]
Kind = Literal["rate", "mean", "best"]


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure: ``key`` (as :func:`player_figures` names them), whether it reads
    the games or the hands (``level``), a ``rate`` (Wilson), a ``mean`` (t) or a ``best``
    (a record: no interval), and its :class:`Estimate` (means in points, or places)."""

    key: str
    level: Level
    kind: Kind
    estimate: Estimate


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """A member's figures over a selection: ``games`` counted, of which ``hand_games`` have
    their hands recorded (the rest were entered as final scores only), ``hands`` seated
    (chombo hands left out), ``players`` of the family, and the :class:`Figure` list in
    page order (game-level first)."""

    players: int
    games: int
    hand_games: int
    hands: int
    figures: tuple[Figure, ...]

    def figure(self, key: str) -> Figure:
        """The figure named ``key``. Raises ``KeyError`` for an unknown one."""
        for figure in self.figures:
            if figure.key == key:
                return figure
        raise KeyError(key)


def squares(field: str, condition: Q | None = None) -> Sum:
    """The sum of a column's squares (for a t interval), in 64 bits: 4-byte points
    squared overflow an ``integer`` in PostgreSQL."""
    wide = Cast(F(field), BigIntegerField())
    return Sum(wide * wide, filter=condition, output_field=BigIntegerField())


def game_aggregates(players: int) -> dict[str, Any]:
    places = {f"place_{p}": Count("pk", filter=Q(rank=p)) for p in range(1, players + 1)}
    return {
        "games": Count("pk"),
        "hand_games": Count("pk", filter=Q(final_scores_only=False)),
        **places,
        "rank_sum": Sum("rank"),
        "rank_squares": squares("rank"),
        "points": Sum("points"),
        "points_squares": squares("points"),
        "score": Sum("final_score"),
        "score_squares": squares("final_score"),
        "busted": Count("pk", filter=Q(busted=True)),
    }


# Beyond the contract's counts: what the intervals of the means need, and a few counts the
# contract does not print. Chombo hands stay out of a hand's balance as out of ``hands``.
HAND_EXTRAS: dict[str, Any] = {
    "seated": Count("pk"),
    "win_value_squares": squares("win_value", Q(won=True)),
    "deal_in_value_squares": squares("deal_in_value", Q(dealt_in=True)),
    "balance": Sum("delta", filter=NOT_CHOMBO),
    "balance_squares": squares("delta", NOT_CHOMBO),
    "riichi_deal_ins": Count("pk", filter=Q(riichi=True, dealt_in=True) & NOT_CHOMBO),
}


def number(row: dict[str, Any], key: str) -> int:
    """An aggregate as an int: ``None`` over no rows is 0; PostgreSQL sums bigints as
    numeric, which arrive as ``Decimal``."""
    return int(row.get(key) or 0)


def player_figures(member_id: int, chosen: Selection) -> PlayerFigures:
    """The member's figures over ``chosen`` (counted games only). Four queries."""
    seats = counted_seats(chosen).filter(member_id=member_id)
    # Aggregates are named apart from the columns (``figure_*``): one named as a column
    # would shadow it in the aggregates after it.
    game = seats.aggregate(
        **{f"figure_{key}": value for key, value in game_aggregates(chosen.players).items()}
    )
    g = {key.removeprefix("figure_"): number(game, key) for key in game}
    facts = HandSeat.objects.filter(member_id=member_id, hanchan_id__in=seats.values("hanchan_id"))
    counted = {f"figure_{key}": value for key, value in (HAND_COUNTS | HAND_EXTRAS).items()}
    hand = facts.aggregate(**counted)
    h = {key.removeprefix("figure_"): number(hand, key) for key in hand}
    yakuman = (
        counted_yaku()
        .filter(member_id=member_id, yakuman=True, hanchan_id__in=seats.values("hanchan_id"))
        .values("hand_id")
        .distinct()
        .count()
    )
    dealt = facts.filter(dealer=True).values_list("hanchan_id", "hand__sequence", "outcome")
    renchan = best_renchan(list(dealt.order_by("hanchan_id", "hand__sequence")))

    games, players = g["games"], chosen.players
    last = g[f"place_{players}"]
    places = [
        Figure(f"place_{p}", "game", "rate", wilson(g[f"place_{p}"], games))
        for p in range(1, players + 1)
    ]
    game_figures = [
        *places,
        Figure("top_two", "game", "rate", wilson(g["place_1"] + g["place_2"], games)),
        Figure("last_avoided", "game", "rate", wilson(games - last, games)),
        Figure(
            "average_placement", "game", "mean",
            t_mean(games, g["rank_sum"], g["rank_squares"], within=(1, players)),
        ),
        Figure("points_per_game", "game", "mean", t_mean(games, g["points"], g["points_squares"])),
        Figure("final_score", "game", "mean", t_mean(games, g["score"], g["score_squares"])),
        Figure("bust", "game", "rate", wilson(g["busted"], games)),
    ]  # fmt: skip
    hands, wins, riichi = h["hands"], h["wins"], h["riichi"]
    hand_figures = [
        Figure("win", "hand", "rate", wilson(wins, hands)),
        Figure("tsumo_share", "hand", "rate", wilson(h["tsumo_wins"], wins)),
        Figure("deal_in", "hand", "rate", wilson(h["deal_ins"], hands)),
        Figure("riichi", "hand", "rate", wilson(riichi, hands)),
        Figure("riichi_win", "hand", "rate", wilson(h["riichi_wins"], riichi)),
        Figure("riichi_deal_in", "hand", "rate", wilson(h["riichi_deal_ins"], riichi)),
        Figure("dealer_win", "hand", "rate", wilson(h["dealer_wins"], h["dealer_hands"])),
        Figure(
            "non_dealer_win", "hand", "rate",
            wilson(wins - h["dealer_wins"], hands - h["dealer_hands"]),
        ),
        Figure(
            "win_value", "hand", "mean",
            t_mean(
                wins, h["win_value"], h["win_value_squares"], within=(chosen.least_win, None)
            ),
        ),
        Figure(
            "deal_in_value", "hand", "mean",
            t_mean(
                h["deal_ins"],
                h["deal_in_value"],
                h["deal_in_value_squares"],
                within=(chosen.least_ron, None),
            ),
        ),
        Figure("hand_balance", "hand", "mean", t_mean(hands, h["balance"], h["balance_squares"])),
        Figure("draw", "hand", "rate", wilson(h["draws"], hands)),
        Figure("tenpai_at_draw", "hand", "rate", wilson(h["draws_tenpai"], h["draws"])),
        Figure("chombo", "hand", "rate", wilson(h["chombo"], h["seated"])),
        Figure("yakuman", "hand", "rate", wilson(yakuman, wins)),
        Figure("best_renchan", "hand", "best", count_only(renchan, h["dealer_hands"])),
    ]  # fmt: skip
    return PlayerFigures(
        players=players,
        games=games,
        hand_games=g["hand_games"],
        hands=hands,
        figures=(*game_figures, *hand_figures),
    )


def best_renchan(dealt: list[tuple[int, int, str]]) -> int:
    """The most hands in a row the member kept the deal for (a run of ``n`` hands dealt in a
    row in one game is ``n - 1`` renchan), from their dealer hands ``(game, hand number,
    outcome)`` in order. A chombo hand is replayed by the same dealer: it neither counts nor
    breaks the run (rules-spec §1F; M-09, a chombo does not break a paarenchan count). An
    abortive draw is a hand dealt, as in ``dealer_hands``."""
    best = 0
    run = 0
    previous: tuple[int, int] | None = None
    for game, sequence, outcome in dealt:
        if previous != (game, sequence - 1):
            run = 0
        previous = (game, sequence)
        if outcome != "chombo":
            run += 1
            best = max(best, run - 1)
    return best
