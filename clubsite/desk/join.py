"""Join applications: a visitor asks to join a club from its public page, the club's stewards
accept or decline at the desk (``/desk/applications/``).

- :class:`JoinForm` checks what the visitor typed (name, e-mail address, message; no control
  character but line breaks in the message, no NUL anywhere, each within its length) and has a
  honeypot field a person never fills (a robot that does is told "sent" and nothing is kept).
- :func:`join_apply` stores one, within the limits: at most ``CLUB_JOIN_EMAIL_LIMIT``
  applications an hour from one e-mail address and ``CLUB_JOIN_ADDRESS_LIMIT`` from one client
  address, per club (:class:`JoinRefused` beyond), counted under a lock of the club's row so
  that two requests at once cannot both pass the last free place. Once committed, the
  stewards are told by mail through the task queue (:func:`send_join_notice`).
- :func:`join_accept` makes the membership in one transaction (a new login, or the login with
  that e-mail address joining as the same person; ``clubsite.members``) and queues the welcome
  e-mail (``clubsite.desk.welcome``); :func:`join_decline` records the decision and sends
  nothing. Both decide a pending application once: a second tap finds it decided and changes
  nothing (:class:`AlreadyDecided`).
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from dataclasses import dataclass
from email.utils import formataddr
from functools import partial
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.db import transaction
from django.tasks import task
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubsite.club_model import Club
from clubsite.club_scope import current_club, task_scope
from clubsite.desk.joined import send_joined_email
from clubsite.desk.welcome import send_welcome_email
from clubsite.mail import send_each
from clubsite.members import login_flags_sync, member_create, membership_create
from clubsite.models import JoinApplication, Member
from clubsite.names import NAME_LIMIT, clean_display_name

EMAIL_LIMIT = 254
MESSAGE_LIMIT = 2000
JOIN_WINDOW = datetime.timedelta(hours=1)
USERNAME_LIMIT = 150

NOTICE_SUBJECT = "members/desk/join_notice_subject.txt"
NOTICE_BODY = "members/desk/join_notice_email.txt"


class JoinRefused(Exception):
    """An application not stored: too many from that e-mail or client address this hour.
    ``code`` is ``"email_limit"`` or ``"address_limit"``; the message is the reader's."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


class AlreadyDecided(Exception):
    """The application was accepted or declined before (a double tap, another steward)."""

    def __init__(self, application: JoinApplication) -> None:
        super().__init__(f"application {application.pk} is {application.status} already")
        self.application = application


def _no_nul(value: str) -> None:
    if "\x00" in value:
        raise ValidationError(_("The text holds a NUL character."), code="null")


def _message_text(value: str) -> str:
    """The message trimmed, its line breaks kept; any other control character refused."""
    value = value.replace("\r\n", "\n").strip()
    if any(unicodedata.category(c).startswith("C") and c not in "\n\t" for c in value):
        raise ValidationError(
            _("The message holds a control character; write plain text."), code="control"
        )
    return value


class JoinForm(forms.Form):
    """A join application as a visitor types it: ``name`` (one line, at most 60 characters, a
    display name's rules: it becomes the member's name in the club), ``email`` (at most 254),
    ``message`` (at most 2,000 characters, line breaks kept; optional) and ``website``, the
    honeypot: hidden from people, left empty by them (:attr:`is_robot`)."""

    name = forms.CharField(
        label=gettext_lazy("Your name"),
        max_length=NAME_LIMIT,
        validators=[_no_nul],
        help_text=gettext_lazy("As you would like the club's members to know you."),
    )
    email = forms.EmailField(
        label=gettext_lazy("E-mail address"), max_length=EMAIL_LIMIT, validators=[_no_nul]
    )
    message = forms.CharField(
        label=gettext_lazy("Message"),
        max_length=MESSAGE_LIMIT,
        required=False,
        strip=False,
        validators=[_no_nul],
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy("Optional: how you play, when you could come."),
    )
    website = forms.CharField(required=False, max_length=200)

    def clean_name(self) -> str:
        return clean_display_name(self.cleaned_data["name"])

    def clean_email(self) -> str:
        return str(self.cleaned_data["email"]).strip()

    def clean_message(self) -> str:
        return _message_text(self.cleaned_data["message"])

    @property
    def is_robot(self) -> bool:
        """The honeypot was filled: no person sees that field."""
        return bool(self.data.get("website"))


@transaction.atomic
def join_apply(
    *, name: str, email: str, message: str, language: str, address: str | None
) -> JoinApplication:
    """Store an application to the club of the work in hand (the values as
    :class:`JoinForm` cleaned them), then, once committed, queue the stewards' notice.

    Raises:
        JoinRefused: ``email_limit`` or ``address_limit`` (the hour's limits, per club);
            nothing is stored.
    """
    club = current_club()
    # The club's row locked: the counts below and the insert are one step for every request.
    Club.objects.select_for_update().filter(pk=club.pk).first()
    now = timezone.now()
    recent = JoinApplication.objects.filter(created_at__gte=now - JOIN_WINDOW)
    if recent.filter(email__iexact=email).count() >= settings.CLUB_JOIN_EMAIL_LIMIT:
        raise JoinRefused(
            _(
                "An application from this e-mail address was sent a moment ago: the club "
                "has it. Please wait an hour before sending another."
            ),
            code="email_limit",
        )
    if (
        address is not None
        and recent.filter(address=address).count() >= settings.CLUB_JOIN_ADDRESS_LIMIT
    ):
        raise JoinRefused(
            _("Too many applications were sent from here this hour. Please try again later."),
            code="address_limit",
        )
    application = JoinApplication.objects.create(
        name=name,
        email=email,
        message=message,
        language=language[:8],
        address=address,
        created_at=now,
    )
    transaction.on_commit(
        partial(send_join_notice.enqueue, application.pk, club_id=int(club.pk)), robust=True
    )
    return application


def club_address(club: Club, path: str) -> str:
    """The absolute address of ``path`` (a path as ``reverse`` gives it outside any request)
    among ``club``'s pages: ``CLUB_SITE_URL`` + ``/c/<slug>`` + ``path``. A task has no
    request whose script prefix would say the club."""
    return f"{settings.CLUB_SITE_URL.rstrip('/')}/c/{club.slug}{path}"


def join_notice_send(application_id: int) -> int:
    """Mail each active steward of the club in scope who has an e-mail address: the
    application ``application_id`` (name, address, message) and the desk's link; the
    applicant's address is the ``Reply-To``. In the site's language (``LANGUAGE_CODE``): the
    stewards' own is not known to the club. Returns the number of e-mails sent (0 for an
    application gone or decided meanwhile)."""
    application = JoinApplication.objects.filter(
        pk=application_id, status=JoinApplication.Status.PENDING
    ).first()
    if application is None:
        return 0
    club = current_club()
    stewards = Member.objects.filter(
        role=Member.Role.STEWARD, active=True, user__is_active=True
    ).select_related("user")
    context = {
        "club": club,
        "application": application,
        "url": club_address(club, reverse("desk:applications")),
    }
    with translation.override(settings.LANGUAGE_CODE):
        subject = " ".join(render_to_string(NOTICE_SUBJECT, context).split())
        body = render_to_string(NOTICE_BODY, context).strip() + "\n"
    messages = [
        EmailMessage(
            subject=subject,
            body=body,
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[formataddr((steward.display_name, steward.user.email))],
            reply_to=[formataddr((application.name, application.email))],
        )
        for steward in stewards
        if steward.user.email
    ]
    return send_each(messages, f"join application {application.pk}")[0]


@task
def send_join_notice(application_id: int, *, club_id: int | None = None) -> int:
    """:func:`join_notice_send` as a task, in the scope of club ``club_id`` (the club the
    application was sent to; None: the site's one club)."""
    with task_scope(club_id):
        return join_notice_send(application_id)


def free_username(email: str, name: str) -> str:
    """A login name no login has, from the e-mail address's local part (Django's username
    characters, letters, digits and ``@.+-_``), else ``member``; ``-2``, ``-3``, ... after
    it while taken (whatever the case)."""
    local = email.partition("@")[0]
    base = re.sub(r"[^\w.@+-]", "", local, flags=re.ASCII)[:40] or "member"
    users = get_user_model().objects
    candidate, number = base, 1
    while users.filter(username__iexact=candidate).exists():
        number += 1
        candidate = f"{base}-{number}"
    return candidate[:USERNAME_LIMIT]


def free_display_name(name: str) -> str:
    """``name``, or ``name (2)``, ``(3)``, ... while another member of the club in scope has
    it (whatever the case), cut so that it keeps within the display name's length."""
    others = Member.objects.all()
    candidate, number = name, 1
    while others.filter(display_name__iexact=candidate).exists():
        number += 1
        suffix = f" ({number})"
        candidate = name[: NAME_LIMIT - len(suffix)].rstrip() + suffix
    return candidate


@dataclass(frozen=True)
class Acceptance:
    """What accepting did: ``member`` the membership (new or found), ``new_login`` whether a
    login was made for it, ``joined`` whether the membership is new (False: the person was a
    member already), ``welcome`` whether the welcome e-mail was queued."""

    member: Member
    new_login: bool
    joined: bool
    welcome: bool


def _decide(application_id: int, status: str, by: Member | None) -> JoinApplication:
    """Mark the club's pending application decided, by a conditional update: of two taps at
    once, one finds it pending and the other :class:`AlreadyDecided`."""
    now = timezone.now()
    pending = JoinApplication.objects.filter(
        pk=application_id, status=JoinApplication.Status.PENDING
    )
    if not pending.update(status=status, decided_by=by, decided_at=now):
        raise AlreadyDecided(JoinApplication.objects.get(pk=application_id))
    return JoinApplication.objects.get(pk=application_id)


@transaction.atomic
def join_accept(*, application_id: int, by: Member | None) -> Acceptance:
    """Accept the club's application ``application_id``: the person becomes a member.

    A login whose e-mail address is the application's (any case) joins the club as the same
    person (``clubsite.members.membership_create``; a membership of the club it has already
    is kept, reactivated if the club had deactivated it); otherwise a new login is made
    (:func:`free_username`, no usable password). The display name is the applicant's name,
    numbered if another member of the club has it (:func:`free_display_name`). Once
    committed, the welcome e-mail (login name, a link to choose a password) goes out in the
    application's language through the task queue; a login of other clubs gets the mail of a
    new membership instead (``clubsite.desk.joined``: its password stays its own), and a
    person who was a member already gets none.

    Raises:
        JoinApplication.DoesNotExist: no such application in the club.
        AlreadyDecided: accepted or declined before; nothing changes.
    """
    application = _decide(application_id, JoinApplication.Status.ACCEPTED, by)
    club = current_club()
    user: User | None = (
        get_user_model().objects.filter(email__iexact=application.email).order_by("pk").first()
    )
    new_login = user is None
    joined = True
    if user is None:
        member = member_create(
            username=free_username(application.email, application.name),
            email=application.email,
            password=None,
            display_name=free_display_name(application.name),
            club=club,
        )
    else:
        existing = Member.objects.filter(user=user).first()
        if existing is None:
            member = membership_create(
                user, club=club, display_name=free_display_name(application.name)
            )
        else:
            joined = not existing.active
            if not existing.active:
                existing.active = True
                existing.save(update_fields=["active"])
                login_flags_sync(user)
            member = existing
    application.member = member
    application.save(update_fields=["member"])
    welcome = joined
    if welcome:
        language = application.language or settings.LANGUAGE_CODE
        # A login of other clubs keeps its password: told which club it joined, with no link
        # that would set a new one (clubsite.desk.joined).
        mail = send_welcome_email if new_login else send_joined_email
        transaction.on_commit(
            partial(mail.enqueue, member.pk, language, club_id=int(club.pk)),
            robust=True,
        )
    return Acceptance(member=member, new_login=new_login, joined=joined, welcome=welcome)


@transaction.atomic
def join_decline(*, application_id: int, by: Member | None) -> JoinApplication:
    """Decline the club's application ``application_id``: recorded with who and when; no
    e-mail goes to the applicant (a steward who wants to explain writes to them: the
    notice's ``Reply-To`` is their address).

    Raises:
        JoinApplication.DoesNotExist: no such application in the club.
        AlreadyDecided: accepted or declined before; nothing changes.
    """
    return _decide(application_id, JoinApplication.Status.DECLINED, by)


def pending_count() -> int:
    """How many applications to the club in scope wait for a decision. One query."""
    return JoinApplication.objects.filter(status=JoinApplication.Status.PENDING).count()


def applications_listed(decided: int = 20) -> dict[str, Any]:
    """The desk's list: ``pending`` (oldest first: first come, first answered) and the
    ``decided`` most recently decided, newest first. Two queries."""
    pending = list(
        JoinApplication.objects.filter(status=JoinApplication.Status.PENDING).order_by(
            "created_at", "pk"
        )
    )
    recent = list(
        JoinApplication.objects.exclude(status=JoinApplication.Status.PENDING)
        .select_related("decided_by", "member")
        .order_by("-decided_at", "-pk")[:decided]
    )
    return {"pending": pending, "decided": recent}
