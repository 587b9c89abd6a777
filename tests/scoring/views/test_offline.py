"""The table page as an offline app (issue 18): the service worker's script and the web app
manifest of a table link, and the libraries they use, vendored (no CDN at run time)."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from scoring import offline
from scoring.services.table import game_link_revoke, game_links_ensure
from tests.factories import CompetitionFactory, GameFactory

pytestmark = pytest.mark.django_db


def found(pattern: str, text: str) -> str:
    match = re.search(pattern, text)
    assert match, pattern
    return match.group(1)


def test_the_service_worker_is_served_from_the_root_and_never_cached(client):
    response = client.get(reverse("service_worker"))
    assert reverse("service_worker") == "/sw.js"
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    script = response.content.decode()
    assert f'var RELEASE = "{offline.release()}";' in script
    precache = json.loads(found(r"var PRECACHE = (\[.*?\]);", script))
    assert [entry["url"] for entry in precache] == [f"/static/{n}" for n in offline.PRECACHED]
    assert all(entry["revision"] != "missing" for entry in precache)
    modules = json.loads(found(r"var MODULES = (\{.*?\});", script))
    assert set(modules) == set(offline.WORKBOX_MODULES)
    # Every script it loads is ours: Workbox's CDN default is never asked.
    assert all(url.startswith("/static/vendor/workbox/") for url in modules.values())
    assert "modulePathCb" in script and "googleapis" not in script


def test_the_release_names_the_caches_and_can_be_forced(client, settings):
    computed = offline.release()
    assert re.fullmatch(r"[0-9a-f]{12}", computed)
    settings.PWA_RELEASE = "2026-10-02"
    assert offline.release() == "2026-10-02"
    assert 'var RELEASE = "2026-10-02";' in client.get("/sw.js").content.decode()


def test_every_precached_and_vendored_file_is_there_without_source_maps():
    names = [
        *offline.PRECACHED,
        *(f"vendor/workbox/{name}.prod.js" for name in offline.WORKBOX_MODULES),
        "vendor/workbox/workbox-sw.js",
        "vendor/workbox/VERSION",
        "vendor/workbox/LICENSE",
        "vendor/idb/VERSION",
        "vendor/idb/LICENSE",
        "icons/troefclub-512.png",
    ]
    for name in names:
        found = finders.find(name)
        assert isinstance(found, str), name
        if name.endswith(".js"):
            with open(found, encoding="utf-8") as script:
                assert "sourceMappingURL" not in script.read(), name


def test_a_table_links_manifest_names_the_competition_and_opens_the_table(client):
    game = GameFactory.create(competition=CompetitionFactory.create(name="Club evening"))
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["b"]
    page = reverse("table_sheet", kwargs={"token": link.token})
    response = client.get(reverse("table_manifest", kwargs={"token": link.token}))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] == f"Club evening · table {game.table}"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        page,
        page,
        "standalone",
    )
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    html = client.get(page).content.decode()
    assert f'<link rel="manifest" href="{page}manifest.webmanifest">' in html

    game_link_revoke(game_id=game.pk, link_id=link.pk)
    assert client.get(reverse("table_manifest", kwargs={"token": link.token})).status_code == 404
