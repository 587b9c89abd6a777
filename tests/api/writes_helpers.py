"""What the tests of the API's writes share: a director's API token, a table link, and a
keyed JSON post."""

from __future__ import annotations

import uuid
from typing import Any

from django.test import Client

from api.services import api_token_create
from scoring.models import Game, GameLink
from scoring.services.table import game_links_ensure
from tests.factories import UserFactory
from tournaments.models import Competition

API = "/api/v1/"


def director_token(competition: Competition) -> str:
    """A personal API token of a new director of `competition`."""
    user = UserFactory.create()
    competition.directors.add(user)
    return api_token_create(user=user, name="scorer app")[1]


def bearer(token: str) -> str:
    return f"Bearer {token}"


def table(link: GameLink) -> str:
    return f"Table {link.token}"


def link_of(game: Game, side: str = "a") -> GameLink:
    return game_links_ensure(game_ids=[game.pk])[game.pk][side]


def post(
    client: Client,
    path: str,
    body: Any,
    *,
    auth: str | None,
    key: str | uuid.UUID | None = "new",
    language: str = "en",
) -> Any:
    """POST `body` as JSON to /api/v1/`path` with `auth` (an Authorization header) and an
    Idempotency-Key (`key`: "new" makes one, None sends none)."""
    headers: dict[str, str] = {"Accept-Language": language}
    if auth is not None:
        headers["Authorization"] = auth
    if key is not None:
        headers["Idempotency-Key"] = str(uuid.uuid4()) if key == "new" else str(key)
    return client.post(API + path, body, content_type="application/json", headers=headers)
