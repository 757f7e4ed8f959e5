"""What the clock's fragments show: a table's clock on the table screen and
the round's on the event page and the live board, as template contexts. Reading a clock whose
time has just run out calls time there (:func:`tournaments.clock.call_due`)."""

from __future__ import annotations

from tournaments import clock
from tournaments.models import Round, Table

TABLE_POLL_SECONDS = 10
"""How often a phone at a table asks for its clock: at most once per 10 s per phone."""

ROUND_POLL_SECONDS = 15
"""How often the event page asks for the round's clock."""

# The fields a table's clock reads: one query, no game state (which grows with the game).
TABLE_CLOCK_FIELDS = (
    "id",
    "number",
    "extra_minutes",
    "round__id",
    "round__number",
    "round__event_id",
    "round__started_at",
    "round__ends_at",
    "round__phase__id",
    "round__phase__time_limited",
    "hanchan__id",
    "hanchan__status",
    "hanchan__time_called",
)


def table_clock_context(table: Table, *, seen: str = "") -> dict[str, object]:
    """What ``tournaments/_table_clock.html`` shows of ``table``: its clock, whether to keep
    polling (a time-limited round's game in play), and ``refresh_entry`` when time came up,
    or was taken back by extra time, since the phone last ``seen`` the clock (its hand form
    must be drawn again, with or without the time-up note, before the next tap)."""
    rnd = table.round
    table_clock = clock.clock_of(rnd, table, table.hanchan)
    limited = rnd.phase.time_limited
    return {
        "table": table,
        "clock": table_clock,
        "timed": limited,
        "poll": limited and table_clock.in_play,
        "poll_seconds": TABLE_POLL_SECONDS,
        "refresh_entry": (
            bool(seen)
            and table_clock.in_play
            and table_clock.state != seen
            and "time_up" in (seen, table_clock.state)
        ),
    }


def round_clock_context(rnd: Round) -> dict[str, object]:
    """The round's clock and, per table still playing, its own (extra time, time called),
    after calling time wherever it is due. Two queries (the tables with their games), and
    one write per table whose time has just run out."""
    tables = list(
        rnd.tables.select_related("hanchan").only(
            "id",
            "number",
            "extra_minutes",
            "round_id",
            "hanchan__id",
            "hanchan__status",
            "hanchan__time_called",
        )
    )
    if rnd.phase.time_limited:
        clock.call_due((rnd, table, table.hanchan) for table in tables)
    clocks = [(table, clock.clock_of(rnd, table, table.hanchan)) for table in tables]
    playing = [(table, c) for table, c in clocks if c.in_play]
    return {
        "rnd": rnd,
        "clock": clock.round_clock(rnd),
        "playing": len(playing),
        "called": sum(1 for _, c in playing if c.time_up),
        "extra": [(table, c) for table, c in playing if c.extra_minutes],
        "poll": bool(playing) and rnd.phase.time_limited,
        "poll_seconds": ROUND_POLL_SECONDS,
    }
