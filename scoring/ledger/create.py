"""Creating games in the ledger: a start at the table, an import, the history seeding.

:func:`create_games` is the one way a game comes into the ledger: its rows from the plan
(:mod:`scoring.ledger.rows`), the one confirmation (:func:`scoring.ledger.confirmation.vouch`)
and the one-game-once check (:mod:`scoring.ledger.fingerprint`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.club_scope import current_club
from clubsite.models import Member
from scoring.ledger import confirmation
from scoring.ledger.bulk import insert_objects, insert_rows
from scoring.ledger.errors import LedgerError
from scoring.ledger.fingerprint import DuplicateGame, game_fingerprint, online_identity
from scoring.ledger.plan import Plan
from scoring.ledger.rows import (
    ENTRY_FIELDS,
    FACT_FIELDS,
    YAKU_FIELDS,
    entry_values,
    fact_values,
    seat_sums,
    settle_seats,
    status_of,
    yaku_values,
)
from scoring.models import (
    Hanchan,
    HandEntry,
    HandSeat,
    LedgerChange,
    RulesetVersion,
    Seat,
    WinYaku,
)


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game to create with :func:`create_games`: its ``plan`` (a :class:`Record` plan,
    perhaps of no hands), the pinned ``version``, the ``members`` in seat order and the
    descriptive fields of ``Hanchan``."""

    plan: Plan
    version: RulesetVersion
    members: Sequence[Member]
    played_on: date
    overrides: dict[str, Any]
    venue: str = ""
    table_name: str = ""
    by: Member | None = None
    steward: bool = False
    # A true twin of a game already stored (``import_games --allow-duplicate``).
    allow_duplicate: bool = False
    # The online log it comes from, as its OnlineGame will say: (log format, log id);
    # empty for a club game. Part of what the game is (scoring.ledger.fingerprint).
    origin: tuple[str, str] = ("", "")

    def authority(self, confirmed: bool) -> bool:
        """Whether the game comes with a steward's authority: ``confirmed`` for the whole
        batch, a steward's act (``steward``), or no member at all (a command or the system,
        as :func:`~scoring.ledger.confirmation.vouch` reads a change made by no one)."""
        return confirmed or self.steward or self.by is None


def create_games(games: Sequence[NewGame], *, confirmed: bool = False) -> list[Hanchan]:
    """Create the games with their seats, hands, facts, settlements and "started" history.

    Every new game goes through the one confirmation (:mod:`scoring.ledger.confirmation`):
    one with a steward's authority (``confirmed`` for the whole batch, as
    the history seeding; ``NewGame.steward``, as an import by a steward; ``by`` None, as a
    command) counts at once when finished; otherwise its ``by`` vouches for their own seat
    (when seated) and the game waits for the others' confirmations like a table game.

    A finished game already in the ledger (its fingerprint, :mod:`scoring.ledger.fingerprint`,
    on a game not voided, or twice in ``games``) is refused unless ``allow_duplicate``.

    A fixed number of bulk inserts whatever the number of games (the history seeding stores
    a whole club night at once), plus a few queries per finished game that waits. Returns
    the hanchans in the order of ``games``.

    Raises:
        DuplicateGame: a finished game that is stored already; nothing is written.
    """
    club = current_club()
    fingerprints = [new_fingerprint(game) for game in games]
    _refuse_duplicates(games, fingerprints, club.pk)
    now = timezone.now()
    hanchans = Hanchan.objects.bulk_create(
        Hanchan(
            club=club,
            ruleset_version=game.version,
            overrides=game.overrides,
            played_on=game.played_on,
            venue=game.venue,
            table_name=game.table_name,
            status=status_of(game.plan),
            version=1 if game.plan.hands else 0,
            state=game.plan.state,
            ended_by=game.plan.ended_by or "",
            created_by=game.by,
            finished_at=None if game.plan.settlement is None else now,
            counted_version=(
                (1 if game.plan.hands else 0)
                if game.authority(confirmed) and game.plan.settlement is not None
                else None
            ),
            final_scores_only="final_scores" in game.plan.state,
            fingerprint=fingerprint,
        )
        for game, fingerprint in zip(games, fingerprints, strict=True)
    )
    seats: list[Seat] = []
    entries: list[tuple[Any, ...]] = []
    changes: list[LedgerChange] = []
    for hanchan, game in zip(hanchans, games, strict=True):
        game_seats = [Seat(hanchan=hanchan, index=i, member=m) for i, m in enumerate(game.members)]
        settle_seats(game_seats, game.plan)
        seats.extend(game_seats)
        by_id = game.by.pk if game.by else None
        entries.extend(entry_values(hanchan.pk, hand, by_id, now) for hand in game.plan.hands)
        changes.append(
            LedgerChange(
                hanchan=hanchan,
                action=LedgerChange.Action.STARTED,
                after={
                    "players": [m.pk for m in game.members],
                    "ruleset": game.version.ruleset_id,
                },
                by=game.by,
            )
        )
    # The seats, the history, the hands and their per-seat and per-yaku rows (some 50 rows a
    # game) in one statement a table: bulk_create's instance and preparation of every field
    # per row were most of an import's store. Only the hands' ids are read back.
    insert_objects(Seat, seats)
    insert_objects(LedgerChange, changes)
    hand_ids = insert_rows(HandEntry, ENTRY_FIELDS, entries, ids=True)
    members = {h.pk: [m.pk for m in g.members] for h, g in zip(hanchans, games, strict=True)}
    facts: list[tuple[Any, ...]] = []  # HandSeat values (FACT_FIELDS)
    yaku: list[tuple[Any, ...]] = []
    for hand_id, (hanchan_id, _sequence, data, result, *_rest) in zip(
        hand_ids, entries, strict=True
    ):
        facts += fact_values(hand_id, hanchan_id, data, result, members[hanchan_id])
        yaku += yaku_values(hand_id, hanchan_id, data, members[hanchan_id])
    insert_rows(HandSeat, FACT_FIELDS, facts)
    insert_rows(WinYaku, YAKU_FIELDS, yaku)
    counted = [h for h in hanchans if h.counted_version is not None]
    if counted:
        seats_of: dict[int, list[Seat]] = {h.pk: [] for h in counted}
        for seat in seats:
            if seat.hanchan_id in seats_of:
                seats_of[seat.hanchan_id].append(seat)
        confirmation.count_new(counted, seats_of, seat_sums(facts))
    for hanchan, game in zip(hanchans, games, strict=True):
        if hanchan.status == Hanchan.Status.FINISHED and hanchan.counted_version is None:
            confirmation.vouch(
                hanchan, game.by, steward=False, user_id=game.by.user_id if game.by else None
            )
    return hanchans


def new_fingerprint(game: NewGame) -> str:
    """The one-game-once fingerprint of ``game`` (:mod:`scoring.ledger.fingerprint`), ``""``
    for a game not finished."""
    if game.plan.settlement is None:
        return ""
    online, line = online_identity(*game.origin)
    return game_fingerprint(
        played_on=game.played_on,
        members=None if online or game.version.service else [m.pk for m in game.members],
        hand_results=[hand.result for hand in game.plan.hands],
        final_scores=game.plan.state.get("final_scores"),
        line=line,
    )


def _refuse_duplicates(games: Sequence[NewGame], fingerprints: Sequence[str], club_id: int) -> None:
    # A game is one club's: the same game stored by another club is no duplicate here.
    checked = {
        fp for game, fp in zip(games, fingerprints, strict=True) if fp and not game.allow_duplicate
    }
    if not checked:
        return
    stored = (
        Hanchan.objects.filter(club_id=club_id, fingerprint__in=checked)
        .exclude(status=Hanchan.Status.VOIDED)
        .order_by("pk")
        .first()
    )
    if stored is not None:
        raise DuplicateGame(stored)
    seen: set[str] = set()
    for game, fingerprint in zip(games, fingerprints, strict=True):
        if not fingerprint:
            continue
        if fingerprint in seen and not game.allow_duplicate:
            raise LedgerError(_("the same game twice in one import: nothing stored"), "fingerprint")
        seen.add(fingerprint)
