"""Who sends an API request: a personal API token or a table link's token, in a header.

``Authorization: Bearer tc_…`` is a user's personal API token (`api.models.ApiToken`): the
request acts as that user, with the pages' permissions (a competition's directors write to
it). ``Authorization: Table …`` is a koppel's table link (`scoring.models.GameLink`): it
acts for that koppel on its own game only, as the link's phone page does. Neither is ever
taken from the URL or the query (they would end up in logs and browser histories).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from api.models import ApiToken
from api.services import api_token_digest
from scoring.models import GameLink

# `last_used_at` is written at most this often a token: a scorer app sending a round every
# few seconds should not add a write to each.
LAST_USED_EVERY = timedelta(minutes=1)


def _credentials(request: Request, keyword: bytes) -> str | None:
    """The credentials after `keyword` in the Authorization header, None when the header
    names another scheme. Raises AuthenticationFailed for a malformed header."""
    parts = get_authorization_header(request).split()
    if not parts or parts[0].lower() != keyword.lower():
        return None
    if len(parts) != 2:
        raise exceptions.AuthenticationFailed(
            _("The Authorization header is “%(scheme)s” and one token, without spaces.")
            % {"scheme": keyword.decode()}
        )
    try:
        return parts[1].decode("ascii")
    except UnicodeDecodeError:
        raise exceptions.AuthenticationFailed(
            _("The token holds characters a token never has.")
        ) from None


class ApiTokenAuthentication(BaseAuthentication):
    """``Authorization: Bearer <personal API token>`` → (its user, the ApiToken)."""

    keyword = b"Bearer"

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        plain = _credentials(request, self.keyword)
        if plain is None:
            return None
        token = (
            ApiToken.objects.select_related("user")
            .filter(digest=api_token_digest(plain), revoked_at__isnull=True)
            .first()
        )
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("This API token is unknown or revoked."))
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
            token.last_used_at = now
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'


class TableLinkAuthentication(BaseAuthentication):
    """``Authorization: Table <table link token>`` → (AnonymousUser, the active GameLink).

    The link opens its own game only; the views check that (`api.permissions`).
    """

    keyword = b"Table"

    def authenticate(self, request: Request) -> tuple[Any, GameLink] | None:
        plain = _credentials(request, self.keyword)
        if plain is None:
            return None
        link = (
            GameLink.objects.filter(token=plain, revoked_at__isnull=True)
            .select_related("game")
            .first()
        )
        if link is None:
            raise exceptions.AuthenticationFailed(
                _("This table link is unknown or was revoked: ask the director for a new one.")
            )
        return AnonymousUser(), link

    def authenticate_header(self, request: Request) -> str:
        return 'Table realm="api"'
