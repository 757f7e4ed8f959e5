from django.urls import include, path

from tournaments import board_views, clock_views, desk_views, guest_views, views

app_name = "tournaments"

urlpatterns = [
    path("", views.event_list, name="list"),
    path("new/", views.event_new, name="new"),
    path("races/", include("tournaments.race_urls")),
    path("<int:pk>/", views.event_detail, name="detail"),
    path("<int:pk>/my-table/", views.my_table, name="my_table"),
    path("<int:pk>/seating/", views.seating_chart, name="chart"),
    path("<int:pk>/ranking.csv", views.ranking_csv, name="csv"),
    path("<int:pk>/tournament.ics", views.event_ics, name="ics"),
    path("<int:pk>/players/", desk_views.event_participants, name="participants"),
    path("<int:pk>/guests/", guest_views.event_guests, name="guests"),
    path("<int:pk>/edit/", desk_views.event_edit, name="edit"),
    path("<int:pk>/cancel/", desk_views.event_cancel, name="cancel"),
    path("<int:pk>/delete/", desk_views.event_delete, name="delete"),
    path("<int:pk>/substitutions/", desk_views.event_substitutions, name="substitutions"),
    path(
        "<int:pk>/substitutions/accept/",
        desk_views.event_substitutions_accept,
        name="substitutions_accept",
    ),
    path("<int:pk>/draw/", views.event_draw, name="draw"),
    path("<int:pk>/withdraw/", views.event_withdraw, name="withdraw"),
    path("<int:pk>/advance/", views.event_advance, name="advance"),
    path("<int:pk>/rounds/<int:number>/start/", views.round_start, name="round_start"),
    path("<int:pk>/rounds/<int:number>/call-time/", views.round_call_time, name="call_time"),
    path("<int:pk>/rounds/<int:number>/clock/", clock_views.round_clock, name="round_clock"),
    path("<int:pk>/games/<int:hanchan_id>/extra-time/", clock_views.extra_time, name="extra_time"),
    path("games/<int:hanchan_id>/clock/", clock_views.table_clock, name="table_clock"),
    path("<int:pk>/board/", board_views.event_board, name="board"),
]
