"""What the settings make of an environment, read in a fresh process (settings are read
once per process, so a test can't change the environment under them in its own)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from tests.paths import REPO_ROOT


def settings_process(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `code` (Python, after `django.setup()`, with `settings` imported) under the
    settings module with only `env` (and PATH, a SECRET_KEY) set; the finished process,
    whatever its exit code (a test of settings that refuse to load reads its stderr)."""
    return subprocess.run(
        [
            sys.executable,
            "-c",
            f"import django; from django.conf import settings; django.setup(); {code}",
        ],
        cwd=REPO_ROOT,
        env={
            "PATH": os.environ["PATH"],
            "DJANGO_SETTINGS_MODULE": "troefclub.settings",
            "SECRET_KEY": "x" * 50,
            **env,
        },
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def settings_run(code: str, **env: str) -> str:
    """`settings_process(code, **env)`'s standard output; fails the test with the
    process's standard error when it fails."""
    done = settings_process(code, **env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def settings_in_subprocess(names: list[str], **env: str) -> dict[str, str]:
    """The `repr` of each setting in `names` as the settings make them with `env`."""
    code = f"print('\\n'.join(f'{{n}}={{getattr(settings, n, None)!r}}' for n in {names!r}))"
    return dict(line.split("=", 1) for line in settings_run(code, **env).splitlines())


def settings_json(expression: str, **env: str) -> Any:
    """The value of `expression` (JSON-able, over `settings`) with `env`."""
    return json.loads(settings_run(f"import json; print(json.dumps({expression}))", **env))
