"""Club matches: lineups and movement, forfeits, deductions, squads, confirmation (issue 3)."""

from __future__ import annotations

import datetime
import importlib
from collections.abc import Sequence

import pytest
from django.apps import apps as django_apps
from django.urls import reverse

from scoring.models import Game, Standing
from scoring.rules import RuleViolation
from scoring.selectors.matches import match_movement
from scoring.services.confirmations import game_confirm
from scoring.services.games import game_totals_enter
from scoring.services.lineups import club_match_lineup_set
from scoring.services.matches import match_forfeit_set
from scoring.services.standings import standings_rebuild
from tests.builders import record
from tests.factories import (
    ClubEntryFactory,
    CompetitionFactory,
    GameFactory,
    MatchdayFactory,
    MatchFactory,
    PlayerFactory,
    TeamFactory,
    UserFactory,
    league_staff,
)
from tests.seen import deductions_token, game_token_now, match_token_now, round_seen
from tournaments.models import Competition, Entry, Match, Squad, Team
from tournaments.services.deductions import deduction_add
from tournaments.services.squads import squad_member_add, squad_member_remove

pytestmark = pytest.mark.django_db


def koppels(entry: Entry, count: int) -> list[Team]:
    return [
        TeamFactory.create(
            player_1=PlayerFactory.create(club=entry.club),
            player_2=PlayerFactory.create(club=entry.club),
        )
        for _ in range(count)
    ]


def club_match(**options: object) -> tuple[Match, list[Team], list[Team]]:
    defaults: dict[str, object] = {
        "kind": "clubs",
        "koppels_per_side": 6,
        "min_koppels": 5,
        "sittings": 4,
    }
    competition = CompetitionFactory.create(**(defaults | options))
    home = ClubEntryFactory.create(competition=competition)
    away = ClubEntryFactory.create(competition=competition)
    match = MatchFactory.create(
        matchday=MatchdayFactory.create(competition=competition), home=home, away=away
    )
    size = competition.koppels_per_side
    return match, koppels(home, size), koppels(away, size)


def ids(teams: Sequence[Team | None]) -> list[int | None]:
    return [team.pk if team else None for team in teams]


@pytest.mark.parametrize(("size", "sittings"), [(4, 4), (5, 5), (6, 4), (6, 6)])
def test_movement_each_home_koppel_meets_different_away_koppels(size, sittings):
    match, home, away = club_match(koppels_per_side=size, min_koppels=size, sittings=sittings)
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids(home),
        away_teams=ids(away),
    )

    games = list(Game.objects.filter(match=match))
    assert len(games) == size * sittings
    for team in home:
        opponents = [g.team_b_id for g in games if g.team_a_id == team.pk]
        assert len(opponents) == len(set(opponents)) == sittings
    for sitting in range(1, sittings + 1):
        tables = [g.table for g in games if g.sitting == sitting]
        assert sorted(tables) == list(range(1, size + 1))
    match.refresh_from_db()
    assert match.forfeit == ""


def test_a_club_may_field_one_koppel_fewer_down_to_the_minimum():
    match, home, away = club_match()
    away_five: list[Team | None] = [*away[:5], None]
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids(home),
        away_teams=ids(away_five),
    )
    match.refresh_from_db()
    assert match.forfeit == ""
    assert Game.objects.filter(match=match).count() == 5 * 4


def test_below_the_minimum_the_match_is_forfeited_and_scored_so():
    match, home, away = club_match(forfeit_score_for=20, forfeit_score_against=0)
    short: list[Team | None] = [*away[:4], None, None]
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids(home),
        away_teams=ids(short),
    )
    match.refresh_from_db()
    assert (match.forfeit, match.forfeit_reason) == ("away", "fewer than 5 koppels (away 4)")
    assert match.forfeit_cause == Match.ForfeitCause.LINEUP

    standings_rebuild(competition_id=match.matchday.competition_id)
    home_row = Standing.objects.get(entry=match.home)
    assert (home_row.won, home_row.points_for, home_row.points_against) == (1, 20, 0)


def test_a_corrected_lineup_lifts_the_lineup_forfeit():
    match, home, away = club_match()
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids(home),
        away_teams=ids([*away[:4], None, None]),
    )
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids(home),
        away_teams=ids(away),
    )
    match.refresh_from_db()
    assert (match.forfeit, match.forfeit_reason) == ("", "")
    assert match.forfeit_cause == Match.ForfeitCause.DIRECTOR


def lineup_set(match: Match, home: Sequence[Team | None], away: Sequence[Team | None]) -> Match:
    saved = club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids(home),
        away_teams=ids(away),
    )
    saved.refresh_from_db()
    return saved


def forfeit_set(match: Match, side: str, reason: str) -> Match:
    return match_forfeit_set(
        match_id=match.pk, seen=match_token_now(match_id=match.pk), side=side, reason=reason
    )


@pytest.mark.parametrize("reason", ["did not turn up", "lineup: only three came"])
def test_a_full_lineup_keeps_the_directors_forfeit(reason):
    """Whatever its words: the director's forfeit is the director's to lift."""
    match, home, away = club_match()
    forfeit_set(match, "away", reason)
    saved = lineup_set(match, home, away)
    assert (saved.forfeit, saved.forfeit_reason, saved.forfeit_cause) == (
        "away",
        reason,
        Match.ForfeitCause.DIRECTOR,
    )


def test_the_lineups_forfeit_sent_back_unchanged_stays_the_lineups():
    match, home, away = club_match()
    short = lineup_set(match, home, [*away[:4], None, None])
    forfeit_set(match, short.forfeit, short.forfeit_reason)  # the forfeit form, as shown
    match.refresh_from_db()
    assert match.forfeit_cause == Match.ForfeitCause.LINEUP
    assert lineup_set(match, home, away).forfeit == ""


def test_the_lineups_forfeit_reworded_by_the_director_becomes_the_directors():
    match, home, away = club_match()
    lineup_set(match, home, [*away[:4], None, None])
    forfeit_set(match, "away", "four koppels came, and too late")
    saved = lineup_set(match, home, away)
    assert (saved.forfeit, saved.forfeit_cause) == ("away", Match.ForfeitCause.DIRECTOR)


def test_the_migration_turns_the_lineup_prefix_into_the_forfeit_cause_and_back():
    migration = importlib.import_module("tournaments.migrations.0007_match_forfeit_cause")
    match, _home, _away = club_match()
    directors = MatchFactory.create(matchday=match.matchday)
    Match.objects.filter(pk=match.pk).update(
        forfeit="away", forfeit_reason="lineup: fewer than 5 koppels (away 4)"
    )
    Match.objects.filter(pk=directors.pk).update(forfeit="home", forfeit_reason="no show")

    migration.forfeit_cause_from_prefix(django_apps, None)
    rows = Match.objects.filter(pk__in=[match.pk, directors.pk]).order_by("pk")
    assert list(rows.values_list("forfeit_reason", "forfeit_cause")) == [
        ("fewer than 5 koppels (away 4)", "lineup"),
        ("no show", "director"),
    ]

    migration.forfeit_prefix_from_cause(django_apps, None)
    assert list(rows.values_list("forfeit_reason", flat=True)) == [
        "lineup: fewer than 5 koppels (away 4)",
        "no show",
    ]


def test_a_late_koppel_sits_out_until_its_sitting():
    match, home, away = club_match(late_koppel_until_sitting=2)
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids(home),
        away_teams=ids(away),
        late={away[5].pk: 2},
    )
    first_sitting = Game.objects.filter(match=match, sitting=1)
    assert away[5].pk not in first_sitting.values_list("team_b_id", flat=True)
    assert Game.objects.filter(match=match, team_b=away[5]).count() == 3


@pytest.mark.parametrize(
    ("late", "until", "code"),
    [(3, 2, "late_too_late"), (2, None, "late_not_allowed")],
)
def test_late_koppels_only_as_the_competition_allows(late, until, code):
    match, home, away = club_match(late_koppel_until_sitting=until)
    with pytest.raises(RuleViolation) as caught:
        club_match_lineup_set(
            match_id=match.pk,
            seen=match_token_now(match_id=match.pk),
            home_teams=ids(home),
            away_teams=ids(away),
            late={away[0].pk: late},
        )
    assert caught.value.code == code


def test_a_koppel_of_another_club_is_refused():
    match, home, away = club_match()
    with pytest.raises(RuleViolation) as caught:
        club_match_lineup_set(
            match_id=match.pk,
            seen=match_token_now(match_id=match.pk),
            home_teams=ids(away),
            away_teams=ids(home),
        )
    assert caught.value.code == "koppel_not_of_club"
    assert not Game.objects.filter(match=match).exists()


def test_the_lineup_cannot_change_once_games_have_results():
    match, home, away = club_match()
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids(home),
        away_teams=ids(away),
    )
    game = Game.objects.filter(match=match).first()
    assert game is not None
    record(game, result="kap", side="a")
    with pytest.raises(RuleViolation) as caught:
        club_match_lineup_set(
            match_id=match.pk,
            seen=match_token_now(match_id=match.pk),
            home_teams=ids(home),
            away_teams=ids(away),
        )
    assert caught.value.code == "match_has_results"


def test_a_forfeit_beats_the_score_and_is_shown_with_its_reason():
    game = GameFactory.create()
    game_totals_enter(game_id=game.pk, seen=game_token_now(game_id=game.pk), total_a=20, total_b=4)
    match_forfeit_set(
        match_id=game.match_id,
        seen=match_token_now(match_id=game.match_id),
        side="home",
        reason="Played an unregistered koppel",
    )
    competition = game.match.matchday.competition
    standings_rebuild(competition_id=competition.pk)
    assert Standing.objects.get(entry=game.match.home).lost == 1
    assert Standing.objects.get(entry=game.match.away).won == 1

    with pytest.raises(RuleViolation) as caught:
        match_forfeit_set(
            match_id=game.match_id,
            seen=match_token_now(match_id=game.match_id),
            side="away",
            reason="  ",
        )
    assert caught.value.code == "forfeit_reason_missing"


def test_a_deduction_takes_points_and_keeps_its_reason():
    game = GameFactory.create()
    game_totals_enter(game_id=game.pk, seen=game_token_now(game_id=game.pk), total_a=20, total_b=4)
    competition = game.match.matchday.competition
    deduction_add(
        competition_id=competition.pk,
        seen=deductions_token(competition_id=competition.pk),
        entry_id=game.match.home_id,
        points=3,
        reason="Late",
    )
    standings_rebuild(competition_id=competition.pk)
    row = Standing.objects.get(entry=game.match.home)
    assert (row.points, row.deducted) == (-1, 3)
    with pytest.raises(RuleViolation) as caught:
        deduction_add(
            competition_id=competition.pk,
            seen=deductions_token(competition_id=competition.pk),
            entry_id=game.match.home_id,
            points=0,
            reason="x",
        )
    assert caught.value.code == "deduction_points_invalid"


def squad_for(entry: Entry, teams: list[Team], season: str) -> Squad:
    assert entry.club is not None
    squad = Squad.objects.create(club=entry.club, season=season)
    for team in teams:
        for player in (team.player_1, team.player_2):
            squad_member_add(squad_id=squad.pk, player_id=player.pk)
    return squad


def test_squads_lock_and_keep_a_player_to_one_club_a_season():
    match, home, away = club_match(season="2026-2027")
    squad = squad_for(match.home, home, "2026-2027")
    assert match.away.club is not None
    other = Squad.objects.create(club=match.away.club, season="2026-2027")
    mover = home[0].player_1
    with pytest.raises(RuleViolation) as caught:
        squad_member_add(squad_id=other.pk, player_id=mover.pk)
    assert caught.value.code == "player_on_other_squad"

    next_season = Squad.objects.create(club=match.away.club, season="2027-2028")
    squad_member_add(squad_id=next_season.pk, player_id=mover.pk)  # a transfer between seasons

    squad.locked_on = datetime.date(2026, 10, 1)
    squad.save()
    with pytest.raises(RuleViolation) as caught:
        squad_member_remove(squad_id=squad.pk, player_id=mover.pk, today=datetime.date(2026, 10, 1))
    assert caught.value.code == "squad_locked"
    squad_member_remove(squad_id=squad.pk, player_id=mover.pk, today=datetime.date(2026, 9, 30))


def play_all(match: Match, *, home_total: int, away_total: int) -> None:
    for game in Game.objects.filter(match=match):
        game_totals_enter(
            game_id=game.pk,
            seen=game_token_now(game_id=game.pk),
            total_a=home_total,
            total_b=away_total,
        )


@pytest.mark.parametrize(
    ("home_total", "away_total", "kind"),
    [(20, 10, "forfeit"), (10, 20, "deduction")],
    ids=["would-win-so-forfeits", "lost-anyway-so-deduction"],
)
def test_an_ineligible_player_forfeits_or_costs_points(home_total, away_total, kind):
    match, home, away = club_match(
        season="2026-2027",
        ineligible_deduction=3,
        koppels_per_side=4,
        min_koppels=4,
        sittings=1,
    )
    squad_for(match.home, home[1:], "2026-2027")  # home[0] is not on the squad
    squad_for(match.away, away, "2026-2027")
    # The lineup service refuses such a koppel once squads are required; data entered
    # before that (or imported, or reported) is still judged when the standings are made.
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids(home),
        away_teams=ids(away),
    )
    competition = match.matchday.competition
    Competition.objects.filter(pk=competition.pk).update(squads_required=True)
    competition.refresh_from_db()
    play_all(match, home_total=home_total, away_total=away_total)
    standings_rebuild(competition_id=competition.pk)

    home_row = Standing.objects.get(entry=match.home)
    assert home_row.lost == 1
    if kind == "forfeit":
        assert home_row.deducted == 0
    else:
        assert (home_row.deducted, home_row.points) == (3, -3)


def test_unconfirmed_games_do_not_count_until_confirmed():
    competition = CompetitionFactory.create(confirmation_required=True)
    game = GameFactory.create(competition=competition)
    game_totals_enter(game_id=game.pk, seen=game_token_now(game_id=game.pk), total_a=20, total_b=4)
    standings_rebuild(competition_id=competition.pk)
    assert Standing.objects.get(entry=game.match.home).played == 0

    game_confirm(game_id=game.pk, seen=game_token_now(game_id=game.pk), user=UserFactory.create())
    standings_rebuild(competition_id=competition.pk)
    assert Standing.objects.get(entry=game.match.home).played == 1


def test_a_correction_after_confirmation_needs_a_new_confirmation():
    competition = CompetitionFactory.create(confirmation_required=True)
    game = GameFactory.create(competition=competition)
    for _ in range(4):
        record(game, result="kap", side="a")
    game_confirm(game_id=game.pk, seen=game_token_now(game_id=game.pk), user=None)
    from scoring.services.rounds import round_correct

    last = game.rounds.order_by("-number").first()
    assert last is not None
    round_correct(round_id=last.pk, seen=round_seen(last.pk), result="baunie", side="a")
    game.refresh_from_db()
    assert game.confirmed_at is None


def test_an_open_game_cannot_be_confirmed():
    game = GameFactory.create(competition=CompetitionFactory.create(kind=Competition.Kind.PAIRS))
    with pytest.raises(RuleViolation) as caught:
        game_confirm(game_id=game.pk, seen=game_token_now(game_id=game.pk), user=None)
    assert caught.value.code == "game_not_over"


def test_a_forfeited_match_keeps_its_played_games():
    match, home, away = club_match()
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids(home),
        away_teams=ids(away),
    )
    game = Game.objects.filter(match=match).first()
    assert game is not None
    record(game, result="kap", side="a")
    match_forfeit_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        side="away",
        reason="Ineligible koppel",
    )
    with pytest.raises(RuleViolation) as caught:
        club_match_lineup_set(
            match_id=match.pk,
            seen=match_token_now(match_id=match.pk),
            home_teams=ids(home),
            away_teams=ids(away),
        )
    assert caught.value.code == "match_has_results"
    assert game.rounds.count() == 1


# ---------------------------------------------------------------- second tester's findings


def test_a_koppel_not_on_the_squad_is_refused_at_lineup_time():
    match, home, away = club_match(
        season="2026-2027", squads_required=True, koppels_per_side=2, min_koppels=2, sittings=2
    )
    squad_for(match.home, home[1:], "2026-2027")  # home[0] is not on the squad
    squad_for(match.away, away, "2026-2027")
    with pytest.raises(RuleViolation) as caught:
        club_match_lineup_set(
            match_id=match.pk,
            seen=match_token_now(match_id=match.pk),
            home_teams=ids(home),
            away_teams=ids(away),
        )
    assert caught.value.code == "koppel_not_on_squad"
    assert caught.value.params["koppel"] == str(home[0])
    assert home[0].player_1.name in caught.value.params["players"]
    assert caught.value.params["club"] == str(match.home)
    assert not Game.objects.filter(match=match).exists()

    # A squad of another season does not count either.
    squad_for(match.home, home[:1], "2025-2026")
    with pytest.raises(RuleViolation):
        club_match_lineup_set(
            match_id=match.pk,
            seen=match_token_now(match_id=match.pk),
            home_teams=ids(home),
            away_teams=ids(away),
        )


def test_the_movement_runs_over_the_koppels_actually_fielded():
    # The tester's case: 3 places a side, C1, C2 against A1, A5 with 2 sittings. Sitting 2
    # had one game and two present koppels idle; now each sitting has two games.
    match, home, away = club_match(koppels_per_side=3, min_koppels=2, sittings=2)
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids([home[0], home[1], None]),
        away_teams=ids([away[0], None, away[2]]),
    )
    games = list(Game.objects.filter(match=match).order_by("sitting", "table"))
    assert [(g.sitting, g.table, g.team_a_id, g.team_b_id) for g in games] == [
        (1, 1, home[0].pk, away[0].pk),
        (1, 2, home[1].pk, away[2].pk),
        (2, 1, home[0].pk, away[2].pk),
        (2, 2, home[1].pk, away[0].pk),
    ]
    match.refresh_from_db()
    assert match.lineup == {
        "home": [home[0].pk, home[1].pk, None],
        "away": [away[0].pk, away[2].pk, None],
        "late": {},
    }


def test_sittings_are_capped_at_the_koppels_a_side():
    match, home, away = club_match(koppels_per_side=4, min_koppels=2, sittings=4)
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids([home[0], None, home[1], None]),
        away_teams=ids([None, away[0], away[1], None]),
    )
    games = list(Game.objects.filter(match=match))
    assert {g.sitting for g in games} == {1, 2}
    assert len(games) == 4
    for team in home[:2]:
        opponents = [g.team_b_id for g in games if g.team_a_id == team.pk]
        assert sorted(opponents) == sorted([away[0].pk, away[1].pk])
    movement = match_movement(match=Match.objects.get(pk=match.pk))
    assert movement is not None
    assert (movement.tables, movement.sittings, movement.planned, movement.capped) == (
        2,
        2,
        4,
        True,
    )


def test_the_koppel_facing_an_empty_place_sits_out():
    match, home, away = club_match()  # 6 places, at least 5, 4 sittings
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids(home),
        away_teams=ids([*away[:5], None]),
    )
    movement = match_movement(match=Match.objects.get(pk=match.pk))
    assert movement is not None
    assert not movement.capped
    idle = {number: [team.pk for team in teams] for number, teams in movement.sits_out.items()}
    # Away place 6 is empty: home place 6 faces it in sitting 1, home 5 in sitting 2, ...
    assert idle == {1: [home[5].pk], 2: [home[4].pk], 3: [home[3].pk], 4: [home[2].pk]}
    for number, (koppel,) in idle.items():
        assert not Game.objects.filter(match=match, sitting=number, team_a_id=koppel).exists()


def test_a_late_koppel_leaves_its_opponent_sitting_out_until_it_comes():
    match, home, away = club_match(late_koppel_until_sitting=2)
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids(home),
        away_teams=ids(away),
        late={away[5].pk: 2},
    )
    match.refresh_from_db()
    assert match.lineup["late"] == {str(away[5].pk): 2}
    movement = match_movement(match=match)
    assert movement is not None
    assert {n: [t.pk for t in teams] for n, teams in movement.sits_out.items()} == {1: [home[5].pk]}


def test_a_side_fielding_nobody_forfeits_without_games():
    match, home, away = club_match()
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids(home),
        away_teams=[None] * 6,
    )
    match.refresh_from_db()
    assert match.forfeit == "away"
    assert not Game.objects.filter(match=match).exists()


def test_a_lineup_with_nobody_on_either_side_is_refused_and_nothing_is_saved():
    # "— nobody —" everywhere is the form's default: one click must not forfeit both clubs.
    match, _home, _away = club_match()
    with pytest.raises(RuleViolation) as caught:
        club_match_lineup_set(
            match_id=match.pk,
            seen=match_token_now(match_id=match.pk),
            home_teams=[None] * 6,
            away_teams=[None] * 6,
        )
    assert caught.value.code == "lineup_empty"
    match.refresh_from_db()
    assert (match.forfeit, match.lineup) == ("", {})
    assert not Game.objects.filter(match=match).exists()


def test_the_match_page_refuses_an_empty_lineup_with_a_422_and_saves_nothing(client):
    match, _home, _away = club_match()
    client.force_login(league_staff())
    data: dict[str, object] = {
        "action": "lineup",
        "lineup-seen": match_token_now(match_id=match.pk),
    }
    for side in ("home", "away"):
        for place in range(1, 7):
            data[f"lineup-{side}_{place}"] = ""
    url = reverse(
        "match_manage",
        kwargs={"slug": match.matchday.competition.slug, "match_id": match.pk},
    )

    response = client.post(url, data)

    assert response.status_code == 422
    assert "Choose the koppels of at least one side, or set a forfeit on the form below" in (
        response.content.decode()
    )
    match.refresh_from_db()
    assert (match.forfeit, match.lineup) == ("", {})
    assert not Game.objects.filter(match=match).exists()
