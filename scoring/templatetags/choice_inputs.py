"""The hand form's taps without a template per input.

Every outcome, seat and value of the table screen is a radio or checkbox; rendering each
through Django's widget templates was a third of a preview's time. ``{{ choice|input_tag }}``
writes the same ``<input>`` as ``{{ choice.tag }}`` (Django's ``input.html`` and
``attrs.html``; a test compares the two on every tap of the form) in one ``format_html``.
"""

from __future__ import annotations

import re

from django import template
from django.forms.boundfield import BoundField, BoundWidget
from django.forms.widgets import CheckboxSelectMultiple, RadioSelect
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


def _attributes(attrs: dict[str, object]) -> str:
    """`` name="value"`` each (escaped), as Django's ``attrs.html``: True a bare name, False
    left out."""
    return "".join(
        f" {conditional_escape(name)}"
        if value is True
        else f' {conditional_escape(name)}="{conditional_escape(str(value))}"'
        for name, value in attrs.items()
        if value is not False
    )


@register.filter
def input_tag(choice: BoundWidget) -> SafeString:
    """``<input type=… name=… value=… attrs…>`` for one choice of a radio or checkbox field,
    as ``choice.tag()`` renders it; another widget template goes through ``choice.tag()``."""
    data = choice.data
    if choice.template_name not in _INPUT_OPTIONS:
        return choice.tag()
    attrs = _attributes(data["attrs"])
    value = "" if data["value"] is None else format_html(' value="{}"', str(data["value"]))
    return format_html(
        '<input type="{}" name="{}"{}{}>', data["type"], data["name"], value, mark_safe(attrs)
    )


# A limit's romanized name ends in -man (満): "Sanbaiman", "Haneman", "Yakuman".
_MAN_ENDING = re.compile(r"(?<=[A-Za-z]{4})man\b")


@register.filter
def limit_label(label: object) -> str:
    """A limit's name that may break before its -man (so that five limits fit one row
    of a 390 px phone in English): "Sanbai\u00adman"; "Mangan", "Baiman" and Japanese unchanged.
    Returns plain text (escaped by the template)."""
    return _MAN_ENDING.sub("\u00adman", str(label))


@register.simple_tag
def tap_row(field: BoundField, label_class: str = "tap") -> SafeString:
    """Every choice of a radio or checkbox field as a tap button:
    ``<label class="{label_class}"><input …><span>{label}</span></label>`` each, exactly as
    ``{% for choice in field %}<label class=…>{{ choice|input_tag }}<span>{{ choice.choice_label
    }}</span></label>{% endfor %}`` writes them (a test compares the two on every field of the
    hand form), without building a widget per choice: a tap of the table screen draws a dozen
    such rows."""
    widget = field.field.widget
    if not isinstance(widget, RadioSelect | CheckboxSelectMultiple):
        raise TypeError(f"{field.name}: tap_row takes radio or checkbox fields")
    checked = set(widget.format_value(field.value()))
    id_ = widget.attrs.get("id") or field.auto_id
    # The attributes Django gives every option (required, aria-invalid on an error, ...), in
    # its order: the widget's, the field's, then checked; the id numbered per option. They
    # are the same on every option but the id and checked: written once, either side of it.
    base = {**widget.attrs, **field.build_widget_attrs({"id": id_} if id_ else {})}
    option_id = base.get("id")
    names = list(base)
    at = names.index("id") if option_id else len(names)
    before = _attributes({name: base[name] for name in names[:at]})
    after = _attributes({name: base[name] for name in names[at + 1 :]})
    numbered = bool(option_id) and widget.add_id_index
    plain_id = "" if not option_id else _attributes({"id": option_id})
    name = conditional_escape(field.html_name)
    css = conditional_escape(label_class)
    start = f'<label class="{css}"><input type="{widget.input_type}" name="{name}" value="'
    parts = []
    one_checked = False
    for index, (value, label) in enumerate(field.field.choices):  # type: ignore[attr-defined]
        text = "" if value is None else str(value)
        # A radio group checks its first match only, as Django's optgroups does.
        tick = ""
        if text in checked and (widget.allow_multiple_selected or not one_checked):
            tick = " checked"
            one_checked = True
        ident = _attributes({"id": f"{option_id}_{index}"}) if numbered else plain_id
        parts.append(
            f'{start}{conditional_escape(text)}"{before}{ident}{after}{tick}><span>'
            f"{conditional_escape(label)}</span></label>"
        )
    return mark_safe("".join(parts))  # every part escaped above
