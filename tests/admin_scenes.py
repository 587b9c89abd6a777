"""Scenes the admin tests set up: a game among a row of every model in the admin
(`admin_scene`, the `game` of those tests), a matchday of a new pairs competition
(`pairs_day`), a match holding a result in each way one can (reported totals, a forfeit, a
game with rounds, a game with totals, a game closed), and no standings refresh queued yet
(`settle`). Results go through the services, the way the app records them."""

from __future__ import annotations

from typing import Any

from scoring.models import Game
from scoring.services.checkins import checkin_record
from scoring.services.games import game_totals_enter, match_totals_enter
from scoring.services.matches import match_create, match_forfeit_set
from scoring.services.rounds import RoundRecord, game_rounds_load, round_record
from scoring.services.standings import standings_rebuild
from scoring.services.withdrawals import entry_withdraw
from scoring.tokens import game_token_now, match_token_now
from tests.factories import (
    ClubEntryFactory,
    ClubFactory,
    CompetitionFactory,
    GameFactory,
    MatchdayFactory,
    MatchFactory,
    PlayerFactory,
    TeamEntryFactory,
)
from tournaments.models import (
    Bye,
    Entry,
    Match,
    Matchday,
    Squad,
    SquadMember,
    StandingsRefreshClaim,
)
from tournaments.services.deductions import deduction_add
from tournaments.tokens import deductions_token


def admin_scene() -> Game:
    """A game with two rounds (a kap for A, then a gewone winst for B: 5–2) and its
    competition's standings, beside at least one row of every model in the admin.
    Returns the game."""
    game = GameFactory.create()
    round_record(
        game_id=game.pk, expected_number=1, result="kap", side="a", caller_id=game.seat_1_id
    )
    round_record(game_id=game.pk, expected_number=2, result="gewone_winst", side="b", tricks=(3, 7))
    competition = game.match.matchday.competition
    standings_rebuild(competition_id=competition.pk)
    ClubEntryFactory.create()  # a club, and a club competition's entry
    # A bye on a second matchday, a deduction and a squad with a member.
    third = TeamEntryFactory.create(competition=competition)
    Bye.objects.create(matchday=MatchdayFactory.create(competition=competition), entry=third)
    deduction_add(
        competition_id=competition.pk,
        entry_id=third.pk,
        points=1,
        reason="late",
        seen=deductions_token(competition_id=competition.pk),
    )
    # A withdrawal and a check-in (issue 22), of an entry that played nothing.
    gone = TeamEntryFactory.create(competition=competition)
    entry_withdraw(entry_id=gone.pk, from_matchday=3, reason="moved away")
    checkin_record(entry_id=third.pk, number=3, present=True)
    squad = Squad.objects.create(club=ClubFactory.create(), season="2026-2027")
    SquadMember.objects.create(squad=squad, player=PlayerFactory.create(), season="2026-2027")
    stage_rows()
    return game


def stage_rows() -> None:
    """A play-off made from a finished competition, and a division of it (issue 22)."""
    from scoring.services.playoffs import playoff_create
    from tests.playoff_scenes import two_pairs_tied
    from tournaments.models import Division

    competition, entries = two_pairs_tied()
    lots = [[entries["Kampoe"].pk, entries["Formula"].pk]]
    playoff_create(
        competition_id=competition.pk, size=2, legs=1, by=None, lots=lots, lot_reason="drawn"
    )
    Division.objects.create(
        league="STCB", season="2026-2027", name="Hoofdklasse", level=1, competition=competition
    )


def settle() -> None:
    """As after the setup's commit and its refreshes: no refresh queued.

    A test's transaction never commits, so the tasks that would release the claims of
    refreshes queued before don't run here (issue 7): the claims go, and a test of what a
    request queues (`tests.refreshes.queued_refreshes`) starts from none. The setup's own
    on-commit callbacks stay pending in the test's transaction and never run.
    """
    StandingsRefreshClaim.objects.update(queued_at=None)


def pairs_day(entries: int = 4, **competition_options: Any) -> tuple[Matchday, list[Entry]]:
    """A matchday of a new pairs competition with `entries` koppels entered."""
    competition = CompetitionFactory.create(**competition_options)
    matchday = MatchdayFactory.create(competition=competition)
    return matchday, [TeamEntryFactory.create(competition=competition) for _ in range(entries)]


def reported_totals(matchday: Matchday, home: Entry, away: Entry) -> Match:
    match = MatchFactory.create(matchday=matchday, home=home, away=away)
    seen = match_token_now(match_id=match.pk)
    return match_totals_enter(match_id=match.pk, total_home=20, total_away=4, seen=seen)


def forfeited(matchday: Matchday, home: Entry, away: Entry) -> Match:
    match = MatchFactory.create(matchday=matchday, home=home, away=away)
    seen = match_token_now(match_id=match.pk)
    return match_forfeit_set(match_id=match.pk, side="away", reason="no show", seen=seen)


def game_with_rounds(matchday: Matchday, home: Entry, away: Entry) -> Match:
    match = match_create(matchday_id=matchday.pk, home_id=home.pk, away_id=away.pk)
    rounds = [RoundRecord(result="kap", side="a")]
    game_rounds_load(game_id=match.games.get().pk, rounds=rounds)
    return match


def game_with_totals(matchday: Matchday, home: Entry, away: Entry) -> Match:
    match = match_create(matchday_id=matchday.pk, home_id=home.pk, away_id=away.pk)
    game = match.games.get()
    seen = game_token_now(game_id=game.pk)
    game_totals_enter(game_id=game.pk, total_a=20, total_b=4, seen=seen)
    return match


def game_closed(matchday: Matchday, home: Entry, away: Entry) -> Match:
    match = match_create(matchday_id=matchday.pk, home_id=home.pk, away_id=away.pk)
    match.games.update(status=Game.Status.CLOSED)  # closed at the time limit, no rounds yet
    return match
