"""The user's "API tokens" page, /accounts/api-tokens/ (issue 21): their personal API
tokens, a form to make one, and a button to revoke each.

A new token is shown once, in the answer to the form that made it: never in a URL, a
redirect or the session, and the answer is not cached (`no-store`), so the browser's
history does not keep it either. Only its digest is stored (`api.services`).

The form carries a one-time key, made when it is shown (`api.forms.ApiTokenCreateForm`),
stored with the token it made (`ApiToken.form_key`): F5 on the answer sends the same form
again, which makes nothing and goes back to the page (a redirect: the next F5 is a GET)
with a warning that the token made then was shown once.
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from api.forms import ApiTokenCreateForm, ApiTokenRevokeForm
from api.models import ApiToken
from api.services import api_token_create, api_token_revoke
from scoring.rules import RuleViolation
from troefclub.bidi import isolated_text
from troefclub.rule_messages import rule_message


def _own_tokens(request: HttpRequest) -> QuerySet[ApiToken]:
    """The logged-in user's tokens (the views are `login_required`)."""
    return ApiToken.objects.filter(user_id=cast(int, request.user.pk))


def _page(request: HttpRequest, form: ApiTokenCreateForm, **extra: Any) -> HttpResponse:
    context = {
        "tokens": _own_tokens(request).order_by("-created_at", "-id"),
        "form": form,
        **extra,
    }
    response = render(request, "api/api_tokens.html", context)
    add_never_cache_headers(response)  # a new token is on it: no copy in any cache
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def api_tokens(request: HttpRequest) -> HttpResponse:
    """GET: the user's tokens and the form. POST: make a token (`api_token_create`) and show
    it, once, in this answer; the same form sent again makes nothing (a warning, and a
    redirect to the page)."""
    if request.method != "POST":
        return _page(request, ApiTokenCreateForm())
    form = ApiTokenCreateForm(request.POST)
    if not form.is_valid():
        return _page(request, form)
    try:
        token, plain = api_token_create(
            user=request.user, name=form.cleaned_data["name"], form_key=form.cleaned_data["key"]
        )
    except RuleViolation as exc:
        if exc.code == "api_token_sent_already":
            messages.warning(request, rule_message(exc))
            return redirect("api_tokens")
        form.add_error("name", rule_message(exc))
        return _page(request, form)
    return _page(request, ApiTokenCreateForm(), created=token, plain=plain)


@login_required
@require_POST
def api_token_revoke_page(request: HttpRequest) -> HttpResponse:
    """Revoke one of the user's tokens (`api_token_revoke`). Without `confirmed` nothing is
    revoked: the answer asks to confirm (without JavaScript)."""
    form = ApiTokenRevokeForm(request.POST)
    token = None
    if form.is_valid():
        token = _own_tokens(request).filter(pk=form.cleaned_data["token"]).first()
    if token is None:
        messages.error(request, rule_message(RuleViolation("api_token_unknown")))
        return redirect("api_tokens")
    if token.revoked_at is not None:
        messages.info(
            request,
            _("The API token “%(name)s” was revoked already.")
            % {"name": isolated_text(token.name)},
        )
        return redirect("api_tokens")
    if not form.cleaned_data["confirmed"]:
        return render(request, "api/api_token_revoke.html", {"token": token})
    try:
        api_token_revoke(token_id=token.pk, user=request.user)
    except RuleViolation as exc:
        messages.error(request, rule_message(exc))
        return redirect("api_tokens")
    messages.success(
        request,
        _("API token “%(name)s” revoked: programs using it are refused from now on.")
        % {"name": isolated_text(token.name)},
    )
    return redirect("api_tokens")


urlpatterns = [
    path("", api_tokens, name="api_tokens"),
    path("revoke/", api_token_revoke_page, name="api_token_revoke"),
]
