from django.contrib import admin
from django.urls import include, path

from clubsite import views

urlpatterns = [
    path("", views.ruleset_list, name="ruleset_list"),
    path("rulesets/<str:ruleset_id>/", views.ruleset_detail, name="ruleset_detail"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
