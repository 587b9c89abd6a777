"""Stored faults (`manage.py check_results`): every stored result and standings row checked
against the rules again, each problem named where a director finds it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from scoring.engine_inputs import game_round_inputs
from scoring.models import STANDING_COLUMNS, Game, Round, Standing
from scoring.rules import (
    Points,
    RuleSet,
    RuleViolation,
    found_at_bye,
    matchday_places_violations,
    pairs_match_games_violations,
    replay,
    sitting_koppels_violations,
)
from scoring.selectors.standings import competition_table
from tournaments.models import Bye, Competition, Entry, Match
from tournaments.selectors import competition_entries, koppel_entry_players


@dataclass(frozen=True, slots=True)
class ResultProblem:
    """A stored fault that `manage.py check_results` lists: `place` names where, as the
    importer does (`matchday 3, match a-b, game table 2, round 5`), and `violation` what
    (worded by `troefclub.rule_messages.rule_message`)."""

    place: str
    violation: RuleViolation


# Game fields the services derive from the rounds (or the entered totals).
GAME_DERIVED_FIELDS = ("score_a", "score_b", "kaps_a", "kaps_b", "baunies_a", "baunies_b", "status")


def competition_result_problems(*, competition: Competition) -> list[ResultProblem]:
    """Every stored fault in a competition's schedule, results and standings (issue 6).

    The rules are the engine's, checked over what is stored, in a few queries:

    - who plays where, each matchday (`scoring.rules.matchday_places_violations`): an entry
      of another competition, an entry with two places (a bye included), a player in two
      entries of the matchday's matches (both of one match, or two matches);
    - the games (`pairs_match_games_violations`, `sitting_koppels_violations`): a pairs
      match with more than one game, or none while it has no reported totals and no
      forfeit; a game of koppels that are not the pairs match's; a koppel at two tables in
      a sitting of a matchday;
    - a match with reported totals and games with rounds (the rounds don't count);
    - a game whose score, kaps, baunies or status, or a round whose points, differ from a
      replay of its rounds through the engine (from its totals, for a game entered as
      totals), and rounds the engine refuses under the competition's rules;
    - standings rows that differ from a fresh computation (`competition_table`).

    Entries and koppels are named by key; an entry of another competition as
    "key (its competition's slug)". Returns [] for a competition with nothing wrong.
    """
    problems = _places_problems(competition)
    problems += _game_problems(competition)
    problems += _standings_problems(competition)
    return problems


def _matchday_place(number: int) -> str:
    return _("matchday %(number)s") % {"number": number}


def _match_place(match: Match, names: dict[int, str]) -> str:
    slug = f"{names[match.home_id]}-{names[match.away_id]}"
    return ", ".join((_matchday_place(match.matchday.number), _("match %(slug)s") % {"slug": slug}))


def _entry_names(competition: Competition, ids: Iterable[int]) -> dict[int, str]:
    """Entry id -> key; "key (slug)" for an entry of another competition."""
    names: dict[int, str] = {}
    for entry in Entry.objects.filter(pk__in=set(ids)).select_related(
        "team", "club", "competition"
    ):
        names[entry.pk] = (
            entry.key
            if entry.competition_id == competition.pk
            else f"{entry.key} ({entry.competition.slug})"
        )
    return names


def _named(violation: RuleViolation, names: dict[Any, str], keys: Sequence[str]) -> RuleViolation:
    """`violation` with the ids in `keys` of its params (single, or (home, away) places)
    replaced by names."""
    params = dict(violation.params)
    for key in keys:
        value = params.get(key)
        if isinstance(value, tuple):
            params[key] = tuple(names.get(item, item) for item in value)
        elif value is not None:
            params[key] = names.get(value, value)
    return RuleViolation(violation.code, **params)


def _places_problems(competition: Competition) -> list[ResultProblem]:
    matches = list(
        Match.objects.filter(matchday__competition=competition)
        .select_related("matchday")
        .order_by("matchday__number", "pk")
    )
    byes = list(
        Bye.objects.filter(matchday__competition=competition)
        .select_related("matchday")
        .order_by("matchday__number", "pk")
    )
    ours = set(competition.entries.values_list("pk", flat=True))
    names = _entry_names(
        competition,
        [*(m.home_id for m in matches), *(m.away_id for m in matches), *(b.entry_id for b in byes)],
    )
    players, player_names = koppel_entry_players(
        [i for m in matches for i in (m.home_id, m.away_id)]
    )
    day_matches_of: dict[int, list[Match]] = defaultdict(list)
    day_byes_of: dict[int, list[Bye]] = defaultdict(list)
    for match in matches:
        day_matches_of[match.matchday.number].append(match)
    for bye in byes:
        day_byes_of[bye.matchday.number].append(bye)
    problems: list[ResultProblem] = []
    for number in sorted(day_matches_of.keys() | day_byes_of.keys()):
        day_matches, day_byes = day_matches_of[number], day_byes_of[number]
        for violation in matchday_places_violations(
            [(m.home_id, m.away_id) for m in day_matches],
            [b.entry_id for b in day_byes],
            entries=ours,
            players=players,
        ):
            params = violation.params
            index = params["index"]
            if found_at_bye(violation):
                bye = day_byes[index]
                place = ", ".join(
                    (_matchday_place(number), _("bye %(entry)s") % {"entry": names[bye.entry_id]})
                )
            else:
                place = _match_place(day_matches[index], names)
            named = _named(violation, names, ("entry", "first", "second", "match"))
            named = _named(named, player_names, ("player",))
            problems.append(ResultProblem(place, named))
    return problems


def _problem_game_place(game: Game, match_place: str, sittings: bool) -> str:
    if sittings:
        name = _("game sitting %(sitting)s table %(table)s") % {
            "sitting": game.sitting,
            "table": game.table,
        }
    else:
        name = _("game table %(table)s") % {"table": game.table}
    return f"{match_place}, {name}"


def _game_problems(competition: Competition) -> list[ResultProblem]:
    matches = list(
        Match.objects.filter(matchday__competition=competition)
        .select_related("matchday", "home__team", "away__team")
        .order_by("matchday__number", "table", "pk")
    )
    games = list(
        Game.objects.filter(match__matchday__competition=competition)
        .select_related("team_a", "team_b")
        .prefetch_related(Prefetch("rounds", queryset=Round.objects.order_by("number")))
        .order_by("sitting", "table", "pk")
    )
    by_match: dict[int, list[Game]] = defaultdict(list)
    for game in games:
        by_match[game.match_id].append(game)
    names = _entry_names(competition, [i for m in matches for i in (m.home_id, m.away_id)])
    koppels = {g.team_a_id: g.team_a.key for g in games} | {
        g.team_b_id: g.team_b.key for g in games
    }
    for match in matches:
        for entry in (match.home, match.away):
            if entry.team is not None:
                koppels[entry.team.pk] = entry.team.key
    pairs = competition.kind == Competition.Kind.PAIRS
    rules = competition.rule_set
    problems: list[ResultProblem] = []
    places: dict[int, str] = {}
    by_matchday: dict[int, list[tuple[Game, str]]] = defaultdict(list)
    for match in matches:
        match_place = _match_place(match, names)
        match_games = by_match[match.pk]
        sittings = len({game.sitting for game in match_games}) > 1
        for game in match_games:
            places[game.pk] = _problem_game_place(game, match_place, sittings)
            by_matchday[match.matchday_id].append((game, places[game.pk]))
        if pairs:
            problems += _pairs_match_problems(match, match_games, match_place, places, koppels)
        if match.total_home is not None and any(g.rounds.all() for g in match_games):
            problems.append(ResultProblem(match_place, RuleViolation("match_totals_and_rounds")))
        for game in match_games:
            problems += _game_replay_problems(game, places[game.pk], rules)
    for seated in by_matchday.values():
        for violation in sitting_koppels_violations(
            [(game.sitting, game.team_a_id, game.team_b_id) for game, _place in seated]
        ):
            place = seated[violation.params["index"]][1]
            problems.append(ResultProblem(place, _named(violation, koppels, ("koppel",))))
    return problems


def _pairs_match_problems(
    match: Match,
    games: list[Game],
    match_place: str,
    places: dict[int, str],
    koppels: dict[int, str],
) -> list[ResultProblem]:
    problems: list[ResultProblem] = []
    if match.home.team_id is None or match.away.team_id is None:
        return problems  # a club entry in a pairs competition: nothing to compare with
    needs_game = match.total_home is None and not match.forfeit
    for violation in pairs_match_games_violations(
        match.home.team_id,
        match.away.team_id,
        [(game.team_a_id, game.team_b_id) for game in games],
        complete=needs_game,
    ):
        index = violation.params.get("index")
        place = places[games[index].pk] if index is not None else match_place
        named = _named(violation, koppels, ("koppel", "home", "away"))
        problems.append(ResultProblem(place, named))
    return problems


def _game_replay_problems(game: Game, place: str, rules: RuleSet) -> list[ResultProblem]:
    """A game's derived fields (and its rounds' points) against the engine's replay."""
    rounds = list(game.rounds.all())
    if game.total_a is not None and game.total_b is not None:
        expected: dict[str, Any] = {
            "score_a": game.total_a,
            "score_b": game.total_b,
            "kaps_a": 0,
            "kaps_b": 0,
            "baunies_a": 0,
            "baunies_b": 0,
            "status": Game.Status.FINISHED,
        }
        points: Sequence[Points] = []
    else:
        try:
            game_replay = replay(
                rules, game_round_inputs(game, rounds), first_caller=game.first_caller
            )
        except RuleViolation as exc:
            number = exc.params.get("round")
            where = f"{place}, {_('round %(number)s') % {'number': number}}" if number else place
            params = {key: value for key, value in exc.params.items() if key != "round"}
            return [ResultProblem(where, RuleViolation(exc.code, **params))]
        state = game_replay.state
        if game.status == Game.Status.CLOSED and not state.finished:
            state = state.close()  # the director's close stands (scoring.services.games._replay)
        status = (
            Game.Status.CLOSED
            if state.closed
            else Game.Status.FINISHED
            if state.finished
            else Game.Status.OPEN
        )
        expected = {
            "score_a": state.score.a,
            "score_b": state.score.b,
            "kaps_a": state.kaps.a,
            "kaps_b": state.kaps.b,
            "baunies_a": state.baunies.a,
            "baunies_b": state.baunies.b,
            "status": status,
        }
        points = game_replay.points
    problems = [
        ResultProblem(
            place,
            RuleViolation(
                "game_score_differs",
                field=getattr(Game._meta.get_field(name), "verbose_name", name),
                stored=getattr(game, name),
                replayed=value,
            ),
        )
        for name, value in expected.items()
        if getattr(game, name) != value
    ]
    for rnd, awarded in zip(rounds, points, strict=False):
        if (rnd.points_a, rnd.points_b) != (awarded.a, awarded.b):
            problems.append(
                ResultProblem(
                    f"{place}, {_('round %(number)s') % {'number': rnd.number}}",
                    RuleViolation(
                        "game_score_differs",
                        field=_("points"),
                        stored=f"{rnd.points_a}–{rnd.points_b}",
                        replayed=f"{awarded.a}–{awarded.b}",
                    ),
                )
            )
    return problems


def _standings_problems(competition: Competition) -> list[ResultProblem]:
    # The rebuild's own list of columns (`STANDING_COLUMNS`): check what it writes, all of it.
    place = _("standings")
    try:
        rows = competition_table(competition=competition)
    except RuleViolation as exc:
        return [ResultProblem(place, exc)]
    stored = {
        standing.entry_id: standing
        for standing in Standing.objects.filter(competition=competition).select_related(
            "entry__team", "entry__club"
        )
    }
    computed_ids = {row.entry for row in rows}
    entries = {entry.pk: entry.key for entry in competition_entries(competition=competition)}
    problems: list[ResultProblem] = []
    for row in rows:
        entry_id = cast(int, row.entry)
        entry = entries.get(entry_id, entry_id)
        standing = stored.get(entry_id)
        if standing is None:
            problems.append(
                ResultProblem(place, RuleViolation("standings_row_missing", entry=entry))
            )
            continue
        for column in STANDING_COLUMNS:
            if getattr(standing, column) != getattr(row, column):
                problems.append(
                    ResultProblem(
                        place,
                        RuleViolation(
                            "standings_row_differs",
                            entry=entry,
                            column=getattr(
                                Standing._meta.get_field(column), "verbose_name", column
                            ),
                            stored=getattr(standing, column),
                            computed=getattr(row, column),
                        ),
                    )
                )
    for entry_id, standing in stored.items():
        if entry_id not in computed_ids:
            problems.append(
                ResultProblem(place, RuleViolation("standings_row_extra", entry=standing.entry.key))
            )
    return problems
