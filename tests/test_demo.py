"""``manage.py load_demo``: the demo club that ``make run`` loads."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from clubsite.models import Member
from scoring.models import Hanchan


@pytest.mark.django_db
def test_it_loads_a_demo_club_once():
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert "Log in as aoki / mahjong-demo" in out.getvalue()
    assert Member.objects.count() == 12
    assert authenticate(username="aoki", password="mahjong-demo").is_staff
    statuses = sorted(Hanchan.objects.values_list("status", flat=True))
    assert statuses == ["finished"] * 6 + ["in_play"]
    rulesets = set(Hanchan.objects.values_list("ruleset_version__ruleset_id", flat=True))
    assert rulesets == {"makura-1.3", "makura-1.5", "home-nashinashi", "fuji-sanma", "sanma-float"}
    for game in Hanchan.objects.finished():
        assert all(seat.points is not None for seat in game.seats.all())
    again = io.StringIO()
    call_command("load_demo", stdout=again)
    assert "no demo data loaded" in again.getvalue()
    assert Hanchan.objects.count() == 7
