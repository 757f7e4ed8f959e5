"""``python manage.py club_create SLUG --name NAME [--time-zone TZ] [--default-ruleset ID]``:
add a club to the site (clubsite.club_services.club_create; docs/clubs.md)."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError, no_translations

from clubsite.club_services import ClubRefused, club_create


class Command(BaseCommand):
    help = (
        "Create a club: its short name (a slug: ASCII letters, digits, - and _; it names the "
        "club in addresses and in every command's --club and never changes) and its name; its "
        "other choices start as the site's CLUB_* settings. Prints the new club's short name "
        "and id. A taken or invalid short name or value: one line on standard error, exit "
        "status 2, nothing created."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("slug", help="the club's short name, e.g. north")
        parser.add_argument("--name", required=True, help="the club's name as its pages show it")
        parser.add_argument(
            "--time-zone",
            metavar="TZ",
            help="where the club's days begin and end, e.g. Asia/Tokyo (default: CLUB_TIME_ZONE)",
        )
        parser.add_argument(
            "--default-ruleset",
            metavar="ID",
            help="the built-in ruleset a new game starts with and the club's standings count "
            "(default: CLUB_DEFAULT_RULESET and CLUB_STANDARD_RULESETS)",
        )

    # Messages in English whatever LANGUAGE_CODE says, like Django's own commands.
    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        try:
            club = club_create(
                slug=options["slug"],
                name=options["name"],
                time_zone=options["time_zone"],
                default_ruleset=options["default_ruleset"],
            )
        except ClubRefused as error:
            raise CommandError(str(error).replace("\n", " "), returncode=2) from None
        self.stdout.write(f"Created club {club.slug} (id {club.pk}): {club.name}")
