"""The translation catalogues: `locale/<lang>/LC_MESSAGES/django.po` (and `djangojs.po`,
the admin's script texts Django lacks), compiled on setup.

The `.mo` files are build output (gitignored). GNU gettext's `msgfmt` is not on a fresh
machine with only Python, so `catalogues_compile` compiles with Babel instead; `dev.py`
and the test session call it, and `manage.py compile_translations` runs it by hand.
Fuzzy entries are left out, as `msgfmt` does: a fuzzy Dutch text is not a translation.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.conf import settings


def catalogue_paths() -> list[Path]:
    """Every `.po` under the project's LOCALE_PATHS (`django.po`, `djangojs.po`), sorted."""
    return sorted(
        po for root in settings.LOCALE_PATHS for po in Path(root).glob("*/LC_MESSAGES/*.po")
    )


def catalogues_compile(*, force: bool = False) -> list[Path]:
    """Write the `.mo` beside each `.po` that is newer than it (or all, with `force`).

    Returns the `.mo` paths written. Raises babel's errors on a malformed `.po`.
    """
    written = []
    for po in catalogue_paths():
        mo = po.with_suffix(".mo")
        if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalogue = read_po(source, locale=po.parent.parent.name)
        with mo.open("wb") as target:
            write_mo(target, catalogue, use_fuzzy=False)
        written.append(mo)
    return written
