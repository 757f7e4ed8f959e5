"""All-last conditions: for the hand in play, what each seat needs to climb to each better place.

For every seat and every place better than its current one, the smallest value of the value
pad with which that seat, winning the next hand alone, stands at that place or better right
after the hand's payments: by ron from each other seat (a direct hit: the discarder's score
falls as the winner's rises) and by tsumo. The hand is played through :class:`Game` itself, on
a copy restored from the table's snapshot, so honba, deposits, 3-player tsumo payments, limits,
kiriage and the ruleset's refusals (a fu it forbids, two han from some honba) are the engine's
own: nothing here restates a payment rule. No riichi is declared in that hand.

Places are :func:`~scoring.engine.settlement.rank_order`'s: 1 = top, equal scores ordered by
the ruleset's ``tie_break`` (seat order from the first dealer under ``"seat_order"``).

"Smallest" (docs/all-last.md): among the values the pad offers for that win (the ruleset's
check of a ron's or a tsumo's fu applied), those that reach the place and pay the winner least;
no value paying strictly less reaches it. Several values may pay the same (3 han 70 fu, 4 han
40 fu, 5 han and "mangan" are all a mangan; 1 han 50 fu and 2 han 25 fu both pay 1,600): the
limit's name when one of them is a limit, else the lowest han, then the lowest fu.

The pad's values are the caller's (:func:`scoring.entry.pad_values.value_choices` draws them),
written as the pad sends them: ``"3-30"`` (han-fu), ``"6"`` (counted han) or a limit's name
(``"mangan"`` ... ``"yakuman"``, a single yakuman).

Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import RecordError
from .game import Game
from .hand_value import check_win, win_basic_points
from .hands import Hand, Win
from .limits import LIMITS
from .ruleset import Ruleset
from .settlement import rank_order


@dataclass(frozen=True, slots=True)
class PadWin:
    """One value of the pad as a win's value: ``text`` as the pad sends it ("3-30", "6",
    "mangan"), the record's ``han``/``fu`` or ``limit`` (``None`` where it has none)."""

    text: str
    han: int | None
    fu: int | None
    limit: str | None

    def win(self, winner: int) -> Win:
        """The engine's :class:`Win` of ``winner`` with this value (a yakuman is single)."""
        return Win(winner=winner, han=self.han, fu=self.fu, limit=self.limit)

    def tie_key(self) -> tuple[int, int, int]:
        """Among values that pay the same: a limit's name first, then the lowest han, then the
        lowest fu (a counted han without fu before any fu)."""
        if self.limit is not None:
            return (0, 0, 0)
        return (1, self.han or 0, self.fu or 0)


def pad_win(text: str) -> PadWin:
    """Read one pad value: ``"3-30"`` -> 3 han 30 fu, ``"6"`` -> 6 han, ``"mangan"`` -> the limit.

    Raises:
        ValueError: ``text`` is none of these.
    """
    if text in LIMITS:
        return PadWin(text, None, None, text)
    han_text, dash, fu_text = text.partition("-")
    if not han_text.isdigit() or (dash and not fu_text.isdigit()):
        raise ValueError(f"not a value of the pad: {text!r}")
    return PadWin(text, int(han_text), int(fu_text) if dash else None, None)


@dataclass(frozen=True, slots=True)
class Target:
    """What a seat needs for one better ``place``: ``ron`` maps each other seat (the
    discarder) to the smallest pad value, ``tsumo`` the smallest by tsumo; ``None``: out of
    reach."""

    place: int
    ron: tuple[tuple[int, str | None], ...]
    tsumo: str | None

    def to_json(self) -> dict[str, Any]:
        """``{"place", "ron": [{"from", "value"}, ...], "tsumo"}`` (docs/all-last.md)."""
        return {
            "place": self.place,
            "ron": [{"from": seat, "value": value} for seat, value in self.ron],
            "tsumo": self.tsumo,
        }


@dataclass(frozen=True, slots=True)
class AllLast:
    """The conditions of one table: the state before the hand in play (``round`` label,
    ``honba``, ``deposits`` in points, ``dealer`` seat, ``scores``), each seat's current
    ``places`` (1 = top) and, per seat, its :class:`Target` for every better place, the next
    better first (an empty tuple for the seat on top)."""

    round: str
    honba: int
    deposits: int
    dealer: int
    scores: tuple[int, ...]
    places: tuple[int, ...]
    targets: tuple[tuple[Target, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """The output of ``manage.py all_last`` (docs/all-last.md)."""
        return {
            "round": self.round,
            "honba": self.honba,
            "deposits": self.deposits,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "places": list(self.places),
            "seats": [
                {
                    "seat": seat,
                    "place": self.places[seat],
                    "to_reach": [target.to_json() for target in targets],
                }
                for seat, targets in enumerate(self.targets)
            ],
        }


def places_of(rs: Ruleset, scores: Sequence[int]) -> list[int]:
    """Each seat's place for ``scores`` (1 = top), equal scores by the ruleset's tie rule."""
    places = [0] * len(scores)
    for position, seat in enumerate(rank_order(rs, scores)):
        places[seat] = position + 1
    return places


def all_last_conditions(game: Game, values: Iterable[str]) -> AllLast:
    """The all-last conditions of the hand ``game`` is about to play.

    Args:
        game: a game in play (``ended_by`` is ``None``); it is not changed.
        values: the pad's values in the pad's order ("3-30", "6", "mangan", ...).

    Returns:
        An :class:`AllLast`.

    Raises:
        RecordError: ``game_over`` when the game has ended (no hand is in play).
        ValueError: a value the pad cannot send.
    """
    if game.ended_by is not None:
        raise RecordError(
            game.hands_played,
            "result",
            f"the game already ended ({game.ended_by}): no hand is in play",
            code="game_over",
            params={"ended_by": game.ended_by},
        )
    pad = [pad_win(text) for text in values]
    state = game.state()
    snapshot = game.snapshot()
    rs = game.ruleset
    n = rs.players
    places = places_of(rs, state.scores)
    ladders = {tsumo: _ladder(game, pad, tsumo) for tsumo in (False, True)}
    targets: list[tuple[Target, ...]] = []
    for seat in range(n):
        wanted = range(places[seat] - 1, 0, -1)
        if not wanted:
            targets.append(())
            continue
        others = [other for other in range(n) if other != seat]
        ron = {
            other: _smallest(
                game,
                snapshot,
                ladders[False],
                seat,
                wanted,
                lambda win, other=other: Hand("ron", (win,), loser=other),
            )
            for other in others
        }
        tsumo = _smallest(
            game, snapshot, ladders[True], seat, wanted, lambda win: Hand("tsumo", (win,))
        )
        targets.append(
            tuple(
                Target(
                    place=place,
                    ron=tuple((other, ron[other][place]) for other in others),
                    tsumo=tsumo[place],
                )
                for place in wanted
            )
        )
    return AllLast(
        round=state.round,
        honba=state.honba,
        deposits=state.deposits,
        dealer=state.dealer,
        scores=state.scores,
        places=tuple(places),
        targets=tuple(targets),
    )


def _ladder(game: Game, pad: Sequence[PadWin], tsumo: bool) -> list[list[PadWin]]:
    """The pad's values the ruleset allows for a ron (or a tsumo) at this honba, in groups
    of equal basic points, the smallest first. A win's payments grow with its basic points
    (the payment grid is monotone), so a search over the groups finds the least that reaches."""
    rs = game.ruleset
    groups: dict[int, list[PadWin]] = {}
    for value in pad:
        win = value.win(0)
        try:
            check_win(rs, win, 0, tsumo=tsumo, honba=game.honba)
        except RecordError:
            continue
        groups.setdefault(win_basic_points(rs, win), []).append(value)
    return [groups[b] for b in sorted(groups)]


def _smallest(
    game: Game,
    snapshot: dict[str, Any],
    ladder: list[list[PadWin]],
    seat: int,
    wanted: Iterable[int],
    hand_of: Any,
) -> dict[int, str | None]:
    """For each place in ``wanted``: the smallest value of ``ladder`` with which ``seat``
    winning ``hand_of(win)`` stands at that place or better after the hand, else ``None``.

    One play of the hand per group tried: a binary search over the groups (the place reached
    only gets better as the value grows), then the groups above that pay the same."""
    rs = game.ruleset
    outcomes: dict[int, tuple[int, int]] = {}  # group index -> (winner's gain, place)

    def outcome(index: int) -> tuple[int, int]:
        if index not in outcomes:
            trial = Game.restore(rs, snapshot)
            result = trial.play(hand_of(ladder[index][0].win(seat)))
            place = rank_order(rs, result.scores).index(seat) + 1
            outcomes[index] = (result.deltas[seat], place)
        return outcomes[index]

    found: dict[int, str | None] = {}
    for place in wanted:
        low, high = 0, len(ladder)
        while low < high:
            middle = (low + high) // 2
            if outcome(middle)[1] <= place:
                high = middle
            else:
                low = middle + 1
        if low == len(ladder):
            found[place] = None
            continue
        gain = outcome(low)[0]
        tied = list(ladder[low])
        above = low + 1
        while above < len(ladder) and outcome(above)[0] == gain:
            tied += ladder[above]
            above += 1
        found[place] = min(tied, key=PadWin.tie_key).text
    return found
