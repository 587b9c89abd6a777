"""Validators shared by the models, the admin, the forms and the importer."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# A key or slug starting with one of these is read as a formula by spreadsheet programs
# (CSV/Excel injection); keys go into every export, so they may not start with one.
KEY_FORBIDDEN_START = ("-", "=", "+", "@")


def validate_key_start(value: str) -> None:
    """Refuse a key or slug that starts with `-`, `=`, `+` or `@`.

    Raises ValidationError (code `key_start`, param `char`).
    """
    if value and value[0] in KEY_FORBIDDEN_START:
        raise ValidationError(
            _("A key may not start with “%(char)s”: start it with a letter or a digit."),
            code="key_start",
            params={"char": value[0]},
        )
