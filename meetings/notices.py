"""The text of a meetup notice in the reader's language. Notices are stored as a kind and
its parameters (names, dates as ISO strings), never as text, so that each reader, on the page
or in an e-mail, gets them in their own language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext, ngettext, pgettext

from meetings.display import format_iso_day, join_list, join_sentences

if TYPE_CHECKING:
    from meetings.models import Notice

# ChangeRequest.Kind.CANCEL, as the notice's parameters store it.
CANCEL_REQUEST = "cancel"


def notice_text(notice: Notice) -> str:
    """The notice in the active language, short as a mailing-list subject."""
    p: dict[str, Any] = notice.params
    day = format_iso_day(p.get("date", ""))
    names = join_list(p.get("names", []))
    match notice.kind:
        case notice.Kind.POSTED:
            return gettext("%(days)s: players wanted (%(time)s, %(venue)s)") % {
                "days": join_list(format_iso_day(d) for d in p["dates"]),
                "time": p["time"],
                "venue": p["venue"],
            }
        case notice.Kind.APPLIED:
            if p.get("seated"):
                text = gettext("%(name)s takes an open seat — please confirm.")
            elif p.get("waiting"):
                text = gettext("%(name)s joins the waiting list.")
            else:
                text = gettext("%(name)s wants to play.")
            return join_sentences(text % {"name": p["name"]}, _lineup_full(notice))
        case notice.Kind.WITHDREW:
            return join_sentences(
                gettext("%(name)s withdrew.") % {"name": p["name"]}, _seat_outcome(notice)
            )
        case notice.Kind.DECLARED:
            return gettext("%(date)s is on, members %(names)s — please confirm.") % {
                "date": day,
                "names": names,
            }
        case notice.Kind.CONFIRMED:
            text = gettext("%(name)s confirmed.") % {"name": p["name"]}
            if p.get("everyone"):
                text = join_sentences(text, gettext("Everyone has confirmed."))
            return text
        case notice.Kind.FINALIZED:
            return gettext("Final: %(date)s %(time)s at %(venue)s, members %(names)s.") % {
                "date": day,
                "time": p["time"],
                "venue": p["venue"],
                "names": names,
            }
        case notice.Kind.CALLED_OFF:
            return gettext("%(days)s: not established.") % {
                "days": join_list(format_iso_day(d) for d in p["dates"])
            }
        case notice.Kind.CHANGE_REQUESTED:
            if p["kind"] == CANCEL_REQUEST:
                text = gettext("%(name)s cannot come and cancels.") % {"name": p["name"]}
            else:
                text = gettext("%(name)s asks for a change of date or time.") % {"name": p["name"]}
            if p.get("message"):
                quoted = pgettext("quoted message", "“%(message)s”") % {"message": p["message"]}
                text = join_sentences(text, quoted)
            return text
        case notice.Kind.RERECRUITED:
            text = gettext("%(date)s: re-recruiting the seat of %(names)s.") % {
                "date": day,
                "names": names,
            }
            return join_sentences(text, _seat_outcome(notice))
        case notice.Kind.MOVED:
            return gettext(
                "Date/time changed: %(date)s %(time)s at %(venue)s — everyone, please "
                "confirm again."
            ) % {"date": day, "time": p["time"], "venue": p["venue"]}
        case notice.Kind.CANCELLED:
            return gettext("%(date)s at %(venue)s: cancelled.") % {
                "date": day,
                "venue": p["venue"],
            }
        case notice.Kind.HELD:
            return gettext("%(date)s: held.") % {"date": day}
        case notice.Kind.REPORTED:
            count = int(p.get("games", 0))
            return ngettext(
                "%(date)s: results reported, %(count)d hanchan.",
                "%(date)s: results reported, %(count)d hanchan.",
                count,
            ) % {"date": day, "count": count}
    return notice.get_kind_display()


def _seat_outcome(notice: Notice) -> str:
    """What became of a seat that reopened: taken by the next applicant, or open."""
    p = notice.params
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


def _lineup_full(notice: Notice) -> str:
    return gettext("The table is full again.") if notice.params.get("full") else ""
