"""CORS of the API (issue 21): off by default; API_CORS_ORIGINS lists the sites whose
scripts may read the API, and then only under /api/, never the pages; a preflight lets
them send the Authorization and Idempotency-Key headers, never cookies."""

from __future__ import annotations

import pytest

from tests.settings_env import settings_json

pytestmark = pytest.mark.django_db

API = "/api/v1/clubs/"
SITE = "https://stcb.sr"
THROTTLES = "[settings.REST_FRAMEWORK[name] for name in ('DEFAULT_THROTTLE_RATES', 'NUM_PROXIES')]"


@pytest.mark.settings_env
def test_the_origins_come_from_the_environment_and_default_to_none():
    assert settings_json("settings.CORS_ALLOWED_ORIGINS") == []
    assert settings_json(
        "settings.CORS_ALLOWED_ORIGINS", API_CORS_ORIGINS="https://stcb.sr, https://knbb.nl,"
    ) == ["https://stcb.sr", "https://knbb.nl"]


@pytest.mark.settings_env
def test_the_throttles_and_proxies_come_from_the_environment():
    default = settings_json(THROTTLES)
    chosen = settings_json(
        THROTTLES,
        API_THROTTLE_TOKEN="60/min",
        API_THROTTLE_ADDRESS="30/min",
        API_NUM_PROXIES="1",
    )

    assert default == [{"token": "600/min", "address": "300/min"}, None]
    assert chosen == [{"token": "60/min", "address": "30/min"}, 1]


def test_off_by_default_no_site_reads_the_api(client, settings):
    settings.CORS_ALLOWED_ORIGINS = []

    answer = client.get(API, HTTP_ORIGIN=SITE)

    assert answer.status_code == 200
    assert "Access-Control-Allow-Origin" not in answer


def test_a_listed_origin_reads_the_api_and_no_other(client, settings):
    settings.CORS_ALLOWED_ORIGINS = [SITE, "https://knbb.nl"]

    listed = client.get(API, HTTP_ORIGIN=SITE)
    other = client.get(API, HTTP_ORIGIN="https://evil.example")

    assert listed["Access-Control-Allow-Origin"] == SITE
    assert "Access-Control-Allow-Credentials" not in listed
    assert "etag" in listed["Access-Control-Expose-Headers"].lower()
    assert "Access-Control-Allow-Origin" not in other


@pytest.mark.parametrize("path", ["/", "/competitions/", "/accounts/login/", "/admin/login/"])
def test_a_listed_origin_reads_no_page(client, settings, path):
    settings.CORS_ALLOWED_ORIGINS = [SITE]

    answer = client.get(path, HTTP_ORIGIN=SITE)

    assert "Access-Control-Allow-Origin" not in answer


def test_a_preflight_allows_the_token_and_idempotency_headers(client, settings):
    settings.CORS_ALLOWED_ORIGINS = [SITE]

    answer = client.options(
        API,
        HTTP_ORIGIN=SITE,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, idempotency-key, content-type",
    )

    assert answer.status_code == 200
    assert answer["Access-Control-Allow-Origin"] == SITE
    allowed = {item.strip() for item in answer["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "idempotency-key", "content-type", "if-match"} <= allowed
    assert "POST" in answer["Access-Control-Allow-Methods"]
    assert "Access-Control-Allow-Credentials" not in answer


def test_a_preflight_from_another_origin_is_not_allowed(client, settings):
    settings.CORS_ALLOWED_ORIGINS = [SITE]

    answer = client.options(
        API,
        HTTP_ORIGIN="https://evil.example",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization",
    )

    assert "Access-Control-Allow-Origin" not in answer
