"""The hand form's taps without a template per input (issue 10 item 8).

Every outcome, seat and value of the table screen is a radio or checkbox; rendering each
through Django's widget templates was a third of a preview's time. ``{{ choice|input_tag }}``
writes the same ``<input>`` as ``{{ choice.tag }}`` (Django's ``input.html`` and
``attrs.html``; a test compares the two on every tap of the form) in one ``format_html``.
"""

from __future__ import annotations

import re

from django import template
from django.forms.boundfield import BoundWidget
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# The option templates that render a bare <input> when the label is not wrapped around it.
_INPUT_OPTIONS = frozenset(
    {
        "django/forms/widgets/radio_option.html",
        "django/forms/widgets/checkbox_option.html",
        "django/forms/widgets/input_option.html",
    }
)


@register.filter
def input_tag(choice: BoundWidget) -> SafeString:
    """``<input type=… name=… value=… attrs…>`` for one choice of a radio or checkbox field,
    as ``choice.tag()`` renders it; another widget template goes through ``choice.tag()``."""
    data = choice.data
    if choice.template_name not in _INPUT_OPTIONS:
        return choice.tag()
    attrs = "".join(
        f" {conditional_escape(name)}"
        if value is True
        else f' {conditional_escape(name)}="{conditional_escape(str(value))}"'
        for name, value in data["attrs"].items()
        if value is not False
    )
    value = "" if data["value"] is None else format_html(' value="{}"', str(data["value"]))
    return format_html(
        '<input type="{}" name="{}"{}{}>', data["type"], data["name"], value, mark_safe(attrs)
    )


# A limit's romanized name ends in -man (満): "Sanbaiman", "Haneman", "Yakuman".
_MAN_ENDING = re.compile(r"(?<=[A-Za-z]{4})man\b")


@register.filter
def limit_label(label: object) -> str:
    """A limit's name that may break before its -man (issue 25: five limits in one row of a
    390 px phone in English): "Sanbai\u00adman"; "Mangan", "Baiman" and Japanese unchanged.
    Returns plain text (escaped by the template)."""
    return _MAN_ENDING.sub("\u00adman", str(label))
