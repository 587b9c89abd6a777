"""Fuzzing the importer: the real files of data/, mutated at random places (issue 6).

Each example takes one of the two real files, applies one to three mutations (a value
replaced by hostile text, a huge or odd number, deep nesting, another type; a key dropped,
renamed or given twice) and runs `manage.py import_competition` on the resulting text.
Whatever the file holds, the command either imports it or raises a CommandError that says
"Nothing was imported.", prints cleanly and leaves every table as it was; never any other
exception.

Deterministic (`derandomize=True`, no example database), so a failure shows on every run;
`FUZZ_SCALE=N` runs N times as many examples.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections import Counter
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.interchange.documents import SAMPLE, STCB, load, row_counts

pytestmark = [pytest.mark.django_db, pytest.mark.heavy]

FILES = {"sample": load(SAMPLE), "stcb": load(STCB)}
# FUZZ_SCALE=20 runs twenty times as many examples (a deeper search, minutes not seconds).
SCALE = int(os.environ.get("FUZZ_SCALE", "1"))
FUZZ = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# ---------------------------------------------------------------- JSON text with what json
# can't write: a key twice in one object, a number literal of any length, deep nesting.


class Repeated:
    """An object written with one of its keys twice (the second value differs)."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        self.pairs = pairs


class Literal:
    """JSON text written as is (a number of 5,000 digits, nesting 100,000 deep)."""

    def __init__(self, text: str) -> None:
        self.text = text


def dumps(value: Any) -> str:
    """`value` as JSON text; Repeated and Literal as above, NaN and Infinity as Python's
    json writes them, lone surrogates as \\ud800 escapes."""
    if isinstance(value, Literal):
        return value.text
    if isinstance(value, Repeated):
        return "{" + ", ".join(f"{json.dumps(k)}: {dumps(v)}" for k, v in value.pairs) + "}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)}: {dumps(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(dumps(v) for v in value) + "]"
    return json.dumps(value)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a document: tuples of keys and list indexes."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


PATHS = {name: paths(doc) for name, doc in FILES.items()}
SPECIAL_CHARS = [
    "\x00", "\x01", "\x07", "\x1b", "\t", "\n", "\r", "\x7f", "\x85", "\x9f",
    "\ud800", "\udfff", "\ud83d", "\ufeff", "\u202e", "\u2028", "\ufffd", "\U0001f0cf",
    "e\u0308", "ë", "-", "=", "+", "@", '"', "\\", "'", "<", "%s", "{}",
]  # fmt: skip


def hostile_text() -> st.SearchStrategy[str]:
    special = st.sampled_from(SPECIAL_CHARS)
    return st.one_of(
        st.builds(lambda a, b, c: a + b + c, st.text(max_size=4), special, st.text(max_size=4)),
        st.text(max_size=12),
        st.sampled_from(["", " ", "a" * 300, "x" * 100_000, "2026-02-30", "10000-01-01"]),
    )


NUMBERS = [
    -1, 0, 1, 2, 13, 14, 20, 255, 32767, 32768, 65536, 2**31 - 1, 2**31, 2**63, -(2**63) - 1,
    10**29, 10**30, 10**40, 0.5, -0.0, 1e300, math.nan, math.inf, -math.inf,
]  # fmt: skip
BIG_LITERALS = ["9" * 5000, "-" + "9" * 31, "1e999", "-1e999", "1" + "0" * 400 + ".5"]


def hostile_value(known: list[str]) -> st.SearchStrategy[Any]:
    leaf = st.one_of(
        hostile_text(),
        st.sampled_from(NUMBERS),
        st.integers(),
        st.sampled_from([Literal(text) for text in BIG_LITERALS]),
        st.sampled_from([None, True, False, [], {}, [None], {"": None}]),
        st.sampled_from(known),
    )
    nested = st.sampled_from([3, 31, 33, 2000, 100_000]).map(
        lambda depth: Literal("[" * depth + "]" * depth)
    )
    containers = st.recursive(
        leaf,
        lambda children: st.one_of(
            st.lists(children, max_size=3), st.dictionaries(hostile_text(), children, max_size=3)
        ),
        max_leaves=6,
    )
    return st.one_of(leaf, nested, containers)


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _texts(doc: Any) -> list[str]:
    return sorted({v for p in paths(doc) if isinstance(v := _get(doc, p), str)})


# Values found in the files (keys, results, sides): a mutation that moves one elsewhere
# gets past the type checks to the references and the rules.
KNOWN = sorted({text for doc in FILES.values() for text in _texts(doc)})


def plausible_value(old: Any) -> st.SearchStrategy[Any]:
    """A value of the same type as `old`: another text of the files, a small number."""
    if isinstance(old, bool):
        return st.just(not old)
    if isinstance(old, int):
        return st.integers(-2, 40)
    if isinstance(old, str):
        return st.sampled_from(KNOWN)
    if isinstance(old, list):
        return st.lists(st.sampled_from(KNOWN), max_size=4) | st.lists(
            st.integers(-2, 40), max_size=3
        )
    return hostile_value(KNOWN)


@st.composite
def mutated_documents(draw: st.DrawFn, name: str) -> tuple[str, list[str]]:
    """The file `name` as JSON text after one to three mutations, and what was done."""
    doc = json.loads(json.dumps(FILES[name]))
    done: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(PATHS[name]))
        try:
            parent = _get(doc, path[:-1])
            parent[path[-1]]  # noqa: B018 - an earlier mutation may have removed it
        except (KeyError, IndexError, TypeError):
            continue
        step = path[-1]
        kinds = ["plausible", "plausible", "replace", "replace", "drop", "rename", "twice"]
        kind = draw(st.sampled_from(kinds))
        if kind == "plausible":  # same type: gets past the types to references and rules
            parent[step] = draw(plausible_value(parent[step]))
        elif kind == "replace" or not isinstance(parent, dict):
            parent[step] = draw(hostile_value(KNOWN))
            kind = "replace"
        elif kind == "drop":
            del parent[step]
        elif kind == "rename":
            parent[draw(hostile_text())] = parent.pop(step)
        else:
            pairs = [*parent.items(), (step, draw(hostile_value(KNOWN)))]
            grandparent = _get(doc, path[:-2]) if len(path) > 1 else None
            if grandparent is None:
                return dumps(Repeated(pairs)), [*done, f"twice {path}"]
            grandparent[path[-2]] = Repeated(pairs)
        done.append(f"{kind} {path}")
    return dumps(doc), done


def _import(text: str) -> str | None:
    """Run the command on `text`; None when it imported, the CommandError's text if not."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            call_command("import_competition", str(path), stdout=StringIO(), stderr=StringIO())
        except CommandError as exc:
            return str(exc)
    return None


STATS: Counter[str] = Counter()  # printed at the end of the module (pytest -s)


def _check_one(text: str) -> None:
    before = row_counts()
    with transaction.atomic():
        message = _import(text)
        STATS["imported" if message is None else "refused"] += 1
        if message is None:  # imported: undo it, so that the next example starts afresh
            assert row_counts()["tournaments.Competition"] == before["tournaments.Competition"] + 1
            transaction.set_rollback(True)
    if message is not None:
        assert message.endswith("Nothing was imported."), message
        # A message prints on any terminal: no control characters (but the line break
        # before "Nothing was imported."), no lone surrogates, not a novel.
        assert message.encode("utf-8")
        assert not any(ord(c) < 32 and c != "\n" for c in message), message
        assert len(message) < 2000, message[:300]
    assert row_counts() == before


@settings(FUZZ, max_examples=150 * SCALE)
@given(case=mutated_documents("stcb"))
def test_mutated_league_file_imports_or_is_refused_cleanly(case):
    text, _mutations = case
    _check_one(text)


@settings(FUZZ, max_examples=60 * SCALE)
@given(case=mutated_documents("sample"))
def test_mutated_club_evening_imports_or_is_refused_cleanly(case):
    text, _mutations = case
    _check_one(text)


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    print(f"\nimport fuzz: {STATS['imported']} files imported, {STATS['refused']} refused")
