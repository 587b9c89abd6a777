"""The API's docs page, /api/v1/docs/: Swagger UI over /api/v1/schema/.

Swagger UI's scripts and stylesheet come from our own static files
(drf-spectacular-sidecar, settings.SPECTACULAR_SETTINGS "SIDECAR"): no CDN at run time.
The split view serves the page's start-up script from its own URL (`?script`), not
inline, so the site's Content-Security-Policy (no inline script) holds here too; our
template (templates/api/swagger_ui.html) leaves out drf-spectacular's inline <style>,
which the policy would refuse. Swagger UI sets its inline styles through the DOM
(allowed), so the page needs no relaxation of the policy.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.views import SpectacularSwaggerSplitView


class ApiDocs(SpectacularSwaggerSplitView):
    """Swagger UI of the v1 schema (GET, no login)."""

    template_name = "api/swagger_ui.html"
    url_name = "api:schema"
    title = "troefclub API"


urlpatterns = [
    path("docs/", ApiDocs.as_view(), name="docs"),
]
