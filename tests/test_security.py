"""Security: login throttling, the Content-Security-Policy, the production settings
(`check --deploy`), the password reset that needs e-mail, and who may assign directors.

Log in with `client.force_login` in tests: axes' backend refuses `client.login(...)` without
`request=` (it keys lockouts on the request's address).
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from axes.models import AccessAttempt
from axes.utils import reset as axes_reset
from django import forms
from django.conf import settings
from django.contrib.auth.models import Permission, User
from django.core import mail
from django.db.models import F
from django.test import Client, RequestFactory
from django.urls import reverse

from tests.factories import CompetitionFactory, UserFactory
from tests.settings_env import settings_in_subprocess
from troefclub.auth import client_ip

BASE_DIR = Path(settings.BASE_DIR)
PASSWORD = "pass-word-123"  # UserFactory's
LOGIN_PAGES = {"site": "login", "admin": "admin:login"}


# ---------------------------------------------------------------- login throttling


def post_login(client: Client, page: str, username: str, password: str, **extra: Any) -> Any:
    return client.post(
        reverse(LOGIN_PAGES[page]), {"username": username, "password": password}, **extra
    )


def lockout_message() -> str:
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return f"Too many failed logins; try again in {minutes} minutes."


def fail_until_locked(client: Client, page: str, username: str) -> Any:
    """Post wrong passwords up to the limit; returns the answer to the last one."""
    for attempt in range(1, settings.AXES_FAILURE_LIMIT):
        response = post_login(client, page, username, "wrong")
        assert response.status_code == 200, f"attempt {attempt} was not a plain refusal"
        assert lockout_message() not in response.content.decode()
    return post_login(client, page, username, "wrong")


@pytest.fixture
def staff() -> User:
    return UserFactory.create(username="wedstrijdleider", is_staff=True)


@pytest.mark.django_db
@pytest.mark.parametrize("page", LOGIN_PAGES)
def test_wrong_passwords_up_to_the_limit_lock_out_with_a_message(client, staff, page):
    response = fail_until_locked(client, page, staff.username)
    assert response.status_code == 429
    assert lockout_message() in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("page", LOGIN_PAGES)
def test_the_right_password_is_refused_during_a_lockout(client, staff, page):
    fail_until_locked(client, page, staff.username)
    response = post_login(client, page, staff.username, PASSWORD)
    assert response.status_code == 429
    assert lockout_message() in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
@pytest.mark.parametrize("page", LOGIN_PAGES)
def test_login_works_again_after_the_cool_off(client, staff, page):
    fail_until_locked(client, page, staff.username)
    # The cool-off passes: the failures move back in time beyond it.
    AccessAttempt.objects.update(
        attempt_time=F("attempt_time") - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    )
    response = post_login(client, page, staff.username, PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(staff.pk)


@pytest.mark.django_db
def test_a_reset_by_the_league_admin_lifts_the_lockout(client, staff):
    fail_until_locked(client, "site", staff.username)
    axes_reset(username=staff.username)  # what `manage.py axes_reset_username` does
    assert post_login(client, "site", staff.username, PASSWORD).status_code == 302


@pytest.mark.django_db
def test_the_lockout_is_per_username_and_address(client, staff):
    fail_until_locked(client, "site", staff.username)
    other = UserFactory.create()
    # Another username from the same address, and the same username from elsewhere: in.
    assert post_login(Client(), "site", other.username, PASSWORD).status_code == 302
    elsewhere = post_login(Client(), "site", staff.username, PASSWORD, REMOTE_ADDR="10.9.8.7")
    assert elsewhere.status_code == 302


@pytest.mark.django_db
def test_a_successful_login_clears_the_earlier_failures(client, staff):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        post_login(client, "site", staff.username, "wrong")
    assert post_login(client, "site", staff.username, PASSWORD).status_code == 302
    client.logout()
    response = post_login(client, "site", staff.username, "wrong")
    assert response.status_code == 200  # counting starts again


@pytest.mark.parametrize(
    ("proxies", "forwarded_for", "expected"),
    [
        (0, "203.0.113.9", "127.0.0.1"),  # no proxy: the header is the client's, ignored
        (1, "203.0.113.9", "203.0.113.9"),
        (1, "6.6.6.6, 203.0.113.9", "203.0.113.9"),  # the left entry was typed by the client
        (2, "203.0.113.9, 10.0.0.2", "203.0.113.9"),
        (2, "10.0.0.2", "127.0.0.1"),  # fewer entries than proxies: not through them
    ],
)
def test_the_lockout_address_trusts_only_the_configured_proxies(
    settings, proxies, forwarded_for, expected
):
    settings.TRUSTED_PROXY_COUNT = proxies
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded_for)
    assert client_ip(request) == expected


# ---------------------------------------------------------------- Content-Security-Policy

TEMPLATE_DIRS = [BASE_DIR / "templates", BASE_DIR / "tournaments", BASE_DIR / "scoring"]
TAG = re.compile(r"<[a-zA-Z][^<>]*>")  # an opening tag (template tags inside it are fine)
SCRIPT_TAG = re.compile(r"<script\b[^>]*>", re.IGNORECASE)
INLINE_CODE_ATTRIBUTE = re.compile(
    r"""\s(on[a-z]+|hx-on[:\w-]*|style)\s*=|(href|src|action)\s*=\s*["']?\s*javascript:""",
    re.IGNORECASE,
)
STYLE_ELEMENT = re.compile(r"<style\b[^>]*>(.*?)</style>", re.IGNORECASE | re.DOTALL)
TEMPLATE_COMMENT = re.compile(r"{#.*?#}|{% comment %}.*?{% endcomment %}", re.DOTALL)


def project_templates() -> list[tuple[Path, str]]:
    """Every template of the project with its text, template comments left out."""
    found = sorted(path for folder in TEMPLATE_DIRS for path in folder.rglob("*.html"))
    assert len(found) > 20, "the templates were not found"
    return [(path, TEMPLATE_COMMENT.sub("", path.read_text())) for path in found]


def csp_source_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_no_template_has_inline_script_or_inline_handlers():
    offences = []
    for path, html in project_templates():
        for tag in SCRIPT_TAG.findall(html):
            if "src=" not in tag:
                offences.append(f"{path.relative_to(BASE_DIR)}: {tag}")
        for tag in TAG.findall(html):
            if INLINE_CODE_ATTRIBUTE.search(tag):
                offences.append(f"{path.relative_to(BASE_DIR)}: {tag}")
    assert not offences, "inline code the Content-Security-Policy blocks:\n" + "\n".join(offences)


def test_every_inline_style_left_is_hashed_in_the_policy():
    allowed = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]["style-src"]
    styles = [
        (path, body) for path, html in project_templates() for body in STYLE_ELEMENT.findall(html)
    ]
    assert styles, "templates/500.html's own <style> was expected"
    for path, body in styles:
        assert csp_source_hash(body) in allowed, f"{path}: its <style> is not in style-src"


def test_the_policy_allows_no_inline_code():
    directives = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    for sources in directives.values():
        assert "'unsafe-inline'" not in sources and "'unsafe-eval'" not in sources


def assert_csp_header(response: Any) -> None:
    policy = response.headers.get("Content-Security-Policy", "")
    assert "default-src 'self'" in policy
    assert "script-src 'self';" in policy + ";"
    assert "unsafe-inline" not in policy


@pytest.mark.django_db
def test_public_pages_and_the_admin_send_the_policy(client):
    competition = CompetitionFactory.create()
    assert_csp_header(client.get(reverse("competition_list")))
    assert_csp_header(client.get(reverse("login")))
    client.force_login(UserFactory.create(is_staff=True, is_superuser=True))
    assert_csp_header(client.get(reverse("admin:index")))
    change = reverse("admin:tournaments_competition_change", args=[competition.pk])
    assert_csp_header(client.get(change))


@pytest.mark.django_db
def test_htmx_is_told_not_to_inject_styles_or_eval_code(client):
    html = client.get(reverse("competition_list")).content.decode()
    config = re.search(r"""<meta name="htmx-config" content='([^']*)'>""", html)
    assert config, "base.html's htmx-config is missing"
    for option in ('"includeIndicatorStyles": false', '"allowEval": false'):
        assert option in config.group(1)
    assert "/static/js/troefclub.js" in html


# ---------------------------------------------------------------- production settings


def readme_production_block() -> str:
    readme = (BASE_DIR / "README.md").read_text()
    section = readme[readme.index("## Production behind HTTPS") :]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block, "README: the production section has no sh block"
    return block.group(1)


def run_in_clean_env(script: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run a bash script without this process' environment (no DEBUG, no pytest)."""
    (cwd / ".venv").symlink_to(Path(sys.prefix))
    (cwd / "manage.py").symlink_to(BASE_DIR / "manage.py")
    return subprocess.run(
        ["bash", "-euc", script],
        cwd=cwd,
        env={"PATH": os.environ["PATH"], "HOME": str(cwd), **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.settings_env
def test_check_deploy_is_clean_with_the_readmes_production_settings(tmp_path):
    block = readme_production_block()
    assert "check --deploy --fail-level WARNING" in block
    result = run_in_clean_env(block, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.settings_env
def test_check_deploy_fails_without_them(tmp_path):
    """The test above is meaningful: the same check with only a key set does complain."""
    key = "k" * 10 + "q2W9x-Lp0ZrT7vYc3NbH6mJd1sGf8aE4uIo5"
    result = run_in_clean_env(
        ".venv/bin/python manage.py check --deploy --fail-level WARNING", tmp_path, SECRET_KEY=key
    )
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stderr


@pytest.mark.settings_env
def test_hsts_options_come_from_the_environment():
    names = ["SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD"]
    assert settings_in_subprocess(names) == {
        "SECURE_HSTS_SECONDS": "0",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": "False",
        "SECURE_HSTS_PRELOAD": "False",
    }
    assert settings_in_subprocess(
        names,
        SECURE_HSTS_SECONDS="600",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="true",
        SECURE_HSTS_PRELOAD="true",
    ) == {
        "SECURE_HSTS_SECONDS": "600",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": "True",
        "SECURE_HSTS_PRELOAD": "True",
    }


@pytest.mark.settings_env
def test_email_and_lockout_options_come_from_the_environment():
    names = [
        "EMAIL_BACKEND",
        "EMAIL_HOST",
        "EMAIL_PORT",
        "EMAIL_USE_TLS",
        "EMAIL_USE_SSL",
        "DEFAULT_FROM_EMAIL",
        "AXES_FAILURE_LIMIT",
        "AXES_COOLOFF_TIME",
    ]
    assert settings_in_subprocess(names)["EMAIL_BACKEND"] == repr(
        "django.core.mail.backends.console.EmailBackend"
    )
    configured = settings_in_subprocess(
        names,
        EMAIL_HOST="smtp.troef.example",
        EMAIL_USE_SSL="true",
        DEFAULT_FROM_EMAIL="bond@troef.example",
        AXES_FAILURE_LIMIT="3",
        AXES_COOLOFF_MINUTES="30",
    )
    assert configured == {
        "EMAIL_BACKEND": repr("django.core.mail.backends.smtp.EmailBackend"),
        "EMAIL_HOST": repr("smtp.troef.example"),
        "EMAIL_PORT": "465",
        "EMAIL_USE_TLS": "False",
        "EMAIL_USE_SSL": "True",
        "DEFAULT_FROM_EMAIL": repr("bond@troef.example"),
        "AXES_FAILURE_LIMIT": "3",
        "AXES_COOLOFF_TIME": repr(timedelta(minutes=30)),
    }


# ---------------------------------------------------------------- password reset

RESET_PAGES = [
    ("password_reset", {}),
    ("password_reset_done", {}),
    ("password_reset_confirm", {"uidb64": "MQ", "token": "set-password"}),
    ("password_reset_complete", {}),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "kwargs"), RESET_PAGES, ids=[name for name, _ in RESET_PAGES])
def test_password_reset_pages_are_404_without_email(client, settings, name, kwargs):
    settings.EMAIL_HOST = ""
    assert client.get(reverse(name, kwargs=kwargs)).status_code == 404
    assert client.post(reverse(name, kwargs=kwargs), {"email": "a@b.example"}).status_code == 404


@pytest.mark.django_db
def test_login_page_says_ask_the_league_admin_without_email(client, settings):
    settings.EMAIL_HOST = ""
    html = client.get(reverse("login")).content.decode()
    assert "Ask your league admin to reset your password." in html
    assert reverse("password_reset") not in html


@pytest.mark.django_db
def test_password_reset_mails_a_working_link_with_email_configured(client, settings):
    settings.EMAIL_HOST = "smtp.troef.example"  # the test run's backend keeps mail in memory
    user = UserFactory.create(email="director@troef.example")
    login_html = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}"' in login_html
    assert "Ask your league admin" not in login_html

    response = client.post(reverse("password_reset"), {"email": user.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [user.email]
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", str(mail.outbox[0].body))
    assert link, mail.outbox[0].body
    form_page = client.get(link.group(1), follow=True)
    assert form_page.status_code == 200 and form_page.context["validlink"]
    new = "another-pass-word-456"
    done = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}
    )
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)


@pytest.mark.django_db
@pytest.mark.parametrize("page", LOGIN_PAGES)
def test_a_password_reset_lifts_the_lockout_of_that_username(client, settings, staff, page):
    settings.EMAIL_HOST = "smtp.troef.example"
    staff.email = "leider@troef.example"
    staff.save()
    assert fail_until_locked(client, page, staff.username).status_code == 429
    client.post(reverse("password_reset"), {"email": staff.email})
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", str(mail.outbox[0].body))
    assert link, mail.outbox[0].body
    form_page = client.get(link.group(1), follow=True)
    new = "another-pass-word-456"
    done = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}, follow=True
    )
    assert "You can log in with it now." in done.content.decode()
    response = post_login(client, page, staff.username, new)
    assert response.status_code == 302, "the page said: log in with it now"
    assert client.session["_auth_user_id"] == str(staff.pk)


# ---------------------------------------------------------------- assigning directors


def competition_change_data(response: Any) -> dict[str, Any]:
    """The admin change form's current values, as the browser would post them back."""
    data: dict[str, Any] = {}
    form_sets = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        form_sets.append(formset.management_form)
        form_sets.extend(formset.forms)
    for form in form_sets:
        for bound in form:
            value = bound.value()  # the initial value, prepared for the widget
            if isinstance(bound.field, forms.BooleanField):
                if value:
                    data[bound.html_name] = "on"
            else:
                data[bound.html_name] = "" if value is None else value
    return data


def staff_with(*codenames: str) -> User:
    user = UserFactory.create(is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="tournaments", codename__in=codenames)
    )
    return User.objects.get(pk=user.pk)  # fresh: no permission cache


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("codenames", "superuser", "may_assign"),
    [
        (["view_competition", "change_competition"], False, False),
        (["view_competition", "change_competition", "assign_directors"], False, True),
        ([], True, True),
    ],
    ids=["change-only", "with-assign-directors", "superuser"],
)
def test_only_assign_directors_may_change_the_directors_in_the_admin(
    client, codenames, superuser, may_assign
):
    competition = CompetitionFactory.create()
    sitting = UserFactory.create(username="sitting-director")
    competition.directors.add(sitting)
    user = staff_with(*codenames)
    if superuser:
        user.is_superuser = True
        user.save()
    client.force_login(user)
    url = reverse("admin:tournaments_competition_change", args=[competition.pk])

    page = client.get(url)
    assert page.status_code == 200
    assert ('name="directors"' in page.content.decode()) is may_assign
    data = competition_change_data(page)
    data["directors"] = [user.pk]  # makes themselves the only director
    data["name"] = "Renamed"  # and changes something they may change
    response = client.post(url, data)
    assert response.status_code == 302, response.context and response.context["errors"]

    competition.refresh_from_db()
    assert competition.name == "Renamed"
    expected = {user.pk} if may_assign else {sitting.pk}
    assert set(competition.directors.values_list("pk", flat=True)) == expected


@pytest.mark.django_db
def test_a_competition_added_without_assign_directors_gets_no_directors(client):
    user = staff_with("view_competition", "add_competition", "change_competition")
    client.force_login(user)
    template = CompetitionFactory.create(slug="template-competition")
    data = competition_change_data(
        client.get(reverse("admin:tournaments_competition_change", args=[template.pk]))
    )
    data.update(slug="new-evening", name="New evening", directors=[user.pk])
    response = client.post(reverse("admin:tournaments_competition_add"), data)
    assert response.status_code == 302, response.context and response.context["errors"]
    added = type(template).objects.get(slug="new-evening")
    assert not added.directors.exists()


def test_the_favicon_is_served(client) -> None:
    """Browsers ask every page for /favicon.ico: it leads to the icon, not a 404 in the log."""
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith(".svg")
