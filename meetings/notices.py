"""The text of a meetup notice in the reader's language. Notices are stored as a kind and
its parameters (names, dates as ISO strings), never as text, so that each reader, on the page
or in an e-mail, gets them in their own language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import models
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from meetings.display import format_iso_day, join_list, join_sentences

# ChangeRequest.Kind.CANCEL, as the notice's parameters store it.
CANCEL_REQUEST = "cancel"


class NoticeKind(models.TextChoices):
    """What a transition announced (``Notice.Kind``): here, beside the text of each kind."""

    POSTED = "posted", gettext_lazy("players wanted")
    APPLIED = "applied", gettext_lazy("application")
    WITHDREW = "withdrew", gettext_lazy("withdrawal")
    DECLARED = "declared", gettext_lazy("provisional line-up")
    CONFIRMED = "confirmed", gettext_lazy("confirmation")
    FINALIZED = "finalized", gettext_lazy("final notice")
    CALLED_OFF = "called_off", gettext_lazy("not established")
    CHANGE_REQUESTED = "change_requested", gettext_lazy("change request")
    RERECRUITED = "rerecruited", gettext_lazy("re-recruitment")
    MOVED = "moved", gettext_lazy("date changed")
    CANCELLED = "cancelled", gettext_lazy("cancelled")
    HELD = "held", gettext_lazy("held")
    REPORTED = "reported", gettext_lazy("results")


# The notices that announce a change of the meetup itself (its date, time, line-up or state),
# each a new revision of its calendar event (``Meetup.sequence``). Not: the call (revision 0),
# one member's confirmation, a change request (the coordinator's decision is its own notice);
# an application or a withdrawal only when it moves a seat of the line-up (``revises``).
REVISING_KINDS = frozenset(NoticeKind) - {
    NoticeKind.POSTED,
    NoticeKind.CONFIRMED,
    NoticeKind.CHANGE_REQUESTED,
}


def revises(kind: str, params: Mapping[str, Any]) -> bool:
    """Whether a notice of ``kind`` with ``params`` is a new revision of the meetup's event."""
    if kind == NoticeKind.APPLIED:
        return bool(params.get("seated"))
    if kind == NoticeKind.WITHDREW:
        return "offered_to" in params  # withdrew from the line-up of a declared date
    return kind in REVISING_KINDS


def notice_text(kind: str, params: Mapping[str, Any]) -> str:
    """A notice of ``kind`` with ``params`` in the active language, short as a mailing-list
    subject."""
    p = params
    day = format_iso_day(p.get("date", ""))
    names = join_list(p.get("names", []))
    match kind:
        case NoticeKind.POSTED:
            return gettext("%(days)s: players wanted (%(time)s, %(venue)s)") % {
                "days": join_list(format_iso_day(d) for d in p["dates"]),
                "time": p["time"],
                "venue": p["venue"],
            }
        case NoticeKind.APPLIED:
            if p.get("seated"):
                text = gettext("%(name)s takes an open seat — please confirm.")
            elif p.get("waiting"):
                text = gettext("%(name)s joins the waiting list.")
            else:
                text = gettext("%(name)s wants to play.")
            return join_sentences(text % {"name": p["name"]}, _lineup_full(p))
        case NoticeKind.WITHDREW:
            return join_sentences(
                gettext("%(name)s withdrew.") % {"name": p["name"]}, _seat_outcome(p)
            )
        case NoticeKind.DECLARED:
            return gettext("%(date)s is on, members %(names)s — please confirm.") % {
                "date": day,
                "names": names,
            }
        case NoticeKind.CONFIRMED:
            text = gettext("%(name)s confirmed.") % {"name": p["name"]}
            if p.get("everyone"):
                text = join_sentences(text, gettext("Everyone has confirmed."))
            return text
        case NoticeKind.FINALIZED:
            return gettext("Final: %(date)s %(time)s at %(venue)s, members %(names)s.") % {
                "date": day,
                "time": p["time"],
                "venue": p["venue"],
                "names": names,
            }
        case NoticeKind.CALLED_OFF:
            return gettext("%(days)s: not established.") % {
                "days": join_list(format_iso_day(d) for d in p["dates"])
            }
        case NoticeKind.CHANGE_REQUESTED:
            if p["kind"] == CANCEL_REQUEST:
                text = gettext("%(name)s cannot come and cancels.") % {"name": p["name"]}
            else:
                text = gettext("%(name)s asks for a change of date or time.") % {"name": p["name"]}
            if p.get("message"):
                quoted = pgettext("quoted message", "“%(message)s”") % {"message": p["message"]}
                text = join_sentences(text, quoted)
            return text
        case NoticeKind.RERECRUITED:
            text = gettext("%(date)s: re-recruiting the seat of %(names)s.") % {
                "date": day,
                "names": names,
            }
            return join_sentences(text, _seat_outcome(p))
        case NoticeKind.MOVED:
            return gettext(
                "Date/time changed: %(date)s %(time)s at %(venue)s — everyone, please "
                "confirm again."
            ) % {"date": day, "time": p["time"], "venue": p["venue"]}
        case NoticeKind.CANCELLED:
            return gettext("%(date)s at %(venue)s: cancelled.") % {
                "date": day,
                "venue": p["venue"],
            }
        case NoticeKind.HELD:
            return gettext("%(date)s: held.") % {"date": day}
        case NoticeKind.REPORTED:
            count = int(p.get("games", 0))
            return ngettext(
                "%(date)s: results reported, %(count)d hanchan.",
                "%(date)s: results reported, %(count)d hanchan.",
                count,
            ) % {"date": day, "count": count}
    # A kind no longer known: its name, as Django's get_kind_display would show it.
    return str(dict(NoticeKind.choices).get(kind, kind))


def _seat_outcome(p: Mapping[str, Any]) -> str:
    """What became of a seat that reopened: taken by the next applicant, or open."""
    if p.get("offered_to"):
        return gettext("The seat goes to %(names)s — please confirm.") % {
            "names": join_list(p["offered_to"])
        }
    if p.get("open_seats"):
        count = int(p["open_seats"])
        return ngettext(
            "%(count)d seat open: applications welcome.",
            "%(count)d seats open: applications welcome.",
            count,
        ) % {"count": count}
    return ""


def _lineup_full(p: Mapping[str, Any]) -> str:
    return gettext("The table is full again.") if p.get("full") else ""
