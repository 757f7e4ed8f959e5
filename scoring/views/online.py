"""The upload page for online game logs: drop one or more files (Tenhou
JSON or mjlog, Mahjong Soul in Tenhou JSON, mjai); each is re-scored hand by hand and stored
only if the engine reproduces it (:mod:`scoring.online.verify`), then a summary says what was
stored, what was there already and what was refused and why. Tenhou result lines (pasted, or a
file of them) become final-scores games, each settled under its lobby's rules.

Stewards may create members for unknown online names. A member may import only a game they
sat in, every seat matched by a saved online name (:mod:`scoring.ledger`), and the game
counts once the other seated members confirm it, as a table game: a member
who claimed another player's online name moves nobody's result.
"""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from clubsite.formatting import format_points, settlement_points, signed_points
from clubsite.models import ONLINE_SERVICES, Member
from clubsite.names import quoted_names
from clubsite.permissions import is_steward
from scoring.engine import load_ruleset
from scoring.entry.game_forms import MemberChoiceField
from scoring.ledger import (
    AlreadyImported,
    DuplicateGame,
    LedgerError,
    Players,
    UnknownNames,
    import_line_game,
    import_logs,
    match_players,
    one_refresh,
    result_line_game,
)
from scoring.models import Hanchan, Seat
from scoring.online import result_lines
from scoring.online.log import LogError, LogMismatch, NotAGameLog
from scoring.online.reading import read_game_file
from scoring.online.verify import VerifiedGame, verify
from scoring.views.display import honba_label, round_label, ruleset_title

MAX_FILES = 20  # as DATA_UPLOAD_MAX_NUMBER_FILES, which refuses more before the form sees them
MAX_PASTE_CHARS = 40_000
SEATS = 4  # the members-by-seat selects
# What one uploaded file may unpack to (a hanchan's log is under 100 KB; the
# command takes up to MAX_LOG_BYTES), and the seconds an upload's files are read for: the
# files left when they run out are refused unread, so no upload holds a worker for long.
UPLOAD_LOG_BYTES = 2 * 1024 * 1024
UPLOAD_READ_SECONDS = 2.5
_clock = time.monotonic


class MultipleFileInput(forms.ClearableFileInput):
    """A file input that takes several files (``<input type=file multiple>``)."""

    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one field (Django's documented pattern for ``multiple``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault(
            "widget", MultipleFileInput(attrs={"accept": ".json,.mjlog,.xml,.jsonl,.gz,.txt"})
        )
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[UploadedFile]:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(item, initial) for item in data]
        return [single(data, initial)]


class ImportForm(forms.Form):
    """The upload of online game logs: up to 20 files, with or without new members for
    unknown names (stewards only) and with or without storing."""

    logs = MultipleFileField(
        label=gettext_lazy("Game logs"),
        required=False,
        help_text=gettext_lazy(
            "Tenhou (JSON or mjlog, as saved from the client or the log viewer), Mahjong Soul "
            "(its own game record, as replay tools and downloaders save it, or converted to "
            "Tenhou's JSON), or mjai. Up to 20 files."
        ),
    )
    # A private lobby's results, one final-scores game a line.
    lines = forms.CharField(
        label=gettext_lazy("Tenhou result lines"),
        required=False,
        max_length=MAX_PASTE_CHARS,
        # The refusal names the limit and the paste's length, never its text.
        error_messages={
            "max_length": gettext_lazy(
                "At most %(limit_value)d characters at a time (this text has %(show_value)d): "
                "paste fewer lines. Nothing was stored."
            )
        },
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
        help_text=gettext_lazy(
            "As the lobby's results page shows them, one game a line: "
            "L1000 | 00:30 | 四般南喰赤－ | A(+45.0) B(+10.0) C(-15.0) D(-40.0)"
        ),
    )
    played_on = forms.DateField(
        label=gettext_lazy("Date of the result lines"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    create_members = forms.BooleanField(
        label=gettext_lazy("Add a member for each unknown online name"), required=False
    )
    check_only = forms.BooleanField(label=gettext_lazy("Only check: store nothing"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The member at each seat of a log with no player names (an mjai
        # arena's): no online name can find them, a steward chooses them (stewards only).
        for seat in range(1, SEATS + 1):
            self.fields[f"seat_{seat}"] = MemberChoiceField(
                queryset=Member.objects.seatable().order_by("furigana", "display_name"),
                required=False,
                label=_("Seat %(n)d") % {"n": seat},
                empty_label="—",
            )

    def for_member(self) -> None:
        """Leave out what only a steward chooses: new members, the members by seat."""
        self.fields.pop("create_members")
        for seat in range(1, SEATS + 1):
            self.fields.pop(f"seat_{seat}")

    def seat_fields(self) -> list[forms.BoundField]:
        """The members-by-seat selects, where the form has them (a steward's)."""
        return [self[f"seat_{n}"] for n in range(1, SEATS + 1) if f"seat_{n}" in self.fields]

    def seats_chosen(self) -> bool:
        """A member was chosen for a seat (the selects are shown open)."""
        return any(self.data.get(field.html_name) for field in self.seat_fields())

    def seat_mapping(self) -> dict[str, str]:
        """The chosen members as ``--map`` gives them: ``{"seat 1": display name}``
        (:func:`scoring.ledger.match_players`; only a seat no online name can find takes it)."""
        return {
            f"seat {n}": member.display_name
            for n in range(1, SEATS + 1)
            if (member := self.cleaned_data.get(f"seat_{n}")) is not None
        }

    def clean_logs(self) -> list[UploadedFile]:
        """The uploaded files; more than :data:`MAX_FILES` is refused."""
        files: list[UploadedFile] = [f for f in self.cleaned_data["logs"] if f]
        if len(files) > MAX_FILES:
            raise forms.ValidationError(_("At most %(n)d files at a time.") % {"n": MAX_FILES})
        return files

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        pasted = (data.get("lines") or "").strip() or "lines" in self.errors
        if not data.get("logs") and not pasted:
            raise forms.ValidationError(_("Choose game logs or paste result lines."))
        return data


@dataclass(frozen=True)
class Outcome:
    """What happened to one file: ``status`` is ``stored``, ``already``, ``agrees`` (checked,
    nothing stored) or ``refused``; ``names_link`` shows the link to the member's online
    names page after the message."""

    name: str
    status: str
    message: str
    game: Hanchan | None = None
    names_link: bool = False  # the message is about online names: link the page to add them


@require_http_methods(["GET", "POST"])
def game_import(request: HttpRequest) -> HttpResponse:
    """``/games/import/``: upload online game logs; each is read, re-scored and stored as
    ``manage.py import_games`` does (:mod:`scoring.ledger`), and the page lists what
    became of each file. Members may import games they played in, stewards any game."""
    steward = is_steward(request.user)
    member = Member.for_user(request.user)
    outcomes: list[Outcome] = []
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if not steward:
            form.for_member()
        if form.is_valid():
            data = form.cleaned_data
            create = bool(data.get("create_members"))
            check = bool(data.get("check_only"))
            played_on = data.get("played_on") or timezone.localdate()
            # One transaction for the upload: the logs stored in one batch, each refused
            # alone, the members' roll-ups refreshed once for all.
            with one_refresh():
                texts = []
                logs: list[tuple[int, str, VerifiedGame, str]] = []
                deadline = _clock() + UPLOAD_READ_SECONDS
                for upload in data["logs"]:
                    if _clock() > deadline:
                        outcomes.append(_not_read(upload))
                        continue
                    text = _result_lines_text(upload)
                    if text is not None:
                        texts.append(text)
                        continue
                    read = _read(upload, check_only=check)
                    if isinstance(read, Outcome):
                        outcomes.append(read)
                    else:
                        logs.append((len(outcomes), upload.name or "?", *read))
                        outcomes.append(Outcome(upload.name or "?", "refused", ""))
                for index, outcome in _store(logs, member=member, steward=steward,
                                             create_members=create,
                                             mapping=form.seat_mapping()):  # fmt: skip
                    outcomes[index] = outcome
                if (data.get("lines") or "").strip():
                    texts.append(data["lines"])
                for text in texts:
                    outcomes += _import_lines(
                        text,
                        played_on,
                        member=member,
                        steward=steward,
                        create_members=create,
                        check_only=check,
                    )
        elif "lines" in form.errors:
            # A refused paste is not sent back into the text box: a page
            # of 900 KB for a 10,000-line paste, and the refusal says why already.
            without_paste = request.POST.copy()
            without_paste["lines"] = ""
            form.data = without_paste
    else:
        form = ImportForm()
        if not steward:
            form.for_member()
    context = {
        "form": form,
        "outcomes": outcomes,
        "stored": sum(1 for o in outcomes if o.status == "stored"),
        "refused": sum(1 for o in outcomes if o.status == "refused"),
        "steward": steward,
    }
    return render(request, "scoring/game_import.html", context)


def _not_read(upload: UploadedFile) -> Outcome:
    """A file left when the upload's reading time ran out (:data:`UPLOAD_READ_SECONDS`)."""
    return Outcome(
        upload.name or "?",
        "refused",
        _("Not read: this upload took too long to read. Send this file again with fewer others."),
    )


def _read(upload: UploadedFile, *, check_only: bool) -> Outcome | tuple[VerifiedGame, str]:
    """An uploaded file read and re-scored: the log with its summary for the page, or its
    outcome when it goes no further (refused; ``agrees`` when only checking)."""
    name = upload.name or "?"
    if upload.size is not None and upload.size > UPLOAD_LOG_BYTES:
        return Outcome(name, "refused", _("Too large to be a game log."))
    raw = upload.read(UPLOAD_LOG_BYTES + 1)
    try:
        game_file = read_game_file(raw, name, limit=UPLOAD_LOG_BYTES)
        log = game_file.log
        if log is None:
            return Outcome(
                name,
                "refused",
                _("A club game record: a steward imports those with the import_games command."),
            )
        verified = verify(log)
    except NotAGameLog:
        return Outcome(
            name,
            "refused",
            _(
                "Not a game log: this page takes Tenhou logs (JSON or mjlog), Mahjong Soul logs "
                "in Tenhou's JSON and mjai logs."
            ),
        )
    except LogMismatch as mismatch:
        return Outcome(name, "refused", _mismatch_sentence(mismatch))
    except LogError as error:
        return Outcome(name, "refused", _("Not a game log we can read: %(why)s") % {"why": error})
    summary = _("%(service)s game, %(ruleset)s, %(hands)d hands, final %(scores)s") % {
        "service": dict(ONLINE_SERVICES).get(log.service, log.service),
        "ruleset": ruleset_title(load_ruleset(verified.ruleset).name),
        "hands": len(log.hands),
        "scores": " / ".join(format_points(s) for s in verified.final["scores"]),
    }
    if check_only:
        return Outcome(
            name, "agrees", _("Agrees hand by hand: %(summary)s.") % {"summary": summary}
        )
    return verified, summary


def _store(
    logs: list[tuple[int, str, VerifiedGame, str]],
    *,
    member: Member | None,
    steward: bool,
    create_members: bool,
    mapping: dict[str, str],
) -> list[tuple[int, Outcome]]:
    """The re-scored logs (``(place on the page, file name, log, summary)``) stored in one
    batch (:func:`scoring.ledger.import_logs`), each stored or refused alone; the outcome of
    each at its place. A member stores only the games they sat in; a steward's ``mapping``
    (``{"seat 1": display name}``) gives the members at seats no online name can find."""
    if not logs:
        return []
    created: dict[int, list[Member]] = {}

    def seated(index: int, players: Players) -> None:
        if not steward and (member is None or member not in players.members):
            raise LedgerError(
                _(
                    "You did not play in this game (none of its online names is yours): a "
                    "member imports their own games; a steward imports anyone's."
                )
            )
        created[index] = [new for _name, new in players.created]

    stored = import_logs(
        [verified for _place, _name, verified, _summary in logs],
        played_on=timezone.localdate(),
        mapping=mapping if steward else {},
        create_members=steward and create_members,
        by=member,
        steward=steward,
        check=seated,
    )
    return [
        (place, _outcome(name, summary, done, created.get(index, []), member, steward))
        for index, ((place, name, _verified, summary), done) in enumerate(
            zip(logs, stored, strict=True)
        )
    ]


def _already(
    name: str, done: AlreadyImported | DuplicateGame, member: Member | None, steward: bool
) -> Outcome:
    """A game stored already (the same log, or the same game from another file: its mjlog
    and its JSON, a changed log id), named with its link only to a reader who may see it
    as its own: a steward or a player of it; anyone else is told it is
    stored, not which game it is."""
    stored: Hanchan = done.hanchan
    if steward or (
        member is not None and Seat.objects.filter(hanchan=stored, member=member).exists()
    ):
        return Outcome(name, "already", _("Already imported: nothing stored."), stored)
    return Outcome(name, "already", _("This game is stored already: nothing stored."))


def _outcome(
    name: str,
    summary: str,
    done: Hanchan | LedgerError,
    new_members: list[Member],
    member: Member | None,
    steward: bool,
) -> Outcome:
    """What the page says of one stored or refused log."""
    if isinstance(done, AlreadyImported | DuplicateGame):
        return _already(name, done, member, steward)
    if isinstance(done, UnknownNames):
        return Outcome(name, "refused", _unknown_sentence(done), names_link=True)
    if isinstance(done, LedgerError):
        return Outcome(name, "refused", str(done))
    hanchan = done
    message = _("Stored: %(summary)s.") % {"summary": summary}
    version = hanchan.ruleset_version
    if not version.service:
        # A lobby the club lists: stored under the club's ruleset.
        message += " " + _("It counts under the club's %(ruleset)s.") % {
            "ruleset": ruleset_title(version.name)
        }
    if hanchan.counted_version is None:
        # The uploader vouches for their own seat; the others confirm.
        message += " " + _(
            "It counts in the standings once the other players at the table confirm it (or a "
            "steward does): it waits on their home pages."
        )
    if new_members:
        # Under which names the unknown players joined ("NoName (2)").
        message += " " + _("New members: %(names)s.") % {
            "names": ", ".join(m.display_name for m in new_members)
        }
    return Outcome(name, "stored", message, hanchan)


def _result_lines_text(upload: UploadedFile) -> str | None:
    """The text of an uploaded file of Tenhou result lines, else ``None``
    (the file is read again as a game log)."""
    if upload.size is not None and upload.size > UPLOAD_LOG_BYTES:
        return None
    raw = upload.read(UPLOAD_LOG_BYTES + 1)
    upload.seek(0)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    return text if result_lines.looks_like(text.strip()) else None


def _import_lines(
    text: str,
    played_on: datetime.date,
    *,
    member: Member | None,
    steward: bool,
    create_members: bool,
    check_only: bool,
) -> list[Outcome]:
    """Tenhou result lines, each a final-scores game on ``played_on``:
    settled under the lobby's rules (the club's ruleset for a lobby it counts), the
    players matched by their online names, stored through the ledger; one outcome a line."""
    try:
        lines = result_lines.read_lines(text)
    except result_lines.LineUnreadable as error:
        return [Outcome(_("Result lines"), "refused", _unreadable_sentence(error))]
    outcomes = []
    for line in lines:
        if isinstance(line, result_lines.LineUnreadable):
            # A faulty line is refused alone; the other lines go on.
            outcomes.append(
                Outcome(_("Line %(n)d") % {"n": line.number}, "refused", _unreadable_sentence(line))
            )
            continue
        name = f"{line.lobby} {line.time}".strip()
        try:
            game = result_line_game(line, played_on)
            if check_only:
                outcomes.append(Outcome(name, "agrees", _line_summary(game.settled)))
                continue
            players = match_players(game.log, create_members=steward and create_members)
            if not steward and (member is None or member not in players.members):
                outcomes.append(
                    Outcome(
                        name,
                        "refused",
                        _(
                            "You did not play in this game (none of its online names is "
                            "yours): a member imports their own games; a steward imports "
                            "anyone's."
                        ),
                    )
                )
                continue
            hanchan = import_line_game(game, players, by=member, steward=steward)
        except (AlreadyImported, DuplicateGame) as done:
            outcomes.append(_already(name, done, member, steward))
            continue
        except result_lines.LineUnsettled as unsettled:
            outcomes.append(Outcome(name, "refused", _unsettled_sentence(unsettled)))
            continue
        except UnknownNames as unknown:
            outcomes.append(Outcome(name, "refused", _unknown_sentence(unknown), names_link=True))
            continue
        except (LogError, LedgerError) as error:
            outcomes.append(Outcome(name, "refused", str(error)))
            continue
        message = _("Stored: %(summary)s.") % {"summary": _line_summary(game.settled)}
        if hanchan.counted_version is None:
            message += " " + _(
                "It counts in the standings once the other players at the table confirm it "
                "(or a steward does): it waits on their home pages."
            )
        outcomes.append(Outcome(name, "stored", message, hanchan))
    return outcomes


def _line_summary(settled: result_lines.SettledLine) -> str:
    """``"final scores, Tenhou 4-player East-South, 35,000 / 30,000 / …"``."""
    return _("final scores, %(ruleset)s, %(scores)s") % {
        "ruleset": ruleset_title(load_ruleset(settled.ruleset).name),
        "scores": " / ".join(format_points(s) for s in settled.scores),
    }


def _unreadable_sentence(error: result_lines.LineUnreadable) -> str:
    """Why a line is not a result line, in the reader's words: each
    fault said as it is, and that nothing was stored from that line."""
    values = {"n": error.number, **error.params}
    for key in ("name", "rule"):
        if key in values:
            values[key] = quoted_names([values[key]])
    sentences = {
        "lobby_type": _(
            "Line %(n)d: the lobby type %(rule)s does not say how many players (四 or 三). "
            "Nothing was stored from this line."
        ),
        "players": _(
            "Line %(n)d: the players are not written as name(+45.0) name(-5.0) …. Nothing "
            "was stored from this line."
        ),
        "seats": _(
            "Line %(n)d has %(found)d players, but its lobby type %(rule)s has %(seats)d. "
            "Nothing was stored from this line."
        ),
        "name_twice": _(
            "Line %(n)d names %(name)s at two seats. Nothing was stored from this line."
        ),
        "chips": _(
            "Line %(n)d gives chips for some players only. Nothing was stored from this line."
        ),
        "text": _(
            "Line %(n)d holds a character that cannot be stored (%(key)s). Nothing was "
            "stored from this line."
        ),
        "too_many": _(
            "More than %(limit)d result lines: paste fewer at a time. Nothing was stored."
        ),
        "empty": _("These are not Tenhou result lines: nothing was stored from them."),
    }
    sentence = sentences.get(
        error.code,
        _(
            "Line %(n)d is not a Tenhou result line (lobby | time | lobby type | "
            "name(+45.0) …). Nothing was stored from this line."
        ),
    )
    return sentence % values


def _unsettled_sentence(unsettled: result_lines.LineUnsettled) -> str:
    """A line whose points do not settle, in the reader's language: the ruleset, its uma
    and return, and both settlements."""
    return _(
        "The points %(theirs)s do not settle under %(ruleset)s (uma %(uma)s, return "
        "%(back)s): the scores they imply settle to %(ours)s. Nothing was stored."
    ) % {
        "theirs": " / ".join(settlement_points(p) for p in unsettled.theirs),
        "ruleset": ruleset_title(load_ruleset(unsettled.ruleset).name),
        "uma": " / ".join(settlement_points(u) for u in unsettled.uma),
        "back": format_points(unsettled.return_points),
        "ours": " / ".join(settlement_points(p) for p in unsettled.ours),
    }


def _mismatch_sentence(mismatch: LogMismatch) -> str:
    """The refusal in the reader's language: the hand and both figures (the changes, the
    final scores or a win's value: :attr:`LogMismatch.figure`)."""
    where = {
        "round": round_label(mismatch.round) if mismatch.round else mismatch.hand,
        "honba": honba_label(mismatch.honba),
    }
    if mismatch.figure == "final scores":
        return _(
            "%(round)s %(honba)s: the log's final scores are %(theirs)s, the engine's "
            "%(ours)s. Nothing was stored."
        ) % {
            **where,
            "theirs": " / ".join(format_points(p) for p in mismatch.theirs),
            "ours": " / ".join(format_points(p) for p in mismatch.ours),
        }
    if mismatch.figure == "win value":  # one winner's value, the other seats 0
        return _(
            "%(round)s %(honba)s: the log's value of the win is %(theirs)s, the engine's "
            "%(ours)s. Nothing was stored."
        ) % {
            **where,
            "theirs": format_points(sum(mismatch.theirs)),
            "ours": format_points(sum(mismatch.ours)),
        }
    return _(
        "%(round)s %(honba)s: the log's changes are %(theirs)s, the engine's %(ours)s. "
        "Nothing was stored."
    ) % {
        **where,
        "theirs": " / ".join(signed_points(p) for p in mismatch.theirs),
        "ours": " / ".join(signed_points(p) for p in mismatch.ours),
    }


def _unknown_sentence(unknown: UnknownNames) -> str:
    """Seats with no member in the site's words: the service as the reader's
    language names it and what to do on this site; the command's ``--map`` and
    ``--create-members`` advice (``str(unknown)``) is for the command only."""
    service = dict(ONLINE_SERVICES).get(unknown.service, unknown.service)
    parts = []
    if unknown.nameless:
        # No name to match or to add a member under; the command takes the
        # member at each seat.
        parts.append(
            _(
                "The log gives no player names (seats %(seats)s), so no online name can find "
                "its players. A steward chooses the member at each seat under “A log with no "
                "player names” and imports it again (or gives them to the import_games "
                'command: --map "seat 1=member" …).'
            )
            % {"seats": ", ".join(map(str, unknown.nameless))}
        )
    if unknown.names:
        parts.append(
            _(
                "No member has these %(service)s names: %(names)s. Each player adds their own "
                "on their online names page; a steward can instead add a member for each."
            )
            % {"service": service, "names": quoted_names(unknown.names)}
        )
    for name, seats in unknown.shared:
        if len(seats) > 1:
            parts.append(
                _(
                    "Seats %(seats)s are all called %(name)s on %(service)s: online names "
                    "cannot tell them apart, so a steward imports this game, adding a member "
                    "for each."
                )
                % {
                    "seats": ", ".join(map(str, seats)),
                    "name": quoted_names([name]),
                    "service": service,
                }
            )
        else:
            parts.append(
                _(
                    "Seat %(seat)d is %(name)s, an anonymous %(service)s player: no online "
                    "name can be theirs, so a steward imports this game, adding a member for "
                    "them."
                )
                % {"seat": seats[0], "name": quoted_names([name]), "service": service}
            )
    return " ".join(parts)
