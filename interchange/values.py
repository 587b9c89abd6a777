"""Reading a file strictly, and its values with the place to name in errors.

Hostile files: `document_parse(raw=…)` reads the bytes of a file with the strict reader of
`troefclub.json_input` (UTF-8, nesting at most `MAX_DEPTH` levels, no key twice in one
object; `line L, column C` when it can't), and every value of the document is checked
(`_check_values`, also run by `competition_import`), a problem named by its JSON path
(`players[3].name`, positions from 1): numbers no field can hold (huge, NaN, Infinity),
control characters other than tab and line breaks, lone surrogates. Names and one-line
texts take no control characters at all, names are stored in Unicode NFC, keys and the
slug may not start with -, =, + or @ (`troefclub.validators`).

`_Object` reads one JSON object of the document, refusing unknown keys and naming its place
in every error; `_check_text`, `_choice`, `_int_pair` and `_parse_date` check single
values.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.utils.translation import gettext as _

from interchange.constants import SMALL_INT_MAX
from interchange.errors import InterchangeError, _join
from troefclub.bidi import name_text
from troefclub.json_input import JSONInputError, json_parse, json_values_check, text_problem
from troefclub.json_input import shown as _show
from troefclub.validators import text_unsafe_char, validate_key_start, validate_key_visible

# ------------------------------------------------------------------ values in messages


def _kind_of(value: Any) -> str:
    """What `value` is, in words, for "must be …, not …"."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return _("true/false")
    if isinstance(value, int):
        return _("a whole number")
    if isinstance(value, float):
        return _("a decimal number")
    if isinstance(value, str):
        return _("text")
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, dict):
        return _("an object")
    return type(value).__name__


def document_parse(*, raw: bytes) -> Any:
    """The JSON document in `raw`, read for `competition_import`: `troefclub.json_input`'s
    strict reading (UTF-8, `MAX_DEPTH` levels, no key twice, numbers a field can hold, no
    control characters or lone surrogates). Raises InterchangeError naming the place:
    `line L, column C`, or the JSON path of the value (`players[3].name`)."""
    try:
        return json_parse(raw=raw)
    except JSONInputError as exc:
        raise InterchangeError(exc.place, exc.message) from None


def _check_values(value: Any) -> None:
    """`troefclub.json_input.json_values_check` of a document, refused as an
    InterchangeError (also run by `competition_import` on a document it was given)."""
    try:
        json_values_check(value)
    except JSONInputError as exc:
        raise InterchangeError(exc.place, exc.message) from None


# ------------------------------------------------------------------ reading the values

_MISSING = object()


class _Object:
    """A JSON object being read, with the place to name in errors."""

    def __init__(self, value: Any, place: str, fields: Iterable[str]) -> None:
        if not isinstance(value, dict):
            raise InterchangeError(
                place, _("must be an object, not %(kind)s") % {"kind": _kind_of(value)}
            )
        allowed = set(fields)
        for key in value:
            if key not in allowed:
                raise InterchangeError(
                    place,
                    _("unknown field “%(key)s” (known fields: %(known)s)")
                    % {"key": _show(key), "known": ", ".join(sorted(allowed))},
                )
        self.value = value
        self.place = place

    def _get(self, key: str, default: Any) -> Any:
        value = self.value.get(key, _MISSING)
        if value is _MISSING:
            if default is _MISSING:
                raise InterchangeError(self.place, _("“%(key)s” is missing") % {"key": key})
            return default
        return value

    def _wrong(self, key: str, expected: str, value: Any) -> InterchangeError:
        return InterchangeError(
            self.place,
            _("“%(key)s” must be %(expected)s, not %(kind)s")
            % {"key": key, "expected": expected, "kind": _kind_of(value)},
        )

    def text(
        self,
        key: str,
        *,
        default: Any = _MISSING,
        max_length: int,
        slug: bool = False,
        nullable: bool = False,
        name: bool = False,
        blank: bool = False,
        multiline: bool = False,
    ) -> Any:
        """The text at `key`; see `_check_text` for the options."""
        value = self._get(key, default)
        if value is None and nullable:
            return None
        return _check_text(
            self.place,
            key,
            value,
            max_length=max_length,
            slug=slug,
            name=name,
            blank=blank,
            multiline=multiline,
        )

    def integer(
        self,
        key: str,
        *,
        default: Any = _MISSING,
        minimum: int | None = 0,
        maximum: int = SMALL_INT_MAX,
        nullable: bool = False,
    ) -> Any:
        value = self._get(key, default)
        if value is None and nullable:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            expected = _("a whole number or null") if nullable else _("a whole number")
            raise self._wrong(key, expected, value)
        if minimum is not None and value < minimum:
            raise InterchangeError(
                self.place,
                _("“%(key)s” must be at least %(minimum)s, not %(value)s")
                % {"key": key, "minimum": minimum, "value": value},
            )
        if value > maximum:
            raise InterchangeError(
                self.place,
                _("“%(key)s” is too large (%(value)s; at most %(maximum)s)")
                % {"key": key, "value": value, "maximum": maximum},
            )
        return value

    def boolean(self, key: str, *, default: Any = _MISSING) -> bool:
        value = self._get(key, default)
        if not isinstance(value, bool):
            raise self._wrong(key, _("true or false"), value)
        return value

    def array(self, key: str, *, default: Any = _MISSING, nullable: bool = False) -> Any:
        value = self._get(key, default)
        if value is None and nullable:
            return None
        if not isinstance(value, list):
            raise self._wrong(key, _("a list"), value)
        return value

    def obj(self, key: str, fields: Iterable[str], *, default: Any = _MISSING) -> _Object:
        value = self._get(key, default)
        return _Object(value, _join(self.place, key), fields)

    def has(self, key: str) -> bool:
        return key in self.value


def _check_text(
    place: str,
    key: str,
    value: Any,
    *,
    max_length: int,
    slug: bool = False,
    name: bool = False,
    blank: bool = False,
    multiline: bool = False,
) -> str:
    """`value` checked as a text of at most `max_length` characters, on one line unless
    `multiline` (no control characters or lone surrogates either way).

    `slug`: a key (letters, digits, - and _, not starting with -); `name`: a name, returned
    in Unicode NFC (so "Kolibrië" is found however it was typed; the length counts NFC),
    not empty unless `blank`.
    """
    if not isinstance(value, str):
        raise InterchangeError(
            place,
            _("“%(key)s” must be text, not %(kind)s") % {"key": key, "kind": _kind_of(value)},
        )
    char = text_unsafe_char(value, multiline=multiline)
    if char is not None:
        raise InterchangeError(
            place, _("“%(key)s”: %(problem)s") % {"key": key, "problem": text_problem(char)}
        )
    if slug:
        try:
            validate_key_visible(value)  # said first: "letters, digits" would not say which
        except ValidationError as exc:
            raise InterchangeError(
                place, _("“%(key)s”: %(problem)s") % {"key": key, "problem": exc.messages[0]}
            ) from None
        try:
            validate_slug(value)
        except ValidationError:
            raise InterchangeError(
                place,
                _("“%(key)s” must be letters, digits, “-” or “_” only, not “%(value)s”")
                % {"key": key, "value": _show(value)},
            ) from None
        try:
            validate_key_start(value)
        except ValidationError as exc:
            raise InterchangeError(
                place, _("“%(key)s”: %(problem)s") % {"key": key, "problem": exc.messages[0]}
            ) from None
    if name:
        value = name_text(value)
        if not blank and not value.strip():
            raise InterchangeError(place, _("“%(key)s” may not be empty") % {"key": key})
    if len(value) > max_length:
        raise InterchangeError(
            place,
            _("“%(key)s” is too long (at most %(max)s characters)")
            % {"key": key, "max": max_length},
        )
    return value


def _choice(item: _Object, key: str, choices: Iterable[str], default: str) -> str:
    """The text at `key` of `item`, one of `choices` (`default` when absent)."""
    value = item.text(key, default=default, max_length=40)
    if value not in choices:
        raise InterchangeError(
            item.place,
            _("“%(key)s” must be one of %(choices)s, not “%(value)s”")
            % {
                "key": key,
                "choices": ", ".join(f"“{choice}”" for choice in choices),
                "value": _show(value),
            },
        )
    return value


def _int_pair(place: str, key: str, value: Any, *, maximum: int) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(not isinstance(v, int) or isinstance(v, bool) for v in value)
    ):
        raise InterchangeError(
            place,
            _("“%(key)s” must be a list of two whole numbers, not %(value)s")
            % {"key": key, "value": _show(value)},
        )
    for number in value:
        if number > maximum:
            raise InterchangeError(
                place,
                _("“%(key)s” holds a number that is too large (%(value)s)")
                % {"key": key, "value": number},
            )
    return (value[0], value[1])


def _parse_time(place: str, key: str, raw: str | None) -> datetime.time | None:
    """A matchday's start time, "19:30" or "19:30:00" (no zone: the competition's)."""
    if raw is None:
        return None
    try:
        parsed = datetime.time.fromisoformat(raw)
        if parsed.tzinfo is not None or len(raw) not in (5, 8):
            raise ValueError(raw)
        return parsed
    except ValueError:
        raise InterchangeError(
            place,
            _("“%(key)s” must be a time like 19:30, not “%(value)s”")
            % {"key": key, "value": _show(raw)},
        ) from None


def _parse_date(place: str, key: str, raw: str | None) -> datetime.date | None:
    if raw is None:
        return None
    try:
        return datetime.date.fromisoformat(raw)
    except ValueError:
        raise InterchangeError(
            place,
            _("“%(key)s” must be a date like 2026-10-02, not “%(value)s”")
            % {"key": key, "value": _show(raw)},
        ) from None
