"""How the meetup pages and e-mails show things: days as the club writes them, lists and
sentences in the reader's language, the roster and the results of the games played."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from django.utils import formats
from django.utils.translation import pgettext

from clubsite.formatting import settlement_points
from clubsite.models import Member
from scoring.ledger import is_waiting
from scoring.models import Hanchan
from scoring.rulebook.names import ruleset_title


class Applicant(Protocol):
    """What these helpers read of an application (``meetings.models.Application``): the
    models import this module, so it names what it needs instead of importing them."""

    @property
    def member(self) -> Member: ...


@dataclass(frozen=True)
class PlayerResult:
    """One player's line of a game's result on a meetup page: rank, raw final score
    ("45,300") and settlement in thousands ("+56.0")."""

    name: str
    rank: int | None
    final_score: str
    points: str


@dataclass(frozen=True)
class GameResult:
    """A game played at a meetup, its ruleset's name (in the reader's language) and its
    players' results."""

    hanchan: Hanchan
    ruleset: str
    players: list[PlayerResult]
    # The result waits for its table's confirmation (scoring.ledger.counts):
    # it does not count in the standings yet.
    waiting: bool = False

    @classmethod
    def of(cls, hanchan: Hanchan) -> GameResult:
        seats = sorted(hanchan.seats.all(), key=lambda s: (s.rank or 9, s.index))
        return cls(
            hanchan=hanchan,
            waiting=is_waiting(hanchan),
            ruleset=ruleset_title(hanchan.ruleset_version.name),
            players=[
                PlayerResult(
                    name=s.member.display_name,
                    rank=s.rank,
                    final_score="" if s.final_score is None else f"{s.final_score:,}",
                    points="" if s.points is None else settlement_points(s.points),
                )
                for s in seats
            ],
        )


def format_day(day: datetime.date) -> str:
    """A meetup day as the club writes it: "12月5日(金)" in Japanese, "Sat 5 Dec" in English."""
    return formats.date_format(day, pgettext("meetup day", "D j M"))


def format_iso_day(value: str) -> str:
    """A day stored as ISO text (a notice's parameter) as :func:`format_day` writes it."""
    return format_day(datetime.date.fromisoformat(value)) if value else ""


def join_sentences(*sentences: str) -> str:
    """Sentences in a row: a space between them in English, none in Japanese."""
    parts = [sentence for sentence in sentences if sentence]
    text = parts[0] if parts else ""
    for sentence in parts[1:]:
        text = pgettext("two sentences", "%(first)s %(second)s") % {
            "first": text,
            "second": sentence,
        }
    return text


def join_list(items: Iterable[str]) -> str:
    """Names or days in a row: "A、B、C" in Japanese, "A, B, C" in English."""
    return pgettext("list separator", ", ").join(items)


def lineup_names(applications: Sequence[Applicant]) -> list[str]:
    """The display names of ``applications``, in their order."""
    return [a.member.display_name for a in applications]


def members_of(applications: Iterable[Applicant]) -> list[Member]:
    """The members of ``applications``, in their order."""
    return [a.member for a in applications]
