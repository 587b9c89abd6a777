"""The `.env` file troefclub/settings.py reads (and dev.py writes): KEY=VALUE lines.

That a real environment variable wins over the file is tested end to end by
tests/test_readme_commands.py (`dev.py run --addr 0.0.0.0:PORT` widens ALLOWED_HOSTS
through the environment while `.env` keeps the local names).
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

import dev  # the script in the project root (standard library only)
from tests.paths import REPO_ROOT as ROOT
from troefclub.settings import read_env_file


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("", {}),
        ("SECRET_KEY=abc\n", {"SECRET_KEY": "abc"}),
        ("# a comment\n\n  DEBUG = false  \n", {"DEBUG": "false"}),
        ("export ALLOWED_HOSTS=a,b\n", {"ALLOWED_HOSTS": "a,b"}),
        (
            "SECRET_KEY='x#y=z'\nLOG_LEVEL=\"debug\"\n",
            {"SECRET_KEY": "x#y=z", "LOG_LEVEL": "debug"},
        ),
        ("SECRET_KEY=a=b#c\n", {"SECRET_KEY": "a=b#c"}),  # no inline comments: keys have #
        ("EMPTY=\n", {"EMPTY": ""}),
        ("A=1\nA=2\n", {"A": "2"}),
    ],
)
def test_env_file_lines_are_read_alike_by_the_settings_and_dev_py(tmp_path, text, values):
    path = tmp_path / ".env"
    path.write_text(text, encoding="utf-8")

    assert read_env_file(path) == values
    assert dev.read_env_file(path) == values


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
