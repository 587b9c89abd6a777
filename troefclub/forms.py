"""Form pieces that refuse hostile input the same way everywhere (issue 6, "Hostile input").

- `JSONInputField`: JSON typed into a form is read like an import file
  (`troefclub.json_input.json_parse`): nesting, repeated keys, huge numbers, NaN,
  NUL and other control characters are form errors. Django's `forms.JSONField` lets the
  first ones escape as exceptions (HTTP 500) and the last ones reach PostgreSQL, which
  refuses `\\u0000` in `jsonb`.
- `LoginForm`, `AdminLoginForm`: Django's login form sets the username's `max_length` but
  never checks it, so any length went on to `authenticate()` and to django-axes' record of
  the failed login (255 characters): HTTP 500 on PostgreSQL, before anyone logged in.

Texts (names, reasons) take `troefclub.validators.validate_single_line_text` or
`validate_multiline_text`; the admin adds them to every text field
(`troefclub.admin_input.AdminInputMixin`).
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.forms.fields import InvalidJSONInput, JSONString
from django.utils.translation import gettext_lazy as _

from troefclub.json_input import JSONInputError, json_parse
from troefclub.validators import validate_single_line_text, validate_unicode


def _parse(value: str) -> Any:
    """`value` read as JSON; raises JSONInputError naming what is wrong and where."""
    return json_parse(raw=value.encode("utf-8", errors="surrogatepass"))


class JSONInputField(forms.JSONField):
    """A JSON form field that refuses, as a form error, what can't be stored or read back.

    Same limits as an import file (`troefclub.json_input`): nesting at most 32 deep, no key twice
    in an object, numbers within 30 digits, no NaN or Infinity, no control characters
    (tab and line breaks aside) or lone surrogates in texts.
    """

    default_error_messages = {"unsafe": _("Not JSON this app can store: %(problem)s.")}

    def to_python(self, value: Any) -> Any:
        if self.disabled:
            return value
        if value in self.empty_values:
            return None
        if isinstance(value, (list, dict, int, float, JSONString)):
            return value
        try:
            converted = _parse(str(value))
        except JSONInputError as exc:
            raise ValidationError(
                self.error_messages["unsafe"], code="invalid", params={"problem": str(exc)}
            ) from None
        return JSONString(converted) if isinstance(converted, str) else converted

    def bound_data(self, data: Any, initial: Any) -> Any:
        if self.disabled:
            return initial
        if data is None:
            return None
        try:
            return _parse(str(data))
        except JSONInputError:
            return InvalidJSONInput(data)


class _UsernameLengthChecked(AuthenticationForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        username = cast(forms.CharField, self.fields["username"])
        username.validators.append(MaxLengthValidator(username.max_length or 150))
        # A lone surrogate can't be sent to the database or hashed (a UnicodeEncodeError,
        # HTTP 500) and no username holds a control character: refused before
        # `authenticate()` too.
        username.validators.append(validate_single_line_text)
        cast(forms.CharField, self.fields["password"]).validators.append(validate_unicode)


class LoginForm(_UsernameLengthChecked):
    """The login page's form: a username longer than the user model's, or holding a control
    character or a lone surrogate, and a password holding a lone surrogate are refused
    before `authenticate()` (see the module docstring)."""


class AdminLoginForm(_UsernameLengthChecked, AdminAuthenticationForm):
    """The admin login's form, with the same check as `LoginForm`."""
