"""The admin of the API's rows: personal API tokens, and (read only) the answers kept for
keyed writes.

A token is made here through `api_token_create`, as on the user's page: the admin picks
the user and the name, and the token itself is shown once, in the answer to the "add"
form (never in a redirect, a cookie or the session). The "add" form carries a one-time key
(`api.forms.ApiTokenAddForm`): sent again (F5 on that answer), it makes no second token
and goes back to the list with a warning. Its digest is never shown. Tokens are
revoked through `api_token_revoke` (the action "Revoke"), never deleted: a revoked token
stays to show who had it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from api.forms import ApiTokenAddForm
from api.models import ApiToken, IdempotencyRecord
from api.services import api_token_create, api_token_revoke
from scoring.rules import RuleViolation
from troefclub.admin_input import AdminInputMixin
from troefclub.rule_messages import rule_message

# Set on the request by `save_model` when a token was made: the token itself, for the
# answer of the "add" form only.
_PLAIN = "_api_token_plain"


@admin.action(permissions=["change"], description=_("Revoke the selected API tokens"))
def revoke_tokens(
    modeladmin: ApiTokenAdmin, request: HttpRequest, queryset: QuerySet[ApiToken]
) -> None:
    """Revoke each selected token (`api_token_revoke`); a revoked one stays as it is."""
    revoked = 0
    for token in queryset.filter(revoked_at__isnull=True).order_by("pk"):
        try:
            api_token_revoke(token_id=token.pk, user=request.user)
        except RuleViolation as exc:
            modeladmin.message_user(request, rule_message(exc), messages.ERROR)
            continue
        revoked += 1
    modeladmin.message_user(
        request,
        ngettext("%(count)d API token revoked.", "%(count)d API tokens revoked.", revoked)
        % {"count": revoked},
    )


@admin.register(ApiToken)
class ApiTokenAdmin(AdminInputMixin, admin.ModelAdmin):
    list_display = ["user", "name", "prefix", "created_at", "last_used_at", "revoked_at"]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter)]
    list_select_related = ["user"]
    search_fields = ["name", "prefix", "user__username"]
    actions = [revoke_tokens]
    autocomplete_fields = ["user"]

    def get_fields(self, request: HttpRequest, obj: ApiToken | None = None) -> Any:
        if obj is None:
            return ["user", "name", "key"]  # the rest is made by api_token_create
        return ["user", "name", "prefix", "created_at", "last_used_at", "revoked_at"]

    def get_readonly_fields(self, request: HttpRequest, obj: ApiToken | None = None) -> list[str]:
        if obj is None:
            return []
        return ["user", "prefix", "created_at", "last_used_at", "revoked_at"]

    def get_form(
        self, request: HttpRequest, obj: ApiToken | None = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None:
            kwargs["form"] = ApiTokenAddForm  # with its one-time key
        return super().get_form(request, obj, change=change, **kwargs)

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        try:
            return super().add_view(request, form_url, extra_context)
        except RuleViolation as exc:
            # From `save_model` (the transaction of the page is rolled back: nothing made):
            # the form was sent already. To the list, where the token made then is revoked.
            self.message_user(request, rule_message(exc), messages.WARNING)
            return HttpResponseRedirect(
                reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_changelist")
            )

    def has_add_permission(self, request: HttpRequest) -> bool:
        # A token acts as its user: making one for somebody else is setting their password,
        # which only a superuser may (README "Who may do what").
        return bool(request.user.is_superuser) and super().has_add_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # revoke instead: the row says who had the token

    def save_model(self, request: HttpRequest, obj: ApiToken, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)  # a new name; unchanged: no write
            return
        token, plain = api_token_create(
            user=obj.user, name=obj.name, form_key=form.cleaned_data["key"]
        )
        # The admin goes on with `obj` (its log entry, the answer): make it the row made.
        for field in ApiToken._meta.concrete_fields:
            setattr(obj, field.attname, getattr(token, field.attname))
        obj._state.adding = False
        setattr(request, _PLAIN, plain)

    def response_add(
        self, request: HttpRequest, obj: ApiToken, post_url_continue: Any = None
    ) -> HttpResponse:
        plain = getattr(request, _PLAIN, None)
        if plain is None:
            return super().response_add(request, obj, post_url_continue)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "token": obj,
            "plain": plain,
            "title": _("API token made"),
        }
        response = TemplateResponse(request, "admin/api/apitoken/created.html", context)
        add_never_cache_headers(response)  # the token is on it: no copy in any cache
        return response


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(AdminInputMixin, admin.ModelAdmin):
    """Read only: what was answered to a keyed write, to look into a client's retries."""

    list_display = ["owner", "key", "method", "path", "status", "created_at"]
    list_filter = ["method", "status"]
    search_fields = ["owner", "key", "path"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
