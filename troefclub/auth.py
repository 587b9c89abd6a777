"""The project's glue around ``django.contrib.auth`` and django-axes: the lockout page, the
client address a lockout is keyed on, and the password reset that exists only when e-mail
can really be sent.

Settings (``troefclub/settings.py``, README "Security"): ``AXES_FAILURE_LIMIT`` failed logins
for one username from one address lock that pair out for ``AXES_COOLOFF_MINUTES``;
``EMAIL_HOST`` unset hides the password reset.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from typing import Any

from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils.translation import gettext as _

from troefclub.site import site_base

LOCKOUT_STATUS = 429  # Too Many Requests: the client is told to come back later


def password_reset_available() -> bool:
    """True when e-mail is configured (``EMAIL_HOST``), so a reset link can really be sent.

    Without it Django's reset form would say "we've e-mailed you" and send nothing.
    """
    return bool(settings.EMAIL_HOST)


def lockout_minutes() -> int:
    """Minutes a locked-out username and address wait: ``AXES_COOLOFF_TIME`` (a timedelta,
    from ``AXES_COOLOFF_MINUTES``) rounded up."""
    cool_off: timedelta = settings.AXES_COOLOFF_TIME
    return -(-int(cool_off.total_seconds()) // 60)


def login_lockout(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """axes' ``AXES_LOCKOUT_CALLABLE``: the page shown by both login pages once a username
    and address have failed ``AXES_FAILURE_LIMIT`` times. HTTP 429, with the wait in minutes.

    Every further attempt during the lockout, even with the right password, gets this page
    and restarts the wait (axes' ``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT``).
    """
    return render(
        request,
        "registration/lockout.html",
        {"minutes": lockout_minutes(), "failure_limit": settings.AXES_FAILURE_LIMIT},
        status=LOCKOUT_STATUS,
    )


def client_ip(request: HttpRequest) -> str | None:
    """axes' ``AXES_CLIENT_IP_CALLABLE``: the address a lockout is keyed on.

    Behind ``TRUSTED_PROXY_COUNT`` reverse proxies (each appending the address it received the
    request from to ``X-Forwarded-For``), the client is the entry that many places from the
    right; entries further left were written by the client and can't be trusted. Without
    proxies (the default) it is ``REMOTE_ADDR``.
    """
    proxies: int = settings.TRUSTED_PROXY_COUNT
    if proxies:
        forwarded = [
            part.strip()
            for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if part.strip()
        ]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR")


def needs_email(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Wrap a password-reset view: 404 while no e-mail is configured (checked per request)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not password_reset_available():
            raise Http404(_("Password reset is off: no e-mail is configured."))
        return view(request, *args, **kwargs)

    return wrapped


class LoginView(auth_views.LoginView):
    """Django's login page, told whether to link to the password reset or to say "ask your
    league admin" (no e-mail configured)."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["password_reset_available"] = password_reset_available()
        return context


class PasswordResetView(auth_views.PasswordResetView):
    """Django's "forgot your password" page, whose mailed link starts at the public address
    (`troefclub.site.site_base`: SITE_URL, else the address this page was opened with), as
    every link that leaves the browser does (issue 18).

    Django's e-mail template writes the link as ``{{ protocol }}://{{ domain }}/path``;
    the extra e-mail context overrides both (and the site's name in the text).
    """

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        scheme, _sep, host = site_base(self.request).partition("://")
        self.extra_email_context = {"protocol": scheme, "domain": host, "site_name": host}
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's "choose a new password" page from the mailed link, which also lifts an axes
    lockout of that username (from every address), as ``manage.py axes_reset_username``
    would: the page after it says "you can log in with it now", and that must be true
    right away, not only after ``AXES_COOLOFF_MINUTES``.
    """

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:
        response = super().form_valid(form)
        axes_reset(username=form.user.get_username())
        return response
