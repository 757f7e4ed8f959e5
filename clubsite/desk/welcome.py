"""The welcome e-mail of a member added at the desk: their login name and a link to choose a
password (Django's password reset link, :class:`clubsite.accounts.PasswordResetConfirmView`).

A member added at the desk has no usable password, so Django's reset form
(:meth:`PasswordResetForm.get_users`) would mail them nothing: this task makes the link
itself, with the same token generator, so the link works once and for
``PASSWORD_RESET_TIMEOUT`` seconds (three days by default). Sent through the task queue
(docs/tasks.md) after the member is written, with the club's id; one failed message is logged,
never raised (:func:`clubsite.mail.send_each`).
"""

from __future__ import annotations

from email.utils import formataddr
from typing import Any

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import EmailMessage
from django.tasks import task
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from clubsite.club_links import site_url
from clubsite.club_scope import task_scope
from clubsite.mail import send_each
from clubsite.models import Member

SUBJECT_TEMPLATE = "members/desk/welcome_subject.txt"
BODY_TEMPLATE = "members/desk/welcome_email.txt"


def set_password_url(member: Member) -> str:
    """The absolute link (``CLUB_SITE_URL`` + ``/accounts/reset/<uid>/<token>/``) at which
    ``member`` chooses a password; it stops working once a password is set or they log in."""
    user = member.user
    path = reverse(
        "password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )
    return site_url(path)


def reachable_member(member_id: int) -> Member | None:
    """Member ``member_id`` (of the club in scope) if a mail can go to them: there, active,
    with an active login that has an e-mail address; else None."""
    member = Member.objects.select_related("user", "club").filter(pk=member_id).first()
    if member is None or not (member.active and member.user.is_active) or not member.user.email:
        return None
    return member


def member_mail_send(
    member: Member,
    language: str,
    *,
    templates: tuple[str, str],
    context: dict[str, Any],
    what: str,
) -> int:
    """Render ``templates`` (subject, body) with ``context`` in ``language`` and mail the
    result to ``member``; returns 1 if sent, 0 when the mail server refused it (logged and
    tried again later, :func:`clubsite.mail.send_each`, ``what`` naming it in the log)."""
    subject_template, body_template = templates
    with translation.override(language):
        subject = " ".join(render_to_string(subject_template, context).split())
        body = render_to_string(body_template, context).strip() + "\n"
    message = EmailMessage(
        subject=subject,
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[formataddr((member.display_name, member.user.email))],
    )
    return send_each([message], what)[0]


def welcome_email_send(member_id: int, language: str) -> int:
    """Mail member ``member_id`` their login name and a set-password link, in ``language``
    (a code of ``LANGUAGES``). Returns 1 if sent; 0 for a member who is gone, deactivated or
    has no e-mail address, or when the mail server refused the message."""
    member = reachable_member(member_id)
    if member is None:
        return 0
    context = {
        "member": member,
        "username": member.user.get_username(),
        "url": set_password_url(member),
        "login_url": site_url(reverse("login")),
        "days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400),
    }
    return member_mail_send(
        member,
        language,
        templates=(SUBJECT_TEMPLATE, BODY_TEMPLATE),
        context=context,
        what=f"welcome of member {member.pk}",
    )


@task
def send_welcome_email(member_id: int, language: str, *, club_id: int | None = None) -> int:
    """:func:`welcome_email_send` as a task (the queue of ``CLUB_TASKS_BACKEND``), run as club
    ``club_id``'s (the membership's club; None: the site's one club, a task queued before
    clubs)."""
    with task_scope(club_id):
        return welcome_email_send(member_id, language)
