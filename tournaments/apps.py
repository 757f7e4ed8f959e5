from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    # The seating generator (tournaments.seating) is plain Python; events and their pages are
    # the Django side. Every tournament game is a hanchan of the ledger (scoring).
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tournaments import guests

        # The event pages an event's guests open (clubsite.guest_access).
        guests.register()

        # The club's public page links the public live boards, which are ours.
        from clubsite.public import PublicSection, register_public_section
        from tournaments.public_section import boards_section

        register_public_section(
            PublicSection(
                key="boards",
                switch="public_boards",
                order=40,
                template="tournaments/_public_boards.html",
                build=boards_section,
            )
        )
