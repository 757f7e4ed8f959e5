from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.urls import include, path

from clubsite import (
    accounts,
    online_names,
    password_reset,
    public,
    pwa,
    task_queue,
    views,
)

# Login, logout, password change and a password reset by e-mail for members with an address
# (stewards still set a new password in the admin; reset e-mails are limited per hour and
# sent by a task, clubsite/password_reset.py; a reset also lifts the member's login lockouts,
# clubsite/accounts.py); the reset's paths are Django's usual ones. The templates
# have names of their own because the admin renders registration/password_change_form.html and
# friends for its own pages, which ours would otherwise replace.
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
    path(
        "accounts/password_reset/",
        login_not_required(
            # The e-mail's templates are the task's (clubsite/password_reset.py).
            password_reset.PasswordResetView.as_view(
                template_name="registration/reset_request.html"
            )
        ),
        name="password_reset",
    ),
    path(
        "accounts/password_reset/done/",
        login_not_required(
            auth_views.PasswordResetDoneView.as_view(template_name="registration/reset_sent.html")
        ),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        login_not_required(
            accounts.PasswordResetConfirmView.as_view(
                template_name="registration/reset_new_password.html"
            )
        ),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        login_not_required(
            auth_views.PasswordResetCompleteView.as_view(
                template_name="registration/reset_complete.html"
            )
        ),
        name="password_reset_complete",
    ),
]

urlpatterns = [
    path("", include("scoring.urls")),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("favicon.ico", pwa.favicon, name="favicon"),
    path("members/online-names/", online_names.online_names_page, name="online_names"),
    path(
        "members/online-names/<int:pk>/delete/",
        online_names.online_name_delete,
        name="online_name_delete",
    ),
    # The club's public face (clubsite/public.py): the join address and a member's switch.
    path("join/", public.join, name="join"),
    path("members/public-profile/", public.public_profile_set, name="public_profile_set"),
    path("desk/", include("clubsite.desk.urls")),
    path("meetups/", include("meetings.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("ratings/", include("ratings.urls")),
    *account_patterns,
    path("i18n/setlang/", views.set_language, name="set_language"),
    path("tasks/", task_queue.task_queue_page, name="task_queue"),
    path("admin/", admin.site.urls),
]

# A request over the body limits Django checks while parsing it: the 413 page that names them
# (clubsite/request_limits.py); any other bad request a 400 page.
handler400 = "clubsite.request_limits.bad_request"
