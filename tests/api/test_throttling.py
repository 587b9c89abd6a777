"""Throttling of the API (issue 21): a budget per token (personal or table link) and one
per client address for the requests without a token; over it, 429 with Retry-After and
the message in the reader's language. The rates come from settings.REST_FRAMEWORK
(API_THROTTLE_TOKEN, API_THROTTLE_ADDRESS); the counters live in the cache, which each
test starts empty."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from api.services import api_token_create
from scoring.services.table import game_links_ensure
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/clubs/"


@pytest.fixture
def rates(settings: Any) -> Any:
    """Set the two rates (each "N/min"); the counters start empty."""

    def set_rates(*, token: str = "1000/min", address: str = "1000/min") -> None:
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {"token": token, "address": address},
        }
        cache.clear()

    return set_rates


def _bearer(name: str = "app") -> str:
    _token, plain = api_token_create(user=UserFactory.create(), name=name)
    return f"Bearer {plain}"


def test_a_token_over_its_budget_is_told_429_with_retry_after(client, rates):
    rates(token="3/min")
    bearer = _bearer()

    answers = [client.get(URL, HTTP_AUTHORIZATION=bearer) for _ in range(4)]

    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    refused = answers[-1]
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert refused.json()["code"] == "throttled"
    assert refused.json()["params"]["retry_after"] == int(refused["Retry-After"])
    assert refused.json()["message"].startswith("Too many requests: try again in")


def test_each_token_has_its_own_budget(client, rates):
    rates(token="2/min")
    first, second = _bearer("first"), _bearer("second")

    for _ in range(2):
        assert client.get(URL, HTTP_AUTHORIZATION=first).status_code == 200

    assert client.get(URL, HTTP_AUTHORIZATION=first).status_code == 429
    assert client.get(URL, HTTP_AUTHORIZATION=second).status_code == 200


def test_a_table_link_has_a_token_budget_too(client, rates):
    rates(token="1/min")
    game = GameFactory.create()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    header = f"Table {link.token}"

    assert client.get(URL, HTTP_AUTHORIZATION=header).status_code == 200
    assert client.get(URL, HTTP_AUTHORIZATION=header).status_code == 429


def test_an_address_over_its_budget_is_told_429_but_a_token_is_not(client, rates):
    """The readers on a club's Wi-Fi share one address with its scorer app and its table
    phones: their reads use up the address's budget, never the tokens'."""
    rates(address="3/min", token="5/min")

    anonymous = [client.get(URL, REMOTE_ADDR="192.0.2.7") for _ in range(4)]
    bearer = _bearer()
    with_token = [
        client.get(URL, REMOTE_ADDR="192.0.2.7", HTTP_AUTHORIZATION=bearer) for _ in range(6)
    ]
    elsewhere = client.get(URL, REMOTE_ADDR="192.0.2.8")

    assert [answer.status_code for answer in anonymous] == [200, 200, 200, 429]
    assert int(anonymous[-1]["Retry-After"]) >= 1
    # The token's own budget (5), untouched by the address's refusals.
    assert [answer.status_code for answer in with_token] == [200] * 5 + [429]
    assert elsewhere.status_code == 200


def test_behind_a_proxy_the_address_is_the_forwarded_one(client, rates, settings):
    rates(address="1/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxy = "10.0.0.1"

    first = client.get(URL, REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="198.51.100.1")
    again = client.get(URL, REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="198.51.100.1")
    other = client.get(URL, REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="198.51.100.2")

    assert (first.status_code, again.status_code, other.status_code) == (200, 429, 200)


def test_the_429_message_is_in_the_readers_language(client, rates):
    rates(address="1/min")
    client.get(URL)

    refused = client.get(URL, HTTP_ACCEPT_LANGUAGE="nl")

    assert refused.status_code == 429
    assert refused.json()["message"].startswith("Te veel verzoeken: probeer het over")
    assert refused["Content-Language"] == "nl"
