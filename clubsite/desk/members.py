"""Members at the steward's desk: one form for adding and editing a member (their login and
their membership of the club together), and the writes, one transaction each.

A member is a Django ``User`` (the login: username, e-mail) and its
:class:`clubsite.models.Member` membership of the club of the desk (display name, furigana
reading, phone, women's division, the role ``steward`` or ``member``, active or
deactivated). The steward flag and deactivation are the membership's: a person's other clubs
keep theirs (the login's own flags follow, ``clubsite.members.login_flags_sync``). The form
checks everything the database would refuse before anything is written, so PostgreSQL and
SQLite give the same clear errors: a login or e-mail address another login has, a name
another member of the club has (whatever its case), a NUL or other control character, text
longer than its column.
"""

from __future__ import annotations

import datetime
import unicodedata
from dataclasses import dataclass
from functools import partial
from typing import Any

from axes.models import AccessAttempt
from axes.utils import reset as axes_reset
from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubsite.club_scope import current_club
from clubsite.desk.joined import send_joined_email
from clubsite.desk.welcome import send_welcome_email
from clubsite.members import login_flags_sync, login_shared, member_create, membership_create
from clubsite.models import Member
from clubsite.names import NAME_LIMIT, clean_display_name

USERNAME_LIMIT = 150  # auth.User.username's max_length
EMAIL_LIMIT = 254  # auth.User.email's max_length
FURIGANA_LIMIT = 120  # Member.furigana's max_length
PHONE_LIMIT = 30  # Member.phone's max_length


class DeskError(Exception):
    """A desk action refused (deactivating oneself, ...); ``code`` is stable, the message
    is in the reader's language."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def one_line(value: str) -> str:
    """``value`` trimmed; a control character (a NUL, a line break, a tab) is refused."""
    value = value.strip()
    if any(unicodedata.category(c).startswith("C") for c in value):
        raise ValidationError(_("One line of text, without control characters."), code="control")
    return value


class MemberForm(forms.Form):
    """A member's login and profile, for adding (``member=None``) or editing one.

    Fields: ``username`` (the login name, Django's letters, digits and ``@.+-_``),
    ``display_name`` (one line, at most 60 characters, unique in the club whatever its case),
    ``furigana`` (the reading), ``email`` (unique whatever its case; required to add, since
    the welcome e-mail carries the set-password link), ``phone``, ``steward`` (the
    membership's role) and ``women_division``.

    Adding a person who has a login already (they play in another club of the site): their
    login name together with that login's e-mail address makes them a member of this club
    as the same person; ``cleaned_data["login"]`` is then that ``User`` (None for a new
    login). Knowing both is the steward's sign that the person told them; either alone is
    refused as taken. Editing a member whose login is shared with another club
    (:func:`clubsite.members.login_shared`) leaves its login name and address as they are:
    they are the person's in every club.
    """

    username = forms.CharField(
        label=gettext_lazy("Login name"),
        max_length=USERNAME_LIMIT,
        validators=[UnicodeUsernameValidator()],
        help_text=gettext_lazy("What the member types to log in: letters, digits and @ . + - _"),
    )
    display_name = forms.CharField(
        label=gettext_lazy("Display name"),
        max_length=NAME_LIMIT,
        help_text=gettext_lazy("As on score sheets and standings."),
    )
    furigana = forms.CharField(
        label=gettext_lazy("Reading (furigana)"), max_length=FURIGANA_LIMIT, required=False
    )
    email = forms.EmailField(label=gettext_lazy("E-mail address"), max_length=EMAIL_LIMIT)
    phone = forms.CharField(label=gettext_lazy("Phone"), max_length=PHONE_LIMIT, required=False)
    steward = forms.BooleanField(label=gettext_lazy("Steward"), required=False)
    women_division = forms.BooleanField(
        label=gettext_lazy("Women's division (女流)"), required=False
    )

    def __init__(self, *args: Any, member: Member | None = None, **kwargs: Any) -> None:
        if member is not None:
            kwargs.setdefault(
                "initial",
                {
                    "username": member.user.get_username(),
                    "display_name": member.display_name,
                    "furigana": member.furigana,
                    "email": member.user.email,
                    "phone": member.phone,
                    "steward": member.role == Member.Role.STEWARD,
                    "women_division": member.women_division,
                },
            )
        super().__init__(*args, **kwargs)
        self.member = member
        self.shared = member is not None and login_shared(member.user, member.club)
        if self.shared:
            for name in ("username", "email"):
                self.fields[name].disabled = True
                self.fields[name].help_text = gettext_lazy(
                    "Shared with another club: only the person or a site admin changes it."
                )
        if member is not None:
            # A member added before the desk may have no address; editing does not force one.
            self.fields["email"].required = False
        else:
            self.fields["email"].help_text = gettext_lazy(
                "The welcome e-mail with a link to choose a password goes here."
            )

    def _others(self) -> QuerySet[User]:
        users = get_user_model().objects.all()
        if self.member is not None:
            users = users.exclude(pk=self.member.user_id)
        return users

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"].strip()
        # Adding: a taken name may be a login that joins with its address (clean()).
        if self.member is not None and self._others().filter(username__iexact=username).exists():
            raise ValidationError(
                _("The login name %(name)s is taken.") % {"name": username}, code="taken"
            )
        return username

    def clean_display_name(self) -> str:
        name = clean_display_name(self.cleaned_data["display_name"])
        # The desk is its club's: the member edited is one of the club in hand.
        others = Member.objects.filter(club=current_club())
        if self.member is not None:
            others = others.exclude(pk=self.member.pk)
        if others.filter(display_name__iexact=name).exists():
            raise ValidationError(
                _("Another member is already called %(name)s.") % {"name": name}, code="taken"
            )
        return name

    def clean_furigana(self) -> str:
        return one_line(self.cleaned_data["furigana"])

    def clean_phone(self) -> str:
        return one_line(self.cleaned_data["phone"])

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"].strip()
        if (
            self.member is not None
            and email
            and self._others().filter(email__iexact=email).exists()
        ):
            raise ValidationError(
                _("Another member has the e-mail address %(email)s.") % {"email": email},
                code="taken",
            )
        return email

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.member is None and "username" in data and "email" in data:
            data["login"] = self._existing_login(data["username"], data["email"])
        return data

    def _existing_login(self, username: str, email: str) -> User | None:
        """Adding: the login that joins the club (its name and its address both given), or
        None for a new login; a name or address taken alone is an error on its field."""
        by_name = self._others().filter(username__iexact=username).first()
        by_email = self._others().filter(email__iexact=email).first() if email else None
        if by_name is None and by_email is None:
            return None
        if by_name is not None and by_name == by_email:
            if Member.objects.filter(club=current_club(), user=by_name).exists():
                self.add_error(
                    "username",
                    ValidationError(
                        _(
                            "%(name)s is a member of this club already (a deactivated one is "
                            "reactivated from their page)."
                        )
                        % {"name": username},
                        code="member",
                    ),
                )
            return by_name
        if by_name is not None:
            self.add_error(
                "username",
                ValidationError(
                    _(
                        "The login name %(name)s is taken. A person with a login in another "
                        "club is added by that login name together with its e-mail address."
                    )
                    % {"name": username},
                    code="taken",
                ),
            )
        if by_email is not None:
            self.add_error(
                "email",
                ValidationError(
                    _("Another member has the e-mail address %(email)s.") % {"email": email},
                    code="taken",
                ),
            )
        return None


@transaction.atomic
def member_add(*, data: dict[str, Any], language: str) -> Member:
    """Write a new member from :class:`MemberForm`'s ``cleaned_data``: the ``User`` (no
    usable password yet) and its ``Member`` in one transaction
    (:func:`clubsite.members.member_create`), then, once committed, enqueue
    the welcome e-mail in ``language`` (:func:`clubsite.desk.welcome.send_welcome_email`).
    With ``cleaned_data["login"]`` (a person with a login in another club) only the
    membership is written (:func:`clubsite.members.membership_create`), their password stays
    theirs, and the e-mail says they joined (:func:`clubsite.desk.joined.send_joined_email`).

    Raises ``IntegrityError`` when another request took the name, login or address between
    the form's check and the write; nothing is written then.
    """
    if data.get("login") is not None:
        member = membership_create(
            data["login"],
            club=current_club(),
            display_name=data["display_name"],
            furigana=data["furigana"],
            women_division=data["women_division"],
            phone=data["phone"],
            role=Member.Role.STEWARD if data["steward"] else Member.Role.MEMBER,
        )
        transaction.on_commit(
            partial(send_joined_email.enqueue, member.pk, language, club_id=member.club_id),
            robust=True,
        )
        return member
    member = member_create(
        username=data["username"],
        email=data["email"],
        password=None,
        steward=data["steward"],
        display_name=data["display_name"],
        furigana=data["furigana"],
        phone=data["phone"],
        women_division=data["women_division"],
    )
    transaction.on_commit(
        partial(send_welcome_email.enqueue, member.pk, language, club_id=member.club_id),
        robust=True,
    )
    return member


def check_may_change(member: Member, by: User) -> None:
    """Raise ``DeskError("superuser")`` when ``by`` is no superuser and ``member``'s login is
    one: a steward could otherwise take over the site's owner (their address, password,
    steward flag)."""
    if member.user.is_superuser and not by.is_superuser:
        raise DeskError(_("Only a superuser changes the login of a superuser."), code="superuser")


def check_not_shared(member: Member, by: User) -> None:
    """Raise ``DeskError("shared")`` when ``by`` is no superuser and ``member``'s login is
    also another club's (:func:`clubsite.members.login_shared`): its password is the
    person's in every club, not one club's stewards' to set or reset."""
    if not by.is_superuser and login_shared(member.user, member.club):
        raise DeskError(
            _(
                "This login is also a member of another club: only the person (by the "
                "password reset page) or a site admin changes its password."
            ),
            code="shared",
        )


@transaction.atomic
def member_update(*, member: Member, data: dict[str, Any], by: User) -> Member:
    """Write :class:`MemberForm`'s ``cleaned_data`` over ``member`` (the steward flag its
    role) and its login.

    Raises:
        DeskError: ``own_steward`` when a steward would take their own steward role away
            (the desk would lock them out at once); ``superuser`` as
            :func:`check_may_change`; nothing is written.
        IntegrityError: as :func:`member_add`.
    """
    check_may_change(member, by)
    user = member.user
    was_steward = member.role == Member.Role.STEWARD
    if user.pk == by.pk and was_steward and not data["steward"]:
        raise DeskError(_("You cannot take away your own steward flag."), code="own_steward")
    user.username = data["username"]
    user.email = data["email"]
    user.save(update_fields=["username", "email"])
    member.display_name = data["display_name"]
    member.furigana = data["furigana"]
    member.phone = data["phone"]
    member.women_division = data["women_division"]
    member.role = Member.Role.STEWARD if data["steward"] else Member.Role.MEMBER
    member.save(update_fields=["display_name", "furigana", "phone", "women_division", "role"])
    login_flags_sync(user)
    return member


@transaction.atomic
def member_set_active(*, member: Member, active: bool, by: User) -> None:
    """Deactivate (``active=False``) or reactivate ``member``'s membership of its club. The
    club offers a deactivated member no seat and treats their login as no member's; their
    games, seats and standings stay as they are, and so do their other clubs' memberships. A
    login left with no active membership cannot log in and its open sessions end (Django's
    backends refuse inactive users; ``clubsite.members.login_flags_sync``), as on a one-club
    site.

    Raises:
        DeskError: ``own_account`` when a steward would deactivate themselves;
            ``superuser`` as :func:`check_may_change`.
    """
    check_may_change(member, by)
    if not active and member.user_id == by.pk:
        raise DeskError(_("You cannot deactivate your own account."), code="own_account")
    member.active = active
    member.save(update_fields=["active"])
    login_flags_sync(member.user)


@dataclass(frozen=True)
class LoginFailures:
    """A login's recent failed logins (within ``AXES_COOLOFF_TIME``), summed over the
    addresses they came from, and whether they reach ``AXES_FAILURE_LIMIT`` from one."""

    failures: int
    locked: bool


def login_failures(usernames: list[str]) -> dict[str, LoginFailures]:
    """``{username: LoginFailures}`` for the usernames with a failed login within the
    cool-off time (django-axes' ``AccessAttempt`` rows); others are left out."""
    since = timezone.now() - _cool_off()
    rows = (
        AccessAttempt.objects.filter(username__in=usernames, attempt_time__gte=since)
        .values("username", "ip_address")
        .annotate(total=Sum("failures_since_start"))
    )
    failures: dict[str, int] = {}
    locked: set[str] = set()
    for row in rows:
        failures[row["username"]] = failures.get(row["username"], 0) + row["total"]
        if row["total"] >= settings.AXES_FAILURE_LIMIT:
            locked.add(row["username"])
    return {
        name: LoginFailures(failures=count, locked=name in locked)
        for name, count in failures.items()
    }


def _cool_off() -> datetime.timedelta:
    cool_off = getattr(settings, "AXES_COOLOFF_TIME", None)
    if isinstance(cool_off, datetime.timedelta):
        return cool_off
    # Without a cool-off time axes keeps a lockout until it is lifted.
    return datetime.timedelta(days=365 * 100)


def lockout_lift(*, member: Member) -> int:
    """Forget every failed login recorded under ``member``'s login name (axes' own
    :func:`axes.utils.reset`), so they may log in again at once. Returns the rows removed.
    A lockout of a whole address (``CLUB_LOGIN_ADDRESS_FAILURE_LIMIT``) is not theirs to lift:
    it stays until its cool-off time ends."""
    return int(axes_reset(username=member.user.get_username()))


@transaction.atomic
def member_password_set(*, member: Member, password: str, by: User) -> None:
    """Give ``member`` the password ``password`` (already checked by Django's password
    validators, ``SetPasswordForm``), for a member without an e-mail address who cannot
    choose one by link; their failed logins are forgotten too (:func:`lockout_lift`).

    Raises:
        DeskError: ``superuser`` as :func:`check_may_change`; ``shared`` as
            :func:`check_not_shared`.
    """
    check_may_change(member, by)
    check_not_shared(member, by)
    member.user.set_password(password)
    member.user.save(update_fields=["password"])
    lockout_lift(member=member)


def members_matching(*, query: str, status: str) -> QuerySet[Member]:
    """The club's members (``clubsite.club_scope.current_club``) whose display name, reading
    or login name contains ``query`` (any case), in reading order; ``status`` ``"active"``,
    ``"inactive"`` (the membership's state) or anything else for all."""
    # Guests of an event between clubs are another club's members: not listed at this desk.
    members = Member.objects.of_club().filter(club=current_club()).select_related("user")
    # PostgreSQL refuses a NUL in a pattern; no name holds one anyway.
    query = query.replace("\x00", "").strip()[: NAME_LIMIT * 2]
    if query:
        members = members.filter(
            Q(display_name__icontains=query)
            | Q(furigana__icontains=query)
            | Q(user__username__icontains=query)
        )
    if status == "active":
        members = members.filter(active=True)
    elif status == "inactive":
        members = members.filter(active=False)
    return members
