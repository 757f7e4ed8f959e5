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
