"""Merging two players (issue 22): the same person registered twice becomes one.

`player_merge(keep_id=…, drop_id=…, by=…)` moves everything of the dropped player to the
kept one in one transaction: the game seats and round callers (and their audit history
rows), the koppels (a koppel of the dropped player becomes one of the kept player; when
the kept player already has a koppel with the same partner and the dropped one has no
scheduled entry, the two become one: its games and entries move to the kept player's
koppel, it is deleted and its key redirects, `KoppelAlias`; a koppel with a scheduled
entry stays a koppel of its own, `_koppels_move`), the squad memberships, the keys that
led to the dropped player (`PlayerAlias`, so chains end at the kept player); then the
dropped player is deleted and its key stored as a `PlayerAlias` (with who merged, when):
its profile URL redirects (301) and an import file naming it gets the kept player
(`players_merged`, read by `interchange.importer`). The ratings (its rating changes go
with it) and the season rankings of every season it played in are refreshed after the
commit (`ratings_refresh_on_commit`, `season_rankings_refresh_on_commit`): the refresh
replays from the first game whose players changed, the numbers a rebuild gives.

Refused (`PlayerMergeRefused`, a translated message naming the place), nothing written:
- the two sat at the same game (named: competition, matchday, table, sitting);
- they played on the same matchday in two games (one person plays one game at a time);
- they form a koppel together (it would be a koppel of one player);
- two koppels that would become one are both entered (unscheduled) in one competition;
- they are in two different squads of the same season.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from rankings.models import KoppelAlias, PlayerAlias
from rankings.season_refresh import season_rankings_refresh_on_commit
from rankings.services import ratings_refresh_on_commit
from scoring.models import Game, Round
from tournaments.models import Entry, Player, SquadMember, Team

SEATS = ("seat_1", "seat_2", "seat_3", "seat_4")

# Every column that points at a player or a koppel, as the merge handles it: a model that
# adds one must be handled here too (tests/rankings/test_player_merge.py checks the list
# against the models, so a new one can't be forgotten).
HANDLED = frozenset(
    {
        *(("scoring.Game", seat) for seat in SEATS),
        *(("scoring.HistoricalGame", seat) for seat in SEATS),
        ("scoring.Game", "team_a"),
        ("scoring.Game", "team_b"),
        ("scoring.HistoricalGame", "team_a"),
        ("scoring.HistoricalGame", "team_b"),
        ("scoring.Round", "caller"),
        ("scoring.HistoricalRound", "caller"),
        ("tournaments.Team", "player_1"),
        ("tournaments.Team", "player_2"),
        ("tournaments.Entry", "team"),
        ("tournaments.SquadMember", "player"),
        ("rankings.RatingChange", "player"),  # deleted with the player, rated again
        ("rankings.PlayerRating", "player"),  # idem
        ("rankings.PlayerAlias", "player"),
        ("rankings.KoppelAlias", "team"),
    }
)


class PlayerMergeRefused(Exception):
    """A merge the data forbids; `message` is translated and names the place."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class PlayerMerged:
    """What a merge moved: game `seats`, round `callers`, `koppels` given the kept player,
    `koppels_merged` (deleted into the kept player's koppel with the same partner), squad
    `memberships`."""

    seats: int
    callers: int
    koppels: int
    koppels_merged: int
    memberships: int


def _games_of(player_id: int) -> Q:
    """The games `player_id` played in: in a seat, or in either koppel."""
    q = Q(team_a__player_1_id=player_id) | Q(team_a__player_2_id=player_id)
    q |= Q(team_b__player_1_id=player_id) | Q(team_b__player_2_id=player_id)
    for seat in SEATS:
        q |= Q(**{f"{seat}_id": player_id})
    return q


def _place(game: Game) -> str:
    matchday = game.match.matchday
    return _("%(competition)s, matchday %(number)s, table %(table)s, sitting %(sitting)s") % {
        "competition": matchday.competition.name,
        "number": matchday.number,
        "table": game.table,
        "sitting": game.sitting,
    }


def _refuse_if_together(keep: Player, drop: Player) -> None:
    """Raise PlayerMergeRefused when the data says the two are two people."""
    related = ("match__matchday__competition",)
    shared = (
        Game.objects.filter(_games_of(keep.pk)).filter(_games_of(drop.pk)).select_related(*related)
    )
    game = shared.order_by("pk").first()
    if game is not None:
        raise PlayerMergeRefused(
            _("%(keep)s and %(drop)s sat at the same game (%(place)s): they are two players.")
            % {"keep": keep, "drop": drop, "place": _place(game)}
        )
    days_of_drop = Game.objects.filter(_games_of(drop.pk)).values("match__matchday")
    game = (
        Game.objects.filter(_games_of(keep.pk), match__matchday__in=days_of_drop)
        .select_related(*related)
        .order_by("pk")
        .first()
    )
    if game is not None:
        raise PlayerMergeRefused(
            _(
                "%(keep)s and %(drop)s both played on the same matchday (%(place)s): one "
                "player plays one game at a time."
            )
            % {"keep": keep, "drop": drop, "place": _place(game)}
        )
    together = Team.objects.filter(
        Q(player_1=keep, player_2=drop) | Q(player_1=drop, player_2=keep)
    ).first()
    if together is not None:
        raise PlayerMergeRefused(
            _("%(keep)s and %(drop)s form koppel “%(koppel)s” together: they are two players.")
            % {"keep": keep, "drop": drop, "koppel": together.key}
        )
    clash = (
        SquadMember.objects.filter(
            player=drop, season__in=SquadMember.objects.filter(player=keep).values("season")
        )
        .exclude(squad__in=SquadMember.objects.filter(player=keep).values("squad"))
        .select_related("squad__club")
        .first()
    )
    if clash is not None:
        raise PlayerMergeRefused(
            _("%(keep)s and %(drop)s are in two squads in season %(season)s: remove one first.")
            % {"keep": keep, "drop": drop, "season": clash.season}
        )


def _koppels_move(keep: Player, drop: Player, now: Any) -> tuple[int, int]:
    """Give the dropped player's koppels to the kept player. A koppel that then has the
    same two players as one of the kept player's (its twin) becomes that one when it can:
    when none of its entries is scheduled (a pairs game's koppels are its match's entries',
    and a scheduled entry keeps its koppel: the database says so, `entry_scheduled_fixed`),
    its games (club matches) and entries go to the twin, it is deleted and its key
    redirects (`KoppelAlias`); otherwise it stays, a second koppel of the same two players
    with its own results. Returns (koppels given, koppels merged into their twin)."""
    given = merged = 0
    kept_with = {
        (team.player_2_id if team.player_1_id == keep.pk else team.player_1_id): team
        for team in Team.objects.filter(Q(player_1=keep) | Q(player_2=keep)).order_by("pk")
    }
    # Locked: a koppel changed meanwhile (an entry, a game) would escape the merge.
    for team in Team.objects.select_for_update().filter(Q(player_1=drop) | Q(player_2=drop)):
        partner = team.player_2_id if team.player_1_id == drop.pk else team.player_1_id
        twin = kept_with.get(partner)
        scheduled = Entry.objects.filter(team=team).filter(
            Q(home_matches__isnull=False) | Q(away_matches__isnull=False) | Q(byes__isnull=False)
        )
        if twin is None or scheduled.exists():
            field = "player_1" if team.player_1_id == drop.pk else "player_2"
            Team.objects.filter(pk=team.pk).update(**{field: keep, "updated_at": now})
            given += 1
            continue
        both = (
            Entry.objects.filter(team=team, competition__entries__team=twin)
            .select_related("competition")
            .first()
        )
        if both is not None:
            raise PlayerMergeRefused(
                _(
                    "Koppels “%(drop)s” and “%(keep)s” would become one, but both are "
                    "entered in %(competition)s."
                )
                % {"drop": team.key, "keep": twin.key, "competition": both.competition.name}
            )
        Entry.objects.filter(team=team).update(team=twin)
        for side in ("team_a", "team_b"):
            Game.objects.filter(**{side: team}).update(**{side: twin})
            Game.history.filter(**{f"{side}_id": team.pk}).update(**{f"{side}_id": twin.pk})
        KoppelAlias.objects.filter(team=team).update(team=twin)
        KoppelAlias.objects.create(key=team.key, team=twin, merged_at=now)
        team.delete()
        merged += 1
    return given, merged


@transaction.atomic
def player_merge(*, keep_id: int, drop_id: int, by: Any = None) -> PlayerMerged:
    """Merge player `drop_id` into `keep_id` (see the module's text); `by` is the user who
    merged (or None: a command). Returns what moved, once it has moved. Raises
    PlayerMergeRefused (nothing written) when the two are the same id, either does not
    exist, or the data says they are two people."""
    if keep_id == drop_id:
        raise PlayerMergeRefused(_("A player cannot be merged with itself."))
    # Both rows locked, in id order (two merges of the same pair can't interleave nor
    # deadlock): a game written meanwhile would still name the dropped player.
    players = {
        p.pk: p
        for p in Player.objects.select_for_update().filter(pk__in=sorted([keep_id, drop_id]))
    }
    if keep_id not in players or drop_id not in players:
        raise PlayerMergeRefused(_("One of the two players does not exist (any more)."))
    keep, drop = players[keep_id], players[drop_id]
    _refuse_if_together(keep, drop)
    now = timezone.now()

    seasons = set(
        Game.objects.filter(_games_of(drop.pk))
        .values_list("match__matchday__competition__season", flat=True)
        .distinct()
    )
    given, merged = _koppels_move(keep, drop, now)
    seats = 0
    for seat in SEATS:
        seats += Game.objects.filter(**{seat: drop}).update(**{seat: keep})
        Game.history.filter(**{f"{seat}_id": drop.pk}).update(**{f"{seat}_id": keep.pk})
    callers = Round.objects.filter(caller=drop).update(caller=keep)
    Round.history.filter(caller_id=drop.pk).update(caller_id=keep.pk)
    memberships = (
        SquadMember.objects.filter(player=drop)
        .exclude(season__in=SquadMember.objects.filter(player=keep).values("season"))
        .update(player=keep)
    )
    SquadMember.objects.filter(player=drop).delete()  # the same squad as the kept player's

    PlayerAlias.objects.filter(player=drop).update(player=keep)
    PlayerAlias.objects.create(
        key=drop.key, player=keep, name=drop.name, merged_at=now, merged_by=by
    )
    drop.delete()  # its rating changes and rating go with it: the refresh rates keep's games
    Player.objects.filter(pk=keep.pk).update(updated_at=now)

    ratings_refresh_on_commit()
    for season in sorted(seasons):
        if season:
            season_rankings_refresh_on_commit(season=season)
    return PlayerMerged(seats, callers, given, merged, memberships)


def players_merged(*, keys: list[str]) -> dict[str, Player]:
    """Of `keys`, those merged into another player (`PlayerAlias`), each with the player it
    leads to now: what an import file naming an old key gets. One query."""
    if not keys:
        return {}
    aliases = PlayerAlias.objects.filter(key__in=keys).select_related("player")
    return {alias.key: alias.player for alias in aliases}
