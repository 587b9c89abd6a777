"""Project URLs: the admin, login/logout, and the public pages of ``tournaments``."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("tournaments.urls")),
]
