"""The words of a lineup's forfeit (issue 19's leftover, issue 20): stored in one fixed
form, shown in the reader's language.

A lineup that fields too few koppels forfeits its match by itself
(`scoring.services.lineups`). The reason is stored as data, "fewer than 3 koppels (home
2)", so that exports, tokens and history compare it as it was; every page shows it through
`forfeit_reason_text`, which words it in the active language. A director's own reason is
shown as typed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.utils.translation import gettext as _

# The stored form: "fewer than N koppels (home X)", "(away Y)" or "(home X, away Y)".
_SHORT = re.compile(r"fewer than (\d+) koppels \((home \d+(?:, away \d+)?|away \d+)\)")


def forfeit_reason_stored(min_koppels: int, fielded: Mapping[str, int]) -> str:
    """The stored reason of a lineup's forfeit: `fielded` maps each short side ("home",
    "away", in that order) to the koppels it fielded; `min_koppels` is the competition's
    minimum (RULES.md, club matches)."""
    details = ", ".join(f"{side} {fielded[side]}" for side in ("home", "away") if side in fielded)
    return f"fewer than {min_koppels} koppels ({details})"


def forfeit_reason_text(reason: str) -> str:
    """`reason` as a page shows it: a lineup's stored reason (`forfeit_reason_stored`) in
    the active language, "minder dan 3 koppels (thuis 2)"; any other reason as it is."""
    found = _SHORT.fullmatch(reason)
    if found is None:
        return reason
    sides = {"home": _("home %(koppels)s"), "away": _("away %(koppels)s")}
    details = ", ".join(
        sides[side] % {"koppels": koppels}
        for side, koppels in (part.split(" ") for part in found.group(2).split(", "))
    )
    return _("fewer than %(min)s koppels (%(details)s)") % {
        "min": found.group(1),
        "details": details,
    }
