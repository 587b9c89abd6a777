"""The database's own backstops (issue 6): whatever path writes, an entry plays once a
matchday, a pairs match has one game between its koppels, a koppel sits at one table a
sitting, and entries stay in their competition. Run on SQLite locally and PostgreSQL in CI.

The services, the admin and the importer refuse these first with a message naming the
place; these tests write around them (plain ORM calls) to prove the database holds.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, connection, connections, transaction

from scoring.models import Game
from tests.factories import (
    CompetitionFactory,
    GameFactory,
    MatchdayFactory,
    MatchFactory,
    TeamEntryFactory,
    TeamFactory,
)
from tournaments.models import Bye, Competition, Entry, Match, Matchday
from troefclub.rule_messages import integrity_message
from troefclub.writes import integrity_violation

pytestmark = pytest.mark.django_db


def refused(code: str, write: Callable[[], Any]) -> None:
    """`write` fails with the trigger's `code`, and nothing of it stays."""
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        write()
    violation = integrity_violation(caught.value)
    assert violation is not None and violation.code == code, str(caught.value)
    assert integrity_message(caught.value)  # worded for the admin and the pages


@pytest.fixture
def matchday() -> Matchday:
    return MatchdayFactory.create()


def entries(matchday: Matchday, count: int) -> list[Entry]:
    return TeamEntryFactory.create_batch(count, competition=matchday.competition)


def test_the_same_pairing_reversed_on_one_matchday_is_refused(matchday):
    """../shared/cases/c01-same-pairing-twice.json: A–B and B–A on matchday 3."""
    a, b = entries(matchday, 2)
    Match.objects.create(matchday=matchday, home=a, away=b, table=2)
    refused(
        "entry_twice_on_matchday",
        lambda: Match.objects.create(matchday=matchday, home=b, away=a, table=3),
    )
    assert Match.objects.filter(matchday=matchday).count() == 1


@pytest.mark.parametrize("side", ["home", "away"])
def test_an_entry_in_two_matches_of_a_matchday_is_refused(matchday, side):
    a, b, c = entries(matchday, 3)
    Match.objects.create(matchday=matchday, home=a, away=b)
    second = {"home": a, "away": c} if side == "home" else {"home": c, "away": a}
    refused("entry_twice_on_matchday", lambda: Match.objects.create(matchday=matchday, **second))


def test_an_entry_in_a_match_and_the_bye_of_one_matchday_is_refused(matchday):
    a, b = entries(matchday, 2)
    Match.objects.create(matchday=matchday, home=a, away=b)
    refused("entry_twice_on_matchday", lambda: Bye.objects.create(matchday=matchday, entry=a))


def test_a_match_for_an_entry_with_the_bye_is_refused(matchday):
    a, b = entries(matchday, 2)
    Bye.objects.create(matchday=matchday, entry=a)
    refused(
        "entry_twice_on_matchday",
        lambda: Match.objects.create(matchday=matchday, home=b, away=a),
    )


def test_moving_a_match_onto_a_busy_entry_is_refused(matchday):
    a, b, c, d = entries(matchday, 4)
    Match.objects.create(matchday=matchday, home=a, away=b)
    second = Match.objects.create(matchday=matchday, home=c, away=d)
    refused(
        "entry_twice_on_matchday",
        lambda: Match.objects.filter(pk=second.pk).update(away=b),
    )


def test_an_entry_of_another_competition_is_refused_in_a_match_and_a_bye(matchday):
    (a,) = entries(matchday, 1)
    stranger = TeamEntryFactory.create()  # another competition
    refused(
        "entry_other_competition",
        lambda: Match.objects.create(matchday=matchday, home=a, away=stranger),
    )
    refused(
        "entry_other_competition", lambda: Bye.objects.create(matchday=matchday, entry=stranger)
    )


def test_a_scheduled_matchday_or_entry_does_not_change_competition(matchday):
    a, b = entries(matchday, 2)
    Match.objects.create(matchday=matchday, home=a, away=b)
    other = CompetitionFactory.create()
    refused(
        "matchday_competition_fixed",
        lambda: Matchday.objects.filter(pk=matchday.pk).update(competition=other),
    )
    refused(
        "entry_scheduled_fixed",
        lambda: Entry.objects.filter(pk=a.pk).update(team=TeamFactory.create()),
    )


def test_a_second_game_of_a_pairs_match_is_refused_at_another_table():
    game = GameFactory.create()
    refused(
        "pairs_match_one_game",
        lambda: Game.objects.create(
            match=game.match, table=2, team_a=game.team_a, team_b=game.team_b
        ),
    )


def test_a_pairs_game_is_played_by_the_matchs_koppels():
    match = MatchFactory.create()
    home_team = match.home.team
    assert home_team is not None
    refused(
        "game_koppels_not_of_match",
        lambda: Game.objects.create(match=match, team_a=home_team, team_b=TeamFactory.create()),
    )


def test_a_pairs_match_with_a_game_keeps_its_entries():
    game = GameFactory.create()
    newcomer = TeamEntryFactory.create(competition=game.match.matchday.competition)
    refused(
        "game_koppels_not_of_match",
        lambda: Match.objects.filter(pk=game.match_id).update(away=newcomer),
    )


def test_a_koppel_plays_one_game_a_sitting_of_a_club_matchday():
    competition = CompetitionFactory.create(kind=Competition.Kind.CLUBS)
    matchday = MatchdayFactory.create(competition=competition)
    first = MatchFactory.create(matchday=matchday)
    second = MatchFactory.create(matchday=matchday)
    game = GameFactory.create(match=first)
    refused(
        "koppel_twice_in_sitting",
        lambda: Game.objects.create(
            match=second, table=2, team_a=game.team_a, team_b=TeamFactory.create()
        ),
    )
    # Another sitting is another game: that is how a club match moves.
    Game.objects.create(match=first, sitting=2, team_a=game.team_a, team_b=game.team_b)


def test_clashes_within_one_bulk_insert_are_refused(matchday):
    """PostgreSQL checks an insert statement's rows together (issue 20: an import's COPY is
    one statement): rows that clash only with each other are refused as single ones are."""
    a, b, c = entries(matchday, 3)
    refused(
        "entry_twice_on_matchday",
        lambda: Match.objects.bulk_create(
            [Match(matchday=matchday, home=a, away=b), Match(matchday=matchday, home=c, away=a)]
        ),
    )
    match = Match.objects.create(matchday=matchday, home=a, away=b)
    assert a.team is not None and b.team is not None
    refused(
        "pairs_match_one_game",
        lambda: Game.objects.bulk_create(
            [
                Game(match=match, table=1, team_a=a.team, team_b=b.team),
                Game(match=match, table=2, team_a=b.team, team_b=a.team),
            ]
        ),
    )
    competition = CompetitionFactory.create(kind=Competition.Kind.CLUBS)
    club_day = MatchdayFactory.create(competition=competition)
    first, second = MatchFactory.create_batch(2, matchday=club_day)
    koppel = TeamFactory.create()
    refused(
        "koppel_twice_in_sitting",
        lambda: Game.objects.bulk_create(
            [
                Game(match=first, table=1, team_a=koppel, team_b=TeamFactory.create()),
                Game(match=second, table=2, team_a=TeamFactory.create(), team_b=koppel),
            ]
        ),
    )
    assert not Game.objects.filter(match__in=[match, first, second]).exists()


def test_a_clash_stored_around_the_triggers_refuses_only_its_own_rows(matchday):
    """Only the inserted rows are checked: a clash stored before the triggers (or around
    them) doesn't refuse an insert of other entries on the same matchday."""
    from tests.triggers import triggers_dropped

    a, b, c, d, e = entries(matchday, 5)
    with triggers_dropped():
        Match.objects.create(matchday=matchday, home=a, away=b)
        Match.objects.create(matchday=matchday, home=c, away=a)
    Match.objects.create(matchday=matchday, home=d, away=e)
    refused(
        "entry_twice_on_matchday",
        lambda: Bye.objects.create(matchday=matchday, entry=a),
    )


def test_saving_a_game_or_match_without_moving_it_passes():
    game = GameFactory.create()
    game.score_a = 5
    game.save()
    game.match.total_home = None
    game.match.save()


@pytest.mark.django_db(transaction=True)
def test_two_directors_adding_clashing_matches_at_once_store_one():
    """PostgreSQL: the trigger locks the matchday row, so two transactions can't both pass
    the check without seeing each other's match. (SQLite serialises writers anyway.) The
    clash is home in one match and away in the other: no unique constraint sees that."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are what is tested; SQLite has one writer at a time")
    matchday = MatchdayFactory.create()
    a, b, c = entries(matchday, 3)
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def director(home: Entry, away: Entry) -> None:
        try:
            start.wait()
            with transaction.atomic():
                Match.objects.create(matchday=matchday, home=home, away=away)
            outcomes.append("stored")
        except IntegrityError as exc:
            violation = integrity_violation(exc)
            outcomes.append(violation.code if violation else repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=director, args=pair) for pair in ((a, b), (c, a))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["entry_twice_on_matchday", "stored"]
    assert Match.objects.filter(matchday=matchday).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_directors_seating_one_koppel_twice_at_once_store_one():
    """PostgreSQL: the games' statement trigger locks the new games' matchdays before it
    counts, so two transactions seating one koppel at two tables of a sitting can't both
    pass (issue 20, as the row trigger before it)."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are what is tested; SQLite has one writer at a time")
    competition = CompetitionFactory.create(kind=Competition.Kind.CLUBS)
    matchday = MatchdayFactory.create(competition=competition)
    first, second = MatchFactory.create_batch(2, matchday=matchday)
    koppel = TeamFactory.create()
    opponents = TeamFactory.create_batch(2)
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def director(match: Match, table: int, opponent: Any) -> None:
        try:
            start.wait()
            with transaction.atomic():
                Game.objects.create(match=match, table=table, team_a=koppel, team_b=opponent)
            outcomes.append("stored")
        except IntegrityError as exc:
            violation = integrity_violation(exc)
            outcomes.append(violation.code if violation else repr(exc))
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=director, args=args)
        for args in ((first, 1, opponents[0]), (second, 2, opponents[1]))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["koppel_twice_in_sitting", "stored"]
    assert Game.objects.filter(match__matchday=matchday).count() == 1


def test_every_trigger_is_in_the_database_after_migrating():
    """SQLite drops a table's triggers when a migration rebuilds the table (AddConstraint,
    AlterField, …): a later migration that forgets to make them again fails here."""
    from tests.triggers import MIGRATIONS

    vendor = {"postgresql": "POSTGRESQL", "sqlite": "SQLITE"}[connection.vendor]
    created = [
        sql for module in MIGRATIONS for sql in getattr(module, vendor) if "CREATE TRIGGER" in sql
    ]
    expected = {sql.split("CREATE TRIGGER", 1)[1].split()[0] for sql in created}
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        present = {row[0] for row in cursor.fetchall()}
    assert len(expected) >= 8
    assert expected <= present, expected - present
