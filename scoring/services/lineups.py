"""Writes of a club match's lineup: its koppels per sitting, checked against the squads and
the movement, and the games that follow from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from scoring.models import Game
from scoring.rules import Forfeit, RuleViolation, sitting_koppels_violations
from scoring.services.matches import forfeit_reason_short, match_not_voided
from scoring.services.refresh import standings_refresh_on_commit
from scoring.services.schedule import games_have_results
from scoring.tokens import match_token
from tournaments.models import Competition, Match, SquadMember, Team
from tournaments.schedules import club_movement
from tournaments.services.locks import matchday_locked
from troefclub.writes import trigger_violations

# A game wanted: (sitting, table, home koppel id, away koppel id).
WantedGame = tuple[int, int, int, int]

# Where a game that moves waits while the others move (`_lineup_games_apply`): a sitting no
# match has, one per game, so neither "one game a table a sitting" nor "a koppel at one
# table a sitting" sees two games there. Never committed.
PARKED_SITTING = 10_000


@trigger_violations
@transaction.atomic
def club_match_lineup_set(
    *,
    match_id: int,
    home_teams: Sequence[int | None],
    away_teams: Sequence[int | None],
    late: Mapping[int, int] | None = None,
    seen: str,
) -> Match:
    """Set the koppels of a club match, store the lineup and create its games by the movement.

    `home_teams` / `away_teams` hold one koppel id (or None for an empty place) per place,
    `koppels_per_side` places a side; `late` maps a koppel id to the first sitting it plays
    (at most `late_koppel_until_sitting`). The games follow the movement (`_lineup_games`);
    a side with fewer than `min_koppels` koppels forfeits the match until a lineup fields
    enough (`_lineup_forfeit`). When the competition requires squads, every player must be
    on their club's squad for the season. The lineup is kept on the match (`Match.lineup`,
    as `_lineup_stored` shapes it).

    `seen` (required) is the `match_token` of the director's page: a lineup, forfeit or
    games changed meanwhile are not overwritten (`match_changed_meanwhile`); a stale form
    asking for the lineup stored already (sent twice) changes nothing.

    What stays stays (issue 19): the games are compared with the stored ones
    (`_lineup_games_plan`), and a game whose two koppels still meet keeps its row, seats,
    first caller and table links (printed QR codes), moved to its new sitting and table if
    the movement put it elsewhere; only the games of pairings that are gone are deleted and
    only new pairings made. A lineup that changes nothing (the form saved again) writes
    nothing: no row, no history, no standings refresh.

    Locks the matchday, the match, then the match's games (the order of the schedule
    services, the games' as every game write takes them): a round being recorded through
    a table link meanwhile is waited for, then seen (`match_has_results`), never deleted
    from under it; a round sent while this runs waits, then finds its game kept, or its
    link gone (`scoring.services.table.link_locked`: `link_invalid`).

    Raises RuleViolation: `match_unknown`, `not_a_club_match`, `match_changed_meanwhile`,
    `match_has_results`, `lineup_wrong_size` (params side, size), `lineup_empty` (no koppel
    on either side: set a forfeit instead), `koppel_not_of_club` (params koppel, club),
    `koppel_not_on_squad` (params koppel, players, club), `koppel_twice`,
    `late_not_allowed`, `late_too_late` (params koppel, sitting, until), the movement's
    `movement_late_sitting` / `movement_too_few_koppels` (a late sitting beyond the match's
    sittings, a side with nobody at the first sitting), and `koppel_twice_in_sitting`
    (params koppel, sitting: at a table of another match of the matchday, `_sittings_check`).
    """
    match = _club_match_locked(match_id)
    competition = match.matchday.competition
    late = dict(late or {})
    if _lineup_sent_twice(match, seen, home_teams, away_teams, late):
        return match
    stored = list(Game.objects.select_for_update(of=("self",)).filter(match=match).order_by("pk"))
    _lineup_unplayed(match)  # after the games' locks: a round in flight has committed
    teams = _lineup_koppels(match, home_teams, away_teams)
    if competition.squads_required:
        _lineup_on_squads(competition, match, home_teams, away_teams, teams)
    _lineup_late_check(competition, late, teams)
    games = _lineup_games(competition, home_teams, away_teams, late)
    _sittings_check(match, [(sitting, home, away) for sitting, _table, home, away in games])
    plan = _lineup_games_plan(stored, games)
    fields = ["forfeit", "forfeit_reason", "forfeit_cause", "lineup"]
    before = [getattr(match, name) for name in fields]
    match.lineup = _lineup_stored(home_teams, away_teams, late, competition.koppels_per_side)
    _lineup_forfeit(match, home_teams, away_teams)
    match_changed = [getattr(match, name) for name in fields] != before
    if not (plan.changes or match_changed):
        return match  # the lineup stored, saved again: nothing to write
    _lineup_games_apply(match, plan)
    if match_changed:
        match.save(update_fields=fields)
    standings_refresh_on_commit(competition.pk)
    return match


def _club_match_locked(match_id: int) -> Match:
    """The match `match_id` of a club competition, locked, with its matchday's competition
    and both entries' clubs joined.

    Its matchday is locked first, as the schedule services lock it before a match
    (`matchday_entries_swap`): the games this write makes take the matchday's lock too
    (the database's trigger), and taken after the match's it could deadlock with a swap.

    Raises RuleViolation: `match_unknown`, `not_a_club_match`, `match_voided`,
    `match_changed_meanwhile` (the match moved to another matchday meanwhile).
    """
    matchday_id = Match.objects.filter(pk=match_id).values_list("matchday_id", flat=True).first()
    if matchday_id is None:
        raise RuleViolation("match_unknown", match=match_id)
    matchday_locked(matchday_id)
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("matchday__competition", "home__club", "away__club")
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        raise RuleViolation("match_unknown", match=match_id)
    if match.matchday_id != matchday_id:
        raise RuleViolation("match_changed_meanwhile")
    if match.matchday.competition.kind != Competition.Kind.CLUBS:
        raise RuleViolation("not_a_club_match")
    match_not_voided(match)
    return match


def _lineup_sent_twice(
    match: Match,
    seen: str,
    home_teams: Sequence[int | None],
    away_teams: Sequence[int | None],
    late: Mapping[int, int],
) -> bool:
    """Whether the lineup asked for is a stale form sent again: `seen` (the `match_token`
    of the director's page) is not the locked `match`'s token, and the match's lineup is
    already the one asked for. False when `seen` is current.

    Raises RuleViolation: `match_changed_meanwhile` (stale, asking for another lineup).
    """
    if seen == match_token(match, match.games.values_list("pk", flat=True)):
        return False
    size = match.matchday.competition.koppels_per_side
    if match.lineup == _lineup_stored(home_teams, away_teams, late, size):
        return True
    raise RuleViolation("match_changed_meanwhile")


def _lineup_unplayed(match: Match) -> None:
    """Refuse a new lineup for a match with reported totals or a game with a result: a
    forfeit may be lifted by a better lineup, but played games are never thrown away.

    Raises RuleViolation: `match_has_results`.
    """
    if match.total_home is not None or games_have_results([match]):
        raise RuleViolation("match_has_results")


def _lineup_koppels(
    match: Match, home_teams: Sequence[int | None], away_teams: Sequence[int | None]
) -> dict[int, Team]:
    """The koppels of the lineup by id (their players joined), checked: no koppel twice,
    `koppels_per_side` places a side, both players of each koppel of the side's club, and
    a koppel on at least one side.

    Raises RuleViolation: `koppel_twice`, `lineup_wrong_size` (params side: "home" or
    "away", size), `koppel_not_of_club` (params koppel, club), `lineup_empty`.
    """
    size = match.matchday.competition.koppels_per_side
    chosen = [t for t in (*home_teams, *away_teams) if t is not None]
    if len(chosen) != len(set(chosen)):
        raise RuleViolation("koppel_twice")
    teams = {
        team.pk: team
        for team in Team.objects.select_related("player_1", "player_2").filter(pk__in=chosen)
    }
    for side, lineup, entry in (("home", home_teams, match.home), ("away", away_teams, match.away)):
        if len(lineup) != size:
            raise RuleViolation("lineup_wrong_size", side=side, size=size)
        for team_id in lineup:
            if team_id is None:
                continue
            team = teams.get(team_id)
            club_id = entry.club_id
            if team is None or {team.player_1.club_id, team.player_2.club_id} != {club_id}:
                raise RuleViolation(
                    "koppel_not_of_club", koppel=str(team or team_id), club=str(entry)
                )
    if not chosen:
        # Both sides empty is the form's default ("— nobody —" everywhere), not a decision:
        # saved, it would forfeit both clubs. A double forfeit is set as a forfeit.
        raise RuleViolation("lineup_empty")
    return teams


def _lineup_late_check(
    competition: Competition, late: Mapping[int, int], teams: Mapping[int, Team]
) -> None:
    """Check `late` (koppel id: the first sitting it plays) against the competition's
    `late_koppel_until_sitting` and the lineup's koppels `teams` (by id).

    Raises RuleViolation: `late_not_allowed` (the competition has no late koppels),
    `late_too_late` (params koppel, sitting, until: a sitting outside 1..until, or a
    koppel not in the lineup).
    """
    until = competition.late_koppel_until_sitting
    for team_id, sitting in late.items():
        if until is None:
            raise RuleViolation("late_not_allowed")
        if not 1 <= sitting <= until or team_id not in teams:
            raise RuleViolation(
                "late_too_late",
                koppel=str(teams.get(team_id, team_id)),
                sitting=sitting,
                until=until,
            )


def _lineup_games(
    competition: Competition,
    home_teams: Sequence[int | None],
    away_teams: Sequence[int | None],
    late: Mapping[int, int],
) -> list[WantedGame]:
    """The games of a lineup by the movement (`tournaments.schedules.club_movement`), as
    (sitting, table, home koppel id, away koppel id).

    Each side's koppels move to the front places and the movement runs over as many tables
    as the bigger side fields: every sitting the away koppels move one table on, so each
    home koppel meets different away koppels. With fewer koppels a side than the
    competition's sittings, the match has only that many sittings (one more would bring a
    home koppel back to an away koppel it met). A koppel facing an empty place (the smaller
    side, or a koppel not yet arrived) sits out that sitting and scores nothing. A side
    that fields nobody forfeits (`_lineup_forfeit`): no games.

    Raises RuleViolation: `movement_late_sitting`, `movement_too_few_koppels`.
    """
    home_fielded = [t for t in home_teams if t is not None]
    away_fielded = [t for t in away_teams if t is not None]
    if not (home_fielded and away_fielded):
        return []
    tables = max(len(home_fielded), len(away_fielded))
    sittings = club_movement(
        home_fielded + [None] * (tables - len(home_fielded)),
        away_fielded + [None] * (tables - len(away_fielded)),
        sittings=min(competition.sittings, tables),
        late=late,
    )
    return [
        (number, place.table, place.home, place.away)
        for number, sitting_tables in enumerate(sittings, start=1)
        for place in sitting_tables
        if place.home is not None and place.away is not None
    ]


@dataclass
class _GamesPlan:
    """How a match's stored games become the games a lineup wants (`_lineup_games_plan`):
    `moved` (game, sitting, table) keep their row at a new place, `removed` go, `created`
    are made (sitting, table, home koppel id, away koppel id); the other stored games stay
    as they are."""

    moved: list[tuple[Game, int, int]] = field(default_factory=list)
    removed: list[Game] = field(default_factory=list)
    created: list[WantedGame] = field(default_factory=list)

    @property
    def changes(self) -> bool:
        return bool(self.moved or self.removed or self.created)


def _home_away(game: Game) -> tuple[int, int]:
    """(home koppel id, away koppel id) of a stored game."""
    if game.a_is_home:
        return game.team_a_id, game.team_b_id
    return game.team_b_id, game.team_a_id


def _lineup_games_plan(stored: Sequence[Game], wanted: Sequence[WantedGame]) -> _GamesPlan:
    """What to do to the `stored` games of a match (oldest first) so it has the `wanted`
    ones (sitting, table, home koppel id, away koppel id).

    A game is its two koppels in this match: a stored game is kept for a wanted one with
    the same home koppel and the same away koppel, whatever its sitting and table (the
    movement meets each pair at most once a match). Kept, its seats, first caller, table
    links and history stay with it: they are those two koppels' (seats 1 and 3 are koppel
    A's players, a link says which of the two koppels the phone is). A game already at the
    wanted sitting and table stays as it is; another is moved there. A game whose koppels
    don't both stay is never given other koppels: it is deleted, its links with it (a
    printed code then opens nothing rather than another koppel's game), and the new pairing
    is a new game with new links. Keeping the row would keep the links of one koppel but
    not the other, the old seats would be wrong players, and its history would read as one
    game played by three koppels.
    """
    waiting: dict[tuple[int, int], list[Game]] = {}
    for game in stored:
        waiting.setdefault(_home_away(game), []).append(game)
    plan = _GamesPlan()
    elsewhere: list[WantedGame] = []
    for sitting, table, home, away in wanted:
        games = waiting.get((home, away), [])
        here = next((g for g in games if (g.sitting, g.table) == (sitting, table)), None)
        if here is not None:
            games.remove(here)  # stays as it is
        else:
            elsewhere.append((sitting, table, home, away))
    for sitting, table, home, away in elsewhere:
        games = waiting.get((home, away), [])
        if games:
            plan.moved.append((games.pop(0), sitting, table))
        else:
            plan.created.append((sitting, table, home, away))
    plan.removed = [game for games in waiting.values() for game in games]
    return plan


def _lineup_games_apply(match: Match, plan: _GamesPlan) -> None:
    """Carry out `plan` on the match's locked games (none has a result:
    `_lineup_unplayed`): the gone games deleted (their links with them), the moved ones
    put at their new sitting and table, the new ones made (the home koppel as koppel A).
    One history row for each game deleted, moved or made; none for a game that stays.

    The moving games wait at `PARKED_SITTING` first (one update each, no history: never
    committed), so that no game moves onto a place or a koppel another one still holds: a
    unique constraint and the database's trigger check each row as it is written.
    """
    if plan.removed:
        Game.objects.filter(pk__in=[game.pk for game in plan.removed]).delete()
    for offset, (game, _sitting, _table) in enumerate(plan.moved):
        Game.objects.filter(pk=game.pk).update(sitting=PARKED_SITTING + offset)
    for game, sitting, table in plan.moved:
        game.sitting, game.table = sitting, table
        game.save(update_fields=["sitting", "table"])
    for sitting, table, home, away in plan.created:
        Game.objects.create(
            match=match,
            sitting=sitting,
            table=table,
            team_a_id=home,
            team_b_id=away,
            a_is_home=True,
        )


def _lineup_forfeit(
    match: Match, home_teams: Sequence[int | None], away_teams: Sequence[int | None]
) -> None:
    """Set (unsaved) the forfeit the lineup makes on `match`.

    A side with fewer than `min_koppels` koppels forfeits the match (DESIGN.md club
    competitions; issue 3), both sides short: both forfeit. It is a forfeit caused by the
    lineup (`Match.ForfeitCause.LINEUP`, the reason from `forfeit_reason_short`), lifted again by
    a lineup that fields enough koppels. A forfeit the director set stays as it is, reason
    included, whatever the lineup (a short lineup used to overwrite it, and a full one then
    lifted it: the director's walk-over was lost).
    """
    if match.forfeit and match.forfeit_cause != Match.ForfeitCause.LINEUP:
        # The director (or a withdrawal, issue 22) decided the match; a lineup neither
        # replaces nor lifts that.
        return
    competition = match.matchday.competition
    short = [
        side
        for side, lineup in ((Forfeit.HOME, home_teams), (Forfeit.AWAY, away_teams))
        if sum(t is not None for t in lineup) < competition.min_koppels
    ]
    if short:
        match.forfeit = Forfeit.BOTH if len(short) == 2 else short[0]
        match.forfeit_reason = forfeit_reason_short(competition, home_teams, away_teams, short)
        match.forfeit_cause = Match.ForfeitCause.LINEUP
    elif match.forfeit and match.forfeit_cause == Match.ForfeitCause.LINEUP:
        match.forfeit, match.forfeit_reason = "", ""
        match.forfeit_cause = Match.ForfeitCause.DIRECTOR


def _lineup_stored(
    home_teams: Sequence[int | None],
    away_teams: Sequence[int | None],
    late: Mapping[int, int],
    size: int,
) -> dict[str, Any]:
    """The lineup as `Match.lineup` keeps it: {"home": [...], "away": [...], "late":
    {"<team id>": sitting}}, each side's `size` places as played (its koppels to the front
    places, then None)."""
    home = [t for t in home_teams if t is not None]
    away = [t for t in away_teams if t is not None]
    return {
        "home": home + [None] * (size - len(home)),
        "away": away + [None] * (size - len(away)),
        "late": {str(team_id): sitting for team_id, sitting in sorted(late.items())},
    }


def _sittings_check(match: Match, games: Sequence[tuple[int, int, int]]) -> None:
    """The one check of a koppel's tables (`scoring.rules.sitting_koppels_check`) over the
    games of `match`'s matchday once `games` (sitting, koppel A id, koppel B id) replace
    the match's own. The other matches' games are stored and stay: a fault among them alone
    doesn't stop this write.

    Raises RuleViolation: `koppel_twice_in_sitting` (params koppel, named, and sitting),
    `game_same_koppel`.
    """
    others = list(
        Game.objects.filter(match__matchday_id=match.matchday_id)
        .exclude(match=match)
        .order_by("pk")
        .values_list("sitting", "team_a_id", "team_b_id")
    )
    for violation in sitting_koppels_violations([*others, *games]):
        if violation.params["index"] >= len(others):
            koppel = violation.params.get("koppel")
            if koppel is None:
                raise violation
            team = Team.objects.select_related("player_1", "player_2").filter(pk=koppel).first()
            raise violation.at(koppel=str(team or koppel))


def _lineup_on_squads(
    competition: Competition,
    match: Match,
    home_teams: Sequence[int | None],
    away_teams: Sequence[int | None],
    teams: Mapping[int, Team],
) -> None:
    """Refuse a koppel with a player not on their club's squad for the competition's season."""
    on_squad = set(
        SquadMember.objects.filter(
            season=competition.season,
            squad__club_id__in=[match.home.club_id, match.away.club_id],
        ).values_list("squad__club_id", "player_id")
    )
    for lineup, entry in ((home_teams, match.home), (away_teams, match.away)):
        for team_id in lineup:
            if team_id is None:
                continue
            team = teams[team_id]
            missing = [
                player.name
                for player in (team.player_1, team.player_2)
                if (entry.club_id, player.pk) not in on_squad
            ]
            if missing:
                raise RuleViolation(
                    "koppel_not_on_squad",
                    koppel=str(team),
                    players=", ".join(missing),
                    club=str(entry),
                )
