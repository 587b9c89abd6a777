"""Throttling of the API: per sender (personal token or table link) and per address.

Rates come from settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (API_THROTTLE_TOKEN,
API_THROTTLE_ADDRESS). The counters live in Django's cache (the default cache: per
process in the embedded default; Redis in production — README "Settings").
"""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from api.models import ApiToken

logger = logging.getLogger(__name__)


class SettingsRateThrottle(SimpleRateThrottle):
    """A throttle whose rate is read from the settings when it is made, per request.

    DRF's `SimpleRateThrottle` keeps the rates the settings had when it was imported (a
    class attribute), so a changed REST_FRAMEWORK (`override_settings` in a test) would
    not reach it.
    """

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope or "")

    def allow_request(self, request: Request, view: Any) -> bool:
        """DRF's count; a request is let through while the cache that keeps the counts
        fails (logged): a table phone's round or a director's client must not fail
        because the counters are out of reach, and counting resumes when it is back."""
        try:
            return super().allow_request(request, view)
        except Exception as exc:  # noqa: BLE001 - any cache failure: let it through
            logger.warning("API throttle %s not counted, the cache fails (%r)", self.scope, exc)
            return True


class TokenRateThrottle(SettingsRateThrottle):
    """One budget per personal API token or table link; requests without one pass here
    (the address budget counts them)."""

    scope = "token"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        auth = request.auth
        if auth is None:
            return None
        kind = "token" if isinstance(auth, ApiToken) else "link"
        return self.cache_format % {"scope": self.scope, "ident": f"{kind}:{auth.pk}"}


class AddressRateThrottle(SettingsRateThrottle):
    """One budget per client address (REMOTE_ADDR, or X-Forwarded-For behind the
    API_NUM_PROXIES proxies) for the requests without a token. A request with a personal
    token or a table link counts against that token's budget only: at a club, the readers
    polling on the hall's Wi-Fi share one address with the scorer app and the table
    phones, and must never use up their budget."""

    scope = "address"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.auth is not None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
