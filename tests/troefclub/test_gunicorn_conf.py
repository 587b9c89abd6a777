"""troefclub/gunicorn_conf.py's values from the environment: a wrong one stops gunicorn
with a line naming the variable, not a traceback (tester: PORT=99999 gave OverflowError)."""

from __future__ import annotations

import runpy

import pytest

from tests.paths import REPO_ROOT

CONF = REPO_ROOT / "troefclub" / "gunicorn_conf.py"


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("PORT", "99999", "PORT='99999' must be a whole number from 1 to 65535"),
        ("PORT", "0", "PORT='0' must be a whole number from 1 to 65535"),
        ("PORT", "http", "PORT='http' must be a whole number from 1 to 65535"),
        ("WEB_CONCURRENCY", "0", "WEB_CONCURRENCY='0' must be a whole number of at least 1"),
        ("WEB_THREADS", "-2", "WEB_THREADS='-2' must be a whole number of at least 1"),
    ],
)
def test_a_wrong_value_stops_gunicorn_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, message: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit, match=f"^gunicorn_conf: {message}$"):
        runpy.run_path(str(CONF))


@pytest.mark.parametrize(("value", "bind"), [("65535", "0.0.0.0:65535"), ("", "0.0.0.0:8000")])
def test_the_port_it_listens_on(monkeypatch: pytest.MonkeyPatch, value: str, bind: str) -> None:
    monkeypatch.delenv("HOST", raising=False)
    monkeypatch.setenv("PORT", value)
    assert runpy.run_path(str(CONF))["bind"] == [bind]
