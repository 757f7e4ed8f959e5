"""The e-mails of the meetups: each notice to the members it concerns and to the club's list,
and the reminders to confirm. Through Django's e-mail framework (the console in development).

Every member gets their own message in their own language (``MeetupProfile.languages_of``: the
last language they used the meetup pages in, else the site's, Japanese); the list gets the
site's language. Members without an e-mail address are skipped. No message ever holds a
member's phone number.
"""

from __future__ import annotations

from collections.abc import Sequence
from email.utils import formataddr
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.tasks import task
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.text import Truncator
from django.utils.translation import gettext

from clubsite.club_links import club_name, club_url
from clubsite.club_model import Club
from clubsite.club_scope import task_scope
from clubsite.mail import send_each
from clubsite.models import Member
from meetings.models import Application, Meetup, MeetupProfile, Notice


def notice_emails_send(notice_id: int, member_ids: Sequence[int]) -> int:
    """E-mail a notice to the members ``member_ids`` and to the mailing list of the meetup's
    club (``Club.list_address``, none when empty; a new club starts with
    ``CLUB_LIST_ADDRESS``); returns the number of messages sent."""
    notice = Notice.objects.select_related("meetup__venue").get(pk=notice_id)
    meetup = Meetup.objects.for_page().get(pk=notice.meetup_id)
    members = list(Member.objects.select_related("user").filter(pk__in=member_ids))
    languages = MeetupProfile.languages_of(members)
    messages = []
    for member in members:
        if not member.user.email:
            continue
        with translation.override(languages[member.pk]):
            messages.append(_notice_message(notice, meetup, member))
    # The meetup's own club, not the scope's: a worker runs the task outside any request.
    list_address = meetup.club.list_address
    if list_address:
        with translation.override(settings.LANGUAGE_CODE):
            messages.append(_notice_message(notice, meetup, None, list_address))
    # The club goes with a later attempt's origin: its receiver runs in a worker, as this.
    sent, failed = send_each(
        messages,
        f"notice {notice.pk} of meetup {meetup.pk}",
        origin={"notice": notice.pk, "club": meetup.club_id},
    )
    if failed:
        Notice.objects.filter(pk=notice.pk).update(undelivered=failed)
    return sent


def notice_delivered(origin: dict[str, Any], recipient: str, **_kwargs: Any) -> None:
    """A notice's e-mail that had failed went out at a later attempt
    (:data:`clubsite.mail.mail_delivered`): ``recipient`` is no longer listed as not
    delivered on the meetup page. Connected by :class:`meetings.apps.MeetingsConfig`."""
    notice_id, club_id = origin.get("notice"), origin.get("club")
    if not isinstance(notice_id, int) or not isinstance(club_id, int | None):
        return
    with task_scope(club_id), transaction.atomic():
        # Two recipients' retries may finish at once: each takes the list as the other left it.
        notice = Notice.objects.select_for_update().filter(pk=notice_id).first()
        if notice is None or recipient not in notice.undelivered:
            return
        notice.undelivered = [r for r in notice.undelivered if r != recipient]
        notice.save(update_fields=["undelivered"])


@task
def send_notice_emails(notice_id: int, member_ids: list[int], *, club_id: int | None = None) -> int:
    """:func:`notice_emails_send` as a task of Django's task framework (``TASKS``: the
    immediate backend by default, a worker's queue where one is configured), run as club
    ``club_id``'s (the meetup's club; None: the site's one club, a task queued before clubs).
    """
    with task_scope(club_id):
        return notice_emails_send(notice_id, member_ids)


@task
def send_reminder_emails(application_ids: list[int], *, club_id: int | None = None) -> int:
    """:func:`reminder_emails_send` as a task, run as club ``club_id``'s (see
    :func:`send_notice_emails`)."""
    with task_scope(club_id):
        return reminder_emails_send(application_ids)


def reminder_emails_send(application_ids: Sequence[int]) -> int:
    """Remind the members of these applications to confirm; returns the number sent."""
    applications = list(
        Application.objects.select_related("member__user", "meetup__venue").filter(
            pk__in=application_ids
        )
    )
    languages = MeetupProfile.languages_of(a.member for a in applications)
    messages = []
    for application in applications:
        member = application.member
        if not member.user.email:
            continue
        with translation.override(languages[member.pk]):
            meetup = Meetup.objects.for_page().get(pk=application.meetup_id)
            subject = gettext("Please confirm: %(days)s at %(venue)s") % {
                "days": meetup.days_text(),
                "venue": meetup.venue.name,
            }
            body = render_to_string(
                "meetings/email/reminder.txt",
                {"meetup": meetup, "member": member, "url": _absolute_url(meetup)},
            ).strip()
            messages.append(_message(subject, body, member, club=meetup.club))
    return send_each(messages, "reminder")[0]


def _notice_message(
    notice: Notice, meetup: Meetup, member: Member | None, list_address: str = ""
) -> EmailMessage:
    application = meetup.application_of(member)
    body = render_to_string(
        "meetings/email/notice.txt",
        {
            "notice": notice,
            "text": notice.text(),
            "meetup": meetup,
            "please_confirm": application is not None and application.awaiting_confirmation(),
            "results": meetup.results() if notice.kind == Notice.Kind.REPORTED else [],
            "url": _absolute_url(meetup),
        },
    ).strip()
    return _message(notice.text(), body, member, list_address, club=meetup.club)


def _message(
    subject: str, body: str, member: Member | None, list_address: str = "", *, club: Club
) -> EmailMessage:
    """A message of ``club`` to ``member``, or to ``list_address`` (the club's list) for
    none; the subject starts with the club's name in brackets."""
    # A header is one line; a member's message may hold line breaks.
    line = Truncator(" ".join(subject.split())).chars(90)
    to = (
        [formataddr((member.display_name, member.user.email))]
        if member is not None
        else [list_address]
    )
    return EmailMessage(
        subject=f"[{club_name(club)}] {line}",
        body=body + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=to,
    )


def _absolute_url(meetup: Meetup) -> str:
    return club_url(meetup.club, "meetings:detail", args=[meetup.pk])
