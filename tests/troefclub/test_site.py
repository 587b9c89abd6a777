"""The public address (`SITE_URL`, troefclub/site.py): checked at start, the one base of
every absolute URL, and the warning on the pages a director prints from (issue 18)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.template import Context, Template
from django.test import RequestFactory

from tests.paths import REPO_ROOT
from troefclub.site import absolute_url, is_local_host, phone_links_problem, site_url_parse


@pytest.mark.parametrize(
    ("value", "parsed"),
    [
        ("", ""),
        ("   ", ""),
        ("http://192.168.1.20:8000", "http://192.168.1.20:8000"),
        ("http://192.168.1.20:8000/", "http://192.168.1.20:8000"),
        (" https://Troef.Example ", "https://troef.example"),
        ("http://[fe80::1]:8000", "http://[fe80::1]:8000"),
        ("http://laptop.local:8000", "http://laptop.local:8000"),
    ],
)
def test_a_site_url_is_kept_as_scheme_and_host(value, parsed):
    assert site_url_parse(value) == parsed


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("192.168.1.20:8000", "must start with http:// or https://"),
        ("ftp://troef.example", "must start with http:// or https://"),
        ("troef.example", "must start with http:// or https://"),
        ("http://", "has no host name"),
        ("http://:8000", "has no host name"),
        (
            "https://troef.example/club",
            "must be the address alone, without a path, query or fragment",
        ),
        (
            "https://troef.example/?a=1",
            "must be the address alone, without a path, query or fragment",
        ),
        ("https://troef.example?", "must be the address alone, without a path, query or fragment"),
        (
            "https://troef.example#top",
            "must be the address alone, without a path, query or fragment",
        ),
        ("https://user:pw@troef.example", "must not hold a user name or password"),
        ("http://troef.example:99999", "is not a valid URL"),
        ("http://troef.example:port", "is not a valid URL"),
        ("http://[::1", "is not a valid URL"),
    ],
)
def test_a_site_url_that_is_no_bare_http_address_is_refused_naming_it(value, problem):
    with pytest.raises(ImproperlyConfigured) as caught:
        site_url_parse(value)
    message = str(caught.value)
    assert message.startswith(f"SITE_URL={value!r} {problem}: ")
    assert "e.g. http://192.168.1.20:8000" in message


def test_the_app_does_not_start_with_a_bad_site_url():
    code = (
        "import django; from django.conf import settings; django.setup(); print(settings.SITE_URL)"
    )
    env = {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "troefclub.settings"}

    def run(site_url: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", code],
            cwd=REPO_ROOT,
            env={**env, "SECRET_KEY": "x" * 50, "SITE_URL": site_url},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    bad = run("192.168.1.20:8000/club")
    assert bad.returncode != 0
    assert "ImproperlyConfigured: SITE_URL='192.168.1.20:8000/club' must start with" in bad.stderr
    good = run("http://192.168.1.20:8000/")
    assert good.returncode == 0, good.stderr
    assert good.stdout.strip() == "http://192.168.1.20:8000"


def test_absolute_urls_start_with_the_site_url_whatever_the_request(settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    request = RequestFactory().get("/", HTTP_HOST="127.0.0.1:8000")
    settings.SITE_URL = "http://192.168.1.20:8000"
    assert absolute_url("/t/abc/", request) == "http://192.168.1.20:8000/t/abc/"
    assert absolute_url("/t/abc/") == "http://192.168.1.20:8000/t/abc/"  # no request needed


def test_without_a_site_url_absolute_urls_use_the_request(settings):
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["club.example"]
    request = RequestFactory().get("/", secure=True, HTTP_HOST="club.example")
    assert absolute_url("/t/abc/", request) == "https://club.example/t/abc/"
    with pytest.raises(ImproperlyConfigured, match="SITE_URL is not set: a link made outside"):
        absolute_url("/t/abc/")
    with pytest.raises(ValueError, match="starting with '/'"):
        absolute_url("t/abc/", request)


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("localhost", True),
        ("LOCALHOST.", True),
        ("club.localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", True),
        ("::", True),
        ("192.168.1.20", False),
        ("10.0.0.5", False),
        ("laptop.local", False),
        ("troef.example", False),
        ("testserver", False),
    ],
)
def test_local_hosts_are_this_computer_only(host, local):
    assert is_local_host(host) is local


@pytest.mark.parametrize(
    ("site_url", "request_host", "problem"),
    [
        ("", "127.0.0.1:8000", "local"),
        ("", "localhost:8000", "local"),
        ("", "[::1]:8000", "local"),
        ("", "192.168.1.20:8000", "unset"),
        ("", None, "unset"),
        ("http://127.0.0.1:8000", "192.168.1.20:8000", "local"),
        ("http://localhost:8000", None, "local"),
        ("http://0.0.0.0:8000", None, "local"),
        ("http://192.168.1.20:8000", "127.0.0.1:8000", ""),
        ("https://troef.example", None, ""),
    ],
)
def test_links_that_may_not_reach_a_phone_are_told_apart(settings, site_url, request_host, problem):
    settings.SITE_URL = site_url
    settings.ALLOWED_HOSTS = ["*"]
    request = None if request_host is None else RequestFactory().get("/", HTTP_HOST=request_host)
    assert phone_links_problem(request) == problem


WARNING = Template("{% load site %}{% phone_links_warning %}")


@pytest.mark.parametrize(
    ("site_url", "request_host", "shown", "says"),
    [
        ("", "127.0.0.1:8000", "local", "point at this computer only (http://127.0.0.1:8000)"),
        ("http://localhost:8000", "192.168.1.20:8000", "local", "(http://localhost:8000)"),
        ("", "192.168.1.20:8000", "unset", "SITE_URL is not set"),
        ("http://192.168.1.20:8000", "127.0.0.1:8000", "", ""),
    ],
)
def test_the_warning_says_why_before_printing(settings, site_url, request_host, shown, says):
    settings.DEBUG = True  # dev.py run
    settings.SITE_URL = site_url
    settings.ALLOWED_HOSTS = ["*"]
    request = RequestFactory().get("/", HTTP_HOST=request_host)
    html = WARNING.render(Context({"request": request}))
    assert ('id="phone-links-warning"' in html) is bool(shown)
    if shown:
        assert f'data-problem="{shown}"' in html
        assert says in html
        assert "dev.py run --addr 0.0.0.0:8000" in html or shown == "unset"


def test_a_production_install_is_told_to_set_site_url_not_to_run_dev_py(settings):
    """DEBUG off is a production install: `dev.py run --addr` is no way out there."""
    settings.DEBUG = False
    settings.SITE_URL = "http://localhost:8000"
    settings.ALLOWED_HOSTS = ["*"]
    request = RequestFactory().get("/", HTTP_HOST="club.example")
    html = WARNING.render(Context({"request": request}))
    assert 'data-problem="local"' in html
    assert "set SITE_URL to the address phones use" in html
    assert "dev.py" not in html
