"""The forms of the user's "API tokens" page (`api.pages`)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from troefclub.validators import validate_single_line_text


class ApiTokenCreateForm(forms.Form):
    """A new personal API token: its name (what it is for)."""

    name = forms.CharField(
        label=_("Name"),
        max_length=100,
        validators=[validate_single_line_text],
        help_text=_("What the token is for, e.g. “federation website”."),
    )


class ApiTokenRevokeForm(forms.Form):
    """Revoke one token (`token`: its id). Without `confirmed` the page asks first."""

    token = forms.IntegerField(min_value=1, max_value=2**63 - 1, widget=forms.HiddenInput)
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)
