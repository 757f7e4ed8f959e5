"""Substitutions at a running tournament: a player who leaves mid-event is
replaced by a substitute (a member not entered in the event) or withdrawn, and the rounds not
yet started are seated again; the steward sees the draw before and after, with the repeat
meetings of both, and only then accepts it.

How the club handles it (docs/rules-spec.md §4 and seed 001 L368-403 say nothing of a player
leaving mid-event; the Meijin's 補欠, 001 L403, are substitutes chosen before it starts):

- **Games already played stay as they are.** The leaving player keeps their results and stays
  in the ranking, listed last as a withdrawn player; a game in play is finished as it stands.
  The change starts with the first round not started (``from_round``).
- **A substitute** enters the event as a participant of their own (a new number): the games
  they play from ``from_round`` on are theirs, in the ranking under their name (a total over
  fewer games), and they take part in a later phase seated by standing like anyone else.
- **A withdrawal** (no substitute) is possible only when the players who remain fill whole
  tables (e.g. 4 players leave at tables of 4). A single withdrawal leaves a table short, and
  the Makura standard has no game with an empty seat; a bye would sit out three players a
  round at tables of 4. So the short seat takes a substitute: the steward is told so, and
  nothing changes.
- **The re-seat.** Rounds drawn by lot are drawn again for the new roster by
  :func:`tournaments.seating.reseat_after_withdrawal` (the rounds played fixed, the pairs that
  met counted, seeded from the event's seed and the round: the same proposal every time it
  is asked for). The other candidate disturbs the draw least: the substitutes take the
  leavers' seats (this never adds a repeat meeting, and no one else moves), and the tables a
  withdrawal left short are merged into whole tables, the rest kept. The proposal is the
  candidate with fewer repeat meetings over the whole pairing table (played and pending
  rounds), the least disturbed on a tie. Rounds drawn by standing
  keep their tables, a substitute in the leaver's seat; after a withdrawal they are formed
  again from the same order (:func:`tournaments.seating.by_standing`).

Bound: a substitution adds at most :data:`MAX_ADDED_REPEATS` repeat meetings over the draw
left undisturbed (none, by the seat-for-seat candidate), for 40 players within 10 s (further
seeds are tried while over the bound, within :data:`TIME_BUDGET_SECONDS`). A withdrawal
shrinks the field over the same rounds and may add more (40 players over 10 rounds, 4 of
them leaving after round 4: 0 to 9); the page says so before it is accepted.

:func:`propose` only reads; :func:`accept` writes the proposal in one transaction (the new
participants, the withdrawn flags, the pending rounds' seating, one :class:`Substitution` per
leaver for the event's log) after checking that the draw it is given is still what the
proposal would be now.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from django.db import transaction
from django.utils.translation import gettext as _

from clubsite.models import Member, seating_refusal
from tournaments import emails, seating
from tournaments.models import Event, Participant, Phase, Round, Substitution
from tournaments.services import EventError

MAX_ADDED_REPEATS = 2
"""The most repeat meetings a re-seat may add over the draw left undisturbed."""

TIME_BUDGET_SECONDS = 8.0
"""How long further seeds are tried while a re-seat is over the bound (a seed is tried only
if it can end by then: the proposal comes within 10 s)."""

Draw = list[list[int]]


class SubstitutionError(EventError):
    """A substitution that is refused; ``str(error)`` says why, for a person. Nothing changed."""


@dataclass(frozen=True, slots=True)
class Change:
    """``leaving`` (a participant number) leaves; ``substitute`` takes their place (``None``:
    a withdrawal)."""

    leaving: int
    substitute: Member | None = None


@dataclass(frozen=True, slots=True)
class RoundDraw:
    """A pending round: its ``number`` and tables (participant numbers, seat order E S W N)."""

    number: int
    tables: Draw


@dataclass(slots=True)
class Proposal:
    """A re-seat shown before it is accepted.

    ``from_round``: the first round not started (the changes start there); ``numbers``: the
    participant number each substitute gets, by leaving number; ``before`` / ``after``: the
    pending rounds as drawn and as proposed; ``repeats_before`` / ``repeats_after``: repeat
    meetings (sum over pairs of meetings beyond the first) of the whole pairing table, played
    rounds included; ``kept_seats``: the substitutes took the leavers' seats and no one else
    moved; ``mended``: after a withdrawal, the tables left short were merged and the others
    kept; ``seconds``: how long the search took; ``fingerprint``: the state and the proposal,
    checked again on acceptance; ``attempt``: the seed of the search drawn (-1: the
    seat-for-seat draw); ``searched_repeats``: the fewest repeat meetings the search's draws
    had (``None``: not searched)."""

    event: Event
    changes: list[Change]
    from_round: int
    numbers: dict[int, int]
    names: dict[int, str]
    before: list[RoundDraw]
    after: list[RoundDraw]
    repeats_before: int
    repeats_after: int
    kept_seats: bool
    mended: bool
    seconds: float
    attempt: int = -1
    searched_repeats: int | None = None
    fingerprint: str = ""
    moved: set[int] = field(default_factory=set)

    @property
    def added_repeats(self) -> int:
        """Repeat meetings added over the undisturbed draw (negative: fewer)."""
        return self.repeats_after - self.repeats_before

    @property
    def within_bound(self) -> bool:
        return self.added_repeats <= MAX_ADDED_REPEATS


def propose(event: Event, changes: Sequence[Change], *, attempt: int | None = None) -> Proposal:
    """The re-seat for ``changes`` at ``event`` (see the module's rules). Reads only.
    ``attempt``: the search's seed to draw with alone, -1 the seat-for-seat draw alone (as
    accepted); ``None``: try seeds from 0 while over the bound and within
    :data:`TIME_BUDGET_SECONDS`.

    Raises:
        SubstitutionError: the event is not running; no change; a player twice, unknown or
            already withdrawn; a substitute twice, deactivated or already entered in the
            event; the
            players who would remain do not fill whole tables (a withdrawal that leaves a
            table short); fewer players than a later phase's finalists.
    """
    started = time.monotonic()
    changes = list(changes)
    if event.status != Event.Status.RUNNING:
        raise SubstitutionError(_("Only a running tournament has players to replace."))
    participants = list(event.participants.select_related("member").order_by("number"))
    active = {p.number: p for p in participants if not p.withdrawn}
    leaving = [c.leaving for c in changes]
    if not changes or len(set(leaving)) != len(leaving) or not set(leaving) <= active.keys():
        raise SubstitutionError(_("Choose players who are still in the tournament."))
    entered = {p.member_id for p in participants}
    subs = [c.substitute for c in changes if c.substitute is not None]
    if len({m.pk for m in subs}) != len(subs):
        raise SubstitutionError(_("A substitute is chosen twice."))
    if any(m.pk in entered for m in subs):
        raise SubstitutionError(_("A substitute must be a member not entered in the tournament."))
    refusal = seating_refusal(subs)
    if refusal:
        raise SubstitutionError(refusal)
    size = event.table_size
    next_number = max(p.number for p in participants) + 1
    numbers: dict[int, int] = {}
    names = {p.number: p.member.display_name for p in participants}
    for change in changes:
        if change.substitute is not None:
            numbers[change.leaving] = next_number
            names[next_number] = change.substitute.display_name
            next_number += 1
    roster = sorted((active.keys() - set(leaving)) | set(numbers.values()))
    if len(roster) < size or len(roster) % size:
        raise SubstitutionError(
            _(
                "%(n)d players would remain, and tables seat %(size)d: a withdrawal that "
                "leaves a table short needs a substitute for the seat."
            )
            % {"n": len(roster), "size": size}
        )
    rounds = list(event.rounds.select_related("phase").order_by("number"))
    played = [rnd for rnd in rounds if rnd.started_at is not None]
    pending = [rnd for rnd in rounds if rnd.started_at is None]
    drawn_phases = {rnd.phase_id for rnd in rounds}
    for phase in event.phases.all():
        if phase.pk not in drawn_phases and phase.qualifiers and phase.qualifiers > len(roster):
            raise SubstitutionError(
                _("%(n)d players would remain for %(q)d finalists.")
                % {"n": len(roster), "q": phase.qualifiers}
            )
    from_round = pending[0].number if pending else len(played) + 1
    before = [RoundDraw(rnd.number, _copy(rnd.seating)) for rnd in pending]
    history = [_copy(rnd.seating) for rnd in played]
    players = next_number
    repeats_before = _repeats(history + [d.tables for d in before], players, size)
    withdrawn = {c.leaving for c in changes if c.substitute is None}
    mended = _mended(pending, history, roster, numbers, withdrawn, size)
    candidates: list[tuple[int, int, list[RoundDraw]]] = [
        (_repeats(history + [d.tables for d in mended], players, size), 0, mended)
    ]
    lot = any(rnd.phase.seating == Phase.Seating.LOT for rnd in pending)
    # Further seeds while over the bound and within the time budget; on acceptance only the
    # seed chosen is drawn again (``attempt``), so a slower machine proposes the same.
    if attempt is None:
        tries: Sequence[int] = range(1_000)
    elif attempt < 0:
        tries = []
    else:
        tries = [max(attempt, 0)]
    searched: int | None = None
    for tried in tries:
        began = time.monotonic()
        drawn = _redraw(event, pending, history, roster, numbers, size, tried)
        candidates.append(
            (_repeats(history + [d.tables for d in drawn], players, size), 1 + tried, drawn)
        )
        best = min(candidates, key=lambda c: (c[0], c[1]))
        searched = min(searched if searched is not None else candidates[-1][0], candidates[-1][0])
        over = best[0] - repeats_before > MAX_ADDED_REPEATS
        # Another seed only if it can end within the budget (it takes about as long).
        now = time.monotonic()
        if not over or not lot or (now - started) + (now - began) > TIME_BUDGET_SECONDS:
            break
    best = min(candidates, key=lambda c: (c[0], c[1]))
    repeats_after, rank, after = best
    proposal = Proposal(
        event=event,
        changes=changes,
        from_round=from_round,
        numbers=numbers,
        names=names,
        before=before,
        after=after,
        repeats_before=repeats_before,
        repeats_after=repeats_after,
        kept_seats=rank == 0 and not withdrawn,
        mended=rank == 0 and bool(withdrawn),
        attempt=rank - 1,
        searched_repeats=searched,
        seconds=time.monotonic() - started,
        moved=_moved(before, after, numbers),
    )
    proposal.fingerprint = _fingerprint(proposal, participants)
    return proposal


def accept(
    *,
    event_id: int,
    changes: Sequence[Change],
    fingerprint: str,
    attempt: int | None = None,
    by: Member | None = None,
) -> list[Substitution]:
    """Write the proposal for ``changes`` in one transaction: enter the substitutes, mark the
    leavers withdrawn, seat the pending rounds as proposed, log one :class:`Substitution` per
    leaver, and e-mail the players their tables after the commit. ``fingerprint`` is the
    proposal's as the steward saw it, ``attempt`` its seed (:attr:`Proposal.attempt`); the
    proposal is computed again (deterministic for the seed) and must be the same. Returns
    the log entries.

    Raises:
        SubstitutionError: as :func:`propose`, or the draw or the players changed since the
            proposal was shown (nothing is written: look at it again).
    """
    with transaction.atomic():
        try:
            event = Event.objects.select_for_update().get(pk=event_id)
        except Event.DoesNotExist:
            raise SubstitutionError(_("There is no such tournament.")) from None
        proposal = propose(event, changes, attempt=attempt)
        if proposal.fingerprint != fingerprint:
            raise SubstitutionError(
                _("The tournament changed since this proposal was shown: look at it again.")
            )
        active = {p.number: p for p in event.participants.filter(withdrawn=False)}
        entered: dict[int, Participant] = {}
        for change in proposal.changes:
            if change.substitute is not None:
                number = proposal.numbers[change.leaving]
                entered[number] = Participant.objects.create(
                    event=event, member=change.substitute, number=number
                )
        leaving = [c.leaving for c in proposal.changes]
        Participant.objects.filter(event=event, number__in=leaving).update(withdrawn=True)
        pending = {
            rnd.number: rnd
            for rnd in Round.objects.select_for_update().filter(event=event, started_at=None)
        }
        for draw in proposal.after:
            rnd = pending[draw.number]
            rnd.seating = draw.tables
            rnd.save(update_fields=["seating"])
        log = [
            Substitution.objects.create(
                event=event,
                from_round=proposal.from_round,
                left=active[change.leaving],
                substitute=entered.get(proposal.numbers.get(change.leaving, -1)),
                repeats_before=proposal.repeats_before,
                repeats_after=proposal.repeats_after,
                by=by,
            )
            for change in proposal.changes
        ]
        if proposal.after:
            transaction.on_commit(
                partial(
                    emails.send_seating_emails.enqueue,
                    event.pk,
                    [d.number for d in proposal.after],
                    club_id=event.club_id,
                ),
                robust=True,
            )
    return log


def registered_substitutes(event: Event) -> list[Member]:
    """The substitutes the qualification race lists for a Grand Champion or a Meijin event,
    in order (seed 001 L403 "補欠", §4.3, T-05; the race of the event's first day's year,
    :mod:`tournaments.races`), less the members entered in the event; none for another
    format, and no deactivated member. Reads the standings behind the
    race."""
    from tournaments import races  # the races read the standings: only this page needs them

    race_of = {
        Event.Format.MEIJIN: races.meijin_race,
        Event.Format.GRAND_CHAMPION: races.grand_champion_race,
    }.get(Event.Format(event.format))
    if race_of is None:
        return []
    race = race_of(event.starts_on.year)
    entered = set(event.participants.values_list("member_id", flat=True))
    wanted = [e.runner.member_id for e in race.substitutes if e.runner.member_id not in entered]
    members = Member.objects.seatable().in_bulk(wanted)
    return [members[pk] for pk in wanted if pk in members]


def history(event: Event) -> list[Substitution]:
    """The event's substitutions, oldest first, with the players' members. One query."""
    return list(
        Substitution.objects.filter(event=event)
        .select_related("left__member", "substitute__member", "by")
        .order_by("at", "pk")
    )


def _redraw(
    event: Event,
    pending: Sequence[Round],
    history: list[Draw],
    roster: list[int],
    numbers: dict[int, int],
    size: int,
    attempt: int,
) -> list[RoundDraw]:
    """The pending rounds seated again for ``roster``: the rounds by lot by the search, with
    the played rounds fixed; those by standing from their order, substitutes in place."""
    by_lot = [rnd for rnd in pending if rnd.phase.seating == Phase.Seating.LOT]
    drawn: dict[int, Draw] = {}
    if by_lot:
        # One seed per event, round and attempt: the same proposal whenever it is asked for.
        seed = event.seed + 7919 * by_lot[0].number + 104729 * attempt
        redrawn = seating.reseat_after_withdrawal(
            history + [_copy(rnd.seating) for rnd in by_lot],
            len(history),
            roster,
            table_size=size,
            seed=seed,
        )
        for rnd, tables in zip(by_lot, redrawn[len(history) :], strict=True):
            drawn[rnd.number] = tables
    drawn.update(
        _redraw_standing(
            pending, history + [drawn[n] for n in sorted(drawn)], roster, numbers, size
        )
    )
    return [RoundDraw(rnd.number, drawn[rnd.number]) for rnd in pending]


def _redraw_standing(
    pending: Sequence[Round],
    earlier: list[Draw],
    roster: list[int],
    numbers: dict[int, int],
    size: int,
) -> dict[int, Draw]:
    """The pending rounds by standing: as drawn with the substitutes in place, or, after a
    withdrawal, formed again from the same order (winds against ``earlier``)."""
    by_standing = [rnd for rnd in pending if rnd.phase.seating == Phase.Seating.STANDING]
    drawn: dict[int, Draw] = {}
    if by_standing:
        swapped = _swap(_copy(by_standing[0].seating), numbers)
        order = [p for table in swapped for p in table if p in set(roster)]
        if len(order) == len(swapped) * size:
            for rnd in by_standing:
                drawn[rnd.number] = _swap(_copy(rnd.seating), numbers)
        else:
            winds = _winds(earlier, size)
            regrouped = seating.by_standing(order, len(by_standing), table_size=size, winds=winds)
            for rnd, seated in zip(by_standing, regrouped, strict=True):
                drawn[rnd.number] = seated
    return drawn


def _mended(
    pending: Sequence[Round],
    history: list[Draw],
    roster: list[int],
    numbers: dict[int, int],
    withdrawn: set[int],
    size: int,
) -> list[RoundDraw]:
    """The draw disturbed least: substitutes in the leavers' seats, the tables a withdrawal
    left short merged into whole tables (the grouping with the fewest earlier meetings,
    counted over every other round, by trying every grouping of up to 12 players, greedily
    beyond), the other tables as drawn. Rounds by standing as :func:`_redraw` seats them."""
    by_lot = [rnd for rnd in pending if rnd.phase.seating == Phase.Seating.LOT]
    kept: dict[int, Draw] = {}
    short: dict[int, list[int]] = {}
    for rnd in by_lot:
        tables = _swap(_copy(rnd.seating), numbers)
        kept[rnd.number] = [t for t in tables if not withdrawn & set(t)]
        short[rnd.number] = [
            p for t in tables if withdrawn & set(t) for p in t if p not in withdrawn
        ]
    met: dict[frozenset[int], int] = {}
    for tables in history + list(kept.values()):
        _count(met, tables)
    for rnd in by_lot:
        groups = _group(short[rnd.number], size, met)
        _count(met, groups)
        kept[rnd.number] = kept[rnd.number] + groups
    others = _redraw_standing(pending, history + list(kept.values()), roster, numbers, size)
    return [
        RoundDraw(rnd.number, kept[rnd.number] if rnd.number in kept else others[rnd.number])
        for rnd in pending
    ]


def _count(met: dict[frozenset[int], int], tables: Draw) -> None:
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            key = frozenset((a, b))
            met[key] = met.get(key, 0) + 1


def _group(players: list[int], size: int, met: dict[frozenset[int], int]) -> Draw:
    """``players`` in tables of ``size`` with the fewest earlier meetings at a table."""

    def cost(table: Sequence[int]) -> int:
        return sum(met.get(frozenset(pair), 0) for pair in itertools.combinations(table, 2))

    if len(players) > 12:
        left, groups = list(players), []
        while left:
            table = [left.pop(0)]
            while len(table) < size:
                pick = min(left, key=lambda p: cost([*table, p]))
                left.remove(pick)
                table.append(pick)
            groups.append(table)
        return groups

    def best(left: list[int]) -> tuple[int, Draw]:
        if not left:
            return 0, []
        first, rest = left[0], left[1:]
        found: tuple[int, Draw] | None = None
        for mates in itertools.combinations(rest, size - 1):
            table = [first, *mates]
            sub_cost, sub = best([p for p in rest if p not in mates])
            total = cost(table) + sub_cost
            if found is None or total < found[0]:
                found = (total, [table, *sub])
        assert found is not None
        return found

    return best(list(players))[1]


def _swap(tables: Draw, numbers: dict[int, int]) -> Draw:
    return [[numbers.get(p, p) for p in table] for table in tables]


def _copy(tables: Sequence[Sequence[int]]) -> Draw:
    return [list(table) for table in tables]


def _repeats(rounds: Sequence[Draw], players: int, size: int) -> int:
    if not rounds:
        return 0
    return seating.quality(rounds, players, size).repeats


def _winds(rounds: Sequence[Draw], size: int) -> dict[int, list[int]]:
    counts: dict[int, list[int]] = {}
    for tables in rounds:
        for table in tables:
            for wind, p in enumerate(table):
                counts.setdefault(p, [0] * size)[wind] += 1
    return counts


def _moved(before: list[RoundDraw], after: list[RoundDraw], numbers: dict[int, int]) -> set[int]:
    """Players whose table-mates changed in some pending round, besides the substitutes."""
    moved: set[int] = set()
    for old, new in zip(before, after, strict=True):
        mates_old = {p: frozenset(t) - {p} for t in _swap(old.tables, numbers) for p in t}
        for table in new.tables:
            for p in table:
                if mates_old.get(p) != frozenset(table) - {p}:
                    moved.add(p)
    return moved - set(numbers.values())


def _fingerprint(proposal: Proposal, participants: Sequence[Participant]) -> str:
    state = {
        "players": [(p.number, p.member_id, p.withdrawn) for p in participants],
        "changes": [
            (c.leaving, c.substitute.pk if c.substitute is not None else None)
            for c in proposal.changes
        ],
        "before": [(d.number, d.tables) for d in proposal.before],
        "after": [(d.number, d.tables) for d in proposal.after],
    }
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()[:32]
