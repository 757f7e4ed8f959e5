"""Who may take which action on a meetup, now: a table of refusals per action, checked in
order (docs/rules-spec.md §5.2; "the coordinator" is the meetup's coordinator or a steward).
The pages offer exactly the buttons the services accept, since both ask :func:`refusal`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from clubsite.models import Member
from meetings.states import ARRANGING, Action, Refusal, State

Viewer = AbstractBaseUser | AnonymousUser


# What the rules read of a meetup and its applications and change requests
# (meetings.models): the models ask this module, so it names what it needs instead of
# importing them.


class Asker(Protocol):
    """A member's application to the meetup (``meetings.models.Application``)."""

    @property
    def member_id(self) -> int: ...
    @property
    def seated(self) -> bool: ...


class Request(Protocol):
    """An open change request (``meetings.models.ChangeRequest``)."""

    @property
    def member_id(self) -> int: ...


class Asked(Protocol):
    """The meetup (``meetings.models.Meetup``)."""

    @property
    def state(self) -> str: ...
    def can_manage(self, viewer: Viewer) -> bool: ...
    def application_of(self, member: Member | None) -> Asker | None: ...
    def everyone_confirmed(self) -> bool: ...
    def open_change_requests(self) -> Sequence[Request]: ...


@dataclass(frozen=True)
class Ask:
    """Who asks to take an action on which meetup, looked up once for all the checks."""

    meetup: Asked
    viewer: Viewer
    member: Member | None
    application: Asker | None

    @property
    def manages(self) -> bool:
        return self.meetup.can_manage(self.viewer)

    @property
    def seated(self) -> bool:
        return self.application is not None and self.application.seated

    @property
    def state(self) -> str:
        return self.meetup.state


@dataclass(frozen=True)
class Rule:
    """A check: when ``applies``, the action is refused with ``message``; ``forbidden``
    (the action is not theirs to take: 403) or not now (a wrong state: 409)."""

    applies: Callable[[Ask], bool]
    message: Promise
    forbidden: bool = False


def _not_manager(ask: Ask) -> bool:
    return not ask.manages


def _date_declared(ask: Ask) -> bool:
    return getattr(ask.meetup, "date", None) is not None


def _already_confirmed(ask: Ask) -> bool:
    return getattr(ask.application, "confirmed_at", None) is not None


def _day_to_come(ask: Ask) -> bool:
    day = getattr(ask.meetup, "date", None)
    return day is not None and day > timezone.localdate()


MANAGER_ONLY = Rule(
    _not_manager, _("Only the meetup's coordinator or a steward can do this."), forbidden=True
)

RULES: dict[Action, tuple[Rule, ...]] = {
    Action.APPLY: (
        Rule(lambda a: a.member is None, _("Only club members can apply."), forbidden=True),
        Rule(lambda a: a.state not in ARRANGING, _("This meetup is not taking applications.")),
        Rule(lambda a: a.application is not None, _("You have already applied.")),
    ),
    Action.WITHDRAW: (
        Rule(lambda a: a.application is None, _("You have not applied to this meetup."),
             forbidden=True),
        Rule(lambda a: a.state not in ARRANGING,
             _("This meetup is over; there is nothing to withdraw.")),
        Rule(lambda a: a.state == State.CONFIRMED and a.seated,
             _("After the final notice, tell the coordinator: cancel or ask for a change "
               "instead.")),
    ),
    Action.DECLARE: (
        MANAGER_ONLY,
        Rule(lambda a: a.state != State.RECRUITING or _date_declared(a),
             _("A line-up can be declared only while the call is open.")),
    ),
    Action.CONFIRM: (
        Rule(lambda a: not a.seated, _("Only the members of the line-up confirm."),
             forbidden=True),
        Rule(lambda a: a.state != State.PROVISIONAL, _("There is nothing to confirm now.")),
        Rule(_already_confirmed,
             _("You have already confirmed.")),
    ),
    Action.FINALIZE: (
        MANAGER_ONLY,
        Rule(lambda a: a.state != State.PROVISIONAL,
             _("Only a provisional line-up can be made final.")),
        Rule(lambda a: not a.meetup.everyone_confirmed(),
             _("Not everyone in the line-up has confirmed yet.")),
    ),
    Action.CALL_OFF: (
        MANAGER_ONLY,
        Rule(lambda a: a.state not in (State.RECRUITING, State.PROVISIONAL),
             _("Only a meetup still being recruited can be called off.")),
    ),
    Action.REQUEST_CHANGE: (
        Rule(lambda a: not a.seated, _("Only the members of the line-up can ask for this."),
             forbidden=True),
        Rule(lambda a: a.state != State.CONFIRMED,
             _("Change requests are for confirmed meetups.")),
        Rule(lambda a: a.application is not None and any(
                 r.member_id == a.application.member_id
                 for r in a.meetup.open_change_requests()),
             _("The coordinator has your request already.")),
    ),
    Action.RERECRUIT: (
        MANAGER_ONLY,
        Rule(lambda a: a.state != State.CONFIRMED,
             _("Seats are re-recruited only after the final notice.")),
        Rule(lambda a: not a.meetup.open_change_requests(),
             _("Nobody has asked to cancel or change.")),
    ),
    Action.MOVE: (
        MANAGER_ONLY,
        Rule(lambda a: a.state != State.CONFIRMED,
             _("Only a confirmed meetup can be moved or cancelled.")),
    ),
    Action.CANCEL: (
        MANAGER_ONLY,
        Rule(lambda a: a.state != State.CONFIRMED,
             _("Only a confirmed meetup can be moved or cancelled.")),
    ),
    Action.MARK_HELD: (
        MANAGER_ONLY,
        Rule(lambda a: a.state != State.CONFIRMED,
             _("Only a confirmed meetup can be marked as held.")),
        Rule(_day_to_come,
             _("The meetup's day has not come yet.")),
    ),
    Action.REPORT: (
        MANAGER_ONLY,
        Rule(lambda a: a.state != State.HELD,
             _("Results are reported after the meetup was held.")),
    ),
}  # fmt: skip


def refusal(meetup: Asked, action: Action, viewer: Viewer) -> Refusal | None:
    """Why ``viewer`` may not take ``action`` on ``meetup`` now, or None if they may: the
    first rule of :data:`RULES` that applies."""
    member = Member.for_user(viewer)
    ask = Ask(meetup, viewer, member, meetup.application_of(member))
    for rule in RULES[action]:
        if rule.applies(ask):
            return Refusal(str(rule.message), forbidden=rule.forbidden)
    return None
