"""Validators shared by the models, the admin, the forms and the importer."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from troefclub.bidi import char_named, invisible_char

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


def validate_key_visible(value: str) -> None:
    """Refuse a key or slug holding an invisible formatting character (Unicode category
    Cf: U+202E RIGHT-TO-LEFT OVERRIDE and the other bidi controls, zero-width spaces and
    joiners, the byte order mark): two keys that look alike must be alike, and a key is
    shown in files, URLs and messages (issue 19, `troefclub.bidi`).

    Raises ValidationError (code `key_invisible_char`, param `char`: "U+202E (RIGHT-TO-LEFT
    OVERRIDE)").
    """
    char = invisible_char(value)
    if char is not None:
        raise ValidationError(
            _("A key may not hold the invisible character %(char)s: type it again."),
            code="key_invisible_char",
            params={"char": char_named(char)},
        )


# Characters no stored text may hold: the control characters (U+0000–U+001F, U+007F–U+009F:
# PostgreSQL refuses NUL, the others are invisible and break terminals, CSV and layouts) and
# lone surrogates (half of a UTF-16 pair: not Unicode, no encoding can write them, so the
# database driver fails). A text of several lines may hold tabs and line breaks.
UNSAFE_TEXT_CHARS = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_UNSAFE_IN_LINES = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def text_unsafe_char(value: str, *, multiline: bool = False) -> str | None:
    """The first character of `value` that no stored text may hold, or None.

    Control characters and lone surrogates; with `multiline`, tab, LF and CR are allowed.
    """
    found = (_UNSAFE_IN_LINES if multiline else UNSAFE_TEXT_CHARS).search(value)
    return found.group() if found else None


def text_unsafe_error(char: str) -> ValidationError:
    """The ValidationError for an unsafe character (see `text_unsafe_char`).

    Code `text_surrogate` or `text_control_char`; param `char` is its code point (U+001B).
    """
    point = f"U+{ord(char):04X}"
    if "\ud800" <= char <= "\udfff":
        return ValidationError(
            _("The text is not valid Unicode (a lone surrogate, %(char)s): type it again."),
            code="text_surrogate",
            params={"char": point},
        )
    return ValidationError(
        _("Remove the invisible control character %(char)s from the text."),
        code="text_control_char",
        params={"char": point},
    )


def validate_single_line_text(value: str) -> None:
    """Refuse a one-line text (a name, a reason) holding a control character (tab and line
    breaks included) or a lone surrogate. Raises ValidationError (`text_unsafe_error`)."""
    char = text_unsafe_char(value)
    if char is not None:
        raise text_unsafe_error(char)


def validate_multiline_text(value: str) -> None:
    """Like `validate_single_line_text`, but tabs and line breaks are allowed."""
    char = text_unsafe_char(value, multiline=True)
    if char is not None:
        raise text_unsafe_error(char)


def validate_unicode(value: str) -> None:
    """Refuse a text holding a lone surrogate, which no encoding can write (a password may
    hold anything else). Raises ValidationError (`text_unsafe_error`, code `text_surrogate`)."""
    found = re.search("[\ud800-\udfff]", value)
    if found is not None:
        raise text_unsafe_error(found.group())


def validate_time_zone(value: str) -> None:
    """Refuse a time zone that is not an IANA name this server knows ("Europe/Amsterdam",
    "America/Paramaribo"; `zoneinfo`).

    Raises ValidationError (code `time_zone_unknown`, param `value`).
    """
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        if not value or value != value.strip() or value.startswith(("/", ".")):
            raise ValueError(value)
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError, TypeError) as exc:
        raise ValidationError(
            _("“%(value)s” is not a time zone: give its IANA name, e.g. America/Paramaribo."),
            code="time_zone_unknown",
            params={"value": value},
        ) from exc
