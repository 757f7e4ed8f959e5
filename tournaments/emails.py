"""The seating e-mails of a tournament: when rounds are drawn, each participant gets their
table and seat wind in each of them, with who sits where, in their own language
(``meetings.models.MeetupProfile.languages_of``: the language they last used, else the
site's). Members without an e-mail address are skipped; one failed message never stops the
others (:func:`clubsite.mail.send_each`)."""

from __future__ import annotations

from collections.abc import Sequence
from email.utils import formataddr

from django.conf import settings
from django.core.mail import EmailMessage
from django.tasks import task
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from clubsite.club_links import club_name, club_url
from clubsite.club_scope import task_scope
from clubsite.mail import send_each
from meetings.models import MeetupProfile
from tournaments.display import event_view
from tournaments.models import Event


def seating_emails_send(event_id: int, round_numbers: Sequence[int]) -> int:
    """E-mail each participant who is not withdrawn their tables in the rounds
    ``round_numbers`` of event ``event_id``; returns the number of messages sent."""
    event = Event.objects.get(pk=event_id)
    view = event_view(event)
    wanted = set(round_numbers)
    participants = [p for p in view.participants if not p.withdrawn and p.member.user.email]
    languages = MeetupProfile.languages_of(p.member for p in participants)
    url = club_url(event.club, "tournaments:detail", args=[event.pk])
    messages = []
    for participant in participants:
        member = participant.member
        tables = [t for t in view.tables_of(member) if t.round.number in wanted]
        if not tables:
            continue
        with translation.override(languages[member.pk]):
            subject = gettext("[%(club)s] %(event)s: your tables") % {
                "club": club_name(event.club),
                "event": event.name,
            }
            body = render_to_string(
                "tournaments/email/seating.txt",
                {"event": event, "member": member, "tables": tables, "url": url},
            ).strip()
        messages.append(
            EmailMessage(
                subject=" ".join(subject.split()),
                body=body + "\n",
                from_email=settings.DEFAULT_FROM_EMAIL,
                to=[formataddr((member.display_name, member.user.email))],
            )
        )
    return send_each(messages, f"seating of tournament {event.pk}")[0]


@task
def send_seating_emails(
    event_id: int, round_numbers: list[int], *, club_id: int | None = None
) -> int:
    """:func:`seating_emails_send` as a task of Django's task framework (the immediate
    backend by default), run as club ``club_id``'s (the event's club; None: the site's one
    club, a task queued before clubs)."""
    with task_scope(club_id):
        return seating_emails_send(event_id, round_numbers)
