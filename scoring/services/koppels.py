"""A koppel's players, which stay once it has played a game."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from scoring.models import Game
from scoring.rules import RuleViolation
from tournaments.models import Entry, Player, Team
from troefclub.writes import trigger_violations


@trigger_violations
@transaction.atomic
def team_players_set(*, team_id: int, player_1_id: int, player_2_id: int) -> Team:
    """Give a koppel other players (or swap player 1 and 2), as long as it has no game.

    A koppel that has a game (open or over, in any competition) keeps its players: changing
    them would move its games, and the clubs its entries kept (by player 1 and player 2), to
    other players. The new partners make a new koppel instead. A koppel without games takes
    the new players, and its entries keep the new players' clubs of now (`entry_add`).

    A transfer (`Player.club` changed) is not this: it stays allowed any time and only
    reaches entries made afterwards.

    Raises RuleViolation `koppel_has_games` (params koppel, count: its games);
    Team.DoesNotExist for an unknown `team_id`.
    """
    # Locked so two admins can't both change the players; what the games hold is read
    # after the lock.
    team = Team.objects.select_for_update().get(pk=team_id)
    if (team.player_1_id, team.player_2_id) == (player_1_id, player_2_id):
        return team
    played = Game.objects.filter(Q(team_a=team) | Q(team_b=team)).count()
    if played:
        raise RuleViolation("koppel_has_games", koppel=str(team), count=played)
    team.player_1_id, team.player_2_id = player_1_id, player_2_id
    team.save(update_fields=["player_1", "player_2", "updated_at"])  # the API's ETags
    clubs = dict(
        Player.objects.filter(pk__in=(player_1_id, player_2_id)).values_list("pk", "club_id")
    )
    Entry.objects.filter(team=team).update(
        player_1_club_id=clubs.get(player_1_id), player_2_club_id=clubs.get(player_2_id)
    )
    return team
