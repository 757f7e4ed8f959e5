"""The charts of one game, drawn by :func:`scoring.views.charts.value_chart`: the scores hand
by hand with each seat's riichi, wins and deal-ins marked on its line, and each seat's chance
of first place hand by hand.

Both are pure: they take what the hand rows hold (``HandEntry.data`` and ``.result``) or the
nested list of chances, and return a :class:`~scoring.views.charts.LineChart` whose text
alternative lists every value and every mark.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from clubsite.formatting import format_points
from scoring.views.charts import (
    MARK_DEAL_IN,
    MARK_KINDS,
    MARK_RIICHI,
    MARK_WIN,
    LineChart,
    value_chart,
)
from scoring.views.display import rank_label


def mark_labels() -> dict[str, str]:
    """The words of each kind of mark, for the legend and the text alternative."""
    return {MARK_RIICHI: _("riichi"), MARK_WIN: _("win"), MARK_DEAL_IN: _("deal-in")}


def hand_marks(data: Mapping[str, Any]) -> list[tuple[int, str]]:
    """``(seat, kind)`` for what each seat did in a hand (a record-format hand,
    docs/game-record-format.md): a riichi stick put out, a win (ron or tsumo; each winner of
    a multi-ron), a deal-in (the discarder of a ron). In the order of :data:`MARK_KINDS`."""
    marks = [(seat, MARK_RIICHI) for seat in sorted(data.get("riichi") or ())]
    if data.get("result") in ("ron", "tsumo"):
        marks += [(win["winner"], MARK_WIN) for win in data.get("wins") or ()]
    if data.get("result") == "ron" and data.get("loser") is not None:
        marks.append((data["loser"], MARK_DEAL_IN))
    return marks


def hand_scores_chart(
    *,
    scores_by_hand: Sequence[tuple[str, Sequence[int]]],
    names: Sequence[str],
    start: int,
    marks_by_hand: Sequence[Sequence[tuple[int, str]]] = (),
) -> LineChart | None:
    """The seats' scores hand by hand, from ``start`` (the ruleset's starting score).

    ``scores_by_hand``: (round label, scores after that hand) in the order played, as stored
    in ``HandEntry.result["scores"]``; ``marks_by_hand``: for the same hands, ``(seat, kind)``
    as :func:`hand_marks` gives them, drawn on the seat's line at that hand and listed in the
    text alternative. ``None`` before the first hand.
    """
    if not scores_by_hand:
        return None
    seats = range(len(names))
    series = [
        (names[seat], [start, *(scores[seat] for _round, scores in scores_by_hand)])
        for seat in seats
    ]
    # Point 0 is the start: hand i is point i.
    per_seat: list[list[tuple[int, str]]] = [[] for _seat in seats]
    for number, hand in enumerate(marks_by_hand, start=1):
        for seat, kind in hand:
            per_seat[seat].append((number, kind))
    words = mark_labels()
    counts = {kind: sum(kind == k for line in per_seat for _n, k in line) for kind in MARK_KINDS}

    def cell(number: int, seat: int, score: int) -> str:
        done = [words[kind] for at, kind in per_seat[seat] if at == number]
        return f"{format_points(score)} ({', '.join(done)})" if done else format_points(score)

    last = scores_by_hand[-1][1]
    description = _(
        "Each player's score from the start (%(start)s) through %(n)d hands: %(now)s."
    ) % {
        "start": format_points(start),
        "n": len(scores_by_hand),
        "now": ", ".join(f"{names[s]} {format_points(last[s])}" for s in seats),
    }
    if marks_by_hand:
        description += " " + _(
            "Marked on the lines: %(riichi)d riichi, %(wins)d wins, %(deal_ins)d deal-ins."
        ) % {
            "riichi": counts[MARK_RIICHI],
            "wins": counts[MARK_WIN],
            "deal_ins": counts[MARK_DEAL_IN],
        }
    return value_chart(
        chart_id="scores-chart",
        title=_("Scores hand by hand"),
        description=description,
        series=series,
        x_labels=[_("Start"), *(label for label, _scores in scores_by_hand)],
        table_head=[_("Hand"), *names],
        table_rows=[
            [_("Start"), *(format_points(start) for _seat in seats)],
            *(
                [label, *(cell(number, seat, score) for seat, score in enumerate(scores))]
                for number, (label, scores) in enumerate(scores_by_hand, start=1)
            ),
        ],
        include_zero=False,
        legend=True,
        marks=per_seat if marks_by_hand else (),
        mark_keys=[(kind, words[kind]) for kind in MARK_KINDS] if marks_by_hand else (),
        dots=not marks_by_hand,
    )


def percent(chance: float) -> int:
    """A probability (0-1) as a whole percent, halves up."""
    return int(chance * 100 + 0.5)


def chances_chart(
    *,
    chances: Sequence[Sequence[Sequence[float]]],
    names: Sequence[str],
    hand_labels: Sequence[str],
) -> LineChart | None:
    """Each seat's chance of first place hand by hand, in percent (0-100).

    ``chances[k][seat][place - 1]``: the probability (0-1) of each final place, before the
    first hand (``k = 0``) and after hand ``k`` (as
    ``scoring.placement_chances.game_chances`` gives them); ``hand_labels``: the round label
    of each hand (``k = 1...``). The text alternative lists every place's chance. ``None``
    before the first hand.
    """
    if len(chances) < 2:
        return None
    seats = range(len(names))
    places = range(len(chances[0][0]))
    series = [(names[seat], [percent(k[seat][0]) for k in chances]) for seat in seats]
    labels = [_("Start"), *hand_labels[: len(chances) - 1]]

    def cell(by_place: Sequence[float]) -> str:
        return ", ".join(f"{rank_label(place + 1)} {percent(by_place[place])}%" for place in places)

    return value_chart(
        chart_id="chances-chart",
        title=_("Chance of first place hand by hand"),
        description=_(
            "Each player's chance of finishing first, before the first hand and after each "
            "of %(n)d hands: now %(now)s."
        )
        % {
            "n": len(chances) - 1,
            "now": ", ".join(f"{names[s]} {series[s][1][-1]}%" for s in seats),
        },
        series=series,
        x_labels=labels,
        label_value=lambda value: f"{value}%",
        table_head=[_("Hand"), *names],
        table_rows=[
            [label, *(cell(k[seat]) for seat in seats)]
            for label, k in zip(labels, chances, strict=False)
        ],
        ticks_at=[0, 25, 50, 75, 100],
        legend=True,
        dots=False,
    )


def comeback_chart(
    *,
    chances: Sequence[Sequence[Sequence[float]]],
    seat: int,
    place: int,
    target: str,
    hand_labels: Sequence[str],
    marks_by_hand: Sequence[Sequence[tuple[int, str]]],
) -> LineChart | None:
    """One seat's chance of finishing at ``place`` or better (``target`` names it: "1st",
    "2nd or better") hand by hand, in percent, with the seat's own riichi, wins and deal-ins
    marked (``marks_by_hand`` as :func:`hand_marks` gives them, for every seat). ``chances``
    as in :func:`chances_chart`; ``None`` before the first hand."""
    if len(chances) < 2:
        return None
    line = [percent(sum(k[seat][:place])) for k in chances]
    labels = [_("Start"), *hand_labels[: len(chances) - 1]]
    marks = [
        (number, kind)
        for number, hand in enumerate(marks_by_hand, start=1)
        for who, kind in hand
        if who == seat
    ]
    words = mark_labels()
    low = min(line[:-1])
    return value_chart(
        chart_id="comeback-chart",
        title=_("Chance of %(target)s hand by hand") % {"target": target},
        description=_(
            "From %(start)d%% before the first hand, down to %(low)d%%, to %(end)d%% at the end."
        )
        % {"start": line[0], "low": low, "end": line[-1]},
        series=[(_("Chance of %(target)s") % {"target": target}, line)],
        x_labels=labels,
        label_value=lambda value: f"{value}%",
        table_head=[_("Hand"), _("Chance"), _("Marks")],
        table_rows=[
            [
                label,
                f"{value}%",
                ", ".join(words[kind] for at, kind in marks if at == number),
            ]
            for number, (label, value) in enumerate(zip(labels, line, strict=True))
        ],
        ticks_at=[0, 25, 50, 75, 100],
        legend=True,
        marks=[marks],
        mark_keys=[(kind, words[kind]) for kind in MARK_KINDS],
        dots=False,
    )
