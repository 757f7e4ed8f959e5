"""The steward's desk pages that are scoring's: the desk's URLs (``clubsite.desk.urls``)
include these under ``/desk/club/``, in the desk's namespace (``desk:club_settings``)."""

from django.urls import path

from scoring.views import club_settings

urlpatterns = [
    path("", club_settings.club_settings, name="club_settings"),
]
