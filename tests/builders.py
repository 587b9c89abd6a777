"""Scenes many tests set up: rounds on a game, a finished game, a competition of koppels,
a matchday paired at random, a league with a matchday in play.

The factories (tests/factories.py) make rows; these helpers make a scene from them. Rounds
go through the services, the way the app records them (so a finished game's status,
scores and standings mark are the app's own); matches and games of a big scene are
written as stored rows (`pairs_game`), the way an import stores them. One definition
each: a test that needs something else says so at its call site rather than in a copy.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.generate import random_game
from rankings.season_refresh import season_rankings_refresh
from scoring.models import Game, Round
from scoring.services.rounds import RoundRecord, game_rounds_load, round_record
from scoring.services.standings import standings_rebuild
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    GameFactory,
    MatchdayFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
    koppel_entries,
)
from tests.seen import next_round
from tournaments.models import Bye, Competition, Entry, Match, Matchday, Team

# The koppels of `pairs_competition` and the clubs of `club_competition`, in this order.
NAMES = ["Kampoe", "Toppers", "Formula", "Ekta", "Pintoboys", "Sonny", "Wanica", "Para"]


def record(game: Game, result: str = "gewone_winst", side: str = "a", **extra: Any) -> Round:
    """One round on `game` as its score sheet would record it now (the next number);
    `extra` as `scoring.services.rounds.round_record` takes it (`caller_id`, `tricks`). Raises
    RuleViolation as the service does."""
    return round_record(
        game_id=game.pk, expected_number=next_round(game.pk), result=result, side=side, **extra
    )


def play(game: Game, *rounds: tuple[str, str]) -> None:
    """Rounds `(result, side)` on `game`, in order, without callers or tricks."""
    for result, side in rounds:
        record(game, result, side)


def kaps(game: Game, count: int, *, side: str = "a") -> None:
    """`count` more kaps for koppel `side` (four from nothing end a game to 20 at 20–0)."""
    for _ in range(count):
        record(game, "kap", side)


def finished_game(game: Game | None = None, *, winner: str = "a", **game_fields: Any) -> Game:
    """`game` (or a new `GameFactory` game made with `game_fields`) played out under the
    standard rules: four kaps for `winner`, 20–0, the game over. Returns it fresh from the
    database (status FINISHED, scores and winner set)."""
    if game is None:
        game = GameFactory.create(**game_fields)
    kaps(game, 4, side=winner)
    return Game.objects.get(pk=game.pk)


def pairs_game(
    matchday: Matchday,
    home: Entry,
    away: Entry,
    *,
    table: int,
    seated: bool = True,
    **game_fields: Any,
) -> Game:
    """A pairs match `home` v `away` at `table` of `matchday` and its one game at that
    table (koppel A the home koppel, `game_fields` such as `first_caller`), written as
    stored rows, the way an import stores them; its four players seated clockwise (A in
    seats 1 and 3) unless not `seated`."""
    assert home.team is not None and away.team is not None
    match = Match.objects.create(matchday=matchday, home=home, away=away, table=table)
    seats = {}
    if seated:
        seats = {
            "seat_1": home.team.player_1,
            "seat_2": away.team.player_1,
            "seat_3": home.team.player_2,
            "seat_4": away.team.player_2,
        }
    return Game.objects.create(
        match=match, table=table, team_a=home.team, team_b=away.team, **seats, **game_fields
    )


def random_matchday(
    matchday: Matchday, entries: Sequence[Entry], rng: random.Random, *, seated: bool = True
) -> dict[int, Game]:
    """`matchday` paired at random: `entries` (an odd number) shuffled by `rng`, the last
    one given the bye, the others meeting two by two at tables 1, 2, … (`pairs_game`).
    Returns the games by table; `rng` is used for the shuffle only, so a caller that plays
    the games in table order draws from it as if it had paired them itself."""
    order = list(entries)
    rng.shuffle(order)
    Bye.objects.create(matchday=matchday, entry=order.pop())
    return {
        table: pairs_game(matchday, order[index], order[index + 1], table=table, seated=seated)
        for table, index in enumerate(range(0, len(order), 2), start=1)
    }


def pairs_competition(koppels: int, **fields: Any) -> Competition:
    """A pairs competition (`CompetitionFactory` with `fields`) and `koppels` entered
    koppels of two new players each; the first eight named as in `NAMES`, in order of
    entry, the others shown by their players. No matchdays."""
    competition = CompetitionFactory.create(**fields)
    for index in range(koppels):
        name = NAMES[index] if index < len(NAMES) else ""
        TeamEntryFactory.create(competition=competition, team__name=name)
    return competition


def pairs_matchday(koppels: int) -> tuple[Competition, Matchday, list[Entry]]:
    """A `pairs_competition` of `koppels` with an empty matchday 1: the competition, the
    matchday and the entries in order of entry."""
    competition = pairs_competition(koppels)
    matchday = MatchdayFactory.create(competition=competition, number=1)
    return competition, matchday, list(competition.entries.order_by("pk"))


def club_competition(clubs: int = 2, **fields: Any) -> Competition:
    """A club competition (slug "club-league", double round robin, 2 koppels a side and at
    least 2, 2 sittings; `fields` change these) with `clubs` entered clubs named as in
    `NAMES`, each with six players in three koppels ("Kampoe 1" …, see `koppels_of`). No
    matchdays."""
    defaults: dict[str, Any] = {
        "slug": "club-league",
        "kind": Competition.Kind.CLUBS,
        "koppels_per_side": 2,
        "min_koppels": 2,
        "sittings": 2,
        "schedule_format": Competition.Format.DOUBLE_ROUND_ROBIN,
    }
    competition = CompetitionFactory.create(**{**defaults, **fields})
    for number in range(clubs):
        club = ClubFactory.create(name=NAMES[number])
        players = [PlayerFactory.create(club=club) for _ in range(6)]
        for index in range(3):
            TeamFactory.create(
                name=f"{club.name} {index + 1}",
                player_1=players[2 * index],
                player_2=players[2 * index + 1],
            )
        Entry.objects.create(competition=competition, club=club)
    return competition


def koppels_of(entry: Entry) -> list[Team]:
    """The koppels of a club entry's players, by key (for `club_competition`: its three)."""
    return list(Team.objects.filter(player_1__club=entry.club).order_by("key"))


@dataclass(frozen=True)
class League:
    """A competition in play (`league_in_play`)."""

    competition: Competition
    played: Matchday  # matchday 1, every game played out
    tonight: Matchday  # matchday 2: table 1 has a round, the others none yet
    games: dict[int, Game]  # tonight's games by table


def rounds_to_end(rng: random.Random) -> list[RoundRecord]:
    """A random game to its end, as the rounds to load (`game_rounds_load`)."""
    return [RoundRecord(result=r["result"], side=r["side"]) for r in random_game(rng)]


def league_in_play(koppels: int, *, tonight: datetime.date | None = None) -> League:
    """A pairs competition (slug `live-<koppels>`, the director may close a game) of
    `koppels` + 1 entries (a bye a matchday): matchday 1 played out, matchday 2 (dated
    `tonight`) with one round at table 1; standings stored."""
    rng = random.Random(koppels)
    competition = CompetitionFactory.create(slug=f"live-{koppels}", close_by_director_allowed=True)
    entries = koppel_entries(competition, koppels + 1)
    played = Matchday.objects.create(
        competition=competition, number=1, date=datetime.date(2026, 10, 2)
    )
    for game in random_matchday(played, entries, rng, seated=False).values():
        game_rounds_load(game_id=game.pk, rounds=rounds_to_end(rng))
    tonight_day = Matchday.objects.create(competition=competition, number=2, date=tonight)
    games = random_matchday(tonight_day, entries, rng, seated=False)
    round_record(game_id=games[1].pk, expected_number=1, result="gewone_winst", side="a")
    standings_rebuild(competition_id=competition.pk)
    return League(competition, played, tonight_day, games)


def seasons_rankings_refresh() -> None:
    """Refresh the stored season rankings of every season a competition has (issue 20), as
    the worker does after the writes: a test that built its data through the services
    reads the season pages fresh, with a broker or without (the page's own catch-up runs
    only where Celery is eager)."""
    for season in Competition.objects.values_list("season", flat=True).distinct():
        season_rankings_refresh(season=season)
