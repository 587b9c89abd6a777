"""Backups as the README's "Backups" section says (issue 6): its commands, run as written.

PostgreSQL: a scratch database gets the migrations, both files in `data/` and a few more
results (rounds, a voided deduction); then the README's `pg_dump` line, DROP DATABASE,
CREATE DATABASE, the README's `pg_restore` line, and the standings, exports, audit
history and `check_results` must be exactly as before. Every step is a subprocess with
DATABASE_URL pointing at the scratch database, so the test database of the suite is not
touched. Needs the PostgreSQL server of DATABASE_URL and `pg_dump`/`pg_restore`: locally
the test skips without them, with CI=true it fails.

SQLite (the embedded default): the README's Python backup and restore lines.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests import template_db
from tests.paths import REPO_ROOT as ROOT

pytestmark = pytest.mark.backup

README = ROOT / "README.md"
DATA_FILES = sorted((ROOT / "data").glob("*.json"))
SLUGS = [json.loads(path.read_text(encoding="utf-8"))["competition"]["slug"] for path in DATA_FILES]

# More results on top of the imports, as a director would make them (`manage.py shell -c`):
# a finished game on a new matchday, a deduction that counts and one voided with a reason.
MORE_RESULTS = """
from scoring.models import Game
from scoring.services.rounds import round_record
from tournaments.models import Competition, Deduction, Match, Matchday
from tournaments.services.deductions import deduction_void

competition = Competition.objects.get(slug="club-evening-sample")
entries = list(competition.entries.select_related("team").order_by("pk"))
matchday = Matchday.objects.create(competition=competition, number=4)
match = Match.objects.create(matchday=matchday, home=entries[0], away=entries[1], table=1)
game = Game.objects.create(match=match, table=1, team_a=entries[0].team, team_b=entries[1].team)
for number, (result, side) in enumerate(
    [("kap", "a"), ("baunie", "b"), ("kap", "a"), ("kap", "a"), ("kap", "a")], start=1
):
    round_record(game_id=game.pk, expected_number=number, result=result, side=side)
Deduction.objects.create(competition=competition, entry=entries[3], points=1, reason="kept")
voided = Deduction.objects.create(
    competition=competition, entry=entries[2], points=2, reason="late"
)
deduction_void(deduction_id=voided.pk, reason="was on time after all")
"""

# A change made after the backup, which the restore must undo.
AFTER_THE_BACKUP = """
from scoring.services.standings import standings_rebuild
from tournaments.models import Competition, Deduction

competition = Competition.objects.get(slug="club-evening-sample")
entry = competition.entries.order_by("pk").first()
Deduction.objects.create(competition=competition, entry=entry, points=5, reason="after")
standings_rebuild(competition_id=competition.pk)
"""

# Both competitions as exported, and how many audit-history rows each historical model
# holds, as one line of JSON.
EXPORTS_AND_HISTORY = """
import json
from django.apps import apps
from interchange.exporter import competition_export
from tournaments.models import Competition

print(json.dumps({
    "exports": {c.slug: competition_export(competition=c) for c in Competition.objects.all()},
    "history": {
        model._meta.label: model._default_manager.count()
        for model in apps.get_models()
        if model._meta.model_name.startswith("historical")
    },
}, sort_keys=True, default=str))
"""


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must test the backup round trip: {reason}")
    pytest.skip(reason)


def readme_backup_lines() -> list[str]:
    """The command lines of the README's "Backups" section, in order."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Backups\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def readme_line(start: str, *, containing: str = "") -> str:
    """The one README backup line that starts with `start` (and contains `containing`)."""
    found = [
        line for line in readme_backup_lines() if line.startswith(start) and containing in line
    ]
    assert len(found) == 1, f"the README's Backups section needs one `{start}` line: {found}"
    return found[0]


def shell(line: str, *, cwd: Path, env: dict[str, str]) -> None:
    """Run one README line with bash, as a reader would paste it."""
    done = subprocess.run(
        ["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"


def app_env(database_url: str) -> dict[str, str]:
    """The environment of a manage.py run against `database_url`: no broker (tasks run in
    the process, so standings are rebuilt at once), a secret key for DEBUG off."""
    env = {key: value for key, value in os.environ.items() if key != "CELERY_BROKER_URL"}
    env.setdefault("SECRET_KEY", "backup-roundtrip-test")
    env["LANGUAGE_CODE"] = "en"  # the assertions read the commands' English texts
    env["DATABASE_URL"] = database_url
    return env


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"manage.py {' '.join(args[:2])}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def fill(env: dict[str, str]) -> None:
    manage(env, "migrate", "--noinput")
    for path in DATA_FILES:
        manage(env, "import_competition", str(path))
    manage(env, "shell", "-c", MORE_RESULTS)


def standings(env: dict[str, str]) -> dict[str, object]:
    """`manage.py standings SLUG --format json` of both competitions in `data/`."""
    return {slug: json.loads(manage(env, "standings", slug, "--format", "json")) for slug in SLUGS}


def snapshot(env: dict[str, str]) -> dict[str, object]:
    """What must survive a backup: the standings and exports of both competitions, and
    the number of audit-history rows of every kind."""
    # The last line: `shell` may say first which objects it imported.
    state = json.loads(manage(env, "shell", "-c", EXPORTS_AND_HISTORY).splitlines()[-1])
    return {"standings": standings(env), **state}


def check_results_clean(env: dict[str, str]) -> None:
    """`manage.py check_results` finds nothing (when the command exists)."""
    if not (ROOT / "scoring" / "management" / "commands" / "check_results.py").exists():
        return
    assert "No problems found" in manage(env, "check_results")


# ---------------------------------------------------------------- PostgreSQL


@pytest.fixture
def scratch_database() -> Iterator[tuple[str, Any]]:
    """(DATABASE_URL of a new, empty database with a unique name, admin connection); the
    database is dropped at the end whatever happens."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        _missing("DATABASE_URL is not a PostgreSQL database")
    for tool in ("pg_dump", "pg_restore"):
        if shutil.which(tool) is None:
            _missing(f"{tool} is not installed")
    import psycopg

    parts = urlsplit(url)
    name = f"troef_backup_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    try:
        admin = psycopg.connect(
            urlunsplit(parts._replace(path="/postgres", query="")), autocommit=True
        )
    except psycopg.OperationalError as exc:
        _missing(f"PostgreSQL at {parts.hostname}:{parts.port} is not reachable: {exc}")
    # A copy of the suite's migrated template (tests/template_db.py): fill()'s migrate then
    # has nothing left to do. The database the restore goes into is made empty, below.
    template = template_db.ensure_template()
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        try:
            yield urlunsplit(parts._replace(path=f"/{name}", query="")), admin
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_the_readme_pg_dump_and_pg_restore_give_everything_back(scratch_database, tmp_path):
    import psycopg

    url, admin = scratch_database
    name = urlsplit(url).path.lstrip("/")
    env = app_env(url)
    fill(env)
    before = snapshot(env)

    shell(readme_line("pg_dump "), cwd=tmp_path, env=env)
    dumps = list(tmp_path.glob("troefclub-*.dump"))
    assert len(dumps) == 1, dumps
    admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    admin.execute(f'CREATE DATABASE "{name}"')
    shell(readme_line("pg_restore "), cwd=tmp_path, env={**env, "DUMP": dumps[0].name})
    shell(readme_line("psql ", containing="ANALYZE"), cwd=tmp_path, env=env)

    assert snapshot(env) == before
    with psycopg.connect(url) as restored:  # issue 20: the planner has statistics again
        (analyzed,) = restored.execute(
            "SELECT last_analyze IS NOT NULL FROM pg_stat_user_tables WHERE relname = %s",
            ["scoring_round"],
        ).fetchone()  # type: ignore[misc]
    assert analyzed
    check_results_clean(env)
    history = before["history"]
    assert isinstance(history, dict)
    assert history["tournaments.HistoricalDeduction"] == 3  # two added, one voided
    assert len(before["exports"]) == 2  # type: ignore[arg-type]


# ---------------------------------------------------------------- SQLite


def python_line(line: str) -> str:
    """A README line run with this test's interpreter instead of `.venv/bin/python`."""
    return line.replace(".venv/bin/python", f'"{sys.executable}"', 1)


def test_the_readme_sqlite_backup_and_restore_give_the_results_back(tmp_path, migrated_sqlite):
    shutil.copyfile(migrated_sqlite, tmp_path / "db.sqlite3")  # fill()'s migrate: nothing to do
    env = app_env(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    fill(env)
    before = snapshot(env)
    if shutil.which("sqlite3") is not None:  # optional: the Python line needs no tool
        shell(readme_line("sqlite3 "), cwd=tmp_path, env=env)
        backup = app_env(f"sqlite:///{tmp_path / 'backup.sqlite3'}")
        assert standings(backup) == before["standings"]
        (tmp_path / "backup.sqlite3").unlink()

    shell(python_line(readme_line(".venv/bin/python", containing="('db.sqlite3').backup")),
          cwd=tmp_path, env=env)  # fmt: skip
    manage(env, "shell", "-c", AFTER_THE_BACKUP)
    assert standings(env) != before["standings"]
    shell(python_line(readme_line(".venv/bin/python", containing="('backup.sqlite3').backup")),
          cwd=tmp_path, env=env)  # fmt: skip

    assert snapshot(env) == before
    check_results_clean(env)
