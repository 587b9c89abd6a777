"""The forms of the user's "API tokens" page (`api.pages`) and of the admin's "add" page
of a token (`api.admin`)."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from api.models import ApiToken
from scoring.forms.seen import require_seen
from troefclub.validators import validate_single_line_text


def form_key_field() -> forms.UUIDField:
    """The hidden one-time key of a form that makes a token (`api_token_create`'s
    `form_key`). Not required at the field: `require_seen` says a missing one as an error
    of the whole form (a hidden field's error would not show)."""
    return forms.UUIDField(required=False, widget=forms.HiddenInput)


class ApiTokenCreateForm(forms.Form):
    """A new personal API token: its name (what it is for), and `key`, the form's one-time
    key (a UUID made when the form is shown, required when sent): the same form sent twice
    (F5 on the answer, a double click) makes one token."""

    name = forms.CharField(
        label=_("Name"),
        max_length=100,
        validators=[validate_single_line_text],
        help_text=_("What the token is for, e.g. “federation website”."),
    )
    key = form_key_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial["key"] = uuid.uuid4()  # fresh for every page shown

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self, "key")
        return data


class ApiTokenAddForm(forms.ModelForm):
    """The admin's "add" form of a token (`api.admin.ApiTokenAdmin`): the user and the
    name, and the form's one-time `key`, as on the user's page (`ApiTokenCreateForm`)."""

    key = form_key_field()

    class Meta:
        model = ApiToken
        fields = ["user", "name"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial["key"] = uuid.uuid4()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self, "key")
        return data


class ApiTokenRevokeForm(forms.Form):
    """Revoke one token (`token`: its id). Without `confirmed` the page asks first."""

    token = forms.IntegerField(min_value=1, max_value=2**63 - 1, widget=forms.HiddenInput)
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)
