"""Names next to text in either direction (issue 19, item 6): bidirectional control
characters can't turn a page, a message or a key around.

A name holding U+202E RIGHT-TO-LEFT OVERRIDE turns everything after it backwards, the
text around the name included: a standings row, "A – B", a sentence. So:

- **names are stored without bidi controls** (`name_text`, used by `NameField` and the
  importer): the embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and
  the marks (U+200E, U+200F, U+061C). A Hebrew or Arabic name needs none of them: its
  letters carry their own direction, and the pages isolate every name (below). Kept,
  they let a name show as another ("\\u202eevil" shows as "live") and defeat a search.
  Other invisible characters stay: the zero-width (non-)joiner is part of how some
  languages write a name.
- **names are isolated where they are shown**: in a page, in `<bdi>` (`isolated`, the
  template filter `{{ name|bdi }}` of `{% load names %}`), so that even a name stored
  before, or a name of an RTL script, can't move the text around it; in plain text (the
  rules' messages, `troefclub.rule_messages`) between FIRST STRONG ISOLATE and POP
  DIRECTIONAL ISOLATE (`isolated_text`) when the name has anything right-to-left.
- **keys may hold no invisible character at all** (`troefclub.validators.validate_key_visible`):
  a key is an identifier, two keys that look alike must be alike.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString

# The bidirectional formatting characters (Unicode's UAX #9, "Explicit Directional
# Embeddings/Overrides/Isolates" and the implicit marks).
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

FIRST_STRONG_ISOLATE = "\u2068"
POP_DIRECTIONAL_ISOLATE = "\u2069"
# Bidi classes that turn text right-to-left (Hebrew, Arabic letters, Arabic digits).
_RIGHT_TO_LEFT = {"R", "AL", "AN"}


def bidi_controls_removed(text: str) -> str:
    """`text` without its bidirectional control characters (`BIDI_CONTROLS`)."""
    return BIDI_CONTROLS.sub("", text)


def name_text(value: str) -> str:
    """A name as it is stored: in Unicode NFC (equal names compare equal however typed)
    and without bidirectional control characters. Raises nothing."""
    return unicodedata.normalize("NFC", bidi_controls_removed(value))


def right_to_left(text: str) -> bool:
    """True when `text` holds a letter or digit written right to left."""
    return any(unicodedata.bidirectional(char) in _RIGHT_TO_LEFT for char in text)


def isolated(value: Any) -> SafeString:
    """`value` (a name, a koppel, a club: its `str`) HTML-escaped in `<bdi>`: whatever it
    holds stays inside, the text around it keeps its direction. Markup already safe (a
    link) is kept as it is, inside."""
    return format_html("<bdi>{}</bdi>", conditional_escape(value))


def isolated_text(value: Any) -> str:
    """`value` as plain text to put in a sentence: without bidi controls, and between
    FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE when it has anything right to left
    (a name in Hebrew or Arabic script, which would otherwise pull the punctuation after it
    along). A left-to-right name comes back as it is."""
    text = bidi_controls_removed(str(value))
    if right_to_left(text):
        return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"
    return text


def invisible_char(text: str) -> str | None:
    """The first invisible formatting character of `text` (Unicode category Cf: the bidi
    controls, zero-width spaces and joiners, the soft hyphen, the byte order mark), or None."""
    for char in text:
        if unicodedata.category(char) == "Cf":
            return char
    return None


def char_named(char: str) -> str:
    """A character as a message names it: "U+202E (RIGHT-TO-LEFT OVERRIDE)"."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} ({name})" if name else f"U+{ord(char):04X}"
