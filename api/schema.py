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


# The error answers every operation can give (`api.errors`), in one JSON shape. An
# operation's own description of one of these (a write's 409 or 422) is kept.
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": (
        "Every refusal: a stable `code`, a `message` in the reader's language"
        " (Accept-Language); `params` and `place` for a rule violation (422), `fields` for"
        " malformed input (400), `current` for a stale write (409)."
    ),
    "properties": {
        "code": {"type": "string"},
        "message": {"type": "string"},
        "params": {"type": "object", "additionalProperties": True},
        "place": {"type": "object", "additionalProperties": True},
        "fields": {"type": "object", "additionalProperties": True},
        "current": {},
    },
    "required": ["code", "message"],
}

STANDARD_ERRORS = {
    "400": "Malformed input: a parameter or a field of the wrong type or form (`fields`).",
    "401": "No valid token: an unknown, revoked or malformed Authorization header.",
    "403": "The token may not do this (not a director of the competition, another game).",
    "404": "No such thing.",
    "406": "An Accept header that asks for something else than JSON.",
    "429": "Too many requests from this token or address: try again after Retry-After seconds.",
}

HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def error_responses(
    result: dict[str, Any], generator: Any, request: Any, public: Any
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS): the `Error` component,
    and the standard error answers (`STANDARD_ERRORS`) on every operation that does not
    describe them itself, so that a client (and schemathesis) knows every answer's shape."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("Error", ERROR_SCHEMA)
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            if method not in HTTP_METHODS:
                continue
            responses = operation.setdefault("responses", {})
            for status, description in STANDARD_ERRORS.items():
                answer: dict[str, Any] = {"description": description, "content": error}
                if status == "429":
                    answer["headers"] = {
                        "Retry-After": {
                            "schema": {"type": "integer"},
                            "description": "Seconds to wait before the next request.",
                        }
                    }
                responses.setdefault(status, answer)
    return result
