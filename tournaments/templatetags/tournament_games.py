"""The tournament's word on a game's own page: a table's game links back to
its event and to "my table", under a name built for the reader (the event, the round and the
table from the :class:`~tournaments.models.Table` row, in the reader's language, never a
name stored in the language of whoever started the round), and in a time-limited round the
table's clock (:mod:`tournaments.clock_views`). Loaded by the table screen's
template, so that scoring's code knows nothing of tournaments."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.models import Hanchan
from tournaments.clock_display import table_clock_context
from tournaments.models import Table

register = template.Library()


@register.inclusion_tag("tournaments/_game_links.html")
def tournament_links(hanchan: Hanchan) -> dict[str, Any]:
    """The game's event, round and table with the links and the table's clock, or nothing for
    a game that is no tournament's (one query either way)."""
    table = (
        Table.objects.select_related("round__event", "round__phase")
        .filter(hanchan_id=hanchan.pk)
        .first()
    )
    if table is None:
        return {"event_table": None}
    table.hanchan = hanchan  # the page's game: its state as the page shows it, no query
    return {"event_table": table, **table_clock_context(table)}
