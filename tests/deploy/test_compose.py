"""compose.yaml (issue 23): valid by the Compose specification, and the Procfile's twin.

No container runtime runs here, so nothing starts the stack; what can break without one
is checked instead. The file must validate against the Compose specification's JSON schema
(vendored: deploy/compose-spec.json, see deploy/compose-spec.NOTICE), and its troefclub
services must be the Procfile's process types with the same commands (CI runs those as
processes, through honcho: tests/deploy/test_multinode.py), each waiting for the one-shot
`migrate` and for healthy PostgreSQL and Redis, each with a health check.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import shlex
from typing import Any

import jsonschema
import pytest
import yaml

from tests.paths import REPO_ROOT as ROOT

MIGRATE = "python manage.py migrate_locked"
# Services that are not a process type of the Procfile.
INFRASTRUCTURE = {"postgres", "redis", "migrate", "backup"}


@functools.cache
def compose() -> dict[str, Any]:
    """compose.yaml as Compose reads it (YAML merge keys `<<:` resolved); not to be changed
    (read once: a test that changes it changes a deep copy)."""
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    return loaded


@functools.cache
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(
        (ROOT / "deploy" / "compose-spec.json").read_text(encoding="utf-8")
    )
    return loaded


def procfile() -> dict[str, str]:
    """Process type -> its command line."""
    types = {}
    for line in (ROOT / "Procfile").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, command = line.partition(":")
            types[name.strip()] = command.strip()
    return types


def validate(document: dict[str, Any]) -> list[str]:
    """The schema's complaints about `document` (none: valid)."""
    validator = jsonschema.Draft7Validator(schema())
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in validator.iter_errors(document)
    ]


def test_compose_yaml_is_valid_by_the_compose_specification():
    assert validate(compose()) == []


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("services", "web", "depends_on", "migrate", "condition"), "service_completed"),
        (("services", "web", "healthcheck", "intervall"), "15s"),
        (("services", "web", "restart"), 3),
        (("volumes", "backups"), "not a volume"),
    ],
)
def test_the_schema_refuses_a_broken_file(path, value):
    # The vendored schema is the real one, not one that takes anything.
    document = copy.deepcopy(compose())
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    assert validate(document)


def test_the_procfiles_process_types_are_the_services():
    services = set(compose()["services"])
    assert set(procfile()) == services - INFRASTRUCTURE
    assert services >= INFRASTRUCTURE


@pytest.mark.parametrize("process", procfile())
def test_each_service_runs_the_procfiles_command(process):
    line = procfile()[process]
    migrate, exec_, command = line.partition(" && exec ")
    assert exec_, f"Procfile {process}: {line!r} is not `{MIGRATE} && exec COMMAND`"
    assert migrate == MIGRATE
    service = compose()["services"][process]
    assert shlex.split(service["command"]) == shlex.split(command)


def test_migrate_runs_once_and_everything_waits_for_it():
    services = compose()["services"]
    assert services["migrate"]["command"] == MIGRATE
    assert services["migrate"]["restart"] == "no"
    assert services["migrate"]["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    for process in procfile():
        assert services[process]["depends_on"] == {
            "migrate": {"condition": "service_completed_successfully"},
            "postgres": {"condition": "service_healthy"},
            "redis": {"condition": "service_healthy"},
        }, process
        assert services[process]["restart"] == "unless-stopped"
        assert services[process]["env_file"] == ".env"
        assert services[process]["image"] == services["migrate"]["image"]


def health_test(service: str) -> str:
    test = compose()["services"][service]["healthcheck"]["test"]
    assert test[0] in ("CMD", "CMD-SHELL"), service
    return " ".join(test[1:])


def test_every_service_has_a_health_check():
    for name, service in compose()["services"].items():
        check = service["healthcheck"]
        if name == "migrate":  # a one-shot: its exit code says it (service_completed_successfully)
            assert check == {"disable": True}
            continue
        assert check["test"] and not check.get("disable"), name
        assert "curl" not in health_test(name) and "wget" not in health_test(name)


def test_the_health_checks_ask_each_process_what_it_does():
    assert "http://127.0.0.1:8000/readyz" in health_test("web")
    assert "urllib.request.urlopen" in health_test("web")
    for worker in ("standings", "ratings"):
        # The name the worker was started with (-n standings@%h), asked by the container's
        # host name ($$: Compose's escape for a literal $).
        name = re.search(r"-n (\w+)@%h", compose()["services"][worker]["command"])
        assert name and name.group(1) == worker
        assert f"celery -A troefclub inspect ping -d {worker}@$$HOSTNAME" in health_test(worker)
    beat = health_test("beat")
    assert "BEAT_HEARTBEAT_FILE" in beat and "/tmp/troefclub-beat.heartbeat" in beat
    assert "> 120" in beat
    assert health_test("postgres").startswith("pg_isready")
    assert health_test("redis") == "redis-cli ping"
    assert "/backups" in health_test("backup")


def test_the_data_lives_in_named_volumes():
    document = compose()
    assert set(document["volumes"]) == {"postgres-data", "redis-data", "backups"}
    services = document["services"]
    assert services["postgres"]["volumes"] == ["postgres-data:/var/lib/postgresql/data"]
    assert services["redis"]["volumes"] == ["redis-data:/data"]
    assert services["backup"]["volumes"] == ["backups:/backups"]


def test_the_backup_dumps_as_the_readme_says():
    # README "Backups": pg_dump -Fc; restore with its pg_restore line.
    script = " ".join(compose()["services"]["backup"]["command"])
    assert "pg_dump -Fc" in script
    assert compose()["services"]["backup"]["image"] == compose()["services"]["postgres"]["image"]


def test_web_listens_on_loopback_only():
    # The HTTPS proxy on the machine reaches it; nothing else does (README "Production").
    [port] = compose()["services"]["web"]["ports"]
    assert port.startswith("127.0.0.1:") and port.endswith(":8000")


def test_the_readme_lists_the_procfiles_commands():
    # README "Run it for a league": its table of the process types is the Procfile's.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Run it for a league\n", 1)[1].split("\n## ", 1)[0]
    for process, line in procfile().items():
        command = line.partition(" && exec ")[2]
        assert f"| `{process}` | `{command}` |" in section, process
    assert "docker compose up -d" in section and "honcho start" in section
