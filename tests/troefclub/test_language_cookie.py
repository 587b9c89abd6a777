"""The language cookie is Secure, SameSite and HttpOnly like the session cookie (issue 19,
item 6): Django's defaults sent `django_language` over plain HTTP, with other sites'
requests and to every script, whatever SESSION_COOKIE_SECURE said.

The production settings are read in a fresh process with the README's production
environment (`tests.test_security.readme_production_block`); the header's language switch
(`set_language`) is asked there, over HTTPS behind the proxy, as a browser would.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests.paths import REPO_ROOT
from tests.test_security import readme_production_block, run_in_clean_env

ASK = """
import json, django
django.setup()
from django.test import Client
from django.urls import reverse
response = Client().post(
    reverse("set_language"), {"language": "en", "next": "/"},
    HTTP_HOST="troef.example", HTTP_X_FORWARDED_PROTO="https", HTTP_X_FORWARDED_FOR="203.0.113.5",
)
cookie = response.cookies["django_language"]
print(json.dumps({"status": response.status_code, "header": cookie.OutputString(),
                  "secure": cookie["secure"], "samesite": cookie["samesite"],
                  "httponly": cookie["httponly"]}))
"""


def _production_env_lines() -> str:
    """The README's production block without its last line (the deploy check)."""
    lines = readme_production_block().strip().splitlines()
    assert "check --deploy" in lines[-1]
    return "\n".join(lines[:-1])


@pytest.mark.settings_env
def test_the_language_cookie_is_secure_samesite_and_httponly_in_production(
    tmp_path: Path,
) -> None:
    script = (
        f"{_production_env_lines()}\n"
        f"export DJANGO_SETTINGS_MODULE=troefclub.settings PYTHONPATH={REPO_ROOT}\n"
        f"export DATABASE_URL=sqlite:///{tmp_path}/unused.sqlite3\n"
        f".venv/bin/python -c {shlex.quote(ASK)}\n"
    )
    result = run_in_clean_env(script, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    cookie = json.loads(result.stdout.strip().splitlines()[-1])
    assert cookie["status"] == 302, cookie
    assert cookie["secure"] is True, cookie["header"]
    assert cookie["samesite"] == "Lax", cookie["header"]
    assert cookie["httponly"] is True, cookie["header"]


@pytest.mark.django_db
def test_the_language_cookie_follows_the_session_cookie_locally(client: Client) -> None:
    """Plain HTTP (dev.py, the test settings): not Secure, or the switch would be lost;
    still SameSite and HttpOnly."""
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    cookie = response.cookies["django_language"]
    assert not cookie["secure"]
    assert cookie["samesite"] == "Lax"
    assert cookie["httponly"] is True
