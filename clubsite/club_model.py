"""The club: the one model every club-owned row points to (``clubsite.models.club_key``).

Its own module so that :mod:`clubsite.club_scope` can name it without importing the other
models (which take their ``club`` default from the scope)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def _setting(name: str, fallback: object) -> object:
    return getattr(settings, name, fallback)


def default_time_zone() -> str:
    """A new club's time zone: ``CLUB_TIME_ZONE`` (the site's default)."""
    return str(_setting("CLUB_TIME_ZONE", settings.TIME_ZONE))


def default_ruleset() -> str:
    """A new club's default ruleset: ``CLUB_DEFAULT_RULESET``."""
    return str(_setting("CLUB_DEFAULT_RULESET", "makura-1.5"))


def default_standard_rulesets() -> list[str]:
    """A new club's standard rulesets (rules-spec §4.4): ``CLUB_STANDARD_RULESETS``."""
    return [str(key) for key in _setting("CLUB_STANDARD_RULESETS", [default_ruleset()])]  # type: ignore[attr-defined]


def default_online_in_standings() -> list[str]:
    """A new club's online keys counted in the standard table: ``CLUB_ONLINE_IN_STANDINGS``."""
    return [str(key) for key in _setting("CLUB_ONLINE_IN_STANDINGS", [])]  # type: ignore[attr-defined]


def default_tournaments_in_standings() -> bool:
    """Whether a new club counts tournament games in its standings:
    ``CLUB_TOURNAMENTS_IN_STANDINGS`` (rules-spec §4.4 leaves it to the club)."""
    return bool(_setting("CLUB_TOURNAMENTS_IN_STANDINGS", True))


def default_guest_events_in_standings() -> bool:
    """Whether a new club counts its members' games at other clubs' events (as guests) in
    its own standings: ``CLUB_GUEST_EVENTS_IN_STANDINGS``, no unless set (a club's standings
    are its own games until it chooses otherwise)."""
    return bool(_setting("CLUB_GUEST_EVENTS_IN_STANDINGS", False))


def default_standings_ties() -> list[str]:
    """A new club's order of standings tie-breakers (T-06): ``CLUB_STANDINGS_TIES``."""
    return [str(key) for key in _setting("CLUB_STANDINGS_TIES", ["average_rank", "best_points"])]  # type: ignore[attr-defined]


def default_confirmation() -> str:
    """Who confirms a new club's finished games: ``CLUB_CONFIRMATION``."""
    return str(_setting("CLUB_CONFIRMATION", "every_other"))


def default_list_address() -> str:
    """A new club's mailing list address: ``CLUB_LIST_ADDRESS``."""
    return str(_setting("CLUB_LIST_ADDRESS", ""))


class Club(models.Model):
    """A club: its members, rules, ledger, standings, meetups and public page are its own.

    A site holds one club or many; every row a club owns carries a ``club`` foreign key (see
    ``docs/clubs.md``). The fields below are the club's own choices; what a new club starts
    with is the site's ``CLUB_*`` setting of the same name (``clubsite/settings.py``).
    ``slug`` names the club in addresses (``/c/<slug>/``) and on the command line
    (``--club SLUG``); it never changes once given.
    """

    slug = models.SlugField(_("short name"), max_length=40, unique=True)
    name = models.CharField(_("name"), max_length=80)
    time_zone = models.CharField(_("time zone"), max_length=60, default=default_time_zone)
    # A built-in ruleset id ("makura-1.5": not a slug, for its dot).
    default_ruleset = models.CharField(_("default ruleset"), max_length=40, default=default_ruleset)
    standard_rulesets = models.JSONField(_("standard rulesets"), default=default_standard_rulesets)
    online_in_standings = models.JSONField(
        _("online games in the standard table"), default=default_online_in_standings, blank=True
    )
    tournaments_in_standings = models.BooleanField(
        _("tournament games count in the standings"), default=default_tournaments_in_standings
    )
    # Its members' games as guests at other clubs' events (tournaments.guests) count in its
    # standings too (scoring.ledger.guests).
    guest_events_in_standings = models.BooleanField(
        _("games at other clubs' events count in the standings"),
        default=default_guest_events_in_standings,
    )
    standings_ties = models.JSONField(_("standings tie-breakers"), default=default_standings_ties)
    confirmation = models.CharField(
        _("who confirms a finished game"), max_length=20, default=default_confirmation
    )
    list_address = models.CharField(
        _("mailing list address"), max_length=254, default=default_list_address, blank=True
    )
    # The club's public page (``/c/<slug>/`` for a visitor, ``clubsite.public``): what the
    # stewards choose to show. Everything is off for a new club: its page shows its name alone.
    public_text = models.TextField(_("public page text"), blank=True, default="")
    public_rules = models.BooleanField(_("rules pages on the public page"), default=False)
    public_venues = models.BooleanField(_("venues on the public page"), default=False)
    public_meetups = models.BooleanField(_("next meetups on the public page"), default=False)
    public_boards = models.BooleanField(
        _("public tournament boards on the public page"), default=False
    )
    public_join = models.BooleanField(_("join applications on the public page"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "slug"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name or self.slug
