#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
    from django.core.management import execute_from_command_line

    from clubsite.club_scope import site_scope

    # A command is the site's one club's unless it enters another club's scope (--club SLUG).
    with site_scope():
        execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
