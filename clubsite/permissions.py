"""Stewards' rights: what a club steward may do that other members may not, asked here and
nowhere else.

A steward is a logged-in user whose membership of the club of the work in hand is active and
has the role ``steward`` (seed 001's 世話役; ``clubsite.models.Member.role``), or a superuser
(the site's owner). Each kind of thing a steward has rights over has its own question here,
so that the rule for one kind can change without a search through the views:

- a predicate (``may_...``) for a page that shows a steward more than a member;
- for the pages that are stewards' only, an access call that returns the steward or refuses
  (403) in that page's words, as healthchecks' ``_get_check_for_user`` loads and authorizes
  in one call;
- for templates, :func:`steward_rights` (every page's ``rights``, from the context
  processor :func:`clubsite.context_processors.steward_rights`).

Loading an object together with the right to it builds on these in the app that owns the
object (``scoring.views.access.hanchan_for_keeper``, ...). The rules that also name other
people (a meetup's coordinator, a game's players) live with their data (``meetings.models``,
``meetings.permissions``, ``scoring.ledger``) and ask the steward's part here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext as _

from clubsite.club_model import Club
from clubsite.models import Member

Viewer = AbstractBaseUser | AnonymousUser


def is_steward(user: Viewer, *, club: Club | None = None) -> bool:
    """A steward of ``club`` (default: the club of the work in hand,
    ``clubsite.club_scope.current_club``): a logged-in user whose membership there is active
    and has the role ``steward`` (seed 001's 世話役), or a superuser, the site's owner, in any
    club. The one definition under every right below; pages ask the right, not this.

    At most one query per user object and club (``Member.for_user`` keeps its answer).

    Raises:
        ClubNotChosen: no ``club`` given, outside any club's scope on a site of several.
    """
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    membership = Member.for_user(user, club=club)
    return membership is not None and membership.role == Member.Role.STEWARD


# Games


def may_keep_every_game(user: Viewer) -> bool:
    """Whether ``user`` keeps every game's score (enters, corrects, undoes, voids, starts a game
    they do not play in) and confirms any result with a steward's authority: their change,
    tap or upload counts at once, and the games only a steward can confirm are theirs."""
    return is_steward(user)


def may_note_manners(user: Viewer) -> bool:
    """Whether ``user`` notes manners warnings at a game and sees a member's warnings."""
    return is_steward(user)


# The site's running: the members' desk, the task queue, the admin


def may_use_desk(user: Viewer) -> bool:
    """Whether ``user`` uses the steward's desk: members (adding, editing, deactivating,
    lifting a lockout) and venues."""
    return is_steward(user)


def desk_steward(request: HttpRequest) -> User:
    """The steward making ``request`` at the desk.

    Raises:
        PermissionDenied: anyone else (a 403 page).
    """
    return _steward_or_refused(request, may_use_desk, _("Only stewards use the desk."))


def may_see_task_queue(user: Viewer) -> bool:
    """Whether ``user`` sees the background task queue (failed and waiting tasks)."""
    return is_steward(user)


def task_queue_steward(request: HttpRequest) -> User:
    """The steward asking for the task queue.

    Raises:
        PermissionDenied: anyone else (a 403 page).
    """
    return _steward_or_refused(
        request, may_see_task_queue, _("Only stewards may see the task queue.")
    )


def _steward_or_refused(request: HttpRequest, may: Callable[[Viewer], bool], refusal: str) -> User:
    """``request``'s user if ``may`` lets them in; else PermissionDenied with ``refusal``."""
    if not may(request.user):
        raise PermissionDenied(refusal)
    user: User = request.user  # type: ignore[assignment]
    return user


def may_open_admin(user: Viewer) -> bool:
    """Whether the header links ``user`` to Django's admin: when the admin lets them in, an
    active staff login (what each may do there is up to Django's permissions). A steward's
    login is staff while one of their memberships is an active steward's
    (``clubsite.members.login_flags_sync``), so on a one-club site the link shows to the
    stewards and the site's owner."""
    return bool(
        user.is_authenticated
        and getattr(user, "is_active", False)
        and getattr(user, "is_staff", False)
    )


# Tournaments


def may_run_tournaments(user: Viewer) -> bool:
    """Whether ``user`` runs tournaments: creates events, sets participants, draws, starts
    rounds, calls time, marks an event public."""
    return is_steward(user)


# Meetups and members' phones


def may_act_for_coordinators(user: Viewer) -> bool:
    """Whether ``user`` may do on any meetup what its coordinator may (manage it, see its
    applicants' phones while it is arranged and after), and see which notices' e-mails
    were not delivered."""
    return is_steward(user)


def may_see_every_phone(user: Viewer) -> bool:
    """Whether ``user`` sees every member's phone number (others see a member's only as the
    coordinator of a meetup the member applied to: ``meetings.models.phone_visible_to``)."""
    return is_steward(user)


# Online games


def may_list_club_lobbies(user: Viewer) -> bool:
    """Whether ``user`` lists and changes the club's own online lobbies, whose games count in
    the club's standings under a club ruleset."""
    return is_steward(user)


# Templates


@dataclass(frozen=True, slots=True)
class StewardRights:
    """What a page may offer its viewer beyond a member's: each field one right above."""

    games: bool
    manners: bool
    desk: bool
    tasks: bool
    admin: bool
    tournaments: bool
    meetups: bool


def steward_rights(user: Viewer) -> StewardRights:
    """Every right of ``user`` above, for templates (``{% if rights.desk %}``). No query when
    the login backend loaded the membership with the user (``clubsite.auth_backends``), one at
    most otherwise."""
    return StewardRights(
        games=may_keep_every_game(user),
        manners=may_note_manners(user),
        desk=may_use_desk(user),
        tasks=may_see_task_queue(user),
        admin=may_open_admin(user),
        tournaments=may_run_tournaments(user),
        meetups=may_act_for_coordinators(user),
    )
