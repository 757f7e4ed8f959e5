"""Creating a club member: the one write that makes a login and its memberships.

A person is one Django ``User`` (the login) and, for each club they belong to, a
:class:`clubsite.models.Member` membership (the club's display name for them, their role
there, whether the club has deactivated them). Whoever adds one, the steward's desk, the
admin's member page, ``manage.py create_member``, the demo club, a seeded history or an
online import that meets a player no member is, writes them here, so a member is made the
same way everywhere; an existing login joins another club by :func:`membership_create`.

The login's own flags follow its memberships (:func:`login_flags_sync`): ``is_active`` while
one of its memberships is active (a person deactivated in their only club cannot log in, as
before there were several clubs), ``is_staff`` while one is an active steward's (the Django
admin lets in staff logins; what a steward may do in the club asks ``clubsite.permissions``).

The callers check what people typed before (the desk's form, the command's ``full_clean``,
the admin's model form); these functions write, and the database's unique keys refuse a
login or display name taken meanwhile (``IntegrityError``; nothing is written then).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, User
from django.db import transaction

from clubsite.club_model import Club
from clubsite.club_scope import current_club
from clubsite.models import Member

# A player an online import adds gets a login nobody logs in with: this prefix, 12 hex digits.
IMPORTED_PREFIX = "imported-"


@transaction.atomic
def member_create(
    *,
    username: str,
    display_name: str,
    password: str | None = None,
    email: str = "",
    steward: bool = False,
    superuser: bool = False,
    furigana: str = "",
    phone: str = "",
    women_division: bool = False,
    club: Club | None = None,
) -> Member:
    """Create a person and their membership of a club: a new login and the membership, in one
    transaction.

    Args:
        username: the login name (Django normalizes it, as ``create_user`` does).
        display_name: as on the club's score sheets and standings (unique in the club).
        password: the login's password; ``None`` leaves it without a usable one (the member
            chooses one by the welcome e-mail's link, or never logs in).
        email: the login's address (its domain is lower-cased, as ``create_user`` does).
        steward: one of the club's stewards (role ``steward``; the login is staff);
            ``superuser``: the site's owner too.
        furigana, phone, women_division: the membership's other fields.
        club: the club joined; default the club of the work in hand
            (``clubsite.club_scope.current_club``).

    Returns:
        The saved ``Member``, its ``user`` the saved login.

    Raises:
        IntegrityError: the login or the display name is taken; nothing is written.
        ClubNotChosen: no ``club`` given, outside any club's scope on a site of several.
    """
    user = get_user_model().objects.create_user(
        username=username,
        email=email,
        password=password,
        is_staff=steward,
        is_superuser=superuser,
    )
    return membership_create(
        user,
        club=club if club is not None else current_club(),
        display_name=display_name,
        furigana=furigana,
        phone=phone,
        women_division=women_division,
        role=Member.Role.STEWARD if steward else Member.Role.MEMBER,
    )


@transaction.atomic
def membership_create(
    user: User,
    *,
    club: Club,
    display_name: str,
    furigana: str = "",
    phone: str = "",
    women_division: bool = False,
    role: str = Member.Role.MEMBER,
) -> Member:
    """Make the existing login ``user`` a member of ``club``: the same person, under the
    club's own ``display_name`` for them, in ``role`` (``Member.Role``); the login's flags
    then follow its memberships (:func:`login_flags_sync`).

    Returns:
        The saved ``Member``.

    Raises:
        ValueError: ``role`` is no ``Member.Role``; nothing is written.
        IntegrityError: the login is a member of ``club`` already, or the display name is
            taken there; nothing is written.
    """
    if role not in Member.Role.values:
        raise ValueError(f"no such role: {role!r}")
    member = Member.objects.create(
        club=club,
        user=user,
        display_name=display_name,
        furigana=furigana,
        phone=phone,
        women_division=women_division,
        role=role,
    )
    login_flags_sync(user)
    # The login object knows its new membership, as it knows one loaded with it
    # (``clubsite.auth_backends``): a request or test going on with it asks no query more.
    Member.remember_for_user(user, int(club.pk), member)
    return member


def member_profile_create(
    *,
    user: User,
    display_name: str,
    furigana: str = "",
    phone: str = "",
    women_division: bool = False,
    role: str = Member.Role.MEMBER,
) -> Member:
    """Make an existing login (one made on the admin's user page or by ``createsuperuser``)
    a member of the club of the work in hand: :func:`membership_create` in
    ``clubsite.club_scope.current_club``.

    Raises:
        IntegrityError: the login is a member of the club already, or the display name is
            taken there.
        ClubNotChosen: outside any club's scope on a site of several.
    """
    return membership_create(
        user,
        club=current_club(),
        display_name=display_name,
        furigana=furigana,
        phone=phone,
        women_division=women_division,
        role=role,
    )


def login_flags_sync(user: AbstractBaseUser) -> None:
    """Keep ``user``'s flags in step with its memberships (all clubs), after one changed:
    ``is_active`` while one of them is active, so a person deactivated in their only club
    cannot log in and one deactivated in one of two clubs still can; ``is_staff`` while one
    is an active steward's, so the club's stewards keep opening the Django admin. A login
    without a membership (a superuser made by ``createsuperuser``) and a superuser's staff
    flag are left as they are. One query, two when a flag changes; forgets what
    ``Member.for_user`` kept on ``user``."""
    memberships = list(
        Member.objects.with_scopes_disabled().filter(user_id=user.pk).values_list("active", "role")
    )
    Member.forget_for_user(user)
    if not memberships:
        return
    flags = {"is_active": any(active for active, _role in memberships)}
    if not getattr(user, "is_superuser", False):
        flags["is_staff"] = any(
            active and role == Member.Role.STEWARD for active, role in memberships
        )
    changed = [name for name, value in flags.items() if getattr(user, name) != value]
    for name in changed:
        setattr(user, name, flags[name])
    if changed:
        user.save(update_fields=changed)


def login_shared(user: AbstractBaseUser, club: Club) -> bool:
    """Whether ``user`` holds a membership (active or not) of a club other than ``club``: its
    login name, address and password are then that person's in every club, not ``club``'s
    stewards' to change (``clubsite.desk.members``). One query."""
    return (
        Member.objects.with_scopes_disabled()
        .filter(user_id=user.pk)
        .exclude(club_id=club.pk)
        .exists()
    )


@dataclass(frozen=True, slots=True)
class NewMember:
    """A member for :func:`members_create_many`: a login name and the membership's names."""

    username: str
    display_name: str
    furigana: str = ""


@transaction.atomic
def members_create_many(*, new: Sequence[NewMember]) -> list[Member]:
    """Create many members at once, as a seeded history of the club needs hundreds: logins
    without a usable password and their memberships of the club of the work in hand, in two
    statements, in the order given.

    The logins are written as given (no normalization): the caller makes the names.

    Raises:
        IntegrityError: a login or display name is taken; nothing is written.
    """
    user_model = get_user_model()
    users = [user_model(username=one.username) for one in new]
    for user in users:
        user.set_unusable_password()
    users = user_model.objects.bulk_create(users)
    return Member.objects.bulk_create(
        Member(user=user, display_name=one.display_name, furigana=one.furigana)
        for user, one in zip(users, new, strict=True)
    )


def imported_member_create(*, display_name: str) -> Member:
    """Create a member for a player an online import meets by a name no member holds: a
    login nobody logs in with (``imported-`` and 12 hex digits, no usable password) and a
    membership of the club of the work in hand under that name. A steward may give them a
    login at the desk later.

    Raises:
        IntegrityError: the display name is taken; nothing is written.
    """
    return member_create(
        username=f"{IMPORTED_PREFIX}{secrets.token_hex(6)}", display_name=display_name
    )


@transaction.atomic
def imported_member_save(member: Member) -> Member:
    """Save ``member``, a membership an online import built unsaved (its ``display_name`` set)
    for a player no member is, with a login as :func:`imported_member_create` gives one.

    The same object is saved, not a copy: the import matches the player's name to it in the
    batch's later logs, which must find it saved.

    Raises:
        ValueError: ``member`` is saved already.
        IntegrityError: the display name is taken; nothing is written.
    """
    if member.pk is not None:
        raise ValueError("the member is saved already")
    member.user = get_user_model().objects.create_user(
        username=f"{IMPORTED_PREFIX}{secrets.token_hex(6)}", password=None
    )
    member.save()
    return member
