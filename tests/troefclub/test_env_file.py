"""The `.env` file troefclub/settings.py reads (and dev.py writes): KEY=VALUE lines.

That a real environment variable wins over the file is tested end to end by
tests/test_readme_commands.py (`dev.py run --addr 0.0.0.0:PORT` widens ALLOWED_HOSTS
through the environment while `.env` keeps the local names).
"""

from __future__ import annotations

import itertools

import pytest
from django.core.exceptions import ImproperlyConfigured
from honcho import environ as honcho_environ  # type: ignore[import-untyped]

import dev  # the script in the project root (standard library only)
from tests.paths import REPO_ROOT as ROOT
from troefclub import envfile
from troefclub.settings import read_env_file


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("", {}),
        ("SECRET_KEY=abc\n", {"SECRET_KEY": "abc"}),
        ("# a comment\n\n  DEBUG = false  \n", {"DEBUG": "false"}),
        (
            "SECRET_KEY='x#y=z'\nLOG_LEVEL=\"debug\"\n",
            {"SECRET_KEY": "x#y=z", "LOG_LEVEL": "debug"},
        ),
        ('EMPTY=""\n', {"EMPTY": ""}),
        ("A=1\nA=2\n", {"A": "2"}),
    ],
)
def test_env_file_lines_are_read_alike_by_the_settings_and_dev_py(tmp_path, text, values):
    path = tmp_path / ".env"
    path.write_text(text, encoding="utf-8")

    assert read_env_file(path) == values
    assert dev.read_env_file(path) == values
    assert honcho_environ.parse(text) == values  # and by honcho (the Procfile's processes)


# Lines honcho (`honcho.environ.parse`, which the Procfile's processes get) reads as the app
# does: the value each gives must be the same.
ACCEPTED = [
    "READER_CACHE_SECONDS=300",
    "  DEBUG = false\t",
    "DATABASE_URL=postgres://troefclub:change-me@postgres:5432/troefclub",
    "ALLOWED_HOSTS=localhost,127.0.0.1,[::1]",
    "SECRET_KEY=Zx_-9aB~!$%^&*()+=[]{}|;:,.<>/?",
    'SECRET_KEY="a#b c"',
    "SECRET_KEY='a#b \"c\"'",
    'EMAIL_FROM="Troefclub <troef@example.org>"',
    'EMPTY=""',
    "EMPTY=''",
    "NAME=café€",
    "X==1",
]

# Lines honcho reads differently (or skips, or fails on): the app refuses each, and its
# message names the line and what to write instead.
REFUSED = [
    ("READER_CACHE_SECONDS=300  # five minutes", "honcho reads from # on as a comment"),
    ("X=a#b", "Quote the value if the # is part of it"),
    ("export SECRET_KEY=abc", "remove 'export'"),
    ("export\tSECRET_KEY=abc", "remove 'export'"),
    ("SECRET_KEY=", 'write SECRET_KEY="" for an empty value, or remove the line'),
    ("X=a b", "a space in the value 'a b'; honcho drops it. Quote the value"),
    ("X=a\\nb", "remove the backslash"),
    ('X="a\\nb"', "remove the backslash"),
    ("X='a\\nb'", "remove the backslash"),
    ("X=1\\", "remove the backslash"),
    ('X="a"b', "expected one quoted value"),
    ('X="a" # comment', "put a comment on a line of its own"),
    ('X="a" "b"', "expected one quoted value"),
    ('X="a', "end it with its closing quote"),
    ("X=it's", "a quote inside the value"),
    ("É=1", "expected KEY=VALUE"),
    ("X-Y=1", "expected KEY=VALUE"),
]


@pytest.mark.parametrize("line", ACCEPTED)
def test_an_accepted_line_means_to_the_app_what_it_means_to_honcho(tmp_path, line):
    path = tmp_path / ".env"
    path.write_text(f"{line}\n", encoding="utf-8")

    assert read_env_file(path) == honcho_environ.parse(line)
    assert len(read_env_file(path)) == 1


@pytest.mark.parametrize(("line", "advice"), REFUSED)
def test_a_line_honcho_reads_differently_is_refused_saying_what_to_write(tmp_path, line, advice):
    try:
        honcho_reads = honcho_environ.parse(line)
    except ValueError:  # shlex: no closing quotation, no escaped character
        honcho_reads = None
    path = tmp_path / ".env"
    path.write_text(f"A=1\n{line}\n", encoding="utf-8")
    plain = dict([line.strip().partition("=")[::2]])  # the old reading: split at the first =
    assert honcho_reads != {k.strip(): v.strip() for k, v in plain.items()}, "a real difference"

    with pytest.raises(ImproperlyConfigured) as raised:
        read_env_file(path)
    assert f"{path}, line 2: " in str(raised.value)
    assert advice in str(raised.value)
    with pytest.raises(SystemExit, match="line 2: "):
        dev.read_env_file(path)


def test_any_line_the_app_accepts_honcho_reads_alike(tmp_path):
    """Every line made of these pieces: refused by the app, or read as honcho reads it."""
    pieces = ["X", "=", " ", "a", "#", '"', "'", "\\", "é", "export ", ":/"]
    path = tmp_path / ".env"
    checked = 0
    for line in ("".join(parts) for parts in itertools.product(pieces, repeat=4)):
        path.write_text(f"{line}\n", encoding="utf-8")
        try:
            values = envfile.read_env_file(path)
        except envfile.EnvFileError:
            continue
        assert values == honcho_environ.parse(line), line
        checked += 1
    assert checked > 100


def test_a_missing_env_file_is_no_settings():
    assert read_env_file(ROOT / "no-such-dir" / ".env") == {}


@pytest.mark.parametrize("line", ["SECRET_KEY", "not a key=1", "=value", "1KEY=x"])
def test_a_line_that_is_not_key_value_stops_the_settings_naming_it(tmp_path, line):
    path = tmp_path / ".env"
    path.write_text(f"# settings\n{line}\n", encoding="utf-8")

    with pytest.raises(ImproperlyConfigured, match=f"line 2: expected KEY=VALUE, got '{line}'"):
        read_env_file(path)
    with pytest.raises(SystemExit, match=f"line 2: expected KEY=VALUE, got '{line}'"):
        dev.read_env_file(path)  # dev.py stops on it too, before starting anything
