from django.urls import path

from scoring import views
from scoring.views import club_choice, offline_values, online_lobbies, public_pages

urlpatterns = [
    # The games list for the club's members, the club's public page for visitors.
    path("", public_pages.club_home, name="game_list"),
    # A page of no club (clubsite.middleware's SITE_PAGES): the person's clubs.
    path("clubs/", club_choice.club_choice, name="club_choice"),
    # The value pads the phone draws on a winner's tap, beside the figures (first: a pads
    # file's name is a slug too).
    path(
        "offline-values/<int:version>/<slug:language>/pads-<slug:digest>.json",
        offline_values.value_pads,
        name="value_pads",
    ),
    # The offline panel's figures of a ruleset (no club's data: one copy for every club).
    path(
        "offline-values/<int:version>/<slug:language>/<slug:digest>.json",
        offline_values.offline_values,
        name="offline_values",
    ),
    path("games/new/", views.game_new, name="game_new"),
    path("games/import/", views.game_import, name="game_import"),
    path("games/import/lobbies/", online_lobbies.online_lobbies_page, name="online_lobbies"),
    path(
        "games/import/lobbies/<int:pk>/delete/",
        online_lobbies.online_lobby_delete,
        name="online_lobby_delete",
    ),
    path("games/<int:pk>/", views.game_detail, name="game_detail"),
    path("games/<int:pk>/record.json", views.game_record, name="game_record"),
    path("games/<int:pk>/chart/", views.game_chart, name="game_chart"),
    path("games/<int:pk>/hands/", views.hand_create, name="hand_create"),
    path("games/<int:pk>/hands/preview/", views.hand_preview, name="hand_preview"),
    path("games/<int:pk>/hands/<int:number>/edit/", views.hand_edit, name="hand_edit"),
    path(
        "games/<int:pk>/hands/<int:number>/preview/",
        views.hand_edit_preview,
        name="hand_edit_preview",
    ),
    path("games/<int:pk>/undo/", views.hand_undo, name="hand_undo"),
    path("games/<int:pk>/void/", views.game_void, name="game_void"),
    path("games/<int:pk>/confirm/", views.game_confirm, name="game_confirm"),
    path("games/<int:pk>/final-scores/", views.game_final_scores, name="game_final_scores"),
    path("games/<int:pk>/manners/", views.game_manners, name="game_manners"),
]

urlpatterns += [
    path("api/hand-value/", views.hand_value, name="hand_value"),
    path("standings/", views.standings_page, name="standings"),
    path("standings/export.csv", views.standings_export, name="standings_export"),
    path("standings/champions/", views.champions_page, name="champions"),
    path("standings/yaku/", views.yaku_page, name="yaku_records"),
    path("standings/what-if/", views.what_if_page, name="what_if"),
    path("members/<int:member_id>/", views.member_page, name="member_detail"),
    path("members/<int:member_id>/games.csv", views.member_games_export, name="member_games_csv"),
    path("members/<int:member_id>/stats/", views.member_figures, name="member_figures"),
    path("members/<int:member_id>/swings/", views.member_swings_page, name="member_swings"),
    path(
        "members/<int:member_id>/stats/<int:players>p/",
        views.member_figures,
        name="member_figures_family",
    ),
    path("members/<int:member_id>/vs/", views.head_to_head_pick, name="head_to_head_pick"),
    path(
        "members/<int:member_id>/vs/<int:other_id>/", views.head_to_head_page, name="head_to_head"
    ),
    path(
        "members/<int:member_id>/vs/<int:other_id>/<int:players>p/",
        views.head_to_head_page,
        name="head_to_head_family",
    ),
    path("public/members/<int:member_id>/", public_pages.public_profile, name="public_profile"),
    path("rulesets/", views.ruleset_list, name="ruleset_list"),
    path("rulesets/<str:ruleset_id>/", views.ruleset_detail, name="ruleset_detail"),
]
