"""Import: `competition_import(data=…)` writes one checked document into the database.

All or nothing: it runs in one transaction and raises `InterchangeError(place, message)` on
the first problem, so nothing is saved. The whole document's structure is checked first
(`interchange.parse.document_check`); then the clubs, players and koppels are
made or reused, the competition, its entries, squads, matchdays, byes and matches written,
and the results checked in document order by the rules engine and the checks the
`scoring.services` and `tournaments.services` writes use, and written in bulk
(`interchange.load`); a rule violation becomes an `InterchangeError` naming the
place (`matchday 2, match kampoe-toppers, game table 3, round 5`) and the rule broken
(`troefclub.rule_messages.rule_message`).

A key that already exists in the database is reused; a file that contradicts it (a player
with another club, a koppel with other players) is refused; a different name does not count
as a contradiction and the stored name is kept.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import models, transaction
from django.utils.translation import gettext as _

from interchange.document import _Document
from interchange.errors import InterchangeError
from interchange.exporter import competition_export
from interchange.load import results_load, rows_create
from interchange.parse import document_check
from interchange.stages import stages_delete, stages_import
from interchange.voids import voids_apply
from interchange.withdrawals import withdrawals_load
from rankings.merge import players_merged
from rankings.season_refresh import season_rankings_refresh_on_commit
from rankings.services import ratings_refresh_on_commit
from scoring.models import Game, Round, Standing
from scoring.rules import RuleViolation
from scoring.services.standings import standings_rebuild
from tournaments.models import (
    Bye,
    Club,
    Competition,
    Deduction,
    Entry,
    Match,
    Matchday,
    Player,
    Squad,
    SquadMember,
    Team,
)
from troefclub.analyze import tables_analyze_on_commit, written_tables
from troefclub.rule_messages import rule_message

# Every table an import writes (with their history tables): ANALYZEd after its commit
# (issue 20, `troefclub.analyze`).
IMPORT_WRITES = (
    Club, Player, Team, Competition, Entry, Squad, SquadMember,
    Matchday, Match, Bye, Game, Round, Deduction, Standing,
)  # fmt: skip


def _check_existing(doc: _Document) -> tuple[dict[str, Club], dict[str, Player], dict[str, Team]]:
    """The clubs, players and koppels the database already has under the file's keys.

    Refuses a file that contradicts them (a koppel with other players). A player the file
    gives another club than today's is no contradiction: the file says where the player
    played in its competition (an old season's file after a transfer, issue 10); that club
    goes to the koppel's entry (`_entries_create`) and `Player.club` stays today's. Three
    queries.
    """
    clubs = {club.key: club for club in Club.objects.filter(key__in=list(doc.clubs))}
    players = {player.key: player for player in Player.objects.filter(key__in=list(doc.players))}
    # A key merged into another player's (issue 22, `rankings.merge`) is that player.
    merged = players_merged(keys=[key for key in doc.players if key not in players])
    for old, player in merged.items():
        if player.key in doc.players:
            raise InterchangeError(
                f"players[{old}]",
                _("player “%(old)s” was merged into “%(key)s”, which this file names too")
                % {"old": old, "key": player.key},
            )
    players.update(merged)
    teams = {
        team.key: team
        for team in Team.objects.filter(key__in=list(doc.teams)).select_related(
            "player_1", "player_2"
        )
    }
    for key, team in teams.items():
        stored_players = {team.player_1.key, team.player_2.key}
        if stored_players != {players[p].key if p in players else p for p in doc.teams[key][:2]}:
            raise InterchangeError(
                f"teams[{key}]",
                _("koppel “%(key)s” is registered as %(stored)s, not %(given)s as this file says")
                % {
                    "key": key,
                    "stored": " & ".join(sorted(stored_players)),
                    "given": " & ".join(doc.teams[key][:2]),
                },
            )
    return clubs, players, teams


M = TypeVar("M", bound=models.Model)


def _create_missing(model: type[M], existing: dict[str, M], new: list[M]) -> dict[str, M]:
    """Insert `new` in one query; return every record by key (existing and new)."""
    model.objects.bulk_create(new)  # type: ignore[attr-defined]
    if any(obj.pk is None for obj in new):  # a backend that can't return ids
        new = list(model.objects.filter(key__in=[obj.key for obj in new]))  # type: ignore[attr-defined]
    return {**existing, **{obj.key: obj for obj in new}}  # type: ignore[attr-defined]


def _delete_competition(competition: Competition) -> None:
    """Delete a competition and its schedule and results (clubs, players, koppels and squads
    stay)."""
    stages_delete(competition)
    Deduction.objects.filter(competition=competition).delete()
    Bye.objects.filter(matchday__competition=competition).delete()
    Round.objects.filter(game__match__matchday__competition=competition).delete()
    Game.objects.filter(match__matchday__competition=competition).delete()
    Match.objects.filter(matchday__competition=competition).delete()
    Matchday.objects.filter(competition=competition).delete()
    Standing.objects.filter(competition=competition).delete()
    Entry.objects.filter(competition=competition).delete()
    competition.delete()


class _Unchanged(Exception):
    """A replacing import made the competition that was there already: undone."""


# What an import may add beside the competition's own rows: a replacing import that added
# none of these and made the same competition changed nothing.
_PEOPLE: tuple[type[models.Model], ...] = (Club, Player, Team, Squad, SquadMember)


def _comparable(document: Any) -> Any:
    """`document` as JSON reads it back (lists, not tuples), to compare two documents."""
    return json.loads(json.dumps(document))


@transaction.atomic
def competition_import(
    *,
    data: dict[str, Any],
    replace: bool = False,
    progress: Callable[[str], None] | None = None,
) -> Competition:
    """Import one `troefclub-competition/1` document (parsed JSON); returns the competition.

    All or nothing, in one transaction. With `replace`, a competition with the same slug is
    deleted first (its directors carry over); without it, an existing slug is refused.
    A replacement that holds what the competition holds already (the same file imported
    again, or the competition's own export) leaves it as it is and returns it: nothing is
    written, no history row, no refresh, and its games keep their ids and table links
    (issue 19). That is decided before anything is written when the file is the
    competition's export, else after the import, which is then undone.

    The results are checked as the services check them and written in bulk
    (`interchange.load`); `progress`, when given, is told how far a long import
    is (a line at most every few seconds). Standings are rebuilt before returning, in the
    same transaction, so no standings refresh is queued; a ratings refresh and one of the
    season's rankings are, for after the commit (`rankings.services.ratings_refresh_on_commit`,
    `rankings.season_refresh.season_rankings_refresh_on_commit`), and so is an ANALYZE of
    every table written (`troefclub.analyze`, issue 20: the evening's pages are planned with
    statistics that know the imported rows).

    Raises InterchangeError(place, message) on the first problem; nothing is saved then.
    """
    doc = document_check(data)
    old = _competition_existing(doc, replace=replace)
    if old is None:
        return _competition_write(doc, None, progress)
    held = _comparable(competition_export(competition=old))
    if _comparable(data) == held:
        return old
    old_pk = old.pk
    people = [model._default_manager.count() for model in _PEOPLE]
    try:
        with transaction.atomic():
            competition = _competition_write(doc, old, progress)
            if (
                people == [model._default_manager.count() for model in _PEOPLE]
                and _comparable(competition_export(competition=competition)) == held
            ):
                raise _Unchanged
    except _Unchanged:
        return Competition.objects.get(pk=old_pk)
    return competition


def _competition_write(
    doc: _Document, old: Competition | None, progress: Callable[[str], None] | None
) -> Competition:
    """Write `doc` in place of `old` (None: no competition has its slug)."""
    clubs, players, teams = _check_existing(doc)
    directors: list[int] = []
    if old is not None:
        if old.season != doc.competition.get("season", ""):
            # A replaced competition's games leave its season's rankings.
            season_rankings_refresh_on_commit(season=old.season)
        directors = list(old.directors.values_list("pk", flat=True))
        _delete_competition(old)
    clubs, players, teams = _people_create(doc, clubs, players, teams)
    competition = Competition.objects.create(**doc.competition)
    if directors:
        competition.directors.add(*directors)
    entries = _entries_create(doc, competition, clubs, teams)
    _import_squads(doc, clubs, players)
    _schedule_create(doc, competition, entries)
    # Looked up when called: the bulk writer's tests put the services' writer in its place.
    results_load(
        doc=doc,
        competition=competition,
        teams=teams,
        players=players,
        entries=entries,
        progress=progress,
    )
    withdrawals_load(doc, entries)
    voids_apply(doc)  # voided matches and games, replays linked (issue 22)
    stages_import(doc.stages, competition, entries)
    standings_rebuild(competition_id=competition.pk)
    ratings_refresh_on_commit()  # its games (and a replaced competition's) move the ratings
    tables_analyze_on_commit(tables=written_tables(IMPORT_WRITES))
    season_rankings_refresh_on_commit(season=competition.season)  # and its season's rankings
    return competition


def _competition_existing(doc: _Document, *, replace: bool) -> Competition | None:
    """The stored competition with the document's slug, None if there is none; refused
    unless it may be replaced."""
    slug = doc.competition["slug"]
    old = Competition.objects.filter(slug=slug).first()
    if old is not None and not replace:
        raise InterchangeError(
            "competition",
            _(
                "a competition “%(slug)s” exists already; import it with --replace to "
                "overwrite it, or with --skip-existing to leave it as it is"
            )
            % {"slug": slug},
        )
    return old


def _people_create(
    doc: _Document,
    clubs: dict[str, Club],
    players: dict[str, Player],
    teams: dict[str, Team],
) -> tuple[dict[str, Club], dict[str, Player], dict[str, Team]]:
    """The document's clubs, players and koppels the database doesn't have yet, made (a
    query each); returns every one of them by key."""
    clubs = _create_missing(
        Club, clubs, [Club(key=k, name=n) for k, n in doc.clubs.items() if k not in clubs]
    )
    players = _create_missing(
        Player,
        players,
        [
            Player(key=k, name=name, club=clubs[club] if club else None)
            for k, (name, club) in doc.players.items()
            if k not in players
        ],
    )
    teams = _create_missing(
        Team,
        teams,
        [
            Team(key=k, name=name, player_1=players[p1], player_2=players[p2])
            for k, (p1, p2, name) in doc.teams.items()
            if k not in teams
        ],
    )
    return clubs, players, teams


def _entries_create(
    doc: _Document, competition: Competition, clubs: dict[str, Club], teams: dict[str, Team]
) -> dict[str, Entry]:
    """The competition's entries (koppels or clubs, as its kind says), by key.

    A koppel's entry keeps the club each player played for in this competition (issue 10):
    the file's club for the player, or, for a player the file doesn't list, their club now.
    """
    pairs = competition.kind == Competition.Kind.PAIRS

    def club_id(player: Player) -> int | None:
        if player.key not in doc.players:
            return player.club_id
        club = doc.players[player.key][1]
        return clubs[club].pk if club else None

    entries = [
        Entry(
            competition=competition,
            team=teams[key],
            player_1_club_id=club_id(teams[key].player_1),
            player_2_club_id=club_id(teams[key].player_2),
        )
        if pairs
        else Entry(competition=competition, club=clubs[key])
        for key in doc.entries
    ]
    Entry.objects.bulk_create(entries)
    if any(entry.pk is None for entry in entries):
        entries = list(competition.entries.select_related("team", "club"))
    return {entry.key: entry for entry in entries}


def _schedule_create(doc: _Document, competition: Competition, entries: dict[str, Entry]) -> None:
    """The document's matchdays, byes and matches (`_Matchday.instance`,
    `_Match.instance`), before their results."""
    for matchday in doc.matchdays:
        matchday.instance = Matchday(
            competition=competition,
            number=matchday.number,
            date=matchday.date,
            time=matchday.time,
            override_reason=matchday.override_reason,
        )
    Matchday.objects.bulk_create([md.instance for md in doc.matchdays if md.instance])
    # With history, like every write of a result: the audit trail shows imported byes too.
    rows_create(
        Bye,
        [
            Bye(matchday=md.instance, entry=entries[entry], reason=reason)
            for md in doc.matchdays
            for entry, reason in md.byes
        ],
    )
    all_matches = [match for md in doc.matchdays for match in md.matches]
    for md in doc.matchdays:
        for match in md.matches:
            match.instance = Match(
                matchday=md.instance,
                home=entries[match.home],
                away=entries[match.away],
                table=match.table,
                pairing_reason=match.pairing_reason,
            )
    rows_create(Match, [m.instance for m in all_matches if m.instance])


def _import_squads(doc: _Document, clubs: dict[str, Club], players: dict[str, Player]) -> None:
    """The file's squads and their members, written directly: a lock date in the past must
    not stop an import of history. A squad already stored (club and season) is reused and
    keeps its lock date; a player on another club's squad that season is refused."""
    if not doc.squads:
        return
    season = doc.competition["season"]
    stored = {
        squad.club_id: squad
        for squad in Squad.objects.filter(
            season=season, club__in=[clubs[s.club] for s in doc.squads]
        )
    }
    members = {
        member.player_id: member
        for member in SquadMember.objects.filter(
            season=season,
            player__in=[players[key] for squad in doc.squads for key in squad.players],
        ).select_related("squad__club", "player")
    }
    new_members = []
    for item in doc.squads:
        club = clubs[item.club]
        squad = stored.get(club.pk)
        if squad is None:
            squad = Squad.objects.create(club=club, season=season, locked_on=item.locked_on)
        for key in item.players:
            player = players[key]
            member = members.get(player.pk)
            if member is None:
                new_members.append(SquadMember(squad=squad, player=player, season=season))
            elif member.squad_id != squad.pk:
                exc = RuleViolation(
                    "player_on_other_squad",
                    player=f"{player.name} ({player.key})",
                    club=str(member.squad.club),
                    season=season,
                )
                raise InterchangeError(item.place, rule_message(exc), code=exc.code)
    SquadMember.objects.bulk_create(new_members)


def competition_counts(*, competition: Competition) -> dict[str, int]:
    """How many matchdays, matches, games, rounds, standings rows, byes and deductions a
    competition has."""
    return {
        "matchdays": Matchday.objects.filter(competition=competition).count(),
        "matches": Match.objects.filter(matchday__competition=competition).count(),
        "games": Game.objects.filter(match__matchday__competition=competition).count(),
        "rounds": Round.objects.filter(game__match__matchday__competition=competition).count(),
        "standings": Standing.objects.filter(competition=competition).count(),
        "byes": Bye.objects.filter(matchday__competition=competition).count(),
        "deductions": Deduction.objects.filter(competition=competition).count(),
    }
