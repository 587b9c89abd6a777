"""Reading a file strictly, and its values with the place to name in errors.

Hostile files: `document_parse(raw=…)` reads the bytes of a file (UTF-8, nesting at most
MAX_DEPTH levels, no key twice in one object) and names `line L, column C` when it can't;
every value of the document is then checked (`_check_values`, also run by
`competition_import`) and a problem is named by its JSON path (`players[3].name`, positions
from 1): numbers no field can hold (huge, NaN, Infinity), control characters other than tab
and line breaks, lone surrogates. Names and one-line texts take no control characters at
all, names are stored in Unicode NFC, keys and the slug may not start with -, =, + or @
(`tournaments.validators`).

`_Object` reads one JSON object of the document, refusing unknown keys and naming its place
in every error; `_check_text`, `_choice`, `_int_pair` and `_parse_date` check single
values.
"""

from __future__ import annotations

import datetime
import json
import math
import re
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.utils.translation import gettext as _

from tournaments.fields import nfc
from tournaments.interchange.constants import MAX_DEPTH, MAX_NUMBER_DIGITS, SMALL_INT_MAX
from tournaments.interchange.errors import InterchangeError, _join
from tournaments.validators import (
    UNSAFE_TEXT_CHARS,
    text_unsafe_char,
    validate_key_start,
)

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


def _show(value: Any) -> str:
    """`value` to quote in a message: at most 40 characters, control characters and lone
    surrogates escaped (a message must print on any terminal, and not drive it)."""
    text = repr(value) if not isinstance(value, str) else value
    text = text if len(text) <= 40 else text[:37] + "…"
    return UNSAFE_TEXT_CHARS.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


# ------------------------------------------------------------------ reading the file


class _BadNumber:
    """A number as written in the file that no field can hold (huge, NaN or Infinity);
    `_check_values` refuses it with its place."""

    def __init__(self, text: str) -> None:
        self.text = text


class _RepeatedKeys(dict[str, Any]):
    """A JSON object that gave a key twice (`repeated`): JSON parsers differ on which one
    counts, so `_check_values` refuses it rather than silently keep the last."""

    repeated: str = ""


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) == len(pairs):
        return value
    seen: set[str] = set()
    for key, _item in pairs:
        if key in seen:
            break
        seen.add(key)
    marked = _RepeatedKeys(value)
    marked.repeated = key
    return marked


def _integer(text: str) -> int | _BadNumber:
    return int(text) if len(text.lstrip("-")) <= MAX_NUMBER_DIGITS else _BadNumber(text)


def _decimal(text: str) -> float | _BadNumber:
    number = float(text)
    return number if math.isfinite(number) else _BadNumber(text)


def _line_column(text: str, position: int) -> str:
    line = text.count("\n", 0, position) + 1
    column = position - text.rfind("\n", 0, position)
    return _("line %(line)s, column %(column)s") % {"line": line, "column": column}


_BRACKET_OR_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _too_deep_at(text: str) -> int:
    """Where `text` opens its bracket MAX_DEPTH + 1 levels deep (0 if it never does)."""
    depth = 0
    for found in _BRACKET_OR_STRING.finditer(text):
        token = found.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return found.start()
        elif token in "]}":
            depth -= 1
    return 0


def document_parse(*, raw: bytes) -> Any:
    """The JSON document in `raw`, read for `competition_import`.

    `raw` is UTF-8 (a byte order mark is allowed). Raises InterchangeError naming the place:
    `line L, column C` for bytes that are not UTF-8, text that is not JSON, or nesting
    deeper than MAX_DEPTH; the JSON path (`players[3].name`) for a key given twice in one
    object, a number no field can hold (huge, NaN, Infinity), a control character or a
    lone surrogate (`_check_values`).
    """
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8-sig")
        raise InterchangeError(
            _line_column(good, len(good)),
            _("the file is not UTF-8 text (byte 0x%(byte)02x)") % {"byte": raw[exc.start]},
        ) from None
    try:
        data = json.loads(
            text,
            object_pairs_hook=_object_pairs,
            parse_int=_integer,
            parse_float=_decimal,
            parse_constant=_BadNumber,
        )
    except json.JSONDecodeError as exc:
        raise InterchangeError(
            _line_column(text, exc.pos), _("not valid JSON: %(problem)s") % {"problem": exc.msg}
        ) from None
    except RecursionError:
        raise InterchangeError(
            _line_column(text, _too_deep_at(text)),
            _("nested deeper than %(depth)s levels") % {"depth": MAX_DEPTH},
        ) from None
    _check_values(data)
    return data


def _problem(char: str) -> str:
    """What is wrong with a text holding `char` (see `text_unsafe_char`), in words."""
    point = f"U+{ord(char):04X}"
    if "\ud800" <= char <= "\udfff":
        return _("the text holds a lone surrogate (%(char)s), which is not Unicode") % {
            "char": point
        }
    return _("the text holds the control character %(char)s") % {"char": point}


def _number_problem(value: Any) -> str | None:
    """What is wrong with a number no field can hold (huge, NaN, Infinity), or None."""
    too_large = isinstance(value, int) and abs(value) >= 10**MAX_NUMBER_DIGITS
    if too_large or (isinstance(value, float) and not math.isfinite(value)):
        value = _BadNumber(str(value))
    if not isinstance(value, _BadNumber):
        return None
    if value.text.lower().lstrip("-") in ("nan", "infinity", "inf"):
        return _("%(number)s is not a number JSON allows") % {"number": value.text}
    return _("the number %(number)s is out of range") % {"number": _show(value.text)}


def _check_values(value: Any) -> None:
    """Refuse what no field can store, anywhere in the document, with its JSON path
    (`players[3].name`; list positions count from 1 like every place in this module).

    Refused: nesting deeper than MAX_DEPTH, a key given twice in one object, numbers that
    are huge, NaN or infinite, and texts (values and keys) holding a lone surrogate or a
    control character other than tab and line breaks (`text_unsafe_char`; the fields that
    take one line refuse those too, in `_check_text`). Raises InterchangeError.
    """
    _check_value(value, [])


def _trail_place(trail: list[str | int]) -> str:
    """The JSON path of `trail` (keys and 1-based list positions), "document" when empty;
    made only for an error: a league file has a million values."""
    path = ""
    for step in trail:
        if isinstance(step, int):
            path = f"{path}[{step}]"
        else:
            path = f"{path}.{_show(step)}" if path else _show(step)
    return path or "document"


def _check_value(value: Any, trail: list[str | int]) -> None:
    """`_check_values` of one value at `trail` (changed while walking, restored after)."""
    if len(trail) > MAX_DEPTH:
        raise InterchangeError(
            _show(_trail_place(trail)),
            _("nested deeper than %(depth)s levels") % {"depth": MAX_DEPTH},
        )
    if isinstance(value, str):
        char = text_unsafe_char(value, multiline=True)
        if char is not None:
            raise InterchangeError(_trail_place(trail), _problem(char))
    elif isinstance(value, dict):
        if isinstance(value, _RepeatedKeys):
            raise InterchangeError(
                _trail_place(trail),
                _("the key “%(key)s” appears twice in this object")
                % {"key": _show(value.repeated)},
            )
        for key, item in value.items():
            char = text_unsafe_char(str(key))
            if char is not None:
                raise InterchangeError(
                    _trail_place(trail),
                    _("the key “%(key)s”: %(problem)s")
                    % {"key": _show(key), "problem": _problem(char)},
                )
            trail.append(str(key))
            _check_value(item, trail)
            trail.pop()
    elif isinstance(value, list):
        for position, item in enumerate(value, start=1):
            trail.append(position)
            _check_value(item, trail)
            trail.pop()
    else:
        number = _number_problem(value)
        if number is not None:
            raise InterchangeError(_trail_place(trail), number)


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
            place, _("“%(key)s”: %(problem)s") % {"key": key, "problem": _problem(char)}
        )
    if slug:
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
        value = nfc(value)
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
