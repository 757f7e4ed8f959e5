"""``python manage.py create_member USERNAME --name NAME``: a login and its member profile."""

from __future__ import annotations

import getpass
import sys
from argparse import ArgumentParser
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, no_translations
from django.db import IntegrityError

from clubsite.members import member_create
from clubsite.models import Member


class Command(BaseCommand):
    help = (
        "Create a club member: a user account and its Member profile, in one transaction. "
        "Without --password, asks for one when standard input is a terminal."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("username", help="the name to log in with")
        parser.add_argument(
            "--name", required=True, help="display name on score sheets and standings (unique)"
        )
        parser.add_argument("--furigana", default="", help="reading of the name, to sort by")
        parser.add_argument("--phone", default="", help="phone number, shown only to staff")
        parser.add_argument(
            "--staff",
            action="store_true",
            help="a club steward: may use the admin and see phone numbers",
        )
        parser.add_argument(
            "--password",
            help="the initial password; required when standard input is not a terminal",
        )

    # Messages in English whatever LANGUAGE_CODE says, like Django's own commands.
    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        username: str = options["username"]
        display_name: str = options["name"].strip()
        user_model = get_user_model()
        user = user_model(username=username, is_staff=options["staff"])
        member = Member(
            user=user,
            display_name=display_name,
            furigana=options["furigana"],
            phone=options["phone"],
        )

        # Checked before asking for a password, so a typo does not cost the typing of one.
        if user_model._default_manager.filter(username=username).exists():
            raise CommandError(f"There is already a user with the username {username!r}.")
        holder = Member.objects.filter(display_name=display_name).select_related("user").first()
        if holder is not None:
            raise CommandError(
                f"The display name {display_name!r} is already taken "
                f"by the member with the username {holder.user.get_username()!r}."
            )
        try:
            user.full_clean(exclude=["password"])
            member.full_clean(exclude=["user"])
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None

        password = options["password"]
        if password is None:
            password = self.ask_password()
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None

        try:
            # The login as full_clean normalized it, written with its profile in one
            # transaction by the one member-creation service.
            created = member_create(
                username=user.get_username(),
                password=password,
                steward=options["staff"],
                display_name=member.display_name,
                furigana=member.furigana,
                phone=member.phone,
            )
        except IntegrityError as error:
            # Someone else took the username or display name since the checks above.
            raise CommandError(f"Nothing was created: {error}") from None

        role = "staff member" if created.user.is_staff else "member"
        self.stdout.write(
            self.style.SUCCESS(f"Created {role} {display_name!r} with the username {username!r}.")
        )

    def ask_password(self) -> str:
        if not sys.stdin.isatty():
            raise CommandError("Give --password: standard input is not a terminal to ask on.")
        password = getpass.getpass("Password: ")
        if password != getpass.getpass("Password (again): "):
            raise CommandError("The two passwords differ; nothing was created.")
        return password
