"""The qualification races' pages (issue 11 item 4), under /tournaments/races/."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
