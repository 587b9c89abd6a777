"""Project URLs: the admin, the account pages, and the public pages of ``tournaments``.

The account pages are ``django.contrib.auth.urls`` with four changes: the login page knows
whether a password reset is possible, the password-reset pages answer 404 while no
e-mail is configured (``troefclub.auth.needs_email``), the mailed reset link starts at the
public address (``troefclub.auth.PasswordResetView``, SITE_URL), and a password reset lifts
a lockout of that username (``troefclub.auth.PasswordResetConfirmView``).
"""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path

from troefclub.auth import LoginView, PasswordResetConfirmView, PasswordResetView, needs_email
from troefclub.forms import AdminLoginForm, LoginForm


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for on pages without a <link rel="icon">."""
    return redirect(static("favicon.svg"), permanent=True)


account_urls = [
    path("login/", LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "password_reset/",
        needs_email(PasswordResetView.as_view()),
        name="password_reset",
    ),
    path(
        "password_reset/done/",
        needs_email(auth_views.PasswordResetDoneView.as_view()),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        needs_email(PasswordResetConfirmView.as_view()),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        needs_email(auth_views.PasswordResetCompleteView.as_view()),
        name="password_reset_complete",
    ),
]

# Both login pages check the username's length before authenticating (troefclub.forms).
admin.site.login_form = AdminLoginForm

urlpatterns = [
    # Browsers ask for /favicon.ico on pages without a <link rel="icon"> (PDFs, exports).
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("accounts/", include(account_urls)),
    path("accounts/api-tokens/", include("api.pages")),  # the user's API tokens (issue 21)
    path("i18n/", include("django.conf.urls.i18n")),
    path(
        "api/", include("api.urls")
    ),  # the REST API, /api/v1/ (issue 21)  # set_language: the header's switch
    path("", include("rankings.urls")),
    path("", include("tournaments.urls")),
    path("", include("scoring.urls")),
]

# The error answers: the site's pages, JSON under /api/ (api.handlers).
handler400 = "api.handlers.bad_request"
handler404 = "api.handlers.page_not_found"
handler500 = "api.handlers.server_error"
