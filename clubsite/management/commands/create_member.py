"""``python manage.py create_member USERNAME --name NAME [--club SLUG]``: a member of a club.

A new username gets a login and its membership of the club; an existing one joins the club
as the same person (one login, a membership per club). ``--club`` may be left out on a site
of one club.
"""

from __future__ import annotations

import getpass
import sys
from argparse import ArgumentParser
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, no_translations
from django.db import IntegrityError

from clubsite.club_model import Club
from clubsite.club_scope import ClubNotChosen, club_scope, only_club
from clubsite.members import member_create, membership_create
from clubsite.models import Member

# The exit status of a call that names no club, or one the site does not hold, or a login
# that is a member of the club already: the command line was wrong, as argparse's own 2 says.
USAGE = 2


class Command(BaseCommand):
    help = (
        "Create a club member: a user account and its membership of the club, in one "
        "transaction; an existing username joins the club as the same person. Without "
        "--password, asks for one when standard input is a terminal."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("username", help="the name to log in with")
        parser.add_argument(
            "--name",
            required=True,
            help="display name on the club's score sheets and standings (unique in the club)",
        )
        parser.add_argument("--furigana", default="", help="reading of the name, to sort by")
        parser.add_argument("--phone", default="", help="phone number, shown only to stewards")
        parser.add_argument(
            "--staff",
            action="store_true",
            help="one of the club's stewards: may use the desk, the admin and see phone numbers",
        )
        parser.add_argument(
            "--password",
            help=(
                "the initial password of a new login; required when standard input is not a "
                "terminal; ignored for an existing login"
            ),
        )
        parser.add_argument(
            "--club",
            metavar="SLUG",
            help="the club joined (its short name); required on a site of several clubs",
        )

    # Messages in English whatever LANGUAGE_CODE says, like Django's own commands.
    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        club = self.chosen_club(options["club"])
        with club_scope(club):
            self.create(club, options)

    def chosen_club(self, slug: str | None) -> Club:
        """The club of ``--club``; the site's one club without it.

        Raises:
            CommandError: (exit status 2) no such club, or none named on a site of several.
        """
        if slug is None:
            try:
                return only_club()
            except ClubNotChosen:
                slugs = ", ".join(Club.objects.order_by("slug").values_list("slug", flat=True))
                raise CommandError(
                    f"This site holds several clubs ({slugs}): say which with --club SLUG.",
                    returncode=USAGE,
                ) from None
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"There is no club with the short name {slug!r}.", returncode=USAGE)
        return club

    def create(self, club: Club, options: dict[str, Any]) -> None:
        username: str = options["username"]
        display_name: str = options["name"].strip()
        user_model = get_user_model()
        existing = user_model._default_manager.filter(
            username=user_model.normalize_username(username)
        ).first()
        user = existing or user_model(username=username)
        member = Member(
            club=club,
            user=user,
            display_name=display_name,
            furigana=options["furigana"],
            phone=options["phone"],
        )

        # Checked before asking for a password, so a typo does not cost the typing of one.
        if existing is not None and Member.objects.filter(club=club, user=existing).exists():
            raise CommandError(
                f"The user {username!r} is a member of the club {club.slug!r} already.",
                returncode=USAGE,
            )
        holder = (
            Member.objects.filter(club=club, display_name=display_name)
            .select_related("user")
            .first()
        )
        if holder is not None:
            raise CommandError(
                f"The display name {display_name!r} is already taken in the club {club.slug!r} "
                f"by the member with the username {holder.user.get_username()!r}."
            )
        try:
            if existing is None:
                user.full_clean(exclude=["password"])
            member.full_clean(exclude=["user"])
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None

        if existing is not None:
            self.join(existing, member, options)
            return

        password = options["password"]
        if password is None:
            password = self.ask_password()
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None

        try:
            # The login as full_clean normalized it, written with its membership in one
            # transaction by the one member-creation service.
            created = member_create(
                username=user.get_username(),
                password=password,
                steward=options["staff"],
                display_name=member.display_name,
                furigana=member.furigana,
                phone=member.phone,
                club=club,
            )
        except IntegrityError as error:
            # Someone else took the username or display name since the checks above.
            raise CommandError(f"Nothing was created: {error}") from None

        role = "steward" if created.role == Member.Role.STEWARD else "member"
        self.stdout.write(
            self.style.SUCCESS(
                f"Created {role} {display_name!r} of the club {club.slug!r} "
                f"with the username {username!r}."
            )
        )

    def join(self, user: User, member: Member, options: dict[str, Any]) -> None:
        """``user``, an existing login, joins ``member.club`` as ``member`` says."""
        if options["password"] is not None:
            self.stdout.write(
                f"The user {user.get_username()!r} exists: --password is ignored, "
                "their password stays as it is."
            )
        try:
            joined = membership_create(
                user,
                club=member.club,
                display_name=member.display_name,
                furigana=member.furigana,
                phone=member.phone,
                role=Member.Role.STEWARD if options["staff"] else Member.Role.MEMBER,
            )
        except IntegrityError as error:
            # Someone else added them or took the display name since the checks above.
            raise CommandError(f"Nothing was created: {error}") from None
        role = "steward" if joined.role == Member.Role.STEWARD else "member"
        self.stdout.write(
            self.style.SUCCESS(
                f"The user {user.get_username()!r} joined the club {member.club.slug!r} "
                f"as {role} {joined.display_name!r}."
            )
        )

    def ask_password(self) -> str:
        if not sys.stdin.isatty():
            raise CommandError("Give --password: standard input is not a terminal to ask on.")
        password = getpass.getpass("Password: ")
        if password != getpass.getpass("Password (again): "):
            raise CommandError("The two passwords differ; nothing was created.")
        return password
