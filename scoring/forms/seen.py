"""The version token a write's form carries (`seen`): the page's view of what it changes, so
a write made from a stale page is refused or recognised as sent twice.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.tokens import TOKEN_MAX_LENGTH

SEEN_MISSING = _(
    "This form does not say what it was opened on (it was not sent from its page): reload "
    "the page and try again."
)


def seen_field() -> forms.CharField:
    """The hidden `seen` token of a form (`scoring.tokens`); checked by `require_seen`.

    Not required at the field: a hidden field's error would not show on the page, so
    `require_seen` says it as an error of the whole form.
    """
    return forms.CharField(required=False, max_length=TOKEN_MAX_LENGTH, widget=forms.HiddenInput)


def require_seen(form: forms.BaseForm, name: str = "seen", message: Any = SEEN_MISSING) -> None:
    """In `clean()`: a missing (or mangled) hidden token is an error of the whole form."""
    if form.has_error(name) or not form.cleaned_data.get(name):
        form.errors.pop(name, None)
        form.add_error(None, forms.ValidationError(message, code=f"{name}_missing"))


class SeenForm(forms.Form):
    """A button without fields (close, reopen, confirm, delete): what its page showed."""

    seen = seen_field()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self)
        return data
