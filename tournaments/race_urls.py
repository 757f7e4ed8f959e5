"""The qualification races' pages, under /tournaments/races/."""

from django.urls import path

from tournaments import race_pages

urlpatterns = [
    path(
        "grand-champion/",
        race_pages.race_page,
        {"race": "grand-champion"},
        name="race_grand_champion_now",
    ),
    path(
        "grand-champion/<int:year>/",
        race_pages.race_page,
        {"race": "grand-champion"},
        name="race_grand_champion",
    ),
    path("meijin/", race_pages.race_page, {"race": "meijin"}, name="race_meijin_now"),
    path("meijin/<int:year>/", race_pages.race_page, {"race": "meijin"}, name="race_meijin"),
]
