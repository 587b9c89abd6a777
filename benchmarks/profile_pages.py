"""The player, koppel and club pages of issue 20's table, at each benchmark size.

The generated competition has no clubs; issue 20 measured the club page with every player
in one club, so `club_setup` puts every player of the competition in one club (and
refreshes the season's stored rankings, which the club page reads) (today's
club, and the club each pairs entry kept for its players): at 1,000 koppels a club of
2,000 players whose koppels played every game. The player and the koppel are the first
entry's: 15 games at every size, so the page grows only with the database.
"""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse

from rankings.season_refresh import season_rankings_refresh
from tournaments.models import Club, Competition, Entry, Player
from troefclub.analyze import tables_analyze


def club_setup(competition: Competition) -> Club:
    """One club holding every player of `competition`'s entries (made once per competition;
    a bulk write outside the services: the benchmark's data, not a door). Then what the
    app does after a bulk write: the tables written analysed, the season's stored rankings
    refreshed (the club page and the rankings by club read them)."""
    club, _ = Club.objects.get_or_create(
        key=f"{competition.slug}-club", defaults={"name": f"Club of {competition.name}"}
    )
    with transaction.atomic():
        entries = Entry.objects.filter(competition=competition, team__isnull=False)
        Player.objects.filter(
            pk__in=entries.values("team__player_1_id").union(entries.values("team__player_2_id"))
        ).update(club=club)
        entries.update(player_1_club=club, player_2_club=club)
    tables_analyze(tables=[Player._meta.db_table, Entry._meta.db_table])
    if competition.season:
        season_rankings_refresh(season=competition.season)
    return club


def profile_urls(competition: Competition) -> dict[str, str]:
    """The player, koppel and club pages: the first entry's koppel, its first player and
    the club of `club_setup`."""
    club = club_setup(competition)
    entry = competition.entries.select_related("team__player_1").order_by("pk").first()
    assert entry is not None and entry.team is not None, "the generated entries are koppels"
    return {
        "player": reverse("player_detail", kwargs={"key": entry.team.player_1.key}),
        "koppel": reverse("koppel_detail", kwargs={"key": entry.team.key}),
        "club": reverse("club_detail", kwargs={"key": club.key}),
    }
