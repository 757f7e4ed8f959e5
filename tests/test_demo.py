"""``manage.py load_demo``: the demo club that ``make run`` loads."""

from __future__ import annotations

import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from clubsite.models import Member
from meetings.models import Meetup, Notice, State
from scoring.models import Hanchan


@pytest.mark.django_db
def test_it_loads_a_demo_club_once():
    out = io.StringIO()
    call_command("load_demo", "--force", stdout=out)
    assert "Log in as aoki / mahjong-demo" in out.getvalue()
    assert Member.objects.count() == 12
    aoki = get_user_model().objects.get(username="aoki")
    assert aoki.check_password("mahjong-demo") and aoki.is_staff
    assert Member.objects.get(user=aoki).role == "steward"
    statuses = sorted(Hanchan.objects.values_list("status", flat=True))
    assert statuses == ["finished"] * 6 + ["in_play"]
    rulesets = set(Hanchan.objects.values_list("ruleset_version__ruleset_id", flat=True))
    assert rulesets == {"makura-1.3", "makura-1.5", "home-nashinashi", "fuji-sanma", "sanma-float"}
    for game in Hanchan.objects.finished():
        assert all(seat.points is not None for seat in game.seats.all())
    assert all(m.phone and m.user.email.endswith("@example.org") for m in Member.objects.all())
    again = io.StringIO()
    call_command("load_demo", "--force", stdout=again)
    assert "no demo data loaded" in again.getvalue()
    assert Hanchan.objects.count() == 7
    assert Meetup.objects.count() == 3


@pytest.mark.django_db
def test_it_loads_demo_meetups_through_the_services(mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo", "--force", "--show-emails", stdout=io.StringIO())
    meetups = {m.state: Meetup.objects.for_page().get(pk=m.pk) for m in Meetup.objects.all()}
    assert set(meetups) == {State.REPORTED, State.PROVISIONAL, State.RECRUITING}

    reported = meetups[State.REPORTED]
    assert reported.date < timezone.localdate()
    assert len(reported.lineup()) == 4
    (game,) = reported.hanchans.all()
    assert game.played_on == reported.date
    assert {seat.member for seat in game.seats.all()} == {a.member for a in reported.lineup()}

    provisional = meetups[State.PROVISIONAL]
    assert provisional.date > timezone.localdate()
    lineup = provisional.lineup()
    assert len(lineup) == 4
    assert sum(a.confirmed_at is not None for a in lineup) == 2

    open_call = meetups[State.RECRUITING]
    days = [c.date for c in open_call.candidate_dates.all()]
    assert len(days) == 2
    next_monday = timezone.localdate() + datetime.timedelta(days=7 - timezone.localdate().weekday())
    assert all(next_monday <= d < next_monday + datetime.timedelta(days=7) for d in days)
    assert open_call.applications.filter(withdrawn_at__isnull=True).count() == 3

    # Every step went through the services: each has its notice, and its e-mails went (asked
    # for with --show-emails) to the test outbox, none with a phone number.
    kinds = list(reported.notices.values_list("kind", flat=True))
    assert set(kinds) >= {Notice.Kind.POSTED, Notice.Kind.FINALIZED, Notice.Kind.REPORTED}
    assert provisional.notices.filter(kind=Notice.Kind.DECLARED).exists()
    assert mailoutbox
    phones = [m.phone for m in Member.objects.all()]
    assert not any(phone in message.body for message in mailoutbox for phone in phones)


@pytest.mark.django_db(transaction=True)
def test_it_keeps_its_emails_to_itself_unless_asked(mailoutbox):
    """`make run` shows the demo's URL and login, not 40 e-mails (the
    notices are sent when the load commits, as in `make run`)."""
    call_command("load_demo", "--force", stdout=io.StringIO())
    assert Notice.objects.exists()
    assert mailoutbox == []
