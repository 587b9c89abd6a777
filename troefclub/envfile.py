"""The optional `.env` file of a checkout: KEY=VALUE lines (standard library only).

Read by troefclub/settings.py and by dev.py, which runs before Django is installed and so
loads this file by its path rather than through the `troefclub` package.
"""

from __future__ import annotations

from pathlib import Path


class EnvFileError(ValueError):
    """A line of the file that is not KEY=VALUE; the text names the file and the line."""


def read_env_file(path: Path) -> dict[str, str]:
    """The ``KEY=VALUE`` lines of a ``.env`` file; {} when there is none.

    Blank lines and ``#`` comments are skipped, ``export`` in front of a key and quotes
    around a value are dropped; a later line wins. Raises EnvFileError naming the line
    that is not ``KEY=VALUE``.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    values = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, equals, value = line.partition("=")
        key = key.removeprefix("export ").strip()
        if not equals or not key.isidentifier():
            raise EnvFileError(f"{path}, line {number}: expected KEY=VALUE, got {line!r}")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key] = value
    return values
