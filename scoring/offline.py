"""The table phone's offline mode (issue 18): what the service worker keeps, and the
release its caches are named after.

The service worker (`scoring.views.offline.service_worker`, templates/scoring/sw.js)
precaches `PRECACHED`: everything the table page and the director's score sheet load
besides the page itself. Its cache names carry `release()`, so a new release (a changed
file, a new service worker) installs a new worker whose caches replace the old ones: a
phone never keeps serving an old page or script after an upgrade.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import cast

from django.conf import settings
from django.contrib.staticfiles import finders

# The static files of the table page and the score sheet, by their names under static/.
PRECACHED = (
    "vendor/bootstrap/bootstrap.min.css",
    "vendor/bootstrap/bootstrap.bundle.min.js",
    "css/troefclub.css",
    "css/table.css",
    "css/sheet.css",
    "js/troefclub.js",
    "js/sheet.js",
    "js/table.js",
    "js/table_rules.js",
    "js/table_queue.js",
    "js/sheet_queue.js",
    "js/offline_page.js",
    "vendor/idb/idb.umd.js",
    "django_htmx/htmx-2.min.js",
    "favicon.svg",
    "icons/troefclub-192.png",
)

# Workbox's modules the service worker loads (static/vendor/workbox, pwa_vendor.sh).
WORKBOX_MODULES = ("workbox-core", "workbox-routing", "workbox-strategies", "workbox-precaching")

SERVICE_WORKER_TEMPLATE = "scoring/sw.js"


def _file_digest(name: str) -> str:
    found = finders.find(name)
    path = Path(found if isinstance(found, str) else "")
    return hashlib.blake2b(path.read_bytes(), digest_size=8).hexdigest() if found else "missing"


@functools.cache
def precache_revisions() -> dict[str, str]:
    """{static name: a hash of its content} of `PRECACHED` (the precache's revisions: a
    changed file is fetched again). Read once a process."""
    return {name: _file_digest(name) for name in PRECACHED}


@functools.cache
def _computed_release() -> str:
    directories = cast(list[str], settings.TEMPLATES[0]["DIRS"])
    template = next(
        Path(directory) / SERVICE_WORKER_TEMPLATE
        for directory in directories
        if (Path(directory) / SERVICE_WORKER_TEMPLATE).is_file()
    )
    parts = [template.read_bytes(), *(v.encode() for v in precache_revisions().values())]
    parts += [_file_digest(f"vendor/workbox/{name}.prod.js").encode() for name in WORKBOX_MODULES]
    return hashlib.blake2b(b"\0".join(parts), digest_size=6).hexdigest()


def release() -> str:
    """The release the service worker's caches are named after: `settings.PWA_RELEASE`
    when set, else a hash of the service worker and every file it precaches (so any change
    of them is a new release)."""
    return settings.PWA_RELEASE or _computed_release()
