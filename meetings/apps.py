from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MeetingsConfig(AppConfig):
    name = "meetings"
    verbose_name = _("Meetups")
