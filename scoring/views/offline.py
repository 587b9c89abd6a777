"""The table phone's progressive web app (issue 18): the service worker and the web app
manifest of a table link.

The service worker is served from the site's root (`/sw.js`), so its scope covers the
table pages (/t/) and the director's score sheets; what it does is in
templates/scoring/sw.js, what it keeps in `scoring.offline`.
"""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from scoring import offline
from scoring.models import GameLink
from scoring.selectors.sheet import game_detail
from scoring.views.table import link_invalid, link_of
from troefclub.access import HtmxHttpRequest
from troefclub.secret_links import secret_link


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """`/sw.js`: the service worker of this release (`scoring.offline.release`)."""
    modules = {name: static(f"vendor/workbox/{name}.prod.js") for name in offline.WORKBOX_MODULES}
    revisions = offline.precache_revisions()
    precache = [
        # A hashed name (collectstatic's manifest) is its own revision: the browser may
        # then take it from its HTTP cache, where the page put it already.
        {"url": url, "revision": None if name not in url else revisions[name]}
        for name, url in ((name, static(name)) for name in offline.PRECACHED)
    ]
    context = {
        "release_json": json.dumps(offline.release()),
        "modules_json": json.dumps(modules),
        "precache_json": json.dumps(precache),
        "workbox_sw_json": json.dumps(static("vendor/workbox/workbox-sw.js")),
        "idb_json": json.dumps(static("vendor/idb/idb.umd.js")),
        "queue_json": json.dumps(static("js/table_queue.js")),
    }
    response = render(
        request, offline.SERVICE_WORKER_TEMPLATE, context, content_type="text/javascript"
    )
    # Checked at every visit (the browser's own check bypasses its HTTP cache too): a new
    # release reaches a phone the next time it opens a page.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
@never_cache
@secret_link(link_of, invalid=link_invalid)
def table_manifest(request: HtmxHttpRequest, link: GameLink) -> HttpResponse:
    """The web app manifest of a koppel's table link (`/t/<token>/manifest.webmanifest`):
    installed on the phone's home screen, it opens that table's page, named after the
    competition. A revoked or unknown link is the friendly 404; guessing links is
    throttled (`secret_link`)."""
    game = game_detail(game_id=link.game_id)
    page = reverse("table_sheet", kwargs={"token": link.token})
    table = game.match.table or game.table
    manifest = {
        "name": f"{game.match.matchday.competition.name} · "
        + _("table %(table)s") % {"table": table},
        "short_name": _("Table %(table)s") % {"table": table},
        "description": _("Enter the rounds of your table, also without a connection."),
        "lang": request.LANGUAGE_CODE,
        "id": page,
        "start_url": page,
        "scope": page,
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1f6f43",
        "icons": [
            {
                "src": static(f"icons/troefclub-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": "any",
            }
            for size in (192, 512)
        ],
    }
    response = JsonResponse(manifest, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
