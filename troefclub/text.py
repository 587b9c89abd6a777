"""Text as people type it, made comparable: shared by the entry lookups and searches."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """`text` as a lookup compares it: decomposed (NFKD) without its combining marks, case
    folded, and with every run of white space made one space, none at the ends.

    "  Ramdín   & SÜNITA " → "ramdin & sunita". A pure function of its argument; raises
    nothing.
    """
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.casefold().split())
