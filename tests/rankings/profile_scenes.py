"""Scenes of the player, koppel and club page tests (tests/rankings/test_profile*.py):
small seasons whose numbers are worked out by hand in the tests, and a koppel with as
many games as a query-count test asks for.

Games are written as stored rows with their final scores (the way an import stores
them), so each test reads its numbers straight from the scene.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from scoring.models import Game
from tests.factories import ClubFactory, CompetitionFactory, MatchdayFactory, PlayerFactory
from tournaments.models import Club, Competition, Entry, Match, Matchday, Player, Team


def koppel(key: str, first: Player, second: Player, name: str = "") -> Team:
    return Team.objects.create(key=key, name=name, player_1=first, player_2=second)


def entered(competition: Competition, team: Team) -> Entry:
    """`team` entered in `competition`, keeping its players' clubs of now (as the app
    does when a koppel is entered)."""
    return Entry.objects.create(
        competition=competition,
        team=team,
        player_1_club=team.player_1.club,
        player_2_club=team.player_2.club,
    )


def played(
    matchday: Matchday,
    a: Entry,
    b: Entry,
    score: tuple[int, int],
    *,
    table: int = 1,
    kaps: tuple[int, int] = (0, 0),
    baunies: tuple[int, int] = (0, 0),
) -> Game:
    """A pairs match `a` v `b` on `matchday` and its one game, over at `score` (closed by
    the director when level), with its `kaps` and `baunies` as stored totals."""
    assert a.team is not None and b.team is not None
    match = Match.objects.create(matchday=matchday, home=a, away=b, table=table)
    level = score[0] == score[1]
    return Game.objects.create(
        match=match,
        table=table,
        team_a=a.team,
        team_b=b.team,
        status=Game.Status.CLOSED if level else Game.Status.FINISHED,
        score_a=score[0],
        score_b=score[1],
        kaps_a=kaps[0],
        kaps_b=kaps[1],
        baunies_a=baunies[0],
        baunies_b=baunies[1],
    )


@dataclass
class Transfer:
    """Two seasons of club evenings; Ann moves from Kampoe to Toppers in between.

    2025-2026 (`evening-2025`), koppels AB (Ann, Bob: Kampoe) and CD (Cor, Dan: Toppers):
      3 Oct 2025  AB 20–12 CD
      7 Nov 2025  CD 20–8  AB
    Ann moves to Toppers. 2026-2027 (`evening-2026`), koppels AE (Ann, Eve: Toppers),
    BF (Bob, Fay: Kampoe) and CD:
      2 Oct 2026  AE 10–10 BF (closed level)
      9 Oct 2026  AE 20–4  CD (two Toppers koppels)
      16 Oct 2026 BF 20–6  AE
    """

    kampoe: Club
    toppers: Club
    ann: Player
    bob: Player
    cor: Player
    dan: Player
    eve: Player
    fay: Player
    ab: Team
    cd: Team
    ae: Team
    bf: Team
    first: Competition
    second: Competition
    games: list[Game]


def transfer() -> Transfer:
    kampoe = ClubFactory.create(key="kampoe", name="Kampoe")
    toppers = ClubFactory.create(key="toppers", name="Toppers")
    ann = PlayerFactory.create(key="ann", name="Ann", club=kampoe)
    bob = PlayerFactory.create(key="bob", name="Bob", club=kampoe)
    cor = PlayerFactory.create(key="cor", name="Cor", club=toppers)
    dan = PlayerFactory.create(key="dan", name="Dan", club=toppers)
    eve = PlayerFactory.create(key="eve", name="Eve", club=toppers)
    fay = PlayerFactory.create(key="fay", name="Fay", club=kampoe)
    ab = koppel("ab", ann, bob)
    cd = koppel("cd", cor, dan, name="Cordan")
    first = CompetitionFactory.create(slug="evening-2025", name="Evening 2025", season="2025-2026")
    ab_1, cd_1 = entered(first, ab), entered(first, cd)
    day_1 = MatchdayFactory.create(competition=first, number=1, date=datetime.date(2025, 10, 3))
    day_2 = MatchdayFactory.create(competition=first, number=2, date=datetime.date(2025, 11, 7))
    games = [
        played(day_1, ab_1, cd_1, (20, 12), kaps=(2, 1), baunies=(1, 0)),
        played(day_2, cd_1, ab_1, (20, 8), kaps=(3, 0)),
    ]
    ann.club = toppers  # the transfer: old games stay Kampoe's
    ann.save()
    ae = koppel("ae", ann, eve)
    bf = koppel("bf", bob, fay)
    second = CompetitionFactory.create(slug="evening-2026", name="Evening 2026", season="2026-2027")
    ae_2, bf_2, cd_2 = entered(second, ae), entered(second, bf), entered(second, cd)
    days = [
        MatchdayFactory.create(competition=second, number=n, date=datetime.date(2026, 10, d))
        for n, d in ((1, 2), (2, 9), (3, 16))
    ]
    games += [
        played(days[0], ae_2, bf_2, (10, 10)),
        played(days[1], ae_2, cd_2, (20, 4), kaps=(1, 0)),
        played(days[2], bf_2, ae_2, (20, 6)),
    ]
    return Transfer(
        kampoe, toppers, ann, bob, cor, dan, eve, fay, ab, cd, ae, bf, first, second, games
    )


def koppel_with_games(count: int, *, seasons: int = 3) -> Team:
    """A koppel (key "busy", its players of club "busy-club") that played `count` games,
    each against a new opponent koppel, spread over `seasons` pairs competitions (one a
    season, a matchday a game): the shape whose size the query-count tests vary."""
    club = ClubFactory.create(key="busy-club", name="Busy club")
    busy = koppel(
        "busy", PlayerFactory.create(key="busy-1", club=club), PlayerFactory.create(club=club)
    )
    competitions = [
        CompetitionFactory.create(season=f"{2020 + n}-{2021 + n}") for n in range(seasons)
    ]
    entries = {competition.pk: entered(competition, busy) for competition in competitions}
    for index in range(count):
        competition = competitions[index % seasons]
        opponent = entered(
            competition,
            koppel(f"o{index}", PlayerFactory.create(club=club), PlayerFactory.create()),
        )
        day = MatchdayFactory.create(
            competition=competition,
            number=index + 1,
            date=datetime.date(2020 + index % seasons, 10, 1) + datetime.timedelta(days=index),
        )
        score = [(20, 6), (8, 20), (12, 12)][index % 3]
        played(day, entries[competition.pk], opponent, score)
    return busy


# Seasons of `club_league` ("": a competition without a season) and its players.
PLAYERS = 24
SEASONS = ("2025-2026", "2026-2027", "")


def club_league(seed: int, *, clubs: int = 5) -> list[Club]:
    """`clubs` clubs, `PLAYERS` players moving between them each season, a pairs
    competition a season of 4 matchdays with random koppels and scores."""
    rng = random.Random(seed)
    made = [
        ClubFactory.create(key=f"league-club-{n}", name=f"League club {n}") for n in range(clubs)
    ]
    players = [
        PlayerFactory.create(key=f"league-p{n}", name=f"Player {n:02}") for n in range(PLAYERS)
    ]
    for number, season in enumerate(SEASONS):
        for player in players:  # a transfer now and then; some without a club
            player.club = rng.choice([*made, None])
            player.save()
        competition = CompetitionFactory.create(
            slug=f"club-league-{number}", name=f"Club league {number}", season=season
        )
        shuffled = rng.sample(players, len(players))
        koppels = [
            koppel(f"league-k{number}-{n}", shuffled[2 * n], shuffled[2 * n + 1])
            for n in range(len(players) // 2)
        ]
        entries = [entered(competition, team) for team in koppels]
        for day in range(1, 5):
            matchday = MatchdayFactory.create(
                competition=competition, number=day, date=datetime.date(2025 + number, 10, day)
            )
            order = rng.sample(entries, len(entries))
            for table in range(len(order) // 2):
                score = (rng.randint(0, 20), 20) if rng.random() < 0.5 else (20, rng.randint(0, 20))
                played(matchday, order[2 * table], order[2 * table + 1], score, table=table + 1,
                       kaps=(rng.randint(0, 3), rng.randint(0, 3)),
                       baunies=(rng.randint(0, 1), rng.randint(0, 1)))  # fmt: skip
    return made
