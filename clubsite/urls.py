from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from clubsite import views

# Login, logout and password change only: there is no password reset by email, stewards set a
# new password in the admin. The password change templates have names of their own because
# the admin renders registration/password_change_form.html and password_change_done.html for
# its own pages, which ours would otherwise replace.
account_patterns = [
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(template_name="registration/password_change.html"),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="registration/password_changed.html"
        ),
        name="password_change_done",
    ),
]

urlpatterns = [
    path("", include("scoring.urls")),
    path("rulesets/", views.ruleset_list, name="ruleset_list"),
    path("rulesets/<str:ruleset_id>/", views.ruleset_detail, name="ruleset_detail"),
    path("meetups/", include("meetings.urls")),
    *account_patterns,
    path("i18n/setlang/", views.set_language, name="set_language"),
    path("admin/", admin.site.urls),
]
