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

import time
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from clubsite.dates import club_today
from clubsite.formatting import format_points, settlement_points, signed_points
from clubsite.models import ONLINE_SERVICES, Member
from clubsite.names import quoted_names
from clubsite.permissions import may_keep_every_game
from scoring.engine import load_ruleset
from scoring.entry.game_forms import MemberChoiceField
from scoring.ledger import (
    NOT_READ,
    TOO_LARGE,
    GameSource,
    ImportOptions,
    ImportOutcome,
    ImportStatus,
    LedgerError,
    UnknownNames,
    has_counted_version,
    import_online,
)
from scoring.models import Hanchan, Seat
from scoring.online import result_lines
from scoring.online.log import LogMismatch, NotAGameLog
from scoring.online.verify import VerifiedGame
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
    """``/games/import/``: upload online game logs; each is read, re-scored and stored by
    the ledger's one online import path (:func:`scoring.ledger.import_online`), as
    ``manage.py import_games`` stores them, and the page lists what became of each file.
    Members may import games they played in, stewards any game."""
    steward = may_keep_every_game(request.user)
    member = Member.for_user(request.user)
    outcomes: list[Outcome] = []
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if not steward:
            form.for_member()
        if form.is_valid():
            data = form.cleaned_data
            options = ImportOptions(
                played_on=data.get("played_on") or club_today(),
                logs_played_on=club_today(),
                by=member,
                steward=steward,
                own_games_only=not steward,
                create_members=steward and bool(data.get("create_members")),
                # A steward's members by seat go with every log of the upload, not its lines.
                mapping=form.seat_mapping() if steward else {},
                map_lines=False,
                check_only=bool(data.get("check_only")),
                limit=UPLOAD_LOG_BYTES,
                deadline=_clock() + UPLOAD_READ_SECONDS,
                clock=_clock,
                # Each file's outcome at its place, the result lines' after every log's.
                lines_after_logs=True,
            )
            done = import_online(
                [_source(upload) for upload in data["logs"]],
                options,
                pasted=data.get("lines") or "",
            )
            outcomes = [_outcome(o, member, steward) for o in sorted(done, key=lambda o: o.place)]
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


def _source(upload: UploadedFile) -> GameSource:
    """An uploaded file as the ledger reads it: its size known before reading."""
    return GameSource(name=upload.name or "?", read=upload.read, size=upload.size)


def _outcome(done: ImportOutcome, member: Member | None, steward: bool) -> Outcome:
    """What the page says of one log, result line or file the ledger imported or refused."""
    name = _name(done)
    refusal = done.refusal
    if done.status == ImportStatus.ALREADY:
        assert done.hanchan is not None
        return _already(name, done.hanchan, member, steward)
    if done.status == ImportStatus.RECORDS:
        return Outcome(
            name,
            "refused",
            _("A club game record: a steward imports those with the import_games command."),
        )
    if done.status == ImportStatus.REFUSED:
        message, about_names = _refusal(done, refusal)
        return Outcome(name, "refused", message, names_link=about_names)
    if done.status == ImportStatus.AGREES:
        if done.line_game is not None:
            return Outcome(name, "agrees", _line_summary(done.line_game.settled))
        assert done.verified is not None
        summary = _log_summary(done.verified)
        return Outcome(
            name, "agrees", _("Agrees hand by hand: %(summary)s.") % {"summary": summary}
        )
    hanchan = done.hanchan
    assert hanchan is not None
    waits = not has_counted_version(hanchan)
    if done.line_game is not None:
        message = _("Stored: %(summary)s.") % {"summary": _line_summary(done.line_game.settled)}
        if waits:
            message += " " + _(
                "It counts in the standings once the other players at the table confirm it "
                "(or a steward does): it waits on their home pages."
            )
        return Outcome(name, "stored", message, hanchan)
    assert done.verified is not None
    message = _("Stored: %(summary)s.") % {"summary": _log_summary(done.verified)}
    version = hanchan.ruleset_version
    if not version.service:
        # A lobby the club lists: stored under the club's ruleset.
        message += " " + _("It counts under the club's %(ruleset)s.") % {
            "ruleset": ruleset_title(version.name)
        }
    if waits:
        # The uploader vouches for their own seat; the others confirm.
        message += " " + _(
            "It counts in the standings once the other players at the table confirm it (or a "
            "steward does): it waits on their home pages."
        )
    if done.new_members:
        # Under which names the unknown players joined ("NoName (2)").
        message += " " + _("New members: %(names)s.") % {
            "names": ", ".join(m.display_name for _name, m in done.new_members)
        }
    return Outcome(name, "stored", message, hanchan)


def _name(done: ImportOutcome) -> str:
    """How the page names an outcome: a result line by its lobby and time, a faulty line by
    its number, result lines refused as a whole as such, anything else by its file."""
    if done.line is not None:
        return f"{done.line.lobby} {done.line.time}".strip()
    if isinstance(done.refusal, result_lines.LineUnreadable):
        if done.refusal.number:
            return _("Line %(n)d") % {"n": done.refusal.number}
        return _("Result lines")
    return done.name


def _refusal(done: ImportOutcome, refusal: Exception | None) -> tuple[str, bool]:
    """Why the ledger refused a log, a line or a file, in the reader's words; and whether
    the message is about online names (the page links the page to add them)."""
    if done.code == NOT_READ:
        return _(
            "Not read: this upload took too long to read. Send this file again with fewer others."
        ), False
    if done.code == TOO_LARGE:
        return _("Too large to be a game log."), False
    if isinstance(refusal, UnknownNames):
        return _unknown_sentence(refusal), True
    if isinstance(refusal, result_lines.LineUnreadable):
        return _unreadable_sentence(refusal), False
    if isinstance(refusal, result_lines.LineUnsettled):
        return _unsettled_sentence(refusal), False
    if done.line is not None or isinstance(refusal, LedgerError):
        return str(refusal), False
    if isinstance(refusal, NotAGameLog):
        return _(
            "Not a game log: this page takes Tenhou logs (JSON or mjlog), Mahjong Soul logs "
            "in Tenhou's JSON and mjai logs."
        ), False
    if isinstance(refusal, LogMismatch):
        return _mismatch_sentence(refusal), False
    return _("Not a game log we can read: %(why)s") % {"why": refusal}, False


def _log_summary(verified: VerifiedGame) -> str:
    """``"Tenhou game, Tenhou 4-player East-South, 12 hands, final 35,000 / …"``."""
    log = verified.log
    return _("%(service)s game, %(ruleset)s, %(hands)d hands, final %(scores)s") % {
        "service": dict(ONLINE_SERVICES).get(log.service, log.service),
        "ruleset": ruleset_title(load_ruleset(verified.ruleset).name),
        "hands": len(log.hands),
        "scores": " / ".join(format_points(s) for s in verified.final["scores"]),
    }


def _already(name: str, stored: Hanchan, member: Member | None, steward: bool) -> Outcome:
    """A game stored already (the same log, or the same game from another file: its mjlog
    and its JSON, a changed log id), named with its link only to a reader who may see it
    as its own: a steward or a player of it; anyone else is told it is
    stored, not which game it is."""
    if steward or (
        member is not None and Seat.objects.filter(hanchan=stored, member=member).exists()
    ):
        return Outcome(name, "already", _("Already imported: nothing stored."), stored)
    return Outcome(name, "already", _("This game is stored already: nothing stored."))


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
