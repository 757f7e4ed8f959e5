"""The members' ratings (docs/ratings.md): derived from the counted games
by :mod:`ratings.updating`, never entered. One :class:`Rating` per member and family (4- or
3-player), the games rated (:class:`RatedGame`) and each member's rating after each of them
(:class:`RatingStep`, the history on the member page)."""

from __future__ import annotations

from typing import TypeVar

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubsite.models import ClubManager, Member, club_key

_T = TypeVar("_T", bound=models.Model)


class Family(models.IntegerChoices):
    """A ruleset family: the number of players at the table."""

    FOUR = 4, _("4-player")
    THREE = 3, _("3-player")


class Rating(models.Model):
    """A member's current rating in one family: ``mu`` and ``sigma`` in OpenSkill's units
    (:mod:`ratings.model`), after ``games`` rated games."""

    club = club_key()
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    family = models.PositiveSmallIntegerField(choices=Family.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()

    objects = ClubManager["Rating"]()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["member", "family"], name="unique_member_rating")
        ]

    def __str__(self) -> str:
        return f"{self.member_id} {self.family}p {self.mu:.2f}±{self.sigma:.2f}"

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: the rating shown and ranked by."""
        return self.mu - 3 * self.sigma


class RatedGame(models.Model):
    """A counted game the ratings have taken in, at the counted version they rated. Games are
    rated in the order ``(played_on, at, hanchan_id)``; ``at`` is when the game finished (when
    it was entered, for a game stored finished)."""

    club = club_key(db_index=False)
    hanchan = models.OneToOneField("scoring.Hanchan", on_delete=models.CASCADE, related_name="+")
    family = models.PositiveSmallIntegerField(choices=Family.choices)
    played_on = models.DateField()
    at = models.DateTimeField()
    counted_version = models.PositiveIntegerField()

    objects = ClubManager["RatedGame"]()

    class Meta:
        indexes = [
            models.Index(
                fields=["club", "family", "played_on", "at", "hanchan"],
                name="rated_game_club_order",
            )
        ]

    def __str__(self) -> str:
        return f"{self.played_on} {self.hanchan_id} v{self.counted_version}"


class RatedGameRowManager(ClubManager[_T]):
    """A row of a rated game: its club is the game's."""

    club_path = "game__club"


class RatingStep(models.Model):
    """A member's rating after one rated game: their ``placement`` in it (1 = top), ``mu`` and
    ``sigma`` after it, and ``games`` rated so far in the family."""

    game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="steps")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    family = models.PositiveSmallIntegerField(choices=Family.choices)
    played_on = models.DateField()
    placement = models.PositiveSmallIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()

    objects = RatedGameRowManager["RatingStep"]()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "member"], name="unique_rating_step")
        ]
        indexes = [models.Index(fields=["member", "family", "games"], name="rating_step_member")]

    def __str__(self) -> str:
        return f"{self.member_id} after {self.game_id}: {self.mu:.2f}±{self.sigma:.2f}"

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma`` after the game."""
        return self.mu - 3 * self.sigma


class RatingBook(models.Model):
    """One row per family, locked while its ratings change (two workers never rate the same
    family at once); ``updated_at``: when they last changed."""

    club = club_key(db_index=False)
    family = models.PositiveSmallIntegerField(choices=Family.choices)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ClubManager["RatingBook"]()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "family"], name="rating_book_in_club")
        ]

    def __str__(self) -> str:
        return f"{self.family}p ratings"
