"""The API's own rows: personal API tokens (stored hashed) and the answers of keyed writes."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from troefclub.fields import NameField


class ApiToken(models.Model):
    """A user's personal API token: a program writes as that user with it.

    Only its SHA-256 `digest` is stored; the token itself (``tc_`` and 43 random
    characters, `api.services.api_token_create`) is shown once, when it is made. `prefix`
    (its first 11 characters) tells a user's tokens apart on their page and in the admin.
    A revoked token (`revoked_at`) opens nothing; it is kept so the admin shows who had it.
    `form_key` is the one-time key of the page's or the admin's form that made it (None for
    one made otherwise): the form sent again (F5) makes no second token.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    # A NameField, as a player's name: stored without bidi controls on every path (the
    # page, the admin's add and change forms, the service), so it never shows reversed.
    name = NameField(
        _("name"),
        max_length=100,
        help_text=_("What the token is for, e.g. “federation website”."),
    )
    prefix = models.CharField(_("starts with"), max_length=16)
    digest = models.CharField(_("digest"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    # The one-time key of the form that made it (a UUID made when the form was shown; as
    # a round's `client_key`): the same form sent again finds this row and makes nothing.
    form_key = models.UUIDField(
        _("made by form"), null=True, blank=True, unique=True, editable=False
    )

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="apitoken_name_not_blank"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class IdempotencyRecord(models.Model):
    """The answer given to one keyed API write (`Idempotency-Key`), so that the same
    request sent again (a retry, a lost answer, the offline queue replaying) gets the same
    answer and writes nothing twice.

    `owner` is who sent it ("user:<id>" or "link:<id>"): two senders' keys never meet.
    `request_digest` is the SHA-256 of the method, path and body: the same key with another
    request is refused (422 `idempotency_key_reused`).
    """

    owner = models.CharField(_("sender"), max_length=40)
    key = models.CharField(_("idempotency key"), max_length=100)
    method = models.CharField(_("method"), max_length=10)
    path = models.CharField(_("path"), max_length=300)
    request_digest = models.CharField(_("request digest"), max_length=64)
    status = models.PositiveSmallIntegerField(_("status"))
    body = models.JSONField(_("answer"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("idempotent API write")
        verbose_name_plural = _("idempotent API writes")
        constraints = [
            models.UniqueConstraint(fields=["owner", "key"], name="idempotency_key_once"),
        ]

    def __str__(self) -> str:
        return f"{self.owner} {self.key} → {self.status}"
