"""`{% load site %}`: the public address on the pages a director prints from (issue 18).

`{% phone_links_warning %}` says, before anything is printed, when the QR codes and links
on the page may not open on a phone (`troefclub.site.phone_links_problem`); it renders
nothing when `SITE_URL` is another computer's address.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings

from troefclub.site import phone_links_problem, site_base

register = template.Library()


@register.inclusion_tag("_phone_links_warning.html", takes_context=True)
def phone_links_warning(context: dict[str, Any]) -> dict[str, Any]:
    """The warning's context: `problem` ("", "local" or "unset"), `base`, the address the
    links start with, and `laptop`: DEBUG is on, so this is `dev.py run` and its `--addr`
    is the way out (a production install is told to set SITE_URL instead). Needs `request`
    in the context (the request context processor)."""
    request = context.get("request")
    problem = phone_links_problem(request)
    return {
        "problem": problem,
        "base": site_base(request) if problem else "",
        "laptop": bool(settings.DEBUG),
    }
