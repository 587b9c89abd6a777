"""What the OpenAPI schema says of our authentication (drf-spectacular extensions).

Imported by `api.apps.ApiConfig.ready`, so the schema generator knows them.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.auth.ApiTokenAuthentication"
    name = "apiToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A personal API token (your page: “API tokens”), as `Bearer tc_…`.",
        }


class TableLinkScheme(OpenApiAuthenticationExtension):
    target_class = "api.auth.TableLinkAuthentication"
    name = "tableLink"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A koppel's table link token, as `Table <token>`: its own game only.",
        }
