"""The hand form's taps are written without a template per input: the
``input_tag`` filter must give exactly what Django's widget templates give, for every choice
of every radio and checkbox field, in every state the table screen shows."""

from __future__ import annotations

import datetime

import pytest
from django.forms.widgets import CheckboxSelectMultiple, RadioSelect
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import translation

from scoring.entry.value_pad import win_pads
from scoring.ledger import hanchan_start
from scoring.templatetags.choice_inputs import input_tag, limit_label
from scoring.templatetags.value_grids import GRID_TEMPLATE, value_grid
from scoring.views.hand_forms import new_hand_form
from tests.conftest import make_member

FORMS = [
    {},
    {"result": "ron"},
    {"result": "ron", "loser": "2", "winners": ["0", "3"], "riichi": ["1"], "value_0": "3-30"},
    {"result": "ron", "loser": "1", "winners": ["3"], "value_3": "mangan"},
    {"result": "tsumo", "winner": "1", "value_1": "2-25"},
    {"result": "tsumo", "winner": "0", "value_0": "han-7"},
    {"result": "draw", "tenpai": ["0", "2"], "riichi": ["0", "2"]},
    {"result": "abortive"},
    {"result": "chombo"},
    {"result": "ron", "loser": "<script>", "winners": ['"x'], "value_9": "&"},
]


@pytest.mark.parametrize("data", FORMS, ids=range(len(FORMS)))
@pytest.mark.parametrize("ruleset_id", ["makura-1.5", "fuji-sanma", "home-nashinashi"])
def test_input_tag_writes_what_the_widget_template_writes(ruleset_id, data, db):
    players = 3 if ruleset_id == "fuji-sanma" else 4
    members = [make_member(f"p{i}", f"P{i}", f"ぴ{i}") for i in range(players)]
    game = hanchan_start(
        ruleset_id=ruleset_id, members=members, played_on=datetime.date(2026, 11, 22)
    )
    form = new_hand_form(game, game.ruleset(), data or None)
    if data:
        form.is_valid()  # a bound form marks the tapped choices and its errors
    compared = 0
    for field in form:
        if not hasattr(field.field.widget, "option_template_name"):
            continue
        for choice in field:
            assert input_tag(choice) == choice.tag(), (field.name, choice.data)
            compared += 1
    assert compared > 20


@pytest.mark.parametrize("data", [d for d in FORMS if d.get("result") in ("ron", "tsumo")])
def test_a_value_grid_from_the_cache_is_the_grid_the_template_renders(data, db):
    """A grid is kept by everything it shows; what comes back from the
    cache is what the template renders, in the active language, with the tapped cell checked."""
    members = [make_member(f"p{i}", f"P{i}", f"ぴ{i}") for i in range(4)]
    game = hanchan_start(
        ruleset_id="makura-1.5", members=members, played_on=datetime.date(2026, 11, 22)
    )
    for language in ("ja", "en"):
        with translation.override(language):
            form = new_hand_form(game, game.ruleset(), data)
            form.is_valid()
            for pad in win_pads(form):
                for rows in (pad.common_grid, pad.more_grid):
                    expected = render_to_string(GRID_TEMPLATE, {"pad": pad, "rows": rows})
                    assert value_grid(pad, rows) == expected
                    assert value_grid(pad, rows) == expected  # the second from the cache
                    tapped = data.get(f"value_{pad.seat}", "")
                    if tapped and any(
                        cell and cell.widget.data["value"] == tapped
                        for row in rows
                        for cell in row.cells
                    ):
                        assert f'value="{tapped}" id="' in expected and " checked" in expected
                    assert ("3飜" in expected) == (language == "ja") or not rows


def test_a_long_limit_may_break_before_its_man() -> None:
    """The five limits in one row of a phone in English; Japanese names and the
    short ones as they are."""
    assert [limit_label(name) for name in ("Mangan", "Haneman", "Baiman")] == [
        "Mangan",
        "Hane\u00adman",
        "Baiman",
    ]
    assert limit_label("Sanbaiman") == "San" + "bai\u00adman"
    assert limit_label("Yakuman") == "Yaku\u00adman"
    assert limit_label("三倍満") == "三倍満"


@pytest.mark.parametrize("data", FORMS, ids=range(len(FORMS)))
@pytest.mark.parametrize("ruleset_id", ["makura-1.5", "fuji-sanma", "home-nashinashi"])
def test_a_tap_row_is_the_loop_of_its_choices(ruleset_id, data, db):
    """``{% tap_row field "tap" %}`` writes exactly what the loop over the field's choices
    wrote, for every radio and checkbox field, tapped or not, in both languages."""
    players = 3 if ruleset_id == "fuji-sanma" else 4
    members = [make_member(f"p{i}", f"P<{i}>", f"ぴ{i}") for i in range(players)]
    game = hanchan_start(
        ruleset_id=ruleset_id, members=members, played_on=datetime.date(2026, 11, 22)
    )
    loop = Template(
        '{% load choice_inputs %}{% for choice in field %}<label class="{{ css }}">'
        "{{ choice|input_tag }}<span>{{ choice.choice_label }}</span></label>{% endfor %}"
    )
    row = Template("{% load choice_inputs %}{% tap_row field css %}")
    compared = 0
    for language in ("ja", "en"):
        with translation.override(language):
            form = new_hand_form(game, game.ruleset(), data or None)
            if data:
                form.is_valid()
            for field in form:
                if not isinstance(field.field.widget, RadioSelect | CheckboxSelectMultiple):
                    continue
                for css in ("tap", "tap toggle"):
                    context = Context({"field": field, "css": css})
                    assert row.render(context) == loop.render(context), field.name
                    compared += 1
    assert compared > 20
