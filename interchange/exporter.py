"""Export: `competition_export(competition=…)` gives the interchange format back.

Importing a file and exporting the competition returns the file (up to the order of keys in
objects), as long as the file leaves out the optional keys that hold their default value:
those are exported only when they differ from it (`interchange.constants`).

The export reads the rows it needs in a fixed number of queries (`_entries`, `_games`,
`_squads`, `_rounds_by_game`, …), collects the clubs, players and koppels they use
(`_people_used`), and writes each object of the document from its row (`_game_export`,
`_match_export`, …).

A player's `club` is the club they played for in this competition (`_clubs_played_for`,
issue 10), not their club of today: a competition exported after a transfer still says
where its games were played, and importing the export gives the same clubs at the time.
"""

from __future__ import annotations

import datetime
from typing import Any

from interchange.constants import (
    CLUB_MATCH_FIELDS,
    EXTRA_RULE_DEFAULTS,
    FORMAT,
    FORMAT_DEFAULTS,
    LINEUP_REASON_PREFIX,
)
from interchange.stages import stages_export
from interchange.withdrawals import withdrawal_settings_export, withdrawals_export
from scoring.models import Game, Round
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
from tournaments.models.competitions import time_zone_default


def competition_export(*, competition: Competition) -> dict[str, Any]:
    """The competition as a `troefclub-competition/1` document (a dict ready for JSON).

    Lists come in the order they were created (an imported file's order); clubs, players
    and koppels are those the competition uses (squad members included). Ten queries
    whatever the size.
    """
    entries = _entries(competition)
    games = _games(competition)
    squads = _squads(competition, entries)
    played_for = _clubs_played_for(competition, entries, games)
    clubs, players, teams = _people_used(entries, games, squads, played_for)
    document: dict[str, Any] = {
        "format": FORMAT,
        "competition": _competition_export(competition),
        "clubs": [{"key": c.key, "name": c.name} for _pk, c in sorted(clubs.items())],
        "players": [
            {"key": p.key, "name": p.name, "club": _club_key(played_for.get(p.pk, p.club))}
            for _pk, p in sorted(players.items())
        ],
        "teams": [_team_export(t) for _pk, t in sorted(teams.items())],
        "entries": [entry.key for entry in entries],
        "matchdays": _matchdays_export(competition, games),
    }
    deductions = _deductions(competition)
    if deductions:
        document["deductions"] = [_deduction_export(d) for d in deductions]
    if squads:
        document["squads"] = [_squad_export(squad) for squad in squads]
    withdrawals = withdrawals_export(competition)
    if withdrawals:
        document["withdrawals"] = withdrawals
    document.update(stages_export(competition))
    return document


def _competition_export(competition: Competition) -> dict[str, Any]:
    """The `competition` object: names, kind, rules, standings and the formats."""
    return {
        "slug": competition.slug,
        "name": competition.name,
        "season": competition.season,
        "kind": competition.kind,
        "rules": _rules_export(competition),
        "standings": {
            "win": competition.points_win,
            "draw": competition.points_draw,
            "loss": competition.points_loss,
            "tiebreaks": list(competition.tiebreaks),
        },
        **_formats_export(competition),
        **_withdrawal_settings(competition),
    }


def _withdrawal_settings(competition: Competition) -> dict[str, Any]:
    settings = withdrawal_settings_export(competition)
    return {"withdrawal": settings} if settings else {}


# ------------------------------------------------------------------ the rows read


def _entries(competition: Competition) -> list[Entry]:
    """The competition's entries with their koppels' players or their clubs, and the clubs
    a koppel's entry kept for its players (one query)."""
    return list(
        competition.entries.select_related(
            "club",
            "team__player_1__club",
            "team__player_2__club",
            "player_1_club",
            "player_2_club",
        ).order_by("pk")
    )


def _games(competition: Competition) -> list[Game]:
    """The competition's games with their match, koppels and seats (one query)."""
    seat_fields = ("seat_1__club", "seat_2__club", "seat_3__club", "seat_4__club")
    return list(
        Game.objects.filter(match__matchday__competition=competition)
        .select_related(
            "match",
            "team_a__player_1__club",
            "team_a__player_2__club",
            "team_b__player_1__club",
            "team_b__player_2__club",
            *seat_fields,
        )
        .order_by("pk")
    )


def _squads(competition: Competition, entries: list[Entry]) -> list[Squad]:
    """A clubs competition's squads of its entries for its season, with their members
    (two queries); none for a pairs competition."""
    if competition.kind != Competition.Kind.CLUBS:
        return []
    return list(
        Squad.objects.filter(
            season=competition.season, club__in=[e.club_id for e in entries if e.club_id]
        )
        .select_related("club")
        .prefetch_related("members__player__club")
        .order_by("pk")
    )


def _squad_members(squad: Squad) -> list[SquadMember]:
    """A squad's members in the order they were added (prefetched: no query)."""
    return sorted(squad.members.all(), key=lambda member: member.pk)


def _clubs_played_for(
    competition: Competition, entries: list[Entry], games: list[Game]
) -> dict[int, Club | None]:
    """The club each player played for in the competition, by player id (None: no club),
    for the players whose club at the time is known; the others (in a clubs competition, a
    squad member who played no game) are exported with their club of today. No query.

    - Pairs: the club the koppel's entry kept for the player (`Entry.player_1_club` /
      `player_2_club`). A player in two koppels whose entries kept different clubs gets
      the club of the first of those entries (in `entries` order): the format has one club
      a player (docs/interchange.md "Clubs at the time").
    - Clubs: the club of the side the player's koppel played for (the match's home or away
      entry); a player who played for two clubs gets the club of their first game.
    """
    played_for: dict[int, Club | None] = {}
    if competition.kind == Competition.Kind.PAIRS:
        for entry in entries:
            if entry.team is not None:
                played_for.setdefault(entry.team.player_1_id, entry.player_1_club)
                played_for.setdefault(entry.team.player_2_id, entry.player_2_club)
        return played_for
    side_club = {entry.pk: entry.club for entry in entries}
    for game in games:
        home, away = side_club[game.match.home_id], side_club[game.match.away_id]
        club_a, club_b = (home, away) if game.a_is_home else (away, home)
        for team, club in ((game.team_a, club_a), (game.team_b, club_b)):
            played_for.setdefault(team.player_1_id, club)
            played_for.setdefault(team.player_2_id, club)
    return played_for


def _club_key(club: Club | None) -> str | None:
    return club.key if club is not None else None


def _people_used(
    entries: list[Entry],
    games: list[Game],
    squads: list[Squad],
    played_for: dict[int, Club | None],
) -> tuple[dict[int, Club], dict[int, Player], dict[int, Team]]:
    """The clubs, players and koppels the competition uses, by id: its entries, the koppels
    and seats of its games, their players, the squads' members, and the club each player is
    exported with (`played_for`, else their club of today)."""
    teams: dict[int, Team] = {}
    players: dict[int, Player] = {}
    clubs: dict[int, Club] = {}
    for entry in entries:
        if entry.team:
            teams[entry.team.pk] = entry.team
        if entry.club:
            clubs[entry.club.pk] = entry.club
    for game in games:
        teams[game.team_a.pk] = game.team_a
        teams[game.team_b.pk] = game.team_b
        for seat in (game.seat_1, game.seat_2, game.seat_3, game.seat_4):
            if seat is not None:
                players[seat.pk] = seat
    for team in teams.values():
        players[team.player_1.pk] = team.player_1
        players[team.player_2.pk] = team.player_2
    for squad in squads:
        for member in _squad_members(squad):
            players[member.player.pk] = member.player
    for player in players.values():
        club = played_for.get(player.pk, player.club)
        if club is not None:
            clubs[club.pk] = club
    return clubs, players, teams


def _rounds_by_game(competition: Competition) -> dict[int, list[dict[str, Any]]]:
    """The rounds of the competition's games as the file gives them, by game id (one
    query)."""
    rounds: dict[int, list[dict[str, Any]]] = {}
    for game_id, result, side, caller, tricks_a, tricks_b in (
        Round.objects.filter(game__match__matchday__competition=competition)
        .order_by("game_id", "number")
        .values_list("game_id", "result", "side", "caller__key", "tricks_a", "tricks_b")
    ):
        row: dict[str, Any] = {"result": result, "side": side}
        if caller is not None:
            row["caller"] = caller
        if tricks_a is not None:
            row["tricks"] = [tricks_a, tricks_b]
        rounds.setdefault(game_id, []).append(row)
    return rounds


def _byes_by_matchday(competition: Competition) -> dict[int, list[Any]]:
    """The byes as the file gives them (an entry key, or an object with its reason), by
    matchday id (one query)."""
    byes: dict[int, list[Any]] = {}
    for bye in (
        Bye.objects.filter(matchday__competition=competition)
        .select_related("entry__team", "entry__club")
        .order_by("pk")
    ):
        value: Any = bye.entry.key
        if bye.reason:
            value = {"entry": bye.entry.key, "reason": bye.reason}
        byes.setdefault(bye.matchday_id, []).append(value)
    return byes


def _deductions(competition: Competition) -> list[Deduction]:
    """The competition's deductions, voided ones too, with their entries and matches (one
    query)."""
    return list(
        Deduction.objects.filter(competition=competition)
        .select_related(
            "entry__team",
            "entry__club",
            "match__matchday",
            "match__home__team",
            "match__home__club",
            "match__away__team",
            "match__away__club",
        )
        .order_by("pk")
    )


# ------------------------------------------------------------------ the objects written


def _matchdays_export(competition: Competition, games: list[Game]) -> list[dict[str, Any]]:
    """The `matchdays` with their matches, games, rounds and byes (four queries)."""
    matchdays = list(competition.matchdays.order_by("number"))
    matches = list(
        Match.objects.filter(matchday__competition=competition)
        .select_related("matchday", "home__team", "home__club", "away__team", "away__club")
        .order_by("pk")
    )
    # Which voided match each replay replays (issue 22), named as the file names matches.
    replayed = {match.replayed_by_id: match for match in matches if match.replayed_by_id}
    rounds = _rounds_by_game(competition)
    byes = _byes_by_matchday(competition)
    games_by_match: dict[int, list[Game]] = {}
    for game in games:
        games_by_match.setdefault(game.match_id, []).append(game)
    matches_by_day: dict[int, list[dict[str, Any]]] = {}
    for match in matches:
        row = _match_export(match, games_by_match.get(match.pk), rounds)
        if match.pk in replayed:
            original = replayed[match.pk]
            row["replay_of"] = {"matchday": original.matchday.number, "match": original.slug}
        matches_by_day.setdefault(match.matchday_id, []).append(row)
    return [
        _matchday_export(md, matches_by_day.get(md.pk, []), byes.get(md.pk)) for md in matchdays
    ]


def _matchday_export(
    md: Matchday, matches: list[dict[str, Any]], byes: list[Any] | None
) -> dict[str, Any]:
    row: dict[str, Any] = {
        "number": md.number,
        "date": md.date.isoformat() if md.date else None,
        "matches": matches,
    }
    if md.time is not None:
        row["time"] = md.time.strftime("%H:%M:%S" if md.time.second else "%H:%M")
    if byes is not None:
        row["byes"] = byes
    if md.override_reason:
        row["override_reason"] = md.override_reason
    return row


def _match_export(
    match: Match, games: list[Game] | None, rounds: dict[int, list[dict[str, Any]]]
) -> dict[str, Any]:
    row: dict[str, Any] = {"home": match.home.key, "away": match.away.key}
    if games is not None:
        row["games"] = [_game_export(game, rounds.get(game.pk, [])) for game in games]
    elif match.has_reported_totals:
        row["totals"] = [match.total_home, match.total_away]
    if match.table is not None:
        row["table"] = match.table
    if match.forfeit:
        row["forfeit"] = _forfeit_export(match)
    if match.pairing_reason:
        row["pairing_reason"] = match.pairing_reason
    if match.voided_at is not None:
        row["voided"] = _voided_export(match.voided_at, match.void_reason)
    return row


def _voided_export(at: datetime.datetime, reason: str) -> dict[str, Any]:
    """A voided deduction's, match's or game's `voided` (kept, not left out: an export is
    also the backup taken before a --replace)."""
    return {"at": at.astimezone(datetime.UTC).isoformat(), "reason": reason}


def _forfeit_export(match: Match) -> dict[str, Any]:
    """A forfeited match's `forfeit`. Its `cause` is left out when it is the default (the
    director's), unless the reason starts with "lineup:": the import reads a forfeit without
    a cause and with that reason as the lineup's (a file from before the cause was a field).
    """
    row: dict[str, Any] = {"side": match.forfeit, "reason": match.forfeit_reason}
    if match.forfeit_cause != Match.ForfeitCause.DIRECTOR or match.forfeit_reason.startswith(
        LINEUP_REASON_PREFIX
    ):
        row["cause"] = match.forfeit_cause
    return row


def _game_export(game: Game, rounds: list[dict[str, Any]]) -> dict[str, Any]:
    row: dict[str, Any] = {
        "table": game.table,
        "sitting": game.sitting,
        "team_a": game.team_a.key,
        "team_b": game.team_b.key,
    }
    if game.seat_1 is not None:
        row["seats"] = [
            seat.key for seat in (game.seat_1, game.seat_2, game.seat_3, game.seat_4) if seat
        ]
    if game.by_totals:
        row["totals"] = [game.total_a, game.total_b]
    else:
        row["rounds"] = rounds
    if game.status == Game.Status.CLOSED:
        row["closed"] = True
    if game.confirmed_at is not None:
        row["confirmed"] = True
    if game.voided_at is not None:
        row["voided"] = _voided_export(game.voided_at, game.void_reason)
    return row


def _deduction_export(deduction: Deduction) -> dict[str, Any]:
    row: dict[str, Any] = {
        "entry": deduction.entry.key,
        "points": deduction.points,
        "reason": deduction.reason,
    }
    if deduction.match is not None:
        row["matchday"] = deduction.match.matchday.number
        row["match"] = deduction.match.slug
    if deduction.voided_at is not None:
        row["voided"] = _voided_export(deduction.voided_at, deduction.void_reason)
    return row


def _squad_export(squad: Squad) -> dict[str, Any]:
    return {
        "club": squad.club.key,
        "season": squad.season,
        "locked_on": squad.locked_on.isoformat() if squad.locked_on else None,
        "players": [member.player.key for member in _squad_members(squad)],
    }


def _team_export(team: Team) -> dict[str, Any]:
    row: dict[str, Any] = {"key": team.key, "players": [team.player_1.key, team.player_2.key]}
    if team.name:
        row["name"] = team.name
    return row


# ------------------------------------------------------------------ the settings


def _rules_export(competition: Competition) -> dict[str, Any]:
    """`competition.rules`: DESIGN.md's members always, the optional ones when they differ
    from their defaults."""
    rules: dict[str, Any] = {
        "target_score": competition.target_score,
        "fixed_rounds": competition.fixed_rounds,
        "kap_partner_allowed": competition.kap_partner_allowed,
        "stinkende_bonus": {
            "kap": competition.stinkende_kap_bonus,
            "baunie": competition.stinkende_baunie_bonus,
        },
        "redeal_allowed": competition.redeal_allowed,
    }
    for name, default in EXTRA_RULE_DEFAULTS.items():
        value = getattr(competition, name)
        if value != default:
            rules[name] = value
    return rules


def _formats_export(competition: Competition) -> dict[str, Any]:
    """The competition-format keys that differ from their defaults (objects: members too)."""
    default = FORMAT_DEFAULTS
    row: dict[str, Any] = {}
    # The site's own zone is the default an import gives a file without the key.
    if competition.time_zone != time_zone_default():
        row["time_zone"] = competition.time_zone
    if competition.schedule_format != default["schedule_format"]:
        row["schedule"] = competition.schedule_format
    bye: dict[str, Any] = {}
    if competition.bye_result != default["bye_result"]:
        bye["result"] = competition.bye_result
    bye_score = [competition.bye_score_for, competition.bye_score_against]
    if bye_score != [default["bye_score_for"], default["bye_score_against"]]:
        bye["score"] = bye_score
    if bye:
        row["bye"] = bye
    forfeit_score = [competition.forfeit_score_for, competition.forfeit_score_against]
    if forfeit_score != [default["forfeit_score_for"], default["forfeit_score_against"]]:
        row["forfeit_score"] = forfeit_score
    club = _club_matches_export(competition)
    if club:
        row["club_matches"] = club
    for name in ("squads_required", "ineligible_deduction", "confirmation_required"):
        if getattr(competition, name) != default[name]:
            row[name] = getattr(competition, name)
    return row


def _club_matches_export(competition: Competition) -> dict[str, Any]:
    """`competition.club_matches`: the members that differ from their defaults;
    min_koppels and sittings default to at most `koppels` (as the import reads them)."""
    koppels = competition.koppels_per_side
    club: dict[str, Any] = {}
    for key, name in CLUB_MATCH_FIELDS.items():
        default = FORMAT_DEFAULTS[name]
        if name in ("min_koppels", "sittings"):
            default = min(default, koppels)
        if getattr(competition, name) != default:
            club[key] = getattr(competition, name)
    return club
