"""The one way online games come into the ledger, whoever brings them (the upload page,
``manage.py import_games``): each file read (:func:`scoring.online.reading.read_game_file`),
a log re-scored by the engine once (:func:`scoring.online.verify.verify`; a lobby the club
lists counted under the club's ruleset without playing it again,
:func:`scoring.ledger.online.club.club_rules`), its players matched by their online names,
stored (consecutive logs in one batch, :func:`scoring.ledger.online.store.import_logs`; a
result line as a final-scores game), and an :class:`ImportOutcome` for each log, line or
file. The callers only say what became of each: the page in the reader's language, the
command in lines.

What differs between callers is said in :class:`ImportOptions` (who imports, what they may
do, how much a file may hold and how long the files are read for), never in code of theirs.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from django.utils.translation import gettext as _

from clubsite.models import Member
from scoring.ledger.confirmation import one_refresh
from scoring.ledger.errors import LedgerError
from scoring.ledger.fingerprint import DuplicateGame
from scoring.ledger.online.lines import LineGame, import_line_game, result_line_game
from scoring.ledger.online.players import Players, match_players
from scoring.ledger.online.store import AlreadyImported, import_logs
from scoring.models import Hanchan
from scoring.online.log import LogError
from scoring.online.reading import MAX_LOG_BYTES, read_game_file
from scoring.online.result_lines import LineUnreadable, ResultLine, read_lines
from scoring.online.verify import VerifiedGame, verify


class ImportStatus(StrEnum):
    """What became of a log, a result line or a file (:attr:`ImportOutcome.status`)."""

    STORED = "stored"
    ALREADY = "already"  # stored before: the same log, or the same game from another file
    AGREES = "agrees"  # only checked: re-scored (a log) or settled (a line), nothing stored
    REFUSED = "refused"
    RECORDS = "records"  # club game records: no online game (import_games imports them)


STORED, ALREADY, AGREES = ImportStatus.STORED, ImportStatus.ALREADY, ImportStatus.AGREES
REFUSED, RECORDS = ImportStatus.REFUSED, ImportStatus.RECORDS

# Why a file was refused where no exception says it (ImportOutcome.code).
NOT_READ = "not_read"  # the reading time ran out before it
TOO_LARGE = "too_large"  # larger than the limit, by its size before reading


@dataclass(frozen=True)
class GameSource:
    """A file to import: ``name`` as the outcomes name it, ``read(limit)`` its first
    ``limit`` bytes (an ``OSError`` is the file's refusal), ``size`` where it is known
    before reading (a larger file is refused unread), ``filename`` the name a Tenhou log id
    is read from (default: ``name``)."""

    name: str
    read: Callable[[int], bytes]
    size: int | None = None
    filename: str | None = None


@dataclass(frozen=True)
class ImportOptions:
    """Who imports, and how.

    ``played_on``: the day of result lines and of a log that gives none (``logs_played_on``
    for logs, where it differs). ``by``: the member importing (``None``: a command);
    ``steward``: their import counts at once (a member's once the other seated members
    confirm it); ``own_games_only``: a game none of whose seats is ``by``
    is refused (a member imports only their own games). ``create_members``, ``mapping``:
    as :func:`scoring.ledger.match_players` (``map_lines``: the mapping applies to result
    lines too). ``allow_duplicate``: a true twin of a stored game is stored. ``check_only``:
    re-score and settle, store nothing. ``limit``: the bytes a file may hold, unpacked;
    ``deadline``: by ``clock``, the time after which the files left are refused unread;
    ``lines_after_logs``: files of result lines are stored after every log (else in their
    place, after the logs before them).
    """

    played_on: datetime.date
    logs_played_on: datetime.date | None = None
    by: Member | None = None
    steward: bool = False
    own_games_only: bool = False
    create_members: bool = False
    mapping: Mapping[str, str] = field(default_factory=dict)
    map_lines: bool = True
    allow_duplicate: bool = False
    check_only: bool = False
    limit: int = MAX_LOG_BYTES
    deadline: float | None = None
    clock: Callable[[], float] = time.monotonic
    lines_after_logs: bool = False


@dataclass(frozen=True)
class ImportOutcome:
    """What became of one log, one result line or one file: ``status`` (:class:`ImportStatus`).

    ``name`` and ``source`` (its index among the files; the pasted lines come after them)
    say which file; ``place`` is the outcome's place in the report, in the order of the
    files (a file of result lines after every log where :attr:`ImportOptions.lines_after_logs`),
    while outcomes come as they happen (a batch of logs when it is stored). ``verified``: the
    log as verification read it; ``line`` the result line, ``line_game`` it settled;
    ``hanchan`` the game stored, or stored before; ``refusal`` why it was refused or is
    stored already (a :class:`LedgerError` such as :class:`AlreadyImported`, a ``LogError``
    of the reading, an ``OSError``), or ``code`` (:data:`NOT_READ`, :data:`TOO_LARGE`);
    ``new_members`` the members added, with their online names; ``records`` the club game
    records a file holds.
    """

    status: ImportStatus
    name: str
    source: int
    place: int
    verified: VerifiedGame | None = None
    line: ResultLine | None = None
    line_game: LineGame | None = None
    hanchan: Hanchan | None = None
    refusal: Exception | None = None
    code: str = ""
    new_members: tuple[tuple[str, Member], ...] = ()
    records: Any = None


def import_online(
    sources: Iterable[GameSource], options: ImportOptions, *, pasted: str = ""
) -> Iterator[ImportOutcome]:
    """Import ``sources`` (and ``pasted`` result lines, after them) in one transaction
    with the members' roll-ups refreshed once (:func:`scoring.ledger.one_refresh`): the
    outcome of each log, line and file, as it happens.

    Each log, each line and each file is stored or refused alone. A file of club records is
    not imported here: its outcome (``RECORDS``) comes after the logs before it are
    stored, and a caller that imports records does so before asking for the next outcome.
    """
    sources = list(sources)
    run = _Run(options)
    with one_refresh():
        later: list[tuple[int, str, _Lines]] = []
        for index, source in enumerate(sources):
            read = run.read(index, source)
            if isinstance(read, VerifiedGame):
                run.hold(index, source.name, read)
            elif isinstance(read, ImportOutcome):
                if read.status == RECORDS:
                    yield from run.flush()
                yield run.report(read)
            elif options.lines_after_logs:
                later.append((index, source.name, read))
            elif isinstance(read, LineUnreadable):
                # Refused as a file that is no game log is: the logs before it wait on.
                yield run.report(ImportOutcome(REFUSED, source.name, index, 0, refusal=read))
            else:
                yield from run.flush()
                yield from run.lines(index, source.name, read)
        yield from run.flush()
        for index, name, lines in later:
            yield from run.lines(index, name, lines)
        if pasted.strip():
            try:
                lines = read_lines(pasted)
            except LineUnreadable as whole:
                lines = whole
            yield from run.lines(len(sources), "", lines)


# Result lines read from a file or a paste, each a line or why it is none; or why the text
# as a whole is no result lines (too many, none).
_Lines = tuple[ResultLine | LineUnreadable, ...] | LineUnreadable


class _Run:
    """One :func:`import_online`: the places given so far and the logs waiting in a batch."""

    def __init__(self, options: ImportOptions) -> None:
        self.options = options
        self.places = 0
        self.batch: list[tuple[int, str, int, VerifiedGame]] = []  # source, name, place, log

    def place(self) -> int:
        self.places += 1
        return self.places - 1

    def report(self, outcome: ImportOutcome) -> ImportOutcome:
        """``outcome`` at the next place."""
        return _with(outcome, place=self.place())

    def hold(self, index: int, name: str, verified: VerifiedGame) -> None:
        """A re-scored log waits for the batch; its place is kept."""
        self.batch.append((index, name, self.place(), verified))

    def read(self, index: int, source: GameSource) -> ImportOutcome | VerifiedGame | _Lines:
        """``source`` read: a log re-scored, result lines, or its outcome (refused, records,
        or ``agrees`` when only checking)."""
        options = self.options
        refused = ImportOutcome(REFUSED, source.name, index, 0)
        if options.deadline is not None and options.clock() > options.deadline:
            return _with(refused, code=NOT_READ)
        if source.size is not None and source.size > options.limit:
            return _with(refused, code=TOO_LARGE)
        try:
            raw = source.read(options.limit + 1)
            game_file = read_game_file(raw, source.filename or source.name, limit=options.limit)
            if game_file.lines is not None:
                return game_file.lines
            if game_file.log is None:
                return ImportOutcome(RECORDS, source.name, index, 0, records=game_file.records)
            verified = verify(game_file.log)
        except LineUnreadable as whole:
            return whole
        except (OSError, LogError) as error:
            return _with(refused, refusal=error)
        if options.check_only:
            return ImportOutcome(AGREES, source.name, index, 0, verified=verified)
        return verified

    def flush(self) -> Iterator[ImportOutcome]:
        """The logs waiting stored in one batch (:func:`import_logs`), their outcomes."""
        if not self.batch:
            return
        batch, self.batch = self.batch, []
        options = self.options
        created: dict[int, tuple[tuple[str, Member], ...]] = {}

        def seated(at: int, players: Players) -> None:
            self.check_seated(players)
            created[at] = tuple(players.created)

        stored = import_logs(
            [verified for _i, _n, _p, verified in batch],
            played_on=options.logs_played_on or options.played_on,
            mapping=options.mapping,
            create_members=options.create_members,
            by=options.by,
            steward=options.steward,
            allow_duplicate=options.allow_duplicate,
            check=seated,
        )
        for at, ((index, name, place, verified), done) in enumerate(
            zip(batch, stored, strict=True)
        ):
            outcome = ImportOutcome(REFUSED, name, index, place, verified=verified)
            yield _done(outcome, done, created.get(at, ()))

    def check_seated(self, players: Players) -> None:
        """A member who imports only their own games sits at one of ``players``' seats.

        Raises:
            LedgerError: they do not.
        """
        by = self.options.by
        if self.options.own_games_only and (by is None or by not in players.members):
            raise LedgerError(
                _(
                    "You did not play in this game (none of its online names is yours): a "
                    "member imports their own games; a steward imports anyone's."
                )
            )

    def lines(self, index: int, name: str, lines: _Lines) -> Iterator[ImportOutcome]:
        """Result lines, each a final-scores game, settled under its
        lobby's rules, its players matched and stored on its own."""
        options = self.options
        if isinstance(lines, LineUnreadable):
            yield self.report(ImportOutcome(REFUSED, name, index, 0, refusal=lines))
            return
        for line in lines:
            outcome = ImportOutcome(REFUSED, name, index, self.place())
            if isinstance(line, LineUnreadable):
                # A faulty line is refused alone; the other lines go on.
                yield _with(outcome, refusal=line)
                continue
            outcome = _with(outcome, line=line)
            try:
                game = result_line_game(line, options.played_on)
                outcome = _with(outcome, line_game=game)
                if options.check_only:
                    yield _with(outcome, status=AGREES)
                    continue
                players = match_players(
                    game.log,
                    mapping=options.mapping if options.map_lines else None,
                    create_members=options.create_members,
                )
                self.check_seated(players)
                hanchan = import_line_game(
                    game,
                    players,
                    by=options.by,
                    steward=options.steward,
                    allow_duplicate=options.allow_duplicate,
                )
            except (ValueError, LedgerError) as refused:
                yield _done(outcome, refused, ())
                continue
            yield _done(outcome, hanchan, tuple(players.created))


def _done(
    outcome: ImportOutcome,
    done: Hanchan | Exception,
    created: tuple[tuple[str, Member], ...],
) -> ImportOutcome:
    """``outcome`` as a store ended: stored, stored before, or refused."""
    if isinstance(done, AlreadyImported | DuplicateGame):
        return _with(outcome, status=ALREADY, hanchan=done.hanchan, refusal=done)
    if isinstance(done, Exception):
        return _with(outcome, status=REFUSED, refusal=done)
    return _with(outcome, status=STORED, hanchan=done, new_members=created)


def _with(outcome: ImportOutcome, **changes: Any) -> ImportOutcome:
    return replace(outcome, **changes)
