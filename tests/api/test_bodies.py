"""What the API answers to bodies it can't read (issue 21, a tester's findings): a 400 or
413 in the error shape and the reader's language, never a 500, and nothing written."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client

from scoring.models import Game
from tests.api.writes_helpers import API, bearer, director_token
from tests.seen import game_token_now


def _send(client: Client, game: Game, body: bytes, *, language: str = "en") -> Any:
    token = director_token(game.match.matchday.competition)
    return client.generic(
        "POST",
        f"{API}games/{game.pk}/close/",
        body,
        content_type="application/json",
        headers={
            "Authorization": bearer(token),
            "Idempotency-Key": str(uuid.uuid4()),
            "Accept-Language": language,
        },
    )


_BODIES = [
    (b"[" * 5000 + b"]" * 5000, "arrays nested 5,000 deep"),
    (b'{"a":' * 5000 + b"1" + b"}" * 5000, "objects nested 5,000 deep"),
    (b"[" * 500 + b"]" * 500, "arrays nested 500 deep (a 500 before)"),
    (b"not json", "no JSON"),
    (b'{"version": NaN}', "NaN"),
    (b'{"version": "\xff"}', "not UTF-8"),
    (b"", "empty"),
]


# The ids name each body (a body nested 5,000 deep is no test name).
@pytest.mark.parametrize(("body", "why"), _BODIES, ids=[why for _body, why in _BODIES])
def test_a_body_that_cant_be_read_is_a_400_in_the_readers_language(
    client: Client, game: Game, body: bytes, why: str
) -> None:
    before = game_token_now(game_id=game.pk)
    for language in ("en", "nl"):
        response = _send(client, game, body, language=language)
        assert response.status_code == 400, (why, response.content[:200])
        answer = response.json()
        assert set(answer) >= {"code", "message"}, why
        if language == "nl" and body:
            assert "JSON" in answer["message"] and "parse error" not in answer["message"]
    assert game_token_now(game_id=game.pk) == before  # nothing written


def test_a_body_over_the_upload_limit_is_a_413(client: Client, game: Game, settings) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = _send(client, game, b'{"version": "' + b"x" * 2000 + b'"}', language="nl")
    assert response.status_code == 413
    assert response.json()["code"] == "body_too_large"
    assert "1000" in response.json()["message"]


def test_the_schema_is_english_whatever_the_reader_asks(client: Client, db: None) -> None:
    english = client.get(API + "schema/?format=json", headers={"Accept-Language": "en"})
    dutch = client.get(API + "schema/?format=json", headers={"Accept-Language": "nl"})
    assert english.status_code == dutch.status_code == 200
    assert english.content == dutch.content
    assert '"1 (1)"' not in english.content.decode()


@pytest.mark.parametrize(
    ("language", "words"), [("en", "Send `version`"), ("nl", "Stuur `version`")]
)
def test_a_missing_version_is_said_in_the_apis_words_not_the_pages(
    client: Client, game: Game, language: str, words: str
) -> None:
    response = _send(client, game, b"{}", language=language)
    assert response.status_code == 400
    answer = response.json()
    assert answer["code"] == "seen_missing"
    assert answer["message"].startswith(words) and answer["place"] == {"field": "version"}
    assert "pagina" not in answer["message"] and "page" not in answer["message"]
