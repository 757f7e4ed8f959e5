from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MeetingsConfig(AppConfig):
    name = "meetings"
    verbose_name = _("Meetups")

    def ready(self) -> None:
        # A worker may run a notice's later e-mail attempt before anything imports the
        # meetups' e-mail module: the receiver is connected with the app.
        from clubsite.mail import mail_delivered
        from meetings.emails import notice_delivered

        mail_delivered.connect(notice_delivered, dispatch_uid="meetings.notice_delivered")

        # The club's public page shows its venues and next meetups, which are ours.
        from clubsite.public import PublicSection, register_public_section
        from meetings.public_sections import meetups_section, venues_section

        register_public_section(
            PublicSection(
                key="meetups",
                switch="public_meetups",
                order=20,
                template="meetings/_public_meetups.html",
                build=meetups_section,
            )
        )
        register_public_section(
            PublicSection(
                key="venues",
                switch="public_venues",
                order=30,
                template="meetings/_public_venues.html",
                build=venues_section,
            )
        )
