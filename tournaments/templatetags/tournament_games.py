"""The tournament's word on a game's own page (issue 21 item 6): a table's game links back to
its event and to "my table", under a name built for the reader (the event, the round and the
table from the :class:`~tournaments.models.Table` row, in the reader's language, never a
name stored in the language of whoever started the round). Loaded by the table screen's
template, so that scoring's code knows nothing of tournaments."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.models import Hanchan
from tournaments.models import Table

register = template.Library()


@register.inclusion_tag("tournaments/_game_links.html")
def tournament_links(hanchan: Hanchan) -> dict[str, Any]:
    """The game's event, round and table with the links, or nothing for a game that is no
    tournament's (one query either way)."""
    table = Table.objects.select_related("round__event").filter(hanchan_id=hanchan.pk).first()
    return {"event_table": table}
