"""Issue 20's season rankings refresh as the clubs grow: a refresh of the season at each
benchmark size with the clubs `profile_pages.club_setup` makes (one club holding every
player of the competition, plus the clubs of the other sizes' competitions of the same
season), then with the competition's players spread over `MANY_CLUBS` clubs (a federation:
20-40 clubs), round robin, each entry keeping its players' clubs.

A refresh computes every choice of the season (by player, koppel and club; each kind; all
clubs and each club) and writes what changed. The first refresh after the clubs change
writes the new lines and is not timed; the timed ones compute everything again and write
nothing, so they time the computation, which is what grows with the clubs.
"""

from __future__ import annotations

import time

from django.db import transaction

from benchmarks.measures import Runs, counting
from benchmarks.profile_pages import club_setup
from rankings.models import SeasonRankingList
from rankings.season_refresh import season_rankings_refresh
from tournaments.models import Club, Competition, Entry, Player
from troefclub.analyze import tables_analyze

# Clubs of a federation's season (issue 20: 20-40).
MANY_CLUBS = 30


def clubs_spread(competition: Competition, count: int) -> list[Club]:
    """`count` clubs, the players of `competition`'s koppels spread over them round robin
    (by id), each entry keeping its players' clubs: a bulk write outside the services (the
    benchmark's data, not a door), the tables analysed after it."""
    clubs = [
        Club.objects.get_or_create(
            key=f"{competition.slug}-club-{n}", defaults={"name": f"Club {n} of {competition.name}"}
        )[0]
        for n in range(count)
    ]
    with transaction.atomic():
        entries = list(
            Entry.objects.filter(competition=competition, team__isnull=False).select_related("team")
        )
        players = sorted(
            {pk for entry in entries for pk in (entry.team.player_1_id, entry.team.player_2_id)}  # type: ignore[union-attr]
        )
        club_of = {pk: clubs[n % count] for n, pk in enumerate(players)}
        for club in clubs:
            Player.objects.filter(
                pk__in=[pk for pk, kept in club_of.items() if kept == club]
            ).update(club=club)
        for entry in entries:
            assert entry.team is not None
            entry.player_1_club = club_of[entry.team.player_1_id]
            entry.player_2_club = club_of[entry.team.player_2_id]
        Entry.objects.bulk_update(entries, ["player_1_club", "player_2_club"], batch_size=1000)
    tables_analyze(tables=[Player._meta.db_table, Entry._meta.db_table])
    return clubs


def refresh_runs(season: str, *, repeat: int) -> Runs:
    """`season_rankings_refresh` of `season`: one untimed (it writes what changed), then
    `repeat` timed runs; `extra` has the lines the first wrote and the season's clubs."""
    written = season_rankings_refresh(season=season)
    result = Runs()
    for _ in range(repeat):
        with counting() as counter:
            started = time.perf_counter()
            season_rankings_refresh(season=season)
            result.seconds.append(time.perf_counter() - started)
        result.queries = counter.count
    clubs = (
        SeasonRankingList.objects.filter(season=season, by="club", kind="", club__isnull=False)
        .values("club")
        .count()
    )
    result.extra = {"first_written": written, "clubs": clubs}
    return result


def season_clubs_runs(competition: Competition, *, repeat: int) -> tuple[Runs, Runs]:
    """The refresh of `competition`'s season with `club_setup`'s clubs, then with its
    players spread over `MANY_CLUBS` clubs; `club_setup`'s one club is put back after (the
    club page reads it)."""
    club_setup(competition)
    few = refresh_runs(competition.season, repeat=repeat)
    clubs_spread(competition, MANY_CLUBS)
    many = refresh_runs(competition.season, repeat=repeat)
    club_setup(competition)
    return few, many
