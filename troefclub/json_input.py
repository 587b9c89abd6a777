"""Reading JSON strictly: a document from a file (`manage.py import_competition`) or typed into
a form (`troefclub.forms.JSONInputField`), refused with the place of the problem when it
holds what no field can store or read back (issue 6, "Hostile input").

`json_parse(raw=…)` reads bytes (UTF-8, a byte order mark allowed, nesting at most
MAX_DEPTH levels, no key twice in one object) and names `line L, column C` when it can't;
`json_values_check` then refuses, with the value's JSON path (`players[3].name`, positions
from 1), numbers no field can hold (huge, NaN, Infinity), control characters other than
tab and line breaks, and lone surrogates. Both raise `JSONInputError`; the interchange
names the same problems as an `InterchangeError` (`interchange.values`).
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from typing import Any

from django.utils.translation import gettext as _

from troefclub.validators import UNSAFE_TEXT_CHARS, text_unsafe_char

# Deeper than any document of the interchange format (a round's tricks sit at depth 10;
# stored objects such as pairing reasons add a few): a file nested deeper is refused before
# its values are read, and no Python recursion limit is ever reached.
MAX_DEPTH = 32
# More digits than any number field holds; Python refuses to read 4,300 or more.
MAX_NUMBER_DIGITS = 30


class JSONInputError(Exception):
    """JSON this app can't store or read back: `place` says where (`line L, column C`, or a
    JSON path such as `players[3].name`), `message` what is wrong, in the reader's language."""

    def __init__(self, place: str, message: str) -> None:
        super().__init__(place, message)
        self.place = place
        self.message = message

    def __str__(self) -> str:
        return f"{self.place}: {self.message}"


def shown(value: Any) -> str:
    """`value` to quote in a message: at most 40 characters, control characters, lone
    surrogates and invisible formatting characters escaped (a message must print on any
    terminal, and not drive it; U+202E must not turn the message around, issue 19)."""
    text = repr(value) if not isinstance(value, str) else value
    text = text if len(text) <= 40 else text[:37] + "…"
    return "".join(
        f"\\u{ord(char):04x}"
        if UNSAFE_TEXT_CHARS.match(char) or unicodedata.category(char) == "Cf"
        else char
        for char in text
    )


class _BadNumber:
    """A number as written in the file that no field can hold (huge, NaN or Infinity);
    `json_values_check` refuses it with its place."""

    def __init__(self, text: str) -> None:
        self.text = text


class _RepeatedKeys(dict[str, Any]):
    """A JSON object that gave a key twice (`repeated`): JSON parsers differ on which one
    counts, so `json_values_check` refuses it rather than silently keep the last."""

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


def json_parse(*, raw: bytes) -> Any:
    """The JSON document in `raw` (bytes of a file, or a form's text encoded).

    `raw` is UTF-8 (a byte order mark is allowed). Raises JSONInputError naming the place:
    `line L, column C` for bytes that are not UTF-8, text that is not JSON, or nesting
    deeper than MAX_DEPTH; the JSON path (`players[3].name`) for a key given twice in one
    object, a number no field can hold (huge, NaN, Infinity), a control character or a
    lone surrogate (`json_values_check`).
    """
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8-sig")
        raise JSONInputError(
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
        raise JSONInputError(
            _line_column(text, exc.pos), _("not valid JSON: %(problem)s") % {"problem": exc.msg}
        ) from None
    except RecursionError:
        raise JSONInputError(
            _line_column(text, _too_deep_at(text)),
            _("nested deeper than %(depth)s levels") % {"depth": MAX_DEPTH},
        ) from None
    json_values_check(data)
    return data


def text_problem(char: str) -> str:
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
    return _("the number %(number)s is out of range") % {"number": shown(value.text)}


def json_values_check(value: Any) -> None:
    """Refuse what no field can store, anywhere in the document, with its JSON path
    (`players[3].name`; list positions count from 1 like every place in this module).

    Refused: nesting deeper than MAX_DEPTH, a key given twice in one object, numbers that
    are huge, NaN or infinite, and texts (values and keys) holding a lone surrogate or a
    control character other than tab and line breaks (`text_unsafe_char`; the fields that
    take one line refuse those too, in `interchange.values`). Raises JSONInputError.

    A league file has a million values: a quick walk decides whether anything is wrong
    (`_values_clean`); only then does the walk that keeps the path find and name it.
    """
    if not _values_clean(value):
        _check_value(value, [])


# The largest magnitude a number may have (`_number_problem`), as a bound to compare with.
_NUMBER_LIMIT = 10**MAX_NUMBER_DIGITS


def _values_clean(document: Any) -> bool:
    """Whether `json_values_check` finds nothing wrong in `document`: the same checks
    without a path, as a loop rather than a call a value, each distinct text and key
    checked once (a league file repeats "gewone_winst" 50,000 times)."""
    clean_texts: set[str] = set()
    clean_keys: set[str] = set()
    stack: list[tuple[Any, int]] = [(document, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        kind = type(value)
        if kind is str:
            if value not in clean_texts:
                if text_unsafe_char(value, multiline=True) is not None:
                    return False
                clean_texts.add(value)
        elif kind is int:
            if not -_NUMBER_LIMIT < value < _NUMBER_LIMIT:
                return False
        elif kind is dict:
            for key, item in value.items():
                if key not in clean_keys:
                    if text_unsafe_char(str(key)) is not None:
                        return False
                    clean_keys.add(key)
                stack.append((item, depth + 1))
        elif kind is list:
            stack.extend((item, depth + 1) for item in value)
        elif value is None or kind is bool:
            pass
        else:  # a float, a subclass (repeated keys), a number no field holds: the slow walk
            return False
    return True


def _trail_place(trail: list[str | int]) -> str:
    """The JSON path of `trail` (keys and 1-based list positions), "document" when empty;
    made only for an error: a league file has a million values."""
    path = ""
    for step in trail:
        if isinstance(step, int):
            path = f"{path}[{step}]"
        else:
            path = f"{path}.{shown(step)}" if path else shown(step)
    return path or "document"


def _check_value(value: Any, trail: list[str | int]) -> None:
    """`json_values_check` of one value at `trail` (changed while walking, restored after)."""
    if len(trail) > MAX_DEPTH:
        raise JSONInputError(
            shown(_trail_place(trail)),
            _("nested deeper than %(depth)s levels") % {"depth": MAX_DEPTH},
        )
    if isinstance(value, str):
        char = text_unsafe_char(value, multiline=True)
        if char is not None:
            raise JSONInputError(_trail_place(trail), text_problem(char))
    elif isinstance(value, dict):
        if isinstance(value, _RepeatedKeys):
            raise JSONInputError(
                _trail_place(trail),
                _("the key “%(key)s” appears twice in this object")
                % {"key": shown(value.repeated)},
            )
        for key, item in value.items():
            char = text_unsafe_char(str(key))
            if char is not None:
                raise JSONInputError(
                    _trail_place(trail),
                    _("the key “%(key)s”: %(problem)s")
                    % {"key": shown(key), "problem": text_problem(char)},
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
            raise JSONInputError(_trail_place(trail), number)
