"""`troefclub.env`'s bounded integers and throttle rates, read in this process."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from troefclub.env import env_int, env_origins, env_rate


@pytest.mark.parametrize(
    ("value", "bounds", "expected"),
    [
        (None, {"minimum": 1}, 7),  # unset: the default, unchecked
        ("", {"minimum": 1}, 7),
        ("0", {"minimum": 0}, 0),
        ("5", {"minimum": 1, "maximum": 5}, 5),
        ("-3", {}, -3),
        ("-3", {"maximum": 0}, -3),
    ],
)
def test_a_value_within_its_bounds_is_read(
    monkeypatch: pytest.MonkeyPatch, value: str | None, bounds: dict[str, int], expected: int
) -> None:
    if value is None:
        monkeypatch.delenv("TC_N", raising=False)
    else:
        monkeypatch.setenv("TC_N", value)
    assert env_int("TC_N", 7, **bounds) == expected


@pytest.mark.parametrize(
    ("value", "bounds", "message"),
    [
        ("-1", {"minimum": 0}, "TC_N='-1' must be at least 0"),
        ("0", {"minimum": 1}, "TC_N='0' must be at least 1"),
        ("6", {"minimum": 1, "maximum": 5}, "TC_N='6' must be from 1 to 5"),
        ("0", {"minimum": 1, "maximum": 5}, "TC_N='0' must be from 1 to 5"),
        ("9", {"maximum": 8}, "TC_N='9' must be at most 8"),
        ("x", {"minimum": 0}, "TC_N='x' is not an integer"),
    ],
)
def test_a_value_outside_its_bounds_names_variable_value_and_range(
    monkeypatch: pytest.MonkeyPatch, value: str, bounds: dict[str, int], message: str
) -> None:
    monkeypatch.setenv("TC_N", value)
    with pytest.raises(ImproperlyConfigured) as raised:
        env_int("TC_N", 7, **bounds)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    "rate", ["100/min", "1/s", "5/sec", "60/m", "2/h", "3/hour", "4/d", "1000/day", "0/min"]
)
def test_a_rate_drf_reads_is_kept(monkeypatch: pytest.MonkeyPatch, rate: str) -> None:
    monkeypatch.setenv("TC_RATE", rate)
    assert env_rate("TC_RATE", "1/s") == rate


@pytest.mark.parametrize(
    "rate", ["lots", "100", "100/", "/min", "100/week", "-1/min", "1.5/s", "100/minute", "1/s/s"]
)
def test_a_rate_drf_cannot_read_is_refused(monkeypatch: pytest.MonkeyPatch, rate: str) -> None:
    monkeypatch.setenv("TC_RATE", rate)
    with pytest.raises(ImproperlyConfigured, match="TC_RATE=.* is not a throttle rate"):
        env_rate("TC_RATE", "1/s")


def test_an_unset_or_blank_rate_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TC_RATE", raising=False)
    assert env_rate("TC_RATE", "9/h") == "9/h"
    monkeypatch.setenv("TC_RATE", " ")
    assert env_rate("TC_RATE", "9/h") == "9/h"


def test_origins_are_kept_and_a_bad_one_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TC_ORIGINS", "https://stcb.sr, https://*.knbb.nl,http://[::1]:8000")
    assert env_origins("TC_ORIGINS") == [
        "https://stcb.sr",
        "https://*.knbb.nl",
        "http://[::1]:8000",
    ]
    monkeypatch.setenv("TC_ORIGINS", "https://stcb.sr,https://[x")
    with pytest.raises(ImproperlyConfigured) as raised:
        env_origins("TC_ORIGINS")
    assert str(raised.value).startswith("TC_ORIGINS: 'https://[x' is not an origin")
