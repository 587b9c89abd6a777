"""Writes of the API's own rows: personal API tokens, the stored answers of keyed writes."""

from __future__ import annotations

import hashlib
import secrets
import uuid
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from api.models import ApiToken, IdempotencyRecord
from scoring.rules import RuleViolation
from troefclub.bidi import name_text
from troefclub.validators import text_unsafe_char

TOKEN_PREFIX = "tc_"
# What the user's page and the admin show of a token: "tc_" and 8 characters.
SHOWN_LENGTH = 11


def api_token_digest(plain: str) -> str:
    """The stored form of a token: SHA-256, hex (64 characters). A token holds 256 random
    bits, so an unsalted hash is as safe to keep as a salted one and looks up by index."""
    return hashlib.sha256(plain.encode("utf-8", "surrogatepass")).hexdigest()


@transaction.atomic
def api_token_create(
    *, user: Any, name: str, form_key: uuid.UUID | None = None
) -> tuple[ApiToken, str]:
    """Make a personal API token for `user`; returns the row and the token itself, which is
    shown to the user once and never stored (only its digest is).

    `name` is stored as every name is (`troefclub.bidi.name_text`: NFC, without bidi
    controls, so it can't show reversed), at most 100 characters. `form_key` is the
    one-time key of the form that asked (`api.forms`, made when the form was shown): a
    form sent again (a reload, a double click) makes no second token. None: no such check
    (a shell, a test).

    Raises RuleViolation: `api_token_name_required` (a blank name, or one of bidi controls
    only); `text_control_char` / `text_surrogate` (param `char`, "U+0000": a control
    character or a lone surrogate, which the forms refuse too); `api_token_sent_already`
    (a token was made with this `form_key` before: nothing is made).
    """
    char = text_unsafe_char(name)
    if char is not None:
        code = "text_surrogate" if "\ud800" <= char <= "\udfff" else "text_control_char"
        raise RuleViolation(code, char=f"U+{ord(char):04X}")
    name = name_text(name).strip()
    if not name:
        raise RuleViolation("api_token_name_required")
    if form_key is not None and ApiToken.objects.filter(form_key=form_key).exists():
        raise RuleViolation("api_token_sent_already")
    plain = TOKEN_PREFIX + secrets.token_urlsafe(32)
    try:
        with transaction.atomic():
            token = ApiToken.objects.create(
                user=user,
                name=name[:100].strip(),
                prefix=plain[:SHOWN_LENGTH],
                digest=api_token_digest(plain),
                form_key=form_key,
            )
    except IntegrityError as exc:
        # The same form sent twice at once: the other request's row holds the key (unique).
        if form_key is not None and ApiToken.objects.filter(form_key=form_key).exists():
            raise RuleViolation("api_token_sent_already") from exc
        raise
    return token, plain


@transaction.atomic
def api_token_revoke(*, token_id: int, user: Any) -> ApiToken:
    """Revoke one of `user`'s tokens (a superuser may revoke anyone's). Revoking a revoked
    token changes nothing and writes nothing.

    Raises RuleViolation: `api_token_unknown` (no such token of this user).
    """
    tokens = ApiToken.objects.select_for_update()
    if not user.is_superuser:
        tokens = tokens.filter(user=user)
    token = tokens.filter(pk=token_id).first()
    if token is None:
        raise RuleViolation("api_token_unknown")
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def idempotency_records_purge(*, older_than: timedelta) -> int:
    """Delete the stored answers of keyed API writes older than `older_than`; returns how
    many. A key sent again after that is a new write: the offline queues give up long before
    (settings.API_IDEMPOTENCY_DAYS, 30 days by default)."""
    cutoff = timezone.now() - older_than
    deleted, _by_model = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted
