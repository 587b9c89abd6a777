"""The optional `.env` file of a checkout: KEY=VALUE lines (standard library only).

Read by troefclub/settings.py and by dev.py, which runs before Django is installed and so
loads this file by its path rather than through the `troefclub` package.

honcho reads the same file for the processes of the Procfile (`honcho.environ.parse`: each
line through `shlex`), and reads some lines differently from a plain KEY=VALUE split: `#`
starts a comment anywhere (`X=a#b` is "a"), whitespace inside a value is dropped (`X=a b`
is "ab"), a backslash escapes (`\\n` becomes a newline), quotes may join (`X="a"b` is
"ab"), and it skips `export X=1` and `X=` (X stays unset). So that one `.env` means the
same to every process, this reader takes only the lines both read alike and refuses the
rest, naming the line and what to write instead (tests/troefclub/test_env_file.py checks
every accepted line against honcho's parser).
"""

from __future__ import annotations

import re
from pathlib import Path

# KEY = VALUE, spaces or tabs around "=" and at the ends (shlex's whitespace). ASCII names
# only: honcho skips a name that does not start with A-Z, a-z or "_".
_LINE = re.compile(r"(?P<key>[A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(?P<value>.*)")
_QUOTED = re.compile(r"\"(?P<double>[^\"\\]*)\"|'(?P<single>[^'\\]*)'")


class EnvFileError(ValueError):
    """A line of the file that is not KEY=VALUE, or one honcho would read differently; the
    text names the file, the line and what to write instead."""


def read_env_file(path: Path) -> dict[str, str]:
    """The ``KEY=VALUE`` lines of a ``.env`` file; {} when there is none.

    Blank lines and lines starting with ``#`` are skipped; a value is a run of characters
    without spaces, ``#``, quotes or backslashes, or anything but a backslash between
    double or single quotes (dropped); a later line wins. Raises EnvFileError naming the
    line that is not ``KEY=VALUE`` or that honcho would read differently (see above).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    values = {}
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        try:
            key, value = _key_value(stripped)
        except EnvFileError as exc:
            raise EnvFileError(f"{path}, line {number}: {exc}") from None
        values[key] = value
    return values


def _key_value(line: str) -> tuple[str, str]:
    """The key and value of `line` (stripped, not blank, not a comment), the quotes around
    the value dropped. Raises EnvFileError saying what is wrong with it (no file, no line
    number: the caller adds them)."""
    if re.match(r"export[ \t]", line):
        raise EnvFileError(
            f"remove 'export' from {line!r}: honcho (the Procfile's processes) skips such a "
            "line, so they would not get the variable"
        )
    found = _LINE.fullmatch(line)
    if not found:
        raise EnvFileError(f"expected KEY=VALUE, got {line!r}")
    key, value = found["key"], found["value"]
    if not value:
        raise EnvFileError(
            f'{key} has no value: honcho leaves {key} unset there; write {key}="" for an '
            "empty value, or remove the line"
        )
    backslash = f"{key}: remove the backslash from the value (honcho reads \\ as an escape)"
    if value[0] in "\"'":
        quoted = _QUOTED.fullmatch(value)
        if quoted:
            return key, quoted["double"] if quoted["double"] is not None else quoted["single"]
        if "\\" in value:
            raise EnvFileError(backslash)
        raise EnvFileError(
            f"{key}: expected one quoted value, got {value!r}; end it with its closing "
            f"quote {value[0]}, and put a comment on a line of its own"
        )
    if "#" in value:
        raise EnvFileError(
            f"{key}: a # in the value {value!r}; honcho reads from # on as a comment. Quote "
            f'the value if the # is part of it ({key}="..."), or put the comment on a '
            "line of its own"
        )
    if re.search(r"[ \t]", value):
        raise EnvFileError(
            f'{key}: a space in the value {value!r}; honcho drops it. Quote the value ({key}="...")'
        )
    if "\\" in value:
        raise EnvFileError(backslash)
    if '"' in value or "'" in value:
        raise EnvFileError(
            f"{key}: a quote inside the value {value!r}; honcho drops it. Quote the whole "
            "value with the other kind of quote"
        )
    return key, value
