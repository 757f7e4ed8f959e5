from django.urls import path

from meetings import venue_desk, views

app_name = "meetings"

urlpatterns = [
    path("", views.meetup_list, name="list"),
    path("new/", views.meetup_new, name="new"),
    path("venues/", views.venue_list, name="venues"),
    path("venues/new/", venue_desk.venue_new, name="venue_new"),
    path("venues/<int:pk>/edit/", venue_desk.venue_edit, name="venue_edit"),
    # A feed's token is secrets.token_urlsafe's: letters, digits, "-" and "_", a slug. Any
    # other text (a NUL character, which PostgreSQL refuses to compare) is no feed: 404.
    path("calendar/<slug:token>.ics", views.calendar_feed, name="feed"),
    path("calendar/new-link/", views.calendar_reset, name="calendar_reset"),
    path("<int:pk>/", views.meetup_detail, name="detail"),
    path("<int:pk>/meetup.ics", views.meetup_ics, name="ics"),
    path("<int:pk>/apply/", views.meetup_apply, name="apply"),
    path("<int:pk>/withdraw/", views.meetup_withdraw, name="withdraw"),
    path("<int:pk>/declare/", views.meetup_declare, name="declare"),
    path("<int:pk>/confirm/", views.meetup_confirm, name="confirm"),
    path("<int:pk>/finalize/", views.meetup_finalize, name="finalize"),
    path("<int:pk>/call-off/", views.meetup_call_off, name="call_off"),
    path("<int:pk>/change-request/", views.meetup_request_change, name="request_change"),
    path("<int:pk>/re-recruit/", views.meetup_rerecruit, name="rerecruit"),
    path("<int:pk>/move/", views.meetup_move, name="move"),
    path("<int:pk>/cancel/", views.meetup_cancel, name="cancel"),
    path("<int:pk>/held/", views.meetup_mark_held, name="mark_held"),
    path("<int:pk>/report/", views.meetup_report, name="report"),
]
