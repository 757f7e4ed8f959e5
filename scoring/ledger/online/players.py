"""Who sits at an online log's seats: the members its online names find, the
names ``--map`` (or the upload page's members by seat) gives, and the members made for names no
one has. Nothing is written while matching; :func:`save_players` saves the new members and
names with the game that needs them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from clubsite.members import imported_member_save
from clubsite.models import Member, OnlineName
from clubsite.names import NAME_LIMIT, clean_display_name
from scoring.ledger.errors import LedgerError
from scoring.online.log import OnlineLog

# Tenhou's name for a player who has not registered one: anyone, so never an online name.
ANONYMOUS = "NoName"


class UnknownNames(LedgerError):
    """Seats of the log with no member: ``names`` the online names no
    member has (nor ``--map`` gives), ``shared`` the names that cannot name one member —
    ``(name, seats)`` for a name at several seats (Mahjong Soul allows equal nicknames) or
    Tenhou's anonymous ``NoName`` — and ``nameless`` the seats the log names no one at,
    seats counted from 1. ``str()`` is the command's line;
    the upload page says it in its own words (:mod:`scoring.views.online`)."""

    def __init__(
        self,
        service: str,
        names: Sequence[str],
        shared: Sequence[tuple[str, tuple[int, ...]]],
        nameless: Sequence[int] = (),
    ) -> None:
        self.service = service
        self.names = tuple(names)
        self.shared = tuple(shared)
        self.nameless = tuple(nameless)
        parts = []
        if self.nameless:
            parts.append(
                _(
                    "the log gives no player names for seats %(seats)s, so no online name finds "
                    'them: give the member at each seat with --map "seat N=member" (--map '
                    '"seat %(seat)d=member" …)'
                )
                % {"seats": ", ".join(map(str, self.nameless)), "seat": self.nameless[0]}
            )
        if self.names:
            parts.append(
                _(
                    'unknown %(service)s name(s): %(names)s (give --map "name=member", add the '
                    "name to a member's online names, or use --create-members)"
                )
                % {"service": service, "names": ", ".join(self.names)}
            )
        for name, seats in self.shared:
            if len(seats) > 1:
                parts.append(
                    _(
                        "seats %(seats)s are all called %(name)s: no online name tells them "
                        "apart (use --create-members to add a member for each)"
                    )
                    % {"seats": ", ".join(map(str, seats)), "name": name}
                )
            else:
                parts.append(
                    _(
                        "seat %(seat)d is %(name)s, an anonymous player: no online name is "
                        'saved for it (give --map "%(name)s=member" or use --create-members)'
                    )
                    % {"seat": seats[0], "name": name}
                )
        super().__init__("; ".join(parts))


@dataclass(frozen=True)
class Players:
    """The members at the log's seats, and the online names newly saved for them (never a
    name at two seats, nor ``NoName``: those name nobody in particular); ``created`` is
    ``(online name, new member)`` for each seat that gets a new member (fixed when the
    players are matched: it still names them once :func:`save_players` has saved them)."""

    members: list[Member]
    saved: list[str]
    created: list[tuple[str, Member]] = field(default_factory=list)


def match_players(
    log: OnlineLog,
    *,
    mapping: Mapping[str, str] | None = None,
    create_members: bool = False,
) -> Players:
    """The member at each seat of ``log``, by the saved online names of its service.

    ``mapping`` gives a member's display name for an online name (``--map``): the pair is
    saved as that member's online name on import; a ``"seat N"`` key (N from 1) gives the
    member at that seat where no online name can find one — a seat the log names no one at
    (:attr:`OnlineLog.nameless`; the only way to it), one of several seats
    of one name, ``NoName`` — and is ignored at a seat with a name of its own (the upload
    page's choice applies to every log of an upload). With ``create_members`` an unknown name
    becomes a new member (no usable password) of that display name, or, where a member has
    that display name already or another seat takes it, of the first free ``"name (2)"``,
    ``"name (3)"``…: a display name alone never puts a seat on a member.

    A name at several seats of the log (equal nicknames) or Tenhou's ``NoName`` names no one
    player: it is never matched by a saved online name nor saved; each such seat gets a new
    member with ``create_members``, a ``NoName`` at one seat may be given by ``mapping``.
    Nothing is written here; :func:`save_players` saves the names and members with the
    game.

    Raises:
        UnknownNames: seats with no member (and no ``mapping`` entry nor
            ``create_members``; a nameless seat without its ``"seat N"`` entry), naming them.
        LedgerError: a mapped member that does not exist or is deactivated, a mapped
            name at several seats, or a name that is no display name.
    """
    return match_known(log, saved_names([log]), mapping or {}, create_members)


def saved_names(logs: Sequence[OnlineLog]) -> dict[tuple[str, str], Member]:
    """The members of the online names at the seats of ``logs``, by ``(service, name)``
    (one query, whatever the number of logs)."""
    services = {log.service for log in logs}
    names = {name for log in logs for name in log.players} - {ANONYMOUS}
    if not names:
        return {}
    return {
        (row.service, row.name): row.member
        for row in OnlineName.objects.select_related("member").filter(
            service__in=services, name__in=names
        )
    }


def match_known(
    log: OnlineLog,
    known: Mapping[tuple[str, str], Member],
    mapping: Mapping[str, str],
    create_members: bool,
) -> Players:
    """:func:`match_players` with the saved online names given (``known``, as
    :func:`saved_names`): a batch of logs reads them once."""
    seats_of: dict[str, list[int]] = {}
    for seat, name in enumerate(log.players, start=1):
        seats_of.setdefault(name, []).append(seat)
    shared = {name for name, seats in seats_of.items() if len(seats) > 1 or name == ANONYMOUS}
    # A seat the log names no one at is found by seat only, never saved.
    shared |= {log.players[seat] for seat in log.nameless}
    by_seat = _seat_mapping(mapping, len(log.players))
    saved = {
        name: known[(log.service, name)]
        for name in set(log.players) - shared
        if (log.service, name) in known
    }
    members: list[Member] = []
    unknown: list[str] = []
    unmatched: list[tuple[str, tuple[int, ...]]] = []
    new_names = []
    taken: set[str] = set()
    lost: list[int] = []
    for seat, name in enumerate(log.players):
        if seat in by_seat and name in shared:
            members.append(_mapped_member(f"seat {seat + 1}", by_seat[seat]))
            continue
        if seat in log.nameless:
            lost.append(seat + 1)
            continue
        if name in mapping and len(seats_of[name]) > 1:
            raise LedgerError(
                _(
                    "--map %(name)s=%(member)s: %(name)s is at seats %(seats)s; one member "
                    "cannot sit at several."
                )
                % {
                    "name": name,
                    "member": mapping[name],
                    "seats": ", ".join(map(str, seats_of[name])),
                }
            )
        if name in mapping:
            members.append(_mapped_member(name, mapping[name]))
            if name not in shared:
                new_names.append(name)
        elif name in saved:
            members.append(saved[name])
        elif create_members:
            members.append(Member(display_name=_free_display_name(name, taken)))
            if name not in shared:
                new_names.append(name)
        elif name in shared:
            if (name, tuple(seats_of[name])) not in unmatched:
                unmatched.append((name, tuple(seats_of[name])))
        else:
            unknown.append(name)
    if unknown or unmatched or lost:
        raise UnknownNames(log.service, unknown, unmatched, lost)
    created = [
        (name, member)
        for name, member in zip(log.players, members, strict=True)
        if member.pk is None
    ]
    return Players(members=members, saved=new_names, created=created)


# ``--map "seat 2=member"``: the member at a seat, counted from 1.
SEAT_KEY = re.compile(r"seat ?([1-9])", re.IGNORECASE)


def _seat_mapping(mapping: Mapping[str, str], players: int) -> dict[int, str]:
    """The display name ``mapping`` gives for each seat (0-based) by a ``"seat N"`` key."""
    out = {}
    for key, member in mapping.items():
        match = SEAT_KEY.fullmatch(key.strip())
        if match is not None and int(match[1]) <= players:
            out[int(match[1]) - 1] = member
    return out


def _mapped_member(key: str, display_name: str) -> Member:
    """The active member called ``display_name``, given for ``key`` (a name or ``"seat N"``)
    by ``--map``.

    Raises:
        LedgerError: no such member, or a deactivated one.
    """
    member = Member.objects.filter(display_name=display_name).first()
    if member is None:
        raise LedgerError(
            _("--map %(name)s=%(member)s: no member is called %(member)s.")
            % {"name": key, "member": display_name}
        )
    if not member.active:
        # A seat is mapped to a member chosen for it; a deactivated member is no choice.
        # Their saved online names still find them.
        raise LedgerError(
            _(
                "--map %(name)s=%(member)s: %(member)s is deactivated; a steward can "
                "reactivate them at the members desk."
            )
            % {"name": key, "member": display_name}
        )
    return member


def _free_display_name(name: str, taken: set[str]) -> str:
    """``name`` as a new member's display name: itself, or the first of ``"name (2)"``,
    ``"name (3)"``… that no member and no name in ``taken`` has (then added to ``taken``).

    Raises:
        LedgerError: ``name`` is no display name (empty, a control character).
    """
    try:
        base = clean_display_name(name[:NAME_LIMIT])
    except ValidationError as error:
        raise LedgerError(f"players: {name[:80]!r}: {' '.join(error.messages)}") from None
    candidate, number = base, 1
    while candidate in taken or Member.objects.filter(display_name=candidate).exists():
        number += 1
        suffix = f" ({number})"
        candidate = base[: NAME_LIMIT - len(suffix)].rstrip() + suffix
    taken.add(candidate)
    return candidate


def save_players(log: OnlineLog, players: Players) -> list[Member]:
    """The seats' members, new ones saved, and the online names newly given saved (inside
    the transaction that stores the game they sit at)."""
    members = []
    for member in players.members:
        if member.pk is None:
            imported_member_save(member)
        members.append(member)
    for name in players.saved:
        OnlineName.objects.update_or_create(
            service=log.service, name=name, defaults={"member": members[log.players.index(name)]}
        )
    return members
