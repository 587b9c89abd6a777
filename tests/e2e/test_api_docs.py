"""The API's docs page in a real browser (issue 21): Swagger UI renders every operation of
the schema, and the page runs without one Content-Security-Policy violation (its scripts
and styles come from our own static files; its start-up script from its own address).
The user's "API tokens" page makes a token and shows it once, on a phone too."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE
from tests.e2e.test_csp import ConsoleWatch, log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _operations() -> int:
    schema = json.loads(Client().get("/api/v1/schema/?format=json").content)
    methods = {"get", "put", "post", "delete", "patch"}
    return sum(1 for item in schema["paths"].values() for method in item if method in methods)


def test_swagger_ui_shows_every_operation_without_csp_violations(browser: Any, live_server: Any):
    operations = _operations()
    assert operations > 0
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.set_default_timeout(20_000)
    watch = ConsoleWatch()
    watch.attach(page)

    watch.visit(page, live_server.url + "/api/v1/docs/")

    expect(page.locator(".swagger-ui .info .title")).to_contain_text("troefclub API")
    expect(page.locator(".opblock")).to_have_count(operations)
    # One operation opens, with its parameters and answers (the UI works, not just draws).
    page.locator(".opblock-summary").first.click()
    expect(page.locator(".opblock-body .responses-wrapper").first).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "api_docs.png"), full_page=False)
    assert not watch.violations, "CSP violations:\n" + "\n".join(watch.violations)


def test_a_token_is_made_and_shown_once_on_a_phone(browser: Any, live_server: Any):
    UserFactory.create(username="wedstrijdleider")
    page = browser.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(15_000)
    watch = ConsoleWatch()
    watch.attach(page)
    log_in(page, watch, live_server.url, "wedstrijdleider")

    page.locator(".navbar-toggler").click()
    page.locator("#navbar-user").click()  # one's own name leads to one's API tokens
    page.locator("#id_name").fill("federation website")
    page.get_by_role("button", name="Make a token").click()

    token = page.locator("#new-token-value").input_value()
    assert token.startswith("tc_") and len(token) == 46
    # Nothing wider than the phone: the list and the token box fit.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "api_tokens_phone.png"), full_page=True)
    watch.visit(page, live_server.url + "/accounts/api-tokens/")
    expect(page.locator(".api-token")).to_have_count(1)
    assert token not in page.content()
    assert token[:11] in page.content()
    assert not watch.violations, "CSP violations:\n" + "\n".join(watch.violations)
