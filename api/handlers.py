"""The site's error answers (`handler400`, `handler404`, `handler500`, troefclub/urls.py),
in JSON under /api/.

An API client reads JSON, in the one error shape of `api.errors`, whatever refused its
request: also the answers given before or outside the API's views (a NUL in the query,
`troefclub.nul`; an address under /api/ that names no endpoint; a fault). Everywhere else
they are the site's pages, as Django's default handlers render them (templates/400.html,
404.html, 500.html).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults


def _api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """400: what was sent can't be read (a NUL character, a malformed request); 413 for a
    body over DATA_UPLOAD_MAX_MEMORY_SIZE (Django refuses it as a 400)."""
    if _api(request) and isinstance(exception, RequestDataTooBig):
        return JsonResponse(
            {
                "code": "body_too_large",
                "message": _("The request body is larger than %(limit)s bytes.")
                % {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE},
            },
            status=413,
        )
    if _api(request):
        return JsonResponse(
            {
                "code": "bad_request",
                "message": _(
                    "The request can't be read: its address, query or headers hold"
                    " characters no request to this API has (such as NUL)."
                ),
            },
            status=400,
        )
    return defaults.bad_request(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404: no page, or no API endpoint, at this address."""
    if _api(request):
        return JsonResponse(
            {"code": "not_found", "message": _("There is no API endpoint at this address.")},
            status=404,
        )
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """500: a fault of ours (logged with its traceback by Django)."""
    if _api(request):
        return JsonResponse(
            {
                "code": "server_error",
                "message": _("Something went wrong on our side. Try again later."),
            },
            status=500,
        )
    return defaults.server_error(request)
