"""`club_match_lineup_set` step by step: the refusals, the forfeit both sides make and the
movement's own refusals as the service passes them on (issue 9 split the service into
steps; these pin what no other test did). More in test_club_matches.py."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services.lineups import club_match_lineup_set
from scoring.services.matches import forfeit_check, match_forfeit_set
from scoring.services.schedule import schedule_round_robin_create
from tests.builders import club_competition, koppels_of, pairs_competition
from tests.seen import match_token_now
from tournaments.models import Competition, Match, Team

pytestmark = pytest.mark.django_db


def first_match(competition: Competition) -> Match:
    schedule_round_robin_create(competition_id=competition.pk)
    return Match.objects.filter(matchday__competition=competition).order_by("pk")[0]


def club_match(**fields: object) -> tuple[Match, list[Team], list[Team]]:
    """The first match of a two-club round robin (3 koppels a side, at least 3, 2
    sittings; `fields` change these) and each side's three koppels."""
    options = {"koppels_per_side": 3, "min_koppels": 3, **fields}
    match = first_match(club_competition(2, **options))
    return match, koppels_of(match.home), koppels_of(match.away)


def lineup_set(
    match_id: int,
    home: Sequence[Team | None],
    away: Sequence[Team | None],
    late: dict[int, int] | None = None,
) -> Match:
    return club_match_lineup_set(
        match_id=match_id,
        seen=match_token_now(match_id=match_id),
        home_teams=[team.pk if team else None for team in home],
        away_teams=[team.pk if team else None for team in away],
        late=late,
    )


def refusal(
    match_id: int,
    home: Sequence[Team | None],
    away: Sequence[Team | None],
    late: dict[int, int] | None = None,
) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        lineup_set(match_id, home, away, late)
    return caught.value


def test_an_unknown_match_is_refused():
    match, home, away = club_match()
    gone = match.pk + 1000
    with pytest.raises(RuleViolation) as caught:
        club_match_lineup_set(
            match_id=gone, seen="", home_teams=[t.pk for t in home], away_teams=[]
        )
    assert (caught.value.code, caught.value.params) == ("match_unknown", {"match": gone})


def test_a_pairs_match_has_no_lineup():
    match = first_match(pairs_competition(2, schedule_format="round_robin"))
    violation = refusal(match.pk, [], [])
    assert violation.code == "not_a_club_match"


def test_a_side_with_a_place_too_few_is_refused_naming_the_side():
    match, home, away = club_match()
    violation = refusal(match.pk, home, away[:2])
    assert (violation.code, violation.params) == ("lineup_wrong_size", {"side": "away", "size": 3})
    match.refresh_from_db()
    assert (match.lineup, match.games.count()) == ({}, 0)


def test_both_sides_short_forfeit_both_with_each_count():
    match, home, away = club_match()
    saved = lineup_set(match.pk, [home[0], None, home[1]], [None, None, away[2]])
    saved.refresh_from_db()
    assert (saved.forfeit, saved.forfeit_reason, saved.forfeit_cause) == (
        "both",
        "fewer than 3 koppels (home 2, away 1)",
        Match.ForfeitCause.LINEUP,
    )
    assert saved.lineup == {
        "home": [home[0].pk, home[1].pk, None],
        "away": [away[2].pk, None, None],
        "late": {},
    }
    # Two tables (the bigger side), two sittings; the away koppel plays one home koppel a
    # sitting, the other sits out.
    games = Game.objects.filter(match=match).order_by("sitting", "table")
    assert list(games.values_list("sitting", "table", "team_a_id", "team_b_id")) == [
        (1, 1, home[0].pk, away[2].pk),
        (2, 2, home[1].pk, away[2].pk),
    ]
    assert match.history.order_by("history_date").last().forfeit == "both"


def test_a_late_koppel_not_in_the_lineup_is_refused_by_its_id():
    match, home, away = club_match(late_koppel_until_sitting=2)
    benched = koppels_of(match.away)[2]
    violation = refusal(match.pk, home, [*away[:2], None], {benched.pk: 2})
    assert (violation.code, violation.params) == (
        "late_too_late",
        {"koppel": str(benched.pk), "sitting": 2, "until": 2},
    )


def test_a_late_sitting_beyond_the_matchs_sittings_is_refused_by_the_movement():
    # One koppel a side: one table, so one sitting; the competition allows sitting 2.
    match, home, away = club_match(late_koppel_until_sitting=2, min_koppels=1)
    violation = refusal(match.pk, [home[0], None, None], [away[0], None, None], {home[0].pk: 2})
    assert (violation.code, violation.params) == (
        "movement_late_sitting",
        {"koppel": home[0].pk, "sitting": 2, "sittings": 1},
    )
    assert not Game.objects.filter(match=match).exists()


def test_a_side_whose_koppels_all_come_late_is_refused_by_the_movement():
    match, home, away = club_match(late_koppel_until_sitting=2)
    violation = refusal(match.pk, home, away, {team.pk: 2 for team in home})
    assert (violation.code, violation.params) == (
        "movement_too_few_koppels",
        {"side": "home", "koppels": 0, "minimum": 1},
    )


@pytest.mark.parametrize(
    ("side", "reason", "stored"),
    [("home", " no show ", "no show"), ("both", "storm", "storm"), ("", "  ", "")],
)
def test_a_forfeit_is_one_of_the_engines_sides_or_none(side, reason, stored):
    assert forfeit_check(side, reason) == stored


@pytest.mark.parametrize("side", ["HOME", "none", "a"])
def test_a_forfeit_side_the_engine_does_not_know_is_refused(side):
    with pytest.raises(RuleViolation) as caught:
        forfeit_check(side, "no show")
    assert (caught.value.code, caught.value.params) == ("forfeit_side_invalid", {"side": side})


@pytest.mark.parametrize("lineup", ["short", "full"])
def test_a_directors_forfeit_survives_any_lineup(lineup):
    # Found by a tester: a short lineup overwrote the director's walk-over with the
    # lineup's, and a full lineup then lifted it — the director's decision was gone.
    match, home, away = club_match()
    match_forfeit_set(
        match_id=match.pk,
        side="away",
        reason="did not turn up",
        seen=match_token_now(match_id=match.pk),
    )
    away_koppels = away[:1] + [None, None] if lineup == "short" else away
    stored = lineup_set(match.pk, home, away_koppels)
    assert (stored.forfeit, stored.forfeit_reason, stored.forfeit_cause) == (
        "away",
        "did not turn up",
        Match.ForfeitCause.DIRECTOR,
    )
    match.refresh_from_db()
    assert (match.forfeit, match.forfeit_reason) == ("away", "did not turn up")
