"""Reads with logic: standings inputs and tables, game sheets. Each owns its joins."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby
from typing import Any

from django.db.models import Max, Prefetch, QuerySet
from django.utils.translation import gettext as _

from scoring.models import Game, Round, Standing
from scoring.rules import (
    ByeOutcome,
    MatchOutcome,
    Points,
    Replay,
    Result,
    RoundInput,
    RuleSet,
    RuleViolation,
    Side,
    StandingRow,
    check_game_totals,
    compute_standings,
    replay,
)
from tournaments.models import (
    Bye,
    Competition,
    Deduction,
    Entry,
    Match,
    Matchday,
    Player,
    SquadMember,
    Team,
)
from tournaments.schedules import club_movement

TEAM_JOINS = ("player_1", "player_2")


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that puts "Koppel 2" before "Koppel 10": digit runs compare as numbers."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part.casefold())
        for part in re.split(r"(\d+)", text)
        if part
    )


def competition_entries(*, competition: Competition) -> list[Entry]:
    """The entries of a competition in natural name order (the order inside a full tie,
    and round 1's seeding of a Swiss tournament)."""
    entries = list(competition.entries.select_related("team__player_1", "team__player_2", "club"))
    return sorted(entries, key=lambda entry: (natural_key(str(entry)), entry.pk))


@dataclass(frozen=True, slots=True)
class MatchScore:
    """A match's score so far: game points summed over its games, home and away.

    `*_kaps` / `*_baunies` count rounds won as kap (or kap_partner) / baunie per side;
    a match with reported totals has no games and so no kaps. `awaiting` counts finished
    games still waiting for confirmation (when the competition asks for it). `forfeit` is
    the side that forfeited ("home", "away", "both") or "", `forfeit_reason` why.
    """

    home_id: int
    away_id: int
    home: int = 0
    away: int = 0
    games: int = 0
    open_games: int = 0
    reported: bool = False
    home_kaps: int = 0
    away_kaps: int = 0
    home_baunies: int = 0
    away_baunies: int = 0
    awaiting: int = 0
    forfeit: str = ""
    forfeit_reason: str = ""

    @property
    def finished(self) -> bool:
        """Whether the match counts in the standings."""
        if self.forfeit or self.reported:
            return True
        return self.games > 0 and self.open_games == 0 and self.awaiting == 0


def forfeit_score(competition: Competition, forfeit: str) -> tuple[int, int]:
    """Game points (home, away) of a match forfeited by `forfeit` ("home", "away", "both"):
    the competition's forfeit score to the winner and to the side that forfeits."""
    win, lose = competition.forfeit_score_for, competition.forfeit_score_against
    return {"home": (lose, win), "away": (win, lose), "both": (lose, lose)}[forfeit]


def competition_match_scores(*, competition: Competition) -> dict[int, MatchScore]:
    """Every match's score by match id, in two queries (games, then matches).

    A forfeited match scores the competition's forfeit score (to the winner / to the side
    that forfeits), whatever was played.
    """
    sums: dict[int, list[int]] = defaultdict(lambda: [0] * 9)
    games = Game.objects.filter(match__matchday__competition=competition).values_list(
        "match_id",
        "a_is_home",
        "status",
        "confirmed_at",
        "score_a",
        "score_b",
        "kaps_a",
        "kaps_b",
        "baunies_a",
        "baunies_b",
    )
    confirming = competition.confirmation_required
    for match_id, a_is_home, status, confirmed_at, *per_team in games:
        row = sums[match_id]
        # per_team is (score, kaps, baunies) for a then b, interleaved: a, b, a, b, a, b.
        pairs = list(zip(per_team[0::2], per_team[1::2], strict=True))
        for index, (value_a, value_b) in enumerate(pairs):
            home, away = (value_a, value_b) if a_is_home else (value_b, value_a)
            row[2 * index] += home
            row[2 * index + 1] += away
        row[6] += 1
        row[7] += status == Game.Status.OPEN
        row[8] += confirming and status != Game.Status.OPEN and confirmed_at is None
    scores: dict[int, MatchScore] = {}
    matches = Match.objects.filter(matchday__competition=competition).values_list(
        "pk", "home_id", "away_id", "total_home", "total_away", "forfeit", "forfeit_reason"
    )
    for pk, home_id, away_id, total_home, total_away, forfeit, forfeit_reason in matches:
        (
            home,
            away,
            home_kaps,
            away_kaps,
            home_baunies,
            away_baunies,
            count,
            open_count,
            awaiting,
        ) = sums[pk]
        if forfeit:
            # Whatever was (or wasn't) played, a forfeited match is decided: nothing is open.
            home, away = forfeit_score(competition, forfeit)
            open_count = awaiting = 0
        elif total_home is not None and total_away is not None:
            scores[pk] = MatchScore(home_id, away_id, total_home, total_away, reported=True)
            continue
        scores[pk] = MatchScore(
            home_id,
            away_id,
            home,
            away,
            count,
            open_count,
            False,
            home_kaps,
            away_kaps,
            home_baunies,
            away_baunies,
            awaiting,
            forfeit,
            forfeit_reason if forfeit else "",
        )
    return scores


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A forfeit or a deduction shown under the standings, with its reason.

    `kind` is "forfeit" or "deduction"; `points` the competition points deducted (0 for a
    forfeit); `reason` the words the director or the rules gave.
    """

    entry_id: int
    kind: str
    points: int
    reason: str
    match_id: int | None = None


def competition_ineligible_players(*, competition: Competition) -> dict[int, dict[str, list[str]]]:
    """Players who played for a club without being on its squad for the season.

    Only for club competitions that require squads. By match id, then side ("home" /
    "away"), the names of the ineligible players, in three queries.
    """
    if competition.kind != Competition.Kind.CLUBS or not competition.squads_required:
        return {}
    on_squad = set(
        SquadMember.objects.filter(season=competition.season).values_list(
            "squad__club_id", "player_id"
        )
    )
    clubs = dict(Entry.objects.filter(competition=competition).values_list("pk", "club_id"))
    found: dict[int, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    games = Game.objects.filter(match__matchday__competition=competition).values_list(
        "match_id",
        "match__home_id",
        "match__away_id",
        "a_is_home",
        "team_a__player_1_id",
        "team_a__player_1__name",
        "team_a__player_2_id",
        "team_a__player_2__name",
        "team_b__player_1_id",
        "team_b__player_1__name",
        "team_b__player_2_id",
        "team_b__player_2__name",
    )
    for match_id, home_id, away_id, a_is_home, *players in games:
        team_a, team_b = players[:4], players[4:]
        home_team, away_team = (team_a, team_b) if a_is_home else (team_b, team_a)
        for side, entry_id, team in (("home", home_id, home_team), ("away", away_id, away_team)):
            club_id = clubs[entry_id]
            for player_id, name in ((team[0], team[1]), (team[2], team[3])):
                if (club_id, player_id) not in on_squad and name not in found[match_id][side]:
                    found[match_id][side].append(str(name))
    return {match_id: dict(sides) for match_id, sides in found.items()}


@dataclass(frozen=True, slots=True)
class StandingsInputs:
    """What the standings are computed from, and what the standings page shows beside them:
    the adjustments, the games still open and those awaiting confirmation."""

    outcomes: list[MatchOutcome]
    byes: list[ByeOutcome]
    deductions: dict[int, int]
    adjustments: list[Adjustment]
    open_games: int = 0
    awaiting: int = 0


def competition_standings_inputs(
    *, competition: Competition, scores: dict[int, MatchScore] | None = None
) -> StandingsInputs:
    """The finished matches, byes and deductions of a competition, in a few queries.

    `scores`: the competition's `competition_match_scores`, when the caller has them already.

    A match counts once it is forfeited, has reported totals, or games that are all over
    (and confirmed, when the competition asks for it). A side that fielded a player not on
    its club's squad loses the match by forfeit; if it lost anyway, it loses
    `ineligible_deduction` competition points instead (issue 3, squads).
    """
    if scores is None:
        scores = competition_match_scores(competition=competition)
    ineligible = competition_ineligible_players(competition=competition)
    outcomes: list[MatchOutcome] = []
    adjustments: list[Adjustment] = []
    deductions: dict[int, int] = defaultdict(int)
    for match_id, score in scores.items():
        if not score.finished:
            continue
        forfeit = score.forfeit
        if forfeit:
            for side in ("home", "away"):
                if forfeit in (side, "both"):
                    entry_id = score.home_id if side == "home" else score.away_id
                    adjustments.append(
                        Adjustment(entry_id, "forfeit", 0, score.forfeit_reason, match_id)
                    )
        elif match_id in ineligible:
            sides = ineligible[match_id]
            played = MatchOutcome(score.home_id, score.away_id, score.home, score.away).results()
            losing = {
                side
                for side, result in zip(("home", "away"), played, strict=True)
                if result == "loss"
            }
            for side, names in sides.items():
                entry_id = score.home_id if side == "home" else score.away_id
                reason = _("Ineligible: %(names)s not on the squad") % {"names": ", ".join(names)}
                if side in losing and len(sides) == 1:
                    deductions[entry_id] += competition.ineligible_deduction
                    adjustments.append(
                        Adjustment(
                            entry_id,
                            "deduction",
                            competition.ineligible_deduction,
                            reason,
                            match_id,
                        )
                    )
                else:
                    adjustments.append(Adjustment(entry_id, "forfeit", 0, reason, match_id))
            if len(sides) == 2:
                forfeit = "both"
            elif next(iter(sides)) not in losing:
                forfeit = next(iter(sides))
            if forfeit:
                home, away = forfeit_score(competition, forfeit)
                score = MatchScore(score.home_id, score.away_id, home, away, forfeit=forfeit)
        outcomes.append(
            MatchOutcome(
                home=score.home_id,
                away=score.away_id,
                home_points=score.home,
                away_points=score.away,
                home_kaps=score.home_kaps,
                away_kaps=score.away_kaps,
                home_baunies=score.home_baunies,
                away_baunies=score.away_baunies,
                forfeit=forfeit or None,
            )
        )
    byes = [
        ByeOutcome(
            entry=entry_id,
            result=competition.bye_result,
            points_for=competition.bye_score_for,
            points_against=competition.bye_score_against,
        )
        for entry_id in Bye.objects.filter(matchday__competition=competition).values_list(
            "entry_id", flat=True
        )
    ]
    for deduction in Deduction.objects.filter(competition=competition).order_by("created_at"):
        deductions[deduction.entry_id] += deduction.points
        adjustments.append(
            Adjustment(
                deduction.entry_id,
                "deduction",
                deduction.points,
                deduction.reason,
                deduction.match_id,
            )
        )
    return StandingsInputs(
        outcomes,
        byes,
        dict(deductions),
        adjustments,
        open_games=sum(score.open_games for score in scores.values()),
        awaiting=sum(score.awaiting for score in scores.values()),
    )


def competition_table(
    *, competition: Competition, tiebreaks: Sequence[str] | None = None
) -> list[StandingRow]:
    """The ranked table as it stands now, computed from the results (not the stored rows).

    `tiebreaks` defaults to the competition's own; Swiss pairing ranks on points and saldo.
    """
    entries = competition_entries(competition=competition)
    inputs = competition_standings_inputs(competition=competition)
    return compute_standings(
        [entry.pk for entry in entries],
        inputs.outcomes,
        scheme=competition.points_scheme,
        tiebreaks=competition.tiebreaks if tiebreaks is None else tiebreaks,
        byes=inputs.byes,
        deductions=inputs.deductions,
    )


def match_adjustments(
    *, match: Match, scores: dict[int, MatchScore] | None = None
) -> list[Adjustment]:
    """The forfeits (recorded, or derived from ineligible players) and deductions tied to
    one match, with their reasons: the standings' adjustments of that match.

    `scores`: the competition's `competition_match_scores`, when the caller has them already.
    """
    found = matches_adjustments(
        competition=match.matchday.competition, match_ids=[match.pk], scores=scores
    )
    return found.get(match.pk, [])


def matches_adjustments(
    *,
    competition: Competition,
    match_ids: Iterable[int],
    scores: dict[int, MatchScore] | None = None,
) -> dict[int, list[Adjustment]]:
    """The adjustments of some matches of a competition (a matchday's), by match id; see
    `match_adjustments`."""
    wanted = set(match_ids)
    found: dict[int, list[Adjustment]] = defaultdict(list)
    inputs = competition_standings_inputs(competition=competition, scores=scores)
    for adjustment in inputs.adjustments:
        if adjustment.match_id in wanted:
            found[adjustment.match_id].append(adjustment)
    return dict(found)


def club_koppels(*, entry: Entry, competition: Competition) -> QuerySet[Team]:
    """The koppels that may play for `entry`'s club in `competition`: both players of the
    club and, when the competition requires squads, both on the club's squad for its season.
    None for a pairs entry."""
    if entry.club_id is None:
        return Team.objects.none()
    teams = Team.objects.filter(player_1__club_id=entry.club_id, player_2__club_id=entry.club_id)
    if competition.squads_required:
        teams = teams.filter(
            player_1__squad_places__season=competition.season,
            player_1__squad_places__squad__club_id=entry.club_id,
        ).filter(
            player_2__squad_places__season=competition.season,
            player_2__squad_places__squad__club_id=entry.club_id,
        )
    return teams.select_related(*TEAM_JOINS).order_by("name", "key")


@dataclass(frozen=True, slots=True)
class Rematch:
    """A match of the matchday whose entries met before, on the matchdays numbered."""

    match: Match
    earlier: list[int]


@dataclass(frozen=True, slots=True)
class RepeatBye:
    """A bye of the matchday for an entry that had one before, on the matchdays numbered."""

    bye: Bye
    earlier: list[int]


@dataclass(frozen=True, slots=True)
class MatchdayProblems:
    """What the director should look at on a matchday: entries neither playing nor on a
    bye, matches without a table, rematches and second byes."""

    left_out: list[Entry]
    without_table: list[Match]
    rematches: list[Rematch]
    repeat_byes: list[RepeatBye]

    def __bool__(self) -> bool:
        return bool(self.left_out or self.without_table or self.rematches or self.repeat_byes)


def matchday_problems(*, matchday: Matchday) -> MatchdayProblems:
    """The problems of one matchday, in three queries (entries, matches, byes).

    A rematch is a pairing of two entries that met on an earlier matchday (in a double round
    robin: met twice already); a repeat bye one for an entry that had a bye on an earlier
    matchday (double round robin: two). Pairings themselves may allow both when nothing
    else was possible; the director decides.
    """
    competition = matchday.competition
    allowed = 2 if competition.schedule_format == Competition.Format.DOUBLE_ROUND_ROBIN else 1
    entries = competition_entries(competition=competition)
    by_id = {entry.pk: entry for entry in entries}
    matches: list[Match] = []
    met: dict[frozenset[int], list[int]] = defaultdict(list)
    for match in (
        Match.objects.filter(
            matchday__competition=competition, matchday__number__lte=matchday.number
        )
        .select_related("matchday")
        .order_by("table", "pk")
    ):
        if match.matchday_id == matchday.pk:
            match.home, match.away = by_id[match.home_id], by_id[match.away_id]
            matches.append(match)
        else:
            met[frozenset((match.home_id, match.away_id))].append(match.matchday.number)
    byes: list[Bye] = []
    had_bye: dict[int, list[int]] = defaultdict(list)
    for bye in Bye.objects.filter(
        matchday__competition=competition, matchday__number__lte=matchday.number
    ).select_related("matchday"):
        if bye.matchday_id == matchday.pk:
            bye.entry = by_id[bye.entry_id]
            byes.append(bye)
        else:
            had_bye[bye.entry_id].append(bye.matchday.number)
    busy = {bye.entry_id for bye in byes}
    for match in matches:
        busy |= {match.home_id, match.away_id}
    rematches = [
        Rematch(match, sorted(set(numbers)))
        for match in matches
        if len(numbers := met[frozenset((match.home_id, match.away_id))]) >= allowed
    ]
    repeat_byes = [
        RepeatBye(bye, sorted(set(numbers)))
        for bye in byes
        if len(numbers := had_bye[bye.entry_id]) >= allowed
    ]
    return MatchdayProblems(
        left_out=[entry for entry in entries if entry.pk not in busy],
        without_table=[match for match in matches if match.table is None],
        rematches=rematches,
        repeat_byes=repeat_byes,
    )


def competition_standings(*, competition: Competition) -> QuerySet[Standing]:
    """The stored standings rows, best first, with their entries' names joined."""
    return (
        Standing.objects.filter(competition=competition)
        .select_related("entry__team__player_1", "entry__team__player_2", "entry__club")
        .order_by("rank", "entry__team__key", "entry__club__name")
    )


def competition_standings_as_of(*, competition: Competition) -> datetime | None:
    """When the stored standings were computed; None when never."""
    stamp: datetime | None = Standing.objects.filter(competition=competition).aggregate(
        stamp=Max("computed_at")
    )["stamp"]
    return stamp


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of a score sheet: the round and the running score after it."""

    round: Round
    running: Points


def game_sheet(*, game: Game) -> list[SheetRow]:
    """The game's rounds in order, each with the running totals after it."""
    rows = []
    running = Points()
    for rnd in game.rounds.select_related("caller").order_by("number"):
        running = running + Points(rnd.points_a, rnd.points_b)
        rows.append(SheetRow(round=rnd, running=running))
    return rows


def game_detail(*, game_id: int) -> Game:
    """A game with its match, competition, koppels and seated players joined.

    Raises Game.DoesNotExist.
    """
    return Game.objects.select_related(
        "match__matchday__competition",
        "match__home__team",
        "match__home__club",
        "match__away__team",
        "match__away__club",
        "team_a__player_1",
        "team_a__player_2",
        "team_b__player_1",
        "team_b__player_2",
        "seat_1",
        "seat_2",
        "seat_3",
        "seat_4",
    ).get(pk=game_id)


def round_input(
    game: Game, *, result: str, side: str, caller_id: int | None, tricks: tuple[int, int] | None
) -> RoundInput:
    """A round as the engine takes it: result and side parsed, the caller as a seat (1–4).

    Raises RuleViolation: `result_unknown`, `seats_required` (a caller but no seats),
    `caller_not_at_table`.
    """
    try:
        result_value, side_value = Result(result), Side(side)
    except ValueError:
        raise RuleViolation("result_unknown", result=result, side=side) from None
    seat = None
    if caller_id is not None:
        seats = game.seats
        if None in seats:
            raise RuleViolation("seats_required")
        if caller_id not in seats:
            raise RuleViolation("caller_not_at_table", caller=caller_id)
        seat = seats.index(caller_id) + 1
    return RoundInput(result=result_value, side=side_value, caller=seat, tricks=tricks)


def game_round_inputs(game: Game, rounds: Sequence[Round]) -> list[RoundInput]:
    """The stored `rounds` of `game`, in the order given, as engine input."""
    return [
        round_input(game, result=r.result, side=r.side, caller_id=r.caller_id, tricks=r.tricks)
        for r in rounds
    ]


def game_next_caller(*, game: Game, rounds: Sequence[Round]) -> int | None:
    """The player id whose turn it is to call the next round (RULES.md "Who calls next").

    `rounds` are the game's stored rounds in order. None while the rotation is unknown
    (no caller recorded yet, no seats) or the game is over.
    """
    if None in game.seats:
        return None
    try:
        state = replay(game.match.matchday.competition.rule_set, game_round_inputs(game, rounds))
    except RuleViolation:
        return None  # stored rounds that no longer fit the rules: nobody to propose
    if state.state.finished or state.state.caller is None:
        return None
    return game.seats[state.state.caller - 1]


def competition_games_replay(
    *, competition: Competition, rules: RuleSet
) -> list[tuple[Game, list[Round], Replay | None]]:
    """Every game of a competition replayed under `rules`, in two queries.

    Returns (game, its rounds in order, the replay) per game; the replay is None for a game
    entered as totals (those are checked with `check_game_totals`). Used to try a change
    of rules before saving it, and to re-score the games after it.

    Raises RuleViolation from the first game that breaks `rules`, with `game` (its id) and,
    for a round, `round` added to the params.
    """
    games = list(
        Game.objects.filter(match__matchday__competition=competition)
        .select_related("match__matchday")
        .prefetch_related(Prefetch("rounds", queryset=Round.objects.order_by("number")))
        .order_by("match__matchday__number", "match_id", "sitting", "table")
    )
    replayed: list[tuple[Game, list[Round], Replay | None]] = []
    for game in games:
        rounds = list(game.rounds.all())
        try:
            if game.total_a is not None and game.total_b is not None:
                check_game_totals(game.total_a, game.total_b, rules)
                replayed.append((game, rounds, None))
                continue
            played = replay(rules, game_round_inputs(game, rounds))
            if game.status == Game.Status.CLOSED and not played.state.finished:
                played = Replay(state=played.state.close(), points=played.points)
        except RuleViolation as exc:
            raise exc.at(game=game.pk) from None
        replayed.append((game, rounds, played))
    return replayed


def game_setup_check(
    *,
    match: Match,
    team_a: Team,
    team_b: Team,
    seats: Sequence[Player | None],
    game: Game | None = None,
    table: int | None = None,
    sitting: int | None = None,
) -> bool:
    """Check who plays a game before it is saved; returns whether koppel A plays for home.

    Koppel A and B are the match's two koppels (pairs) or one koppel of each club (club
    match); seats are all four players clockwise or none, seats 1 and 3 being koppel A
    (RULES.md "Terms"); a match with reported totals takes no games; a pairs game sits at
    its match's table in sitting 1, a club-match game within the competition's sittings
    and tables; and once a game has rounds, its match, koppels and seats stay as they are
    (the rounds depend on them).

    Raises RuleViolation: `match_reported_totals`, `game_same_koppel`,
    `koppel_not_in_match` (param koppel), `seats_incomplete`, `seats_do_not_fit`,
    `game_place_not_in_match` (params table, sitting), `game_has_rounds_setup`.
    """
    if match.total_home is not None:
        raise RuleViolation("match_reported_totals")
    competition = match.matchday.competition
    if table is not None and sitting is not None:
        if competition.kind == Competition.Kind.PAIRS:
            fits = sitting == 1 and (match.table is None or table == match.table)
        else:
            fits = sitting <= competition.sittings and table <= competition.koppels_per_side
        if not fits:
            raise RuleViolation("game_place_not_in_match", table=table, sitting=sitting)
    if team_a.pk == team_b.pk:
        raise RuleViolation("game_same_koppel")
    home, away = match.home, match.away

    def plays_for(team: Team, entry: Entry) -> bool:
        if entry.team_id is not None:
            return team.pk == entry.team_id
        clubs = {team.player_1.club_id, team.player_2.club_id}
        return clubs == {entry.club_id}

    if plays_for(team_a, home) and plays_for(team_b, away):
        a_is_home = True
    elif plays_for(team_a, away) and plays_for(team_b, home):
        a_is_home = False
    else:
        outsider = team_b if plays_for(team_a, home) or plays_for(team_a, away) else team_a
        raise RuleViolation("koppel_not_in_match", koppel=str(outsider))

    given = [seat for seat in seats if seat is not None]
    if given and len(given) != 4:
        raise RuleViolation("seats_incomplete")
    if given:
        ids = [seat.pk for seat in given]
        if {ids[0], ids[2]} != team_a.player_ids or {ids[1], ids[3]} != team_b.player_ids:
            raise RuleViolation("seats_do_not_fit")

    if game is not None and game.pk is not None and game.rounds.exists():
        stored = Game.objects.get(pk=game.pk)
        before = (stored.match_id, stored.team_a_id, stored.team_b_id, stored.seats)
        after = (
            match.pk,
            team_a.pk,
            team_b.pk,
            tuple(seat.pk if seat else None for seat in seats),
        )
        if before != after:
            raise RuleViolation("game_has_rounds_setup")
    return a_is_home


@dataclass(frozen=True, slots=True)
class SittingScore:
    """One sitting of a club match: its games, the match score after it, and the koppels
    that sit out (facing an empty place: they score nothing this sitting)."""

    number: int
    games: list[Game]
    home: int
    away: int
    running_home: int
    running_away: int
    sits_out: list[Team] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class MatchMovement:
    """How a club match's stored lineup was played: the movement ran over `tables` koppels
    a side for `sittings` sittings (`planned`: the competition's number); `sits_out` by
    sitting number the koppels facing an empty place."""

    tables: int
    sittings: int
    planned: int
    sits_out: dict[int, list[Team]]

    @property
    def capped(self) -> bool:
        """Fewer sittings than the competition plans: too few koppels a side for them."""
        return 0 < self.sittings < self.planned


def match_movement(*, match: Match) -> MatchMovement | None:
    """The movement of a club match from its stored lineup (`Match.lineup`), in one query.

    None for a pairs match or a match without a stored lineup (imported or reported data).
    """
    competition = match.matchday.competition
    lineup = match.lineup or {}
    if competition.kind != Competition.Kind.CLUBS or not lineup:
        return None
    home = [t for t in lineup.get("home") or [] if t is not None]
    away = [t for t in lineup.get("away") or [] if t is not None]
    late = {int(team_id): sitting for team_id, sitting in (lineup.get("late") or {}).items()}
    tables = max(len(home), len(away))
    sittings = min(competition.sittings, tables)
    if not home or not away:
        return MatchMovement(tables, 0, competition.sittings, {})
    try:
        movement = club_movement(
            home + [None] * (tables - len(home)),
            away + [None] * (tables - len(away)),
            sittings=sittings,
            late=late,
        )
    except RuleViolation:
        return None  # a lineup the movement no longer takes: show the games only
    idle: dict[int, list[int]] = {}
    for number, places in enumerate(movement, start=1):
        alone = [
            koppel
            for place in places
            if (place.home is None) != (place.away is None)
            for koppel in (place.home, place.away)
            if koppel is not None
        ]
        if alone:
            idle[number] = alone
    teams = (
        Team.objects.select_related(*TEAM_JOINS).in_bulk({k for ks in idle.values() for k in ks})
        if idle
        else {}
    )
    sits_out = {
        number: [teams[koppel] for koppel in koppels if koppel in teams]
        for number, koppels in idle.items()
    }
    return MatchMovement(tables, sittings, competition.sittings, sits_out)


@dataclass(frozen=True, slots=True)
class TopKoppel:
    """The koppel of one side with the most game points in a match."""

    team: Team
    points: int


def match_sittings(
    *, games: Sequence[Game], movement: MatchMovement | None = None
) -> tuple[list[SittingScore], dict[str, TopKoppel]]:
    """Per sitting the games, the running match score and who sits out (from `movement`);
    the top koppel of each side, once a game has points.

    `games` are ordered by sitting and table. A koppel's points are the game points it
    scored in all its games of the match.
    """
    sits_out = movement.sits_out if movement is not None else {}
    by_sitting = {
        number: list(group) for number, group in groupby(games, key=lambda game: game.sitting)
    }
    sittings: list[SittingScore] = []
    running = [0, 0]
    by_koppel: dict[str, dict[int, list[Any]]] = {"home": {}, "away": {}}
    scored = False
    for number in sorted(set(by_sitting) | set(sits_out)):
        played = by_sitting.get(number, [])
        home = away = 0
        for game in played:
            home_team, away_team = (
                (game.team_a, game.team_b) if game.a_is_home else (game.team_b, game.team_a)
            )
            home_points, away_points = (
                (game.score_a, game.score_b) if game.a_is_home else (game.score_b, game.score_a)
            )
            home += home_points
            away += away_points
            scored = scored or bool(home_points or away_points)
            for side, team, points in (
                ("home", home_team, home_points),
                ("away", away_team, away_points),
            ):
                slot = by_koppel[side].setdefault(team.pk, [team, 0])
                slot[1] += points
        running[0] += home
        running[1] += away
        sittings.append(
            SittingScore(
                number, played, home, away, running[0], running[1], sits_out.get(number, [])
            )
        )
    top: dict[str, TopKoppel] = {}
    for side, koppels in by_koppel.items():
        if koppels and scored:
            # Most points first; on a tie, the koppel that played first (stable order).
            team, points = max(koppels.values(), key=lambda slot: slot[1])
            top[side] = TopKoppel(team, points)
    return sittings, top
