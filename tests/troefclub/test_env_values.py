"""Settings values that would fail requests later (a 500 on every login or API read) are
refused when the settings are read, naming the variable: each read in a fresh process."""

from __future__ import annotations

import pytest

from tests.settings_env import settings_json, settings_process

pytestmark = pytest.mark.settings_env


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("TRUSTED_PROXY_COUNT", "-1", "at least 0"),
        ("API_NUM_PROXIES", "-1", "at least 0"),
        ("READER_CACHE_SECONDS", "-5", "at least 0"),
        ("CELERY_BROKER_CONNECTION_MAX_RETRIES", "-2", "at least 0"),
        ("CONN_MAX_AGE", "-1", "at least 0"),
        ("AXES_FAILURE_LIMIT", "0", "at least 1"),
        ("AXES_COOLOFF_MINUTES", "0", "at least 1"),
        ("EMAIL_PORT", "70000", "from 1 to 65535"),
        ("STANDINGS_SWEEP_SECONDS", "0", "at least 1"),
        ("SEASON_RANKINGS_DELAY_SECONDS", "30", "from 0 to 29"),
        ("API_IDEMPOTENCY_DAYS", "0", "at least 1"),
        ("TABLE_CONFIRM_WAIT_MINUTES", "-1", "at least 0"),
        ("TABLE_LINK_MISS_LIMIT", "0", "at least 1"),
        ("TABLE_LINK_MISS_SECONDS", "0", "at least 1"),
        ("RATING_MIN_GAMES", "0", "at least 1"),
        ("SECURE_HSTS_SECONDS", "-1", "at least 0"),
        ("TRUSTED_PROXY_COUNT", "two", "is not an integer"),
    ],
)
def test_a_number_out_of_its_range_is_refused(name: str, value: str, allowed: str) -> None:
    done = settings_process("pass", **{name: value})
    assert done.returncode != 0
    assert f"ImproperlyConfigured: {name}={value!r}" in done.stderr
    assert allowed in done.stderr


@pytest.mark.parametrize("name", ["API_THROTTLE_TOKEN", "API_THROTTLE_ADDRESS"])
@pytest.mark.parametrize("value", ["lots", "100", "100/week", "/min", "-1/min", "1.5/s"])
def test_a_throttle_rate_drf_cannot_read_is_refused(name: str, value: str) -> None:
    done = settings_process("pass", **{name: value})
    assert done.returncode != 0
    assert f"ImproperlyConfigured: {name}={value!r} is not a throttle rate" in done.stderr


def test_rates_and_bounds_in_range_are_kept() -> None:
    rates = settings_json(
        "[settings.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'], settings.TRUSTED_PROXY_COUNT,"
        " settings.SEASON_RANKINGS_DELAY_SECONDS]",
        API_THROTTLE_TOKEN="5/sec",
        API_THROTTLE_ADDRESS="1000/day",
        TRUSTED_PROXY_COUNT="1",
        STANDINGS_SWEEP_SECONDS="30",
        SEASON_RANKINGS_DELAY_SECONDS="29",
    )
    assert rates == [{"token": "5/sec", "address": "1000/day"}, 1, 29]


@pytest.mark.parametrize("name", ["CSRF_TRUSTED_ORIGINS", "API_CORS_ORIGINS"])
@pytest.mark.parametrize("value", ["https://[x", "stcb.sr", "ftp://stcb.sr"])
def test_an_origin_a_request_would_fail_on_is_refused(name: str, value: str) -> None:
    done = settings_process("pass", **{name: f"https://knbb.nl,{value}"})
    assert done.returncode != 0
    assert f"ImproperlyConfigured: {name}: {value!r} is not an origin" in done.stderr
