"""The e-mail to a person with a login already (a member of another club of the site) whom
a steward made a member of their club too (:func:`clubsite.desk.members.member_add`): which
club, under which name, and where its pages are. No set-password link: the login and its
password are the person's, as in their other clubs. Sent through the task queue
(docs/tasks.md) as the club's (``club_id``); a failed message is logged and tried again
(:func:`clubsite.mail.send_each`)."""

from __future__ import annotations

from email.utils import formataddr

from django.conf import settings
from django.core.mail import EmailMessage
from django.tasks import task
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from clubsite.club_links import club_name, club_url, site_url
from clubsite.club_scope import task_scope
from clubsite.mail import send_each
from clubsite.models import Member

SUBJECT_TEMPLATE = "members/desk/joined_subject.txt"
BODY_TEMPLATE = "members/desk/joined_email.txt"


def joined_email_send(member_id: int, language: str) -> int:
    """Tell member ``member_id`` (a membership of the club in scope), in ``language`` (a code
    of ``LANGUAGES``), that they are a member of its club now. Returns 1 if sent; 0 for a
    membership that is gone or deactivated, a login without an e-mail address, or a message
    the mail server refused."""
    member = Member.objects.select_related("user", "club").filter(pk=member_id).first()
    if member is None or not (member.active and member.user.is_active) or not member.user.email:
        return 0
    context = {
        "member": member,
        "club_name": club_name(member.club),
        "username": member.user.get_username(),
        "url": club_url(member.club, "game_list"),
        "reset_url": site_url(reverse("password_reset")),
    }
    with translation.override(language):
        subject = " ".join(render_to_string(SUBJECT_TEMPLATE, context).split())
        body = render_to_string(BODY_TEMPLATE, context).strip() + "\n"
    message = EmailMessage(
        subject=subject,
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[formataddr((member.display_name, member.user.email))],
    )
    return send_each([message], f"membership of member {member.pk}")[0]


@task
def send_joined_email(member_id: int, language: str, *, club_id: int | None = None) -> int:
    """:func:`joined_email_send` as a task, run as club ``club_id``'s (the membership's)."""
    with task_scope(club_id):
        return joined_email_send(member_id, language)
