"""No endpoint accepts what the form refuses (issue 21).

The pages' refusal tables (the score sheet's `ROUND_FORM_REFUSED`, the table queue's
missing key and token) and the fuzz's hostile values (tests/test_fuzz_forms.py `SPECIAL`,
`NUMBERS`), put in every field of every write: whenever the page's own form refuses the
value, the API refuses it too (400, or 409/422 from the service), with the form's code,
and nothing is written.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django import forms
from django.core.cache import cache

from scoring.forms.match import ForfeitForm
from scoring.forms.schedule import SwissPairForm
from scoring.forms.sheet import GameTotalsForm, MatchTotalsForm, QueuedRoundForm, SeatsForm
from scoring.forms.table import TableDisputeForm, TableRoundForm
from scoring.models import Game
from scoring.services.games import game_seats_token
from scoring.services.table import table_round_record
from tests.api.writes_helpers import bearer, director_token, link_of, post, table
from tests.builders import pairs_competition
from tests.factories import CompetitionFactory, GameFactory, MatchdayFactory, MatchFactory
from tests.scoring.views.test_public_and_sheet import ROUND_FORM_REFUSED
from tests.seen import game_token_now, match_token_now
from tests.test_fuzz_forms import NUMBERS, SPECIAL, row_counts

pytestmark = pytest.mark.django_db

# JSON's own values besides strings: what a program, not a browser, sends.
JSON_VALUES: list[Any] = [None, True, -1, 0, 14, 2**40, 10**30, 1.5, [], {}, [1], {"a": 1}]
HOSTILE: list[Any] = [*SPECIAL, *NUMBERS[:-2], "", " ", "x" * 600, *JSON_VALUES]


def as_posted(value: Any) -> str:
    """A JSON value as a page's form gets it posted: text, a lone surrogate decoded as
    U+FFFD (Django decodes a browser's post so)."""
    text = "" if value is None else str(value)
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


@dataclass
class Door:
    """One write: its path, its auth, a valid body, and the page's form as it binds it."""

    path: str
    auth: str
    body: dict[str, Any]
    form: Callable[[dict[str, str]], forms.Form]
    renamed: dict[str, str]

    def form_for(self, body: dict[str, Any]) -> forms.Form:
        return self.form(
            {self.renamed.get(name, name): as_posted(value) for name, value in body.items()}
        )


def doors() -> dict[str, Door]:
    """Every write whose input has fields, with a game, match or competition to write."""
    game = GameFactory.create(competition=CompetitionFactory.create(confirmation_required=True))
    competition = game.match.matchday.competition
    director = bearer(director_token(competition))
    seen = game_token_now(game_id=game.pk)
    key = str(uuid.uuid4())
    played = GameFactory.create(competition=competition)
    for number in range(1, 5):
        table_round_record(
            token=link_of(played).token, expected_number=number, result="kap", side="a"
        )
    match = MatchFactory.create(matchday=MatchdayFactory.create(competition=competition))
    unseated = GameFactory.create(
        competition=competition, seat_1=None, seat_2=None, seat_3=None, seat_4=None
    )
    swiss = pairs_competition(4, schedule_format="swiss")
    swiss.directors.set(competition.directors.all())
    renamed = {"version": "seen"}
    round_body = {
        "number": 1,
        "result": "kap",
        "side": "a",
        "caller": game.seat_1_id,
        "tricks_a": 7,
        "tricks_b": 0,
        "version": seen,
    }
    return {
        "round by a director": Door(
            f"games/{game.pk}/rounds/record/",
            director,
            round_body,
            lambda data: QueuedRoundForm({**data, "key": key}, game=game),
            renamed,
        ),
        "round at the table": Door(
            f"games/{game.pk}/rounds/record/",
            table(link_of(game)),
            {k: v for k, v in round_body.items() if not k.startswith("tricks")},
            lambda data: TableRoundForm({**data, "key": key}, game=game, key_required=True),
            renamed,
        ),
        "game totals": Door(
            f"games/{game.pk}/totals/",
            director,
            {"total_a": 20, "total_b": 4, "version": seen},
            lambda data: GameTotalsForm(data, game=game),
            renamed,
        ),
        "seats": Door(
            f"games/{unseated.pk}/seats/",
            director,
            {
                "seat_1": unseated.team_a.player_1_id,
                "seat_2": unseated.team_b.player_1_id,
                "first_caller": unseated.team_a.player_1_id,
                "version": game_seats_token(unseated, []),
            },
            lambda data: SeatsForm(data, game=unseated),
            renamed,
        ),
        "dispute": Door(
            f"games/{played.pk}/dispute/",
            table(link_of(played, "b")),
            {"comment": "Round 4 was ours", "version": game_token_now(game_id=played.pk)},
            TableDisputeForm,
            renamed,
        ),
        "match totals": Door(
            f"matches/{match.pk}/totals/",
            director,
            {"total_home": 20, "total_away": 12, "version": match_token_now(match_id=match.pk)},
            lambda data: MatchTotalsForm(data, match=match),
            renamed,
        ),
        "forfeit": Door(
            f"matches/{match.pk}/forfeit/",
            director,
            {"forfeit": "home", "reason": "no show", "version": match_token_now(match_id=match.pk)},
            ForfeitForm,
            {"version": "seen", "forfeit": "side"},
        ),
        "pairing": Door(
            f"competitions/{swiss.slug}/matchdays/pair/",
            director,
            {"number": 1, "date": "2026-10-02", "override_reason": "late start"},
            SwissPairForm,
            {},
        ),
    }


def refusal_checked(client: Any, door: Door, body: dict[str, Any]) -> int:
    """Post `body` through `door` when its page's form refuses it: the API refuses it with
    the form's code and writes nothing. Returns 1 for a refusal checked, 0 otherwise."""
    form = door.form_for(body)
    if form.is_valid():
        return 0
    code = next(
        (error.code or "invalid") for errors in form.errors.as_data().values() for error in errors
    )
    before = row_counts()
    response = post(client, door.path, body, auth=door.auth)
    assert response.status_code in (400, 409, 422), (door.path, body, response.content)
    assert response.json()["code"] == code, (door.path, body, response.json(), code)
    assert row_counts() == before, (door.path, body)
    return 1


# `heavy`: every hostile value in every field of every write (about 50 s on one worker);
# `dev.py test --fast` keeps the form refusal tables above, CI runs this too.
@pytest.mark.heavy
def test_every_value_a_form_refuses_in_any_field_the_api_refuses_too(client):
    checked = 0
    for name, door in doors().items():
        for field in door.body:
            for value in HOSTILE:
                cache.clear()  # hundreds of requests: under the throttle's rate
                checked += refusal_checked(client, door, {**door.body, field: value})
            # And the field left out.
            left_out = {key: value for key, value in door.body.items() if key != field}
            checked += refusal_checked(client, door, left_out)
        # The valid body stays valid: the checks above were about the hostile value.
        assert door.form_for(door.body).is_valid(), (name, door.form_for(door.body).errors)
    assert checked > 300  # the sweep reached the forms' refusals, not only valid values


@pytest.mark.parametrize("data", ROUND_FORM_REFUSED)
def test_the_score_sheets_refusal_table_is_refused_by_the_api(client, data):
    """The score sheet's own table (its page answers 422): through the API the same input,
    with the round number and version the sheet's form carries, is refused with the form's
    code, nothing stored."""
    game = GameFactory.create()
    token = director_token(game.match.matchday.competition)
    body = {"number": 1, "version": game_token_now(game_id=game.pk), **data}
    form = QueuedRoundForm(
        {"key": str(uuid.uuid4()), **{k: as_posted(v) for k, v in body.items()}}
        | {"seen": body["version"]},
        game=game,
    )
    assert not form.is_valid()
    code = next(e.code or "invalid" for errors in form.errors.as_data().values() for e in errors)
    response = post(client, f"games/{game.pk}/rounds/record/", body, auth=bearer(token))
    assert response.status_code == 400 and response.json()["code"] == code
    assert not game.rounds.exists()


@pytest.mark.parametrize(
    ("key", "version", "status", "code"),
    [
        (None, "x", 400, "idempotency_key_missing"),
        ("not-a-uuid", "x", 400, "idempotency_key_invalid"),
        (str(uuid.UUID(int=1)), "", 409, "game_changed_meanwhile"),
    ],
    ids=["no-key", "bad-key", "empty-token"],
)
def test_the_table_queues_refusal_table_is_refused_by_the_api(client, key, version, status, code):
    """The phone's queue refuses a round without its key or token (its page answers
    `form_invalid` for the key, which the API takes from its header, and
    `game_changed_meanwhile` for an empty token, as the API does)."""
    game: Game = GameFactory.create()
    body = {"number": 1, "result": "gewone_winst", "side": "a", "version": version}
    response = post(
        client, f"games/{game.pk}/rounds/record/", body, auth=table(link_of(game)), key=key
    )
    assert response.status_code == status and response.json()["code"] == code
    assert not game.rounds.exists()
