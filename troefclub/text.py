"""Text as people type it, made comparable: shared by the entry lookups and every search.

- `fold`: a text as a lookup compares it (any case, no accents, spaces squeezed), in
  Python; `fold_letters` without the spaces.
- `Fold`, the `__fold` transform of every text field, the same in the database: both
  sides of a lookup are folded there, so `Q(name__fold__contains="gerard eluard")` finds
  "Gérard Éluard", and "kolibrië" finds "Kolibrie". Its SQL function `troefclub_fold` is
  `fold_letters` itself on SQLite (registered on each connection, `sqlite_fold_register`)
  and, on PostgreSQL, `unaccent` + `lower` made by the migration troefclub/0001_fold.
  Spaces are left as they are there (squeezing them tripled PostgreSQL's time): the
  searches squeeze the words typed, and names are stored as typed once.
- `koppel_names`: the two players of a koppel written as it is shown, "A & B" (or
  "A en B", "A and B").
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from django.db import models

# Latin letters that Unicode does not decompose into a base letter and a mark, spelt as
# PostgreSQL's `unaccent` spells them, so both engines fold them alike ("Øystein",
# "Łukasz" and "Ærø" are found as typed without the marks).
PLAIN_LETTERS = str.maketrans(
    {"ø": "o", "ł": "l", "đ": "d", "ħ": "h", "ı": "i", "æ": "ae", "œ": "oe", "þ": "th"}
)


def fold_letters(text: str) -> str:
    """`text` without case and accents: decomposed (NFKD) without its combining marks,
    case folded, the few Latin letters with a stroke or ligature spelt plain
    (`PLAIN_LETTERS`). "Gérard ÉLUARD" → "gerard eluard". Raises nothing."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return bare.casefold().translate(PLAIN_LETTERS)


def fold(text: str) -> str:
    """`text` as a lookup compares it: `fold_letters`, and every run of white space made one
    space, none at the ends.

    "  Ramdín   & SÜNITA " → "ramdin & sunita". A pure function of its argument; raises
    nothing.
    """
    return " ".join(fold_letters(text).split())


# The database function of `Fold`: its name, on both engines.
FOLD_FUNCTION = "troefclub_fold"


@lru_cache(maxsize=8192)
def _fold_cached(text: str | None) -> str | None:
    """`fold_letters` for SQLite, which calls it once a row and a field: the same names
    come back every search, so they are folded once (a few MB at most)."""
    return None if text is None else fold_letters(text)


def sqlite_fold_register(sender: Any, connection: Any, **kwargs: Any) -> None:
    """`connection_created` receiver: give a new SQLite connection `troefclub_fold`
    (`fold_letters`, deterministic, NULL stays NULL). PostgreSQL has it from its migration."""
    if connection.vendor == "sqlite":
        connection.connection.create_function(FOLD_FUNCTION, 1, _fold_cached, deterministic=True)


class Fold(models.Transform):
    """`<text field>__fold`: the field folded (`fold_letters`) in the database, and, being
    bilateral, the value it is compared with too, so any lookup after it (`contains`,
    `startswith`, `exact`, and the admin's `icontains`) ignores case and accents on both
    sides. A full scan like `icontains`; fine at league size (tests/rankings/
    test_search_fold.py measures 1,000 koppels)."""

    lookup_name = "fold"
    function = FOLD_FUNCTION
    bilateral = True
    output_field = models.TextField()

    def as_sql(self, compiler: Any, connection: Any, *args: Any, **extra: Any) -> tuple[str, Any]:
        sql, params = super().as_sql(compiler, connection, *args, **extra)
        if isinstance(self.lhs, models.Value):
            # The searched words (the bilateral side): a subquery, so the database folds
            # them once a query, not once a row (PostgreSQL: an InitPlan).
            return f"(SELECT {sql})", params
        return sql, params


def fold_register() -> None:
    """Make `__fold` a transform of every text field (`CharField`, and so `SlugField` and
    `NameField`, and `TextField`). Called once, by the core's `AppConfig.ready`."""
    models.CharField.register_lookup(Fold)
    models.TextField.register_lookup(Fold)


# Between the two players' names of a koppel as people write it: "A & B" (how a koppel
# without a name of its own is shown), "A en B", "A and B".
KOPPEL_NAME_JOINS = re.compile(r"\s*&\s*|\s+(?:en|and)\s+", re.IGNORECASE)


def koppel_names(text: str) -> tuple[str, str] | None:
    """The two player names of `text` when it names a koppel by its players ("Sharda S. &
    Shanti L.", "sharda en shanti", "A and B"), else None (one name, or more than two)."""
    names = [name.strip() for name in KOPPEL_NAME_JOINS.split(text.strip())]
    if len(names) == 2 and all(names):
        return names[0], names[1]
    return None
