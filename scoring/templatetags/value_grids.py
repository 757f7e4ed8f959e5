"""The han x fu grid of a value pad, rendered once per look.

A ron's or tsumo's every tap redraws the value pad, and its grid was most of a preview's
time. What a grid shows depends only on its cells (each radio's name, value and attributes,
its payment lines, what it reads out, whether it is capped), its column and row labels and the
language; for the same table and seat that is the same from tap to tap but for the one
checked cell. ``{% value_grid pad rows %}`` keeps the rendered HTML under exactly that key,
so a repeated look costs a dictionary lookup.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from scoring.entry.value_pad import GridRow, ValueTap

register = template.Library()

GRID_TEMPLATE = "scoring/_value_grid.html"
# A grid is about 10 KB of HTML: this many keep a few MB per server process at most.
CACHE_SIZE = 256
_rendered: OrderedDict[Hashable, str] = OrderedDict()


def _cell_key(cell: ValueTap | None) -> Hashable:
    if cell is None:
        return None
    data = cell.widget.data
    attrs = tuple((name, str(value)) for name, value in data["attrs"].items())
    return (
        data["name"],
        str(data["value"]),
        attrs,
        tuple(str(line) for line in cell.lines),
        str(cell.spoken),
        cell.capped,
    )


def grid_key(columns: Sequence[Any], rows: Sequence[GridRow]) -> Hashable:
    """Everything ``_value_grid.html`` shows of ``rows``, in the active language."""
    return (
        get_language(),
        tuple(str(column) for column in columns),
        tuple((str(row.fu), tuple(_cell_key(cell) for cell in row.cells)) for row in rows),
    )


@register.simple_tag
def value_grid(pad: Any, rows: Sequence[GridRow]) -> SafeString:
    """The grid of ``rows`` (``pad.common_grid`` or ``pad.more_grid``) as HTML."""
    key = grid_key(pad.grid_columns, rows)
    html = _rendered.get(key)
    if html is None:
        html = render_to_string(GRID_TEMPLATE, {"pad": pad, "rows": rows})
        _rendered[key] = html
        if len(_rendered) > CACHE_SIZE:
            _rendered.popitem(last=False)
    else:
        _rendered.move_to_end(key)
    return mark_safe(html)  # rendered by the template engine, escaped there
