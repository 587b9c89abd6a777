"""The API's docs page, /api/v1/docs/ (issue 21): Swagger UI from our own static files (no
CDN), its start-up script from its own address (no inline script), under the site's
Content-Security-Policy unchanged. The browser check is tests/e2e/test_api_docs.py."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

DOCS = "/api/v1/docs/"


def test_the_docs_page_loads_swagger_ui_from_our_static_files(client):
    answer = client.get(DOCS)

    assert answer.status_code == 200
    page = answer.content.decode()
    sources = re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', page)
    assert any("swagger-ui-bundle.js" in source for source in sources)
    assert all(source.startswith("/") and not source.startswith("//") for source in sources)
    assert "/api/v1/docs/?script=" in page
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), "an inline script"
    assert "<style" not in page, "an inline style"


def test_the_docs_script_points_at_the_schema(client):
    answer = client.get(DOCS + "?script=")

    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/javascript")
    assert "/api/v1/schema/" in answer.content.decode()


def test_the_docs_page_keeps_the_sites_policy(client):
    page = client.get(DOCS)
    home = client.get(reverse("competition_list"))

    assert page["Content-Security-Policy"] == home["Content-Security-Policy"]
    assert "'unsafe-inline'" not in page["Content-Security-Policy"]
    assert "script-src 'self'" in page["Content-Security-Policy"]
    assert settings.SPECTACULAR_SETTINGS["SWAGGER_UI_DIST"] == "SIDECAR"


def test_the_token_page_links_the_docs(client):
    client.force_login(UserFactory.create())

    assert f'href="{DOCS}"' in client.get("/accounts/api-tokens/").content.decode()
