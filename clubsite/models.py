"""Club members (a login's membership of each club it belongs to), their online names, the
club's online lobbies and the password reset requests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import models
from django.utils.functional import LazyObject
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_scopes import get_scope
from django_scopes.manager import DisabledQuerySet

from clubsite.club_model import Club
from clubsite.club_scope import current_club, current_club_id
from clubsite.names import quoted_names, validate_display_name

_T = TypeVar("_T", bound=models.Model)


class ClubManager(models.Manager[_T]):
    """The default manager of a row a club owns: every query through it reads the rows of
    the club in scope only (django-scopes' scope: ``clubsite.club_scope.club_scope``, entered
    by a request, a command, a task), and a query outside any scope is refused with
    django-scopes' own ``ScopeError``; ``django_scopes.scopes_disabled()`` lifts it (the
    admin, a backup). It is django-scopes' ``ScopedManager`` for the one dimension ``club``,
    written as a class so that the type checker and Django's related managers (which subclass
    the default manager's class) know it. Objects reached through a foreign key use the
    unscoped base manager: their row was reached from one of the club's own.

    ``club_path``: the lookup of the row's club (its own ``club``, or its parent's: a hand's
    club is its game's, ``"hanchan__club"``): subclasses below, one per parent.
    """

    club_path = "club"

    def get_queryset(self) -> models.QuerySet[_T]:
        current = get_scope()
        if not current.get("_enabled", True):
            return super().get_queryset()
        if "club" not in current:
            return DisabledQuerySet(self.model, using=self._db, missing_scopes={"club"})
        club = current["club"]
        if callable(club):
            # A scope that finds its club afresh on every use (clubsite.club_scope.club_of).
            club = club()
        return super().get_queryset().filter(**{self.club_path: club})

    def with_scopes_disabled(self) -> models.QuerySet[_T]:
        """Every club's rows (``ScopedManager.with_scopes_disabled``, as a queryset)."""
        return super().get_queryset()


class GameRowManager(ClubManager[_T]):
    """A row of a game: its club is the game's."""

    club_path = "hanchan__club"


class MemberRowManager(ClubManager[_T]):
    """A row of a member: its club is the member's."""

    club_path = "member__club"


class MeetupRowManager(ClubManager[_T]):
    """A row of a meetup: its club is the meetup's."""

    club_path = "meetup__club"


class EventRowManager(ClubManager[_T]):
    """A row of a tournament: its club is the event's."""

    club_path = "event__club"


def club_key(*, db_index: bool = True) -> models.ForeignKey[Club, Club]:
    """The ``club`` foreign key of a row a club owns: made in a club's scope, the row is that
    club's (``clubsite.club_scope.current_club_id``); never edited in a form; a club with rows
    is never deleted by accident (PROTECT). ``db_index=False`` where a composite index or a
    unique constraint leads with the club."""
    return models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        related_name="+",
        default=current_club_id,
        editable=False,
        db_index=db_index,
        verbose_name=_("club"),
    )


# Where Member.for_user keeps its answers on a user object: {club id: membership or None}.
_MEMBERSHIPS = "_club_memberships"


def _known_memberships(user: AbstractBaseUser | AnonymousUser) -> dict[int, Member | None]:
    # By attribute, not through __dict__: request.user is a lazy object that passes attributes
    # on to the user it wraps.
    known: dict[int, Member | None] | None = getattr(user, _MEMBERSHIPS, None)
    if known is None:
        known = {}
        setattr(user, _MEMBERSHIPS, known)
    return known


def _unwrapped(user: AbstractBaseUser | AnonymousUser) -> Any:
    """The user itself of ``request.user``'s lazy object (evaluated by then), else ``user``."""
    return user._wrapped if isinstance(user, LazyObject) else user


class MemberQuerySet(models.QuerySet["Member"]):
    """``Member.objects``: the members, with the one filter every seat chooser uses."""

    def seatable(self) -> MemberQuerySet:
        """The members who may be given a seat: those whose membership is active. A steward
        deactivates a member at the desk (``clubsite.desk.members.member_set_active``); their
        games stay, but no game, tournament or line-up offers them a seat. A guest (another
        club's member entered in one of this club's events, ``Member.Role.GUEST``) is no
        member here: only their event seats them (``tournaments.guests``)."""
        return self.filter(active=True).exclude(role=Member.Role.GUEST)

    def of_club(self) -> MemberQuerySet:
        """The club's own members, its guests left out (``Member.Role.GUEST``): what a list
        of the club's members shows."""
        return self.exclude(role=Member.Role.GUEST)


def deactivated_names(members: Iterable[Member]) -> list[str]:
    """The display names of those of ``members`` whose membership is deactivated, in the
    order given (saved members only; one query). A seating that holds one is refused with
    them."""
    members = list(members)
    wanted = [m.pk for m in members if m.pk is not None]
    if not wanted:
        return []
    inactive = set(Member.objects.filter(pk__in=wanted, active=False).values_list("pk", flat=True))
    return [m.display_name for m in members if m.pk in inactive]


def seating_refusal(members: Iterable[Member]) -> str:
    """Why a seating of ``members`` cannot start ("" when it can): the deactivated among
    them, named and quoted (“A”, 「A」), in the reader's language. One query."""
    names = deactivated_names(members)
    if not names:
        return ""
    return gettext(
        "A deactivated member cannot be seated: %(names)s. A steward can reactivate them "
        "at the members desk."
    ) % {"names": quoted_names(names)}


MemberManager = ClubManager.from_queryset(MemberQuerySet)


class Member(models.Model):
    """A person's membership of one club: one login (``user``) may be a member of many clubs,
    once each, under a display name of each club's own.

    ``display_name`` is how the member appears on the club's score sheets and standings;
    ``furigana`` is the reading used to sort and search Japanese names; ``phone`` is visible
    only to stewards and to coordinators of meetups the member takes part in (see
    ``meetings.models.phone_visible_to``). ``role`` says whether they are one of the club's
    stewards (seed 001's 世話役; their rights: ``clubsite.permissions``); ``active`` is False
    once a steward deactivates them at the desk: their games stay, but the club offers them no
    seat and treats their login as no member's (:meth:`for_user`).

    A ``guest`` is a member of another club entered in one of this club's events (an event
    between clubs, ``tournaments.guests``): a membership of this club for the same login,
    so that their seats, confirmations and the event's ranking work as every member's;
    ``home`` is their membership of the club they came from. A guest opens only their
    events' and games' pages here (``clubsite.guest_access``), is listed in no list of the
    club's members and counts in no standings of this club.
    """

    class Role(models.TextChoices):
        MEMBER = "member", _("member")
        STEWARD = "steward", _("steward")
        GUEST = "guest", _("guest")

    club = club_key(db_index=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("login"),
    )
    display_name = models.CharField(
        _("display name"), max_length=60, validators=[validate_display_name]
    )
    furigana = models.CharField(_("furigana"), max_length=120, blank=True)
    phone = models.CharField(_("phone number"), max_length=30, blank=True)
    women_division = models.BooleanField(
        _("women's division (女流)"),
        default=False,
        help_text=_(
            "Eligible for the Grand Champion's seat for a woman player (seed 001, "
            "docs/rules-spec.md §4.2, T-02)."
        ),
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.MEMBER)
    active = models.BooleanField(
        _("active"),
        default=True,
        help_text=_("A deactivated member keeps their games but is offered no seat."),
    )
    # The member's own choice (their page): their figures on a page visitors may open
    # (``/public/members/<id>/``); off, that address is 404 to anyone.
    public_profile = models.BooleanField(_("public profile"), default=False)
    # A guest's membership of their own club (another club's row): whose standings their
    # games here may count in (``Club.guest_events_in_standings``). None for everyone else.
    home = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("home membership"),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = MemberManager()

    class Meta:
        ordering = ["furigana", "display_name"]
        verbose_name = _("member")
        verbose_name_plural = _("members")
        constraints = [
            # A display name is its club's: two clubs may each have a "Sato".
            models.UniqueConstraint(fields=["club", "display_name"], name="member_name_in_club"),
            # A person is a member of a club once; of other clubs as the same login.
            models.UniqueConstraint(fields=["club", "user"], name="member_once_in_club"),
        ]

    def __str__(self) -> str:
        return self.display_name

    @classmethod
    def for_user(
        cls, user: AbstractBaseUser | AnonymousUser, *, club: Club | None = None
    ) -> Member | None:
        """The active membership of ``user`` in ``club`` (default: the club of the work in
        hand, ``clubsite.club_scope.current_club``); None for anonymous visitors, for logins
        that are no member of the club (a superuser made with ``createsuperuser``, say, which
        may still log in) and for a membership the club has deactivated.

        At most one query per user object and club: the answer, either one, is kept on the
        user object (the login backend loads the current club's with the user,
        ``clubsite.auth_backends``).

        Raises:
            ClubNotChosen: no ``club`` given, outside any club's scope on a site of several.
        """
        if not user.is_authenticated or user.pk is None:
            return None
        club_id = int((club if club is not None else current_club()).pk)
        known = _known_memberships(user)
        if club_id not in known:
            membership = cls.objects.filter(club_id=club_id, user_id=user.pk, active=True).first()
            if membership is not None:
                membership.user = _unwrapped(user)
            known[club_id] = membership
        return known[club_id]

    @classmethod
    def remember_for_user(
        cls, user: AbstractBaseUser, club_id: int, membership: Member | None
    ) -> None:
        """Keep ``membership`` (or None) as ``user``'s answer of :meth:`for_user` in the club
        of ``club_id``, for a caller that loaded it with the user; an inactive one is kept
        as None."""
        if membership is not None and not membership.active:
            membership = None
        if membership is not None:
            membership.user = _unwrapped(user)
        _known_memberships(user)[club_id] = membership

    @classmethod
    def forget_for_user(cls, user: AbstractBaseUser) -> None:
        """Drop what :meth:`for_user` keeps on ``user``: its memberships changed."""
        if getattr(user, _MEMBERSHIPS, None) is not None:
            setattr(user, _MEMBERSHIPS, None)

    @property
    def is_guest(self) -> bool:
        """A guest of this club: another club's member entered in one of its events."""
        return self.role == self.Role.GUEST

    @property
    def sort_key(self) -> str:
        """Name order for lists: the furigana reading where given, else the display name."""
        return self.furigana or self.display_name


ONLINE_SERVICES = (
    ("tenhou", _("Tenhou")),
    ("majsoul", _("Mahjong Soul")),
    ("mjai", _("mjai")),
)


class OnlineName(models.Model):
    """A member's name on an online service: games imported from that service are
    matched to the member by it. A name belongs to one member per service."""

    club = club_key(db_index=False)
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="online_names")
    service = models.CharField(_("service"), max_length=20, choices=ONLINE_SERVICES)
    name = models.CharField(_("online name"), max_length=100)

    objects = ClubManager["OnlineName"]()

    class Meta:
        ordering = ["service", "name"]
        verbose_name = _("online name")
        verbose_name_plural = _("online names")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "service", "name"], name="online_name_once_in_club"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_service_display()})"


def lobby_number(lobby: str) -> str:
    """A lobby id as the logs and the club's setting compare it: ``"L1111"``, ``"C1111"``,
    ``"1111"`` and ``"01111"`` are all ``"1111"`` (an mjlog's ``GO lobby`` and a log id
    carry the number alone); any other id (a Mahjong Soul room) as written, trimmed."""
    text = lobby.strip()
    digits = text[1:] if text[:1] in ("L", "C", "l", "c") and text[1:].isdigit() else text
    return digits.lstrip("0") or digits if digits.isdigit() else text


class OnlineLobby(models.Model):
    """A lobby the club plays its online evenings in, counted under one of its rulesets: a
    Tenhou private lobby (``L1111``, a ``C`` tournament lobby) or a Mahjong Soul friendly room;
    its games are stored under ``ruleset_id`` (a built-in ruleset, with the lobby's own rules as
    the game's overrides) and count in the club's standings of that ruleset. Kept by stewards on
    ``/members/online-lobbies/``."""

    club = club_key(db_index=False)
    service = models.CharField(_("service"), max_length=20, choices=ONLINE_SERVICES)
    lobby = models.CharField(_("lobby"), max_length=40)
    ruleset_id = models.SlugField(_("club ruleset"), max_length=40)
    note = models.CharField(_("note on the lobby"), max_length=120, blank=True)

    objects = ClubManager["OnlineLobby"]()

    class Meta:
        ordering = ["service", "lobby"]
        verbose_name = _("online lobby")
        verbose_name_plural = _("online lobbies")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "service", "lobby"], name="online_lobby_once_in_club"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.lobby} ({self.get_service_display()}) -> {self.ruleset_id}"

    @classmethod
    def ruleset_for(cls, service: str, lobby: str) -> str | None:
        """The club ruleset id of ``lobby`` on ``service``, or ``None`` (not the club's)."""
        wanted = lobby_number(lobby)
        if not wanted:
            return None
        for row in cls.objects.filter(service=service):
            if lobby_number(row.lobby) == wanted:
                return row.ruleset_id
        return None


class PasswordResetRequest(models.Model):
    """A password reset e-mail asked for, kept an hour: at most so many go to one e-mail
    address, or are asked for from one client address, per hour (clubsite/password_reset.py).
    In the database, as axes keeps login failures, so that every worker counts the same."""

    email = models.CharField(max_length=254)
    address = models.GenericIPAddressField(null=True)
    requested_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["requested_at"]


class JoinApplication(models.Model):
    """A visitor's application to join the club, sent from its public page
    (``clubsite.desk.join``): who they say they are, how to reach them and what they wrote; the
    club's stewards accept or decline it at the desk (``/desk/applications/``).

    ``address`` is the client address it came from, kept for the per-address limit
    (``CLUB_JOIN_ADDRESS_LIMIT``); ``language`` the page's language, the one the welcome
    e-mail is written in once accepted. ``member`` is the membership an acceptance made (or
    found: a login with that e-mail address joins as the same person).
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    club = club_key(db_index=False)
    name = models.CharField(_("name"), max_length=60)
    email = models.EmailField(_("e-mail address"), max_length=254)
    message = models.TextField(_("message"), blank=True)
    language = models.CharField(_("language"), max_length=8, blank=True)
    address = models.GenericIPAddressField(null=True, blank=True)
    created_at = models.DateTimeField(_("sent at"), db_index=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    decided_by = models.ForeignKey(
        Member, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    member = models.ForeignKey(
        Member, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    objects = ClubManager["JoinApplication"]()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("join application")
        verbose_name_plural = _("join applications")
        indexes = [
            models.Index(fields=["club", "status", "created_at"], name="join_club_status_created"),
        ]

    def __str__(self) -> str:
        return f"{self.name} <{self.email}> ({self.status})"
