from django.urls import include, path

from clubsite.desk import applications, views

app_name = "desk"

urlpatterns = [
    path("members/", views.member_list, name="members"),
    # The club's settings name the rulesets and rules, which are scoring's: its page is too.
    path("club/", include("scoring.club_urls")),
    path("applications/", applications.application_list, name="applications"),
    path(
        "applications/<int:pk>/accept/",
        applications.application_accept,
        name="application_accept",
    ),
    path(
        "applications/<int:pk>/decline/",
        applications.application_decline,
        name="application_decline",
    ),
    path("members/new/", views.member_new, name="member_new"),
    path("members/<int:pk>/", views.member_edit, name="member_edit"),
    path("members/<int:pk>/active/", views.member_active, name="member_active"),
    path("members/<int:pk>/unlock/", views.member_unlock, name="member_unlock"),
    path("members/<int:pk>/welcome/", views.member_welcome, name="member_welcome"),
    path("members/<int:pk>/password/", views.member_password, name="member_password"),
    path(
        "members/<int:pk>/online-names/",
        views.member_online_name_add,
        name="member_online_name_add",
    ),
    path(
        "members/<int:pk>/online-names/<int:name_pk>/delete/",
        views.member_online_name_delete,
        name="member_online_name_delete",
    ),
]
