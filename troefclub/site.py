"""The public address of this installation (`SITE_URL`) and the absolute URLs made from it.

Every link that leaves the browser that asked for it goes through `absolute_url`: the QR
codes and table links (the link page, the printed score sheets), and the e-mails (the
password reset). A phone that scans a sheet printed on the laptop running the app must get
an address it can reach, never the laptop's `127.0.0.1` (issue 18).

- `SITE_URL` set (`http://192.168.1.20:8000`, `https://troef.example`): every URL starts
  with it, whatever address the page was opened with. `dev.py run --addr 0.0.0.0:8000`
  sets it to this computer's network address for that run.
- unset: the scheme and host the request came with (as Django's own
  `request.build_absolute_uri`, behind `ALLOWED_HOSTS`).

`phone_links_problem` says when such links may not reach a phone (SITE_URL unset, or a
loopback address), so the pages a director prints from say so before anything is printed.

Standard library and Django only: the settings import `site_url_parse` to check the value
when the process starts.
"""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from django.http import HttpRequest

# Host names that always mean "this computer" (RFC 6761 reserves *.localhost for it).
LOCAL_NAMES = ("localhost", "localhost.localdomain")

SITE_URL_EXAMPLE = "http://192.168.1.20:8000 or https://troef.example"


def site_url_parse(value: str, *, name: str = "SITE_URL") -> str:
    """`value` as the public address: "" when blank, else `scheme://host[:port]` without a
    trailing slash.

    Raises ImproperlyConfigured, naming `name` and the value, for anything but an absolute
    http(s) URL with a host and no path (other than "/"), query, fragment or user name.
    """
    text = value.strip()
    if not text:
        return ""
    problem = ""
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError on a port that is no number or too big
    except ValueError:
        problem = "is not a valid URL"
    else:
        if parts.scheme not in ("http", "https"):
            problem = "must start with http:// or https://"
        elif not parts.hostname:
            problem = "has no host name"
        elif parts.username is not None or parts.password is not None:
            problem = "must not hold a user name or password"
        elif parts.path not in ("", "/") or parts.query or parts.fragment or text.endswith("?"):
            problem = "must be the address alone, without a path, query or fragment"
    if problem:
        raise ImproperlyConfigured(
            f"{name}={value!r} {problem}: give the address phones and e-mails use, "
            f"e.g. {SITE_URL_EXAMPLE}."
        )
    return f"{parts.scheme}://{parts.netloc}".lower()


def site_url() -> str:
    """The configured public address (`settings.SITE_URL`, checked at start), "" if unset."""
    from django.conf import settings

    return str(getattr(settings, "SITE_URL", "") or "")


def site_base(request: HttpRequest | None = None) -> str:
    """`scheme://host[:port]` that absolute URLs start with: `SITE_URL`, else the
    request's own scheme and host.

    Raises ImproperlyConfigured when SITE_URL is unset and there is no request (a link
    made outside a request, e.g. by a background task, needs SITE_URL).
    """
    base = site_url()
    if base:
        return base
    if request is None:
        raise ImproperlyConfigured(
            "SITE_URL is not set: a link made outside a web request needs it "
            f"(e.g. {SITE_URL_EXAMPLE})."
        )
    return f"{request.scheme}://{request.get_host()}"


def absolute_url(path: str, request: HttpRequest | None = None) -> str:
    """The absolute URL of `path` (starting with "/", e.g. a `reverse()`), for a phone, a
    printed sheet or an e-mail: `site_base(request)` + `path`.

    Raises ValueError for a `path` that doesn't start with "/"; ImproperlyConfigured as
    `site_base`.
    """
    if not path.startswith("/"):
        raise ValueError(f"absolute_url needs a path starting with '/', not {path!r}")
    return site_base(request) + path


def is_local_host(host: str) -> bool:
    """Whether `host` (a name or an IP address, IPv6 with or without brackets) means this
    computer to whoever uses it: a loopback address, `localhost`, or `0.0.0.0`/`::`."""
    name = host.strip().strip("[]").lower().rstrip(".")
    if name in LOCAL_NAMES or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


PhoneLinksProblem = Literal["", "local", "unset"]


def phone_links_problem(request: HttpRequest | None = None) -> PhoneLinksProblem:
    """Why links made now might not open on a phone:

    - "local": they point at this computer only (SITE_URL, or with SITE_URL unset the
      address the request came with, is a loopback address or `localhost`);
    - "unset": SITE_URL is not set, so they use the address the page was opened with;
    - "": SITE_URL is set to another computer's address.
    """
    base = site_url()
    if base:
        return "local" if is_local_host(urlsplit(base).hostname or "") else ""
    if request is not None and is_local_host(urlsplit("//" + request.get_host()).hostname or ""):
        return "local"
    return "unset"
