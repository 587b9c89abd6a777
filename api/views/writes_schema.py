"""The OpenAPI description of the API's writes (`write_schema`): the body, the answer, every
refusal with the error shape of `api.errors` (409 with the current state), the required
Idempotency-Key header and who may send it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework.serializers import Serializer

from api.idempotency import HEADER
from api.serializers.errors import ErrorSerializer

IDEMPOTENCY_PARAMETER = OpenApiParameter(
    HEADER,
    OpenApiTypes.UUID,
    OpenApiParameter.HEADER,
    required=True,
    description=(
        "A new UUID for each new write; the same one when the write is sent again (a retry): "
        "the write is done once and the first answer given again. A round's key is the one "
        "the offline queue of the phone or the score sheet made for it."
    ),
)

# Security requirements as the schema lists them (`extend_schema(auth=…)` takes them as is).
DIRECTOR: Any = [{"apiToken": []}]
DIRECTOR_OR_TABLE: Any = [{"apiToken": []}, {"tableLink": []}]


def write_schema(
    *,
    operation_id: str,
    summary: str,
    request: type[Serializer],
    answer: Any,
    conflict: type[Serializer] | None,
    table: bool = False,
    created: Any = None,
) -> Callable[[Any], Any]:
    """The OpenAPI description of a write: its body, its answer, its refusals (400, 401,
    403, 404, 409 with the current state, 415, 422, 429) and the required Idempotency-Key."""
    responses: dict[int, Any] = {
        200: answer,
        400: OpenApiResponse(ErrorSerializer, description="Malformed input or header."),
        401: OpenApiResponse(ErrorSerializer, description="No token, or an unknown one."),
        403: OpenApiResponse(ErrorSerializer, description="This token may not do this."),
        404: OpenApiResponse(ErrorSerializer, description="No such thing."),
        415: OpenApiResponse(ErrorSerializer, description="The body is not JSON."),
        422: OpenApiResponse(ErrorSerializer, description="Refused by the rules."),
        429: OpenApiResponse(ErrorSerializer, description="Too many requests."),
    }
    if created is not None:
        responses[201] = created
    if conflict is not None:
        responses[409] = OpenApiResponse(
            conflict, description="Changed since the version sent: `current` is the state now."
        )
    return extend_schema_view(
        post=extend_schema(
            operation_id=operation_id,
            summary=summary,
            request=request,
            responses=responses,
            parameters=[IDEMPOTENCY_PARAMETER],
            auth=DIRECTOR_OR_TABLE if table else DIRECTOR,
            tags=["writes"],
        )
    )
