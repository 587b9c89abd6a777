"""DATABASE_URL and LOG_LEVEL refused with a message naming them (tester, issue 23): a URL
that is not one said "UnknownSchemeError: Scheme '://' is unknown", a MySQL URL blamed
DATABASE_POOL_SIZE, LOG_LEVEL=LOUD "Unable to configure logger 'django'"."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from tests.settings_env import settings_process
from troefclub.env import env_choice, env_database

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _environ(monkeypatch: pytest.MonkeyPatch, name: str, value: str | None) -> None:
    """`name` set to `value`, or unset for None."""
    if value is None:
        monkeypatch.delenv(name, raising=False)
    else:
        monkeypatch.setenv(name, value)


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("nonsense", "DATABASE_URL is not a database URL (scheme 'nonsense'"),
        ("://x", "DATABASE_URL is not a database URL (scheme '(none)'"),
        ("postgres://troef:geheim@db:notaport/troef", "DATABASE_URL is not a database URL"),
        ("mysql://troef:geheim@db/troef", "DATABASE_URL names a mysql database"),
    ],
)
def test_a_database_url_that_will_not_do_is_named(
    monkeypatch: pytest.MonkeyPatch, url: str, says: str
) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    with pytest.raises(ImproperlyConfigured) as refused:
        env_database("DATABASE_URL", "sqlite:///x.sqlite3")
    assert says in str(refused.value)
    assert "geheim" not in str(refused.value)  # the password stays out of the logs


@pytest.mark.parametrize(
    ("url", "engine"),
    [
        ("postgres://troef:geheim@db:5432/troef", "django.db.backends.postgresql"),
        (None, "django.db.backends.sqlite3"),
    ],
)
def test_postgresql_and_sqlite_are_read(
    monkeypatch: pytest.MonkeyPatch, url: str | None, engine: str
) -> None:
    _environ(monkeypatch, "DATABASE_URL", url)
    assert env_database("DATABASE_URL", "sqlite:///x.sqlite3")["ENGINE"] == engine


@pytest.mark.parametrize(("value", "level"), [(None, "INFO"), ("", "INFO"), ("warning", "WARNING")])
def test_a_log_level_is_read_in_any_case(
    monkeypatch: pytest.MonkeyPatch, value: str | None, level: str
) -> None:
    _environ(monkeypatch, "LOG_LEVEL", value)
    assert env_choice("LOG_LEVEL", "INFO", LEVELS) == level


def test_a_log_level_that_is_none_is_named_with_the_levels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LOG_LEVEL", "LOUD")
    with pytest.raises(ImproperlyConfigured) as refused:
        env_choice("LOG_LEVEL", "INFO", LEVELS)
    assert str(refused.value) == (
        "LOG_LEVEL='LOUD' must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL."
    )


@pytest.mark.settings_env
@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("DATABASE_URL", "nonsense", "DATABASE_URL is not a database URL"),
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL='LOUD' must be one of"),
    ],
)
def test_the_settings_refuse_them(name: str, value: str, says: str) -> None:
    done = settings_process("pass", **{name: value})
    assert done.returncode != 0
    assert says in done.stderr
