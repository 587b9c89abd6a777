"""schemathesis runs the API's whole schema against a live server (issue 21, "Done when").

The schema is read from the live server's /api/v1/schema/ and EVERY operation in it is run
with positive data (as the schema describes it, the path's ids pointing at a small real
competition) and with negative data (what the schema forbids, where it forbids anything),
as a competition's director (a personal API token) or, for an operation only a table
link opens, as a table link. Checks: no 5xx (`not_a_server_error`), every answer's status
code, content type, headers and body as the schema says (`status_code_conformance`,
`content_type_conformance`, `response_headers_conformance`,
`response_schema_conformance`). An operation with nothing to negate (one free string in
its path, no query, no body) has no negative run. No list of endpoints: an operation added
to the schema is run too.

`examples_per_run` examples per operation and mode (25; fewer when the schema grows
past 12 operations, so that a run sends at most `TOTAL_EXAMPLES` = 600, about 40 s on
two cores; never fewer than 5), with a fixed Hypothesis seed: a run is reproducible. The ids
in the path are the scene's where the segment before them names a kind the scene has
(`/competitions/{slug}/…`), generated otherwise. `heavy`: left out of
`dev.py test --fast`, run in CI (on PostgreSQL there). When schemathesis, the schema or
the server is missing, the test fails; it never skips.
"""

from __future__ import annotations

from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Err
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.services import api_token_create
from scoring.models import Round
from scoring.services.table import game_links_ensure
from tests.builders import League, league_in_play
from tests.factories import UserFactory
from tournaments.models import Team

pytestmark = [pytest.mark.heavy, pytest.mark.django_db(transaction=True)]

# Examples per operation and generation mode (positive, negative), and of a whole run.
EXAMPLES = 25
MIN_EXAMPLES = 5
TOTAL_EXAMPLES = 600


def examples_per_run(operations: int) -> int:
    """Examples per operation and mode for a schema of `operations` operations."""
    return max(MIN_EXAMPLES, min(EXAMPLES, TOTAL_EXAMPLES // (2 * operations)))


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


def _scene() -> tuple[League, dict[str, Any], dict[str, str]]:
    """A pairs league in play (four koppels and a bye), its director's token and a table
    link of tonight's first game. Returns the league, the real value of a path parameter by
    the path segment before it, and the Authorization header by security scheme."""
    league = league_in_play(4)
    director = UserFactory.create(username="wedstrijdleider")
    league.competition.directors.add(director)
    _token, plain = api_token_create(user=director, name="schemathesis")
    game = league.games[1]
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    team = Team.objects.get(pk=game.team_a_id)
    player = team.player_1
    real: dict[str, Any] = {
        "competitions": league.competition.slug,
        "matchdays": league.tonight.number,
        "matches": game.match_id,
        "games": game.pk,
        "rounds": Round.objects.filter(game=game).values_list("pk", flat=True).first(),
        "koppels": team.key,
        "teams": team.key,
        "players": player.key,
        "clubs": player.club.key if player.club is not None else None,
        "seasons": league.competition.season,
    }
    headers = {"apiToken": f"Bearer {plain}", "tableLink": f"Table {link.token}"}
    return league, real, headers


def _real_path_parameters(path: str, real: dict[str, Any]) -> dict[str, Any]:
    """The scene's value of each path parameter whose previous segment it knows."""
    segments = path.strip("/").split("/")
    found = {}
    for before, segment in zip(segments, segments[1:], strict=False):
        if segment.startswith("{") and segment.endswith("}") and real.get(before) is not None:
            found[segment[1:-1]] = real[before]
    return found


def _authorization(operation: Any, headers: dict[str, str]) -> str:
    """The director's token, unless only a table link opens the operation."""
    schemes = {name for need in operation.definition.raw.get("security", []) for name in need}
    if schemes and "apiToken" not in schemes and "tableLink" in schemes:
        return headers["tableLink"]
    return headers["apiToken"]


def _run(
    operation: Any,
    mode: GenerationMode,
    *,
    examples: int,
    session: requests.Session,
    base_url: str,
    real: dict[str, Any],
    headers: dict[str, str],
) -> int:
    """Run `operation` with `examples` examples of `mode`; returns how many were sent.
    Raises the first failure schemathesis found."""
    fixed = _real_path_parameters(operation.path, real) if mode is GenerationMode.POSITIVE else {}
    strategy = operation.as_strategy(generation_mode=mode, path_parameters=fixed or None)
    sent = 0

    @given(case=strategy)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],  # no shrinking: the first failure is shown
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        nonlocal sent
        case.headers = {**(case.headers or {}), "Authorization": _authorization(operation, headers)}
        sent += 1
        case.call_and_validate(base_url=base_url, session=session, checks=CHECKS)

    run()
    return sent


def test_every_operation_of_the_schema_with_positive_and_negative_data(live_server, settings):
    # The run sends hundreds of requests from one address with one token: the throttles'
    # 429 (documented, tested in test_throttling.py) would answer most of them.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"token": "100000/min", "address": "100000/min"},
    }
    _league, real, headers = _scene()
    schema = schemathesis.openapi.from_url(live_server.url + "/api/v1/schema/")
    operations = []
    for result in schema.get_all_operations():
        if isinstance(result, Err):
            pytest.fail(f"an operation schemathesis can't read: {result.err()}")
        operations.append(result.ok())
    assert operations, "the schema has no operation"

    examples = examples_per_run(len(operations))
    # One connection, not one a request; closed at the end, so that the live server's
    # thread serving it lets go of its database connection.
    with requests.Session() as session:
        failures: list[str] = []
        sent: dict[str, int] = {}
        for operation in operations:
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                label = f"{operation.label} [{mode.value}]"
                try:
                    sent[label] = _run(
                        operation,
                        mode,
                        examples=examples,
                        session=session,
                        base_url=live_server.url,
                        real=real,
                        headers=headers,
                    )
                except Unsatisfiable:
                    # Nothing of it can be negated (a path of one free string, no query, no
                    # body): schemathesis finds no negative data. Not so for positive data.
                    if mode is GenerationMode.POSITIVE:
                        raise
                    sent[label] = 0
                except Exception as exc:  # noqa: BLE001 - every operation's failure, not the first
                    failures.append(f"{label}:\n{exc}")

    assert not failures, f"{len(failures)} operation runs failed:\n\n" + "\n\n".join(failures)
    positive = [label for label in sent if label.endswith("[positive]")]
    assert len(positive) == len(operations)
    assert all(sent[label] > 0 for label in positive), sent
