"""Keyed writes: the `Idempotency-Key` header, and the answer kept for a key.

Every API write carries ``Idempotency-Key: <uuid>``, the same kind of key the offline queues
of the table phone and the score sheet make for each round (static/js/table_queue.js). A
request sent again with the same key (a retry after a lost answer, a queue replayed) gets
the answer of the first one, and nothing is written twice.

- A round goes to its service with the key as `client_key` (`game_round_send`,
  `table_round_record`): the round itself remembers its key, so a round queued on the phone
  and sent again through the API with the same key is stored once.
- Every other write keeps its answer in an `IdempotencyRecord` (`keyed_write`), made in the
  same transaction as the write: the row is inserted first, so a second request with the
  same key waits on the unique constraint (`idempotency_key_once`) until the first commits,
  then finds its answer; it never writes a second time. A refusal (400, 409, 422) rolls the
  row back with the write: the key stays unused, to send again once the request is fixed.

The same key with another request (method, path or body) is refused: 422
`idempotency_key_reused`.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import Unprocessable
from api.models import IdempotencyRecord
from scoring.models import GameLink

HEADER = "Idempotency-Key"

# The status of a record whose write is still running (never seen outside its transaction).
PENDING = 0


def idempotency_key(request: Request) -> uuid.UUID:
    """The request's `Idempotency-Key` header as a UUID.

    Raises ParseError (400): `idempotency_key_missing`, `idempotency_key_invalid` (not a
    UUID: the offline queues make them with `crypto.randomUUID()`).
    """
    text = request.headers.get(HEADER, "").strip()
    if not text:
        raise exceptions.ParseError(
            _(
                "Every write needs an Idempotency-Key header: a new UUID for each new write, "
                "the same one when the write is sent again."
            ),
            code="idempotency_key_missing",
        )
    try:
        return uuid.UUID(text)
    except ValueError:
        raise exceptions.ParseError(
            _("The Idempotency-Key header must be a UUID, e.g. %(example)s.")
            % {"example": "3f1c2a9e-8a7b-4c1d-9e2f-0a1b2c3d4e5f"},
            code="idempotency_key_invalid",
        ) from None


def owner_of(request: Request) -> str:
    """Who sent a keyed request: "link:<id>" for a table link, else "user:<id>". Two
    senders' keys never meet."""
    if isinstance(request.auth, GameLink):
        return f"link:{request.auth.pk}"
    return f"user:{request.user.pk}"


def request_digest(request: Request) -> str:
    """SHA-256 of the method, the path and the parsed body (keys sorted): the same request
    sent again has the same digest, whatever the order of its JSON keys."""
    body = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    seed = "\n".join((request.method or "", request.path, body))
    return hashlib.sha256(seed.encode("utf-8", "surrogatepass")).hexdigest()


def key_reused() -> Unprocessable:
    """422 `idempotency_key_reused`: this key went with another request."""
    return Unprocessable(
        {
            "code": "idempotency_key_reused",
            "message": _(
                "This Idempotency-Key was used for another request: use a new key for a new write."
            ),
            "params": {},
            "place": {"header": HEADER},
        }
    )


def _replayed(record: IdempotencyRecord, digest: str) -> Response:
    if record.request_digest != digest:
        raise key_reused()
    response = Response(record.body, status=record.status)
    response["Idempotent-Replayed"] = "true"
    return response


def keyed_write(request: Request, key: uuid.UUID, write: Callable[[], tuple[int, Any]]) -> Response:
    """Run `write` once for (`owner_of(request)`, `key`) and answer with what it returned,
    (status, body); the same key and request again answer the stored (status, body).

    `write` calls one service; it runs in this function's transaction, after the key's
    row is inserted (so a concurrent request with the same key waits for it). When it
    raises, the transaction (its row included) is rolled back and the exception passes.

    Raises the 422 of `key_reused` for the same key with another request.
    """
    owner = owner_of(request)
    digest = request_digest(request)
    stored = IdempotencyRecord.objects.filter(owner=owner, key=str(key)).first()
    if stored is not None:
        return _replayed(stored, digest)
    try:
        with transaction.atomic():
            record = IdempotencyRecord.objects.create(
                owner=owner,
                key=str(key),
                method=request.method or "",
                path=request.path[:300],
                request_digest=digest,
                status=PENDING,
            )
            answer_status, body = write()
            record.status, record.body = answer_status, body
            record.save(update_fields=["status", "body"])
    except IntegrityError:
        # Another request with this key committed first (we waited on its row): its answer.
        stored = IdempotencyRecord.objects.filter(owner=owner, key=str(key)).first()
        if stored is None or stored.status == PENDING:
            raise
        return _replayed(stored, digest)
    return Response(body, status=answer_status)


OK = status.HTTP_200_OK
