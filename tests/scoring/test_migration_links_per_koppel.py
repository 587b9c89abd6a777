"""Migrations 0007-0009 (issue 18): one table link per koppel. Every existing token keeps working,
as the link of the koppel that entered with it (koppel A when nobody did yet), and the
other koppel of each game with an active link gets its own."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.models import GameLink
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("scoring", "0006_help_texts")]
AFTER = [("scoring", "0009_table_links_per_koppel_done")]


def migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture(autouse=True)
def migrated_to_the_end_again() -> Any:
    """Whatever the test leaves, the database ends at the newest migrations again: the
    tests after this one on the same database (the Celery worker's among them) read
    columns added later than AFTER (scoring 0012's `voided_at`: a CI run's worker tests
    failed on it)."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.heavy
def test_existing_links_keep_their_tokens_and_the_other_koppel_gets_one():
    entered, fresh, revoked_only = (GameFactory.create() for _ in range(3))
    old = migrate(BEFORE)
    try:
        Link = old.get_model("scoring", "GameLink")
        Round = old.get_model("scoring", "Round")
        by_b = Link.objects.create(game_id=entered.pk, token="entered-by-b", entering_side="b")
        Round.objects.create(game_id=entered.pk, number=1, result="kap", side="b", link=by_b)
        Link.objects.create(game_id=fresh.pk, token="nobody-yet", entering_side="")
        Link.objects.create(
            game_id=revoked_only.pk,
            token="revoked",
            entering_side="",
            revoked_at=datetime(2026, 10, 2, tzinfo=UTC),
        )
    finally:
        migrate(AFTER)

    links = {link.token: link for link in GameLink.objects.all()}
    assert links["entered-by-b"].side == "b" and links["entered-by-b"].revoked_at is None
    assert links["nobody-yet"].side == "a"
    assert links["revoked"].side == "a" and links["revoked"].revoked_at is not None
    for game, kept in ((entered, "b"), (fresh, "a")):
        active = GameLink.objects.filter(game=game, revoked_at__isnull=True)
        assert sorted(link.side for link in active) == ["a", "b"]
        made = active.exclude(side=kept).get()
        assert len(made.token) >= 32 and made.token not in {"entered-by-b", "nobody-yet"}
    assert not GameLink.objects.filter(game=revoked_only, revoked_at__isnull=True).exists()
