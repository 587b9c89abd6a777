"""Reads of the schedule as the director's pages show it: a matchday's problems (entries left
out, rematches, repeated byes), the competition's matchdays, a matchday's matches.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Case, Count, Exists, OuterRef, Q, QuerySet, Subquery, When
from django.db.models.functions import Coalesce

from scoring.models import Game
from scoring.rules import matchday_places_violations
from tournaments.models import (
    Bye,
    Competition,
    Entry,
    Match,
    Matchday,
    Team,
    Withdrawal,
    WithdrawalPlayed,
)
from tournaments.selectors import (
    ENTRY_JOINS,
    TEAM_JOINS,
    entries_not_expected,
    entry_named,
    natural_key,
    withdrawal_removed_opponents,
)
from troefclub.ordering import blank_last
from troefclub.pages import page_number_asked


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
    # Named koppels by name, then those shown by their players' names (no name: "").
    return teams.select_related(*TEAM_JOINS).order_by(blank_last("name"), "key")


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
    bye, matches without a table, rematches and second byes; and what the rules forbid but
    was stored before the database refused it (issue 6): entries of another competition
    (`foreign`) and entries with more than one place (`twice`)."""

    left_out: list[Entry]
    without_table: list[Match]
    rematches: list[Rematch]
    repeat_byes: list[RepeatBye]
    foreign: list[Entry] = field(default_factory=list)
    twice: list[Entry] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(
            self.left_out
            or self.without_table
            or self.rematches
            or self.repeat_byes
            or self.foreign
            or self.twice
        )


def matchday_problems(*, matchday: Matchday) -> MatchdayProblems:
    """The problems of one matchday, in four queries (entry ids, its matches, the earlier
    matches of its pairs, byes), and one more for the names of the entries it lists (of
    another competition too) when there are any: a 1,000-koppel matchday names none of its
    fine ones (issue 7).

    A rematch is a pairing of two entries that met on an earlier matchday (in a double round
    robin: met twice already); a repeat bye one for an entry that had a bye on an earlier
    matchday (double round robin: two). Pairings themselves may allow both when nothing
    else was possible; the director decides. An entry of another competition or with two
    places (`scoring.rules.matchday_places_violations`) is listed, never an error: the page
    must show what is stored, to be put right.
    """
    competition = matchday.competition
    allowed = 2 if competition.schedule_format == Competition.Format.DOUBLE_ROUND_ROBIN else 1
    entry_ids = list(competition.entries.values_list("pk", flat=True))
    todays = Match.objects.filter(matchday=matchday)
    matches = list(with_table_shown(todays).order_by("table_shown", "pk"))
    # Only the earlier matches of a pair that plays today, either way round: a few rows,
    # not the whole season (issue 7: 7,000 matches read for a 1,000-koppel matchday).
    same_pair = todays.filter(
        Q(home=OuterRef("home"), away=OuterRef("away"))
        | Q(home=OuterRef("away"), away=OuterRef("home"))
    )
    met: dict[frozenset[int], list[int]] = defaultdict(list)
    for home_id, away_id, number in (
        Match.objects.filter(
            Exists(same_pair),
            matchday__competition=competition,
            matchday__number__lt=matchday.number,
        )
        .order_by()
        .values_list("home_id", "away_id", "matchday__number")
    ):
        met[frozenset((home_id, away_id))].append(number)
    byes: list[Bye] = []
    had_bye: dict[int, list[int]] = defaultdict(list)
    resting_today = Bye.objects.filter(matchday=matchday).values("entry_id")
    for bye in Bye.objects.filter(
        matchday__competition=competition,
        matchday__number__lte=matchday.number,
        entry_id__in=resting_today,
    ).select_related("matchday"):
        if bye.matchday_id == matchday.pk:
            byes.append(bye)
        else:
            had_bye[bye.entry_id].append(bye.matchday.number)
    playing = [(match.home_id, match.away_id) for match in matches]
    resting = [bye.entry_id for bye in byes]
    places = list(matchday_places_violations(playing, resting, entries=frozenset(entry_ids)))
    others = {v.params["entry"] for v in places if v.code == "entry_other_competition"}
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
    twice = dict.fromkeys(v.params["entry"] for v in places if v.code == "entry_twice_on_matchday")
    without_table = [match for match in matches if getattr(match, "table_shown", None) is None]
    # Names only for what is listed: the matches and byes named, the entries left out.
    listed = [*(rematch.match for rematch in rematches), *without_table]
    # Not missing: an entry withdrawn by then or absent from the evening's check-in, and
    # the opponent of a match a withdrawal removed (issue 22).
    busy |= entries_not_expected(competition=competition, number=matchday.number)
    busy |= withdrawal_removed_opponents(competition=competition, number=matchday.number)
    left_out_ids = [pk for pk in entry_ids if pk not in busy]
    wanted = {*left_out_ids, *others, *twice, *(bye.entry_id for bye in byes)}
    wanted |= {pk for match in listed for pk in (match.home_id, match.away_id)}
    named = (
        {e.pk: e for e in Entry.objects.filter(pk__in=wanted).select_related(*ENTRY_JOINS)}
        if wanted
        else {}
    )
    for match in listed:
        match.home, match.away = named[match.home_id], named[match.away_id]
    for bye in byes:
        bye.entry = named[bye.entry_id]
    left_out = sorted(
        (named[pk] for pk in left_out_ids), key=lambda entry: (natural_key(str(entry)), entry.pk)
    )
    return MatchdayProblems(
        left_out=left_out,
        without_table=without_table,
        rematches=rematches,
        repeat_byes=repeat_byes,
        foreign=[named[entry_id] for entry_id in sorted(others)],
        twice=[named[entry_id] for entry_id in twice],
    )


@dataclass(frozen=True, slots=True)
class MatchdaySummary:
    """One matchday on the director's schedule: its matches and how many are finished
    (`MatchScore.finished`: a forfeit, reported totals, or games all over and confirmed
    where the competition asks for it)."""

    matchday: Matchday
    matches: int
    finished: int


def competition_schedule(*, competition: Competition) -> list[MatchdaySummary]:
    """Every matchday of the competition in order, with its match counts: one aggregate
    query, whatever the size of the schedule. Counts what `competition_match_scores` would
    say match by match, without summing any game (issue 7: the schedule of 7,500 matches
    took 2 s that way)."""
    games = Game.objects.filter(match=OuterRef("matches"))
    unsettled = Q(status=Game.Status.OPEN)
    if competition.confirmation_required:
        unsettled |= Q(confirmed_at__isnull=True)
    finished = (
        ~Q(matches__forfeit="")
        | Q(matches__total_home__isnull=False, matches__total_away__isnull=False)
        | (Q(Exists(games)) & ~Q(Exists(games.filter(unsettled))))
    )
    matchdays = competition.matchdays.annotate(
        match_count=Count("matches"), finished_count=Count("matches", filter=finished)
    ).order_by("number")
    return [
        MatchdaySummary(matchday, matchday.match_count, matchday.finished_count)
        for matchday in matchdays
    ]


def with_table_shown(rows: QuerySet[Match]) -> QuerySet[Match]:
    """`rows` annotated with `table_shown`: the match's table, or else its first game's (a
    pairs match is one game, and files often give the table only there)."""
    first_game_table = (
        Game.objects.filter(match=OuterRef("pk"), table__isnull=False)
        .order_by("table")
        .values("table")[:1]
    )
    return rows.annotate(table_shown=Coalesce("table", Subquery(first_game_table)))


def matchday_matches(*, matchday: Matchday, search: str = "") -> QuerySet[Match]:
    """The matches of a matchday by table shown (`with_table_shown`; then id), both
    entries' names joined.

    `search` keeps the matches at that table number (digits) or whose home or away entry
    is named like it (`entry_named`): a player looking for their table on a big matchday.
    `annulled` (annotated) says a withdrawal annulled the match (issue 22).
    """
    rows = with_table_shown(Match.objects.filter(matchday=matchday))
    order: list[Any] = ["table_shown", "pk"]
    words = search.strip()
    if words:
        found = entry_named(words, entry="home") | entry_named(words, entry="away")
        if words.isascii() and words.isdigit() and len(words) <= 9:  # a table number
            found |= Q(table_shown=int(words))
            # That table first, then the koppels whose names hold the digits.
            order.insert(0, Case(When(table_shown=int(words), then=0), default=1))
        rows = rows.filter(found)
    joins = [f"{side}__{join}" for side in ("home", "away") for join in ENTRY_JOINS]
    # A match of an entry whose withdrawal annulled its matches (issue 22) counts for
    # neither side: the page says so.
    annulled = Withdrawal.objects.filter(
        Q(entry=OuterRef("home")) | Q(entry=OuterRef("away")), played=WithdrawalPlayed.ANNUL
    )
    return rows.annotate(annulled=Exists(annulled)).select_related(*joins).order_by(*order)


def matches_paged(
    matches: QuerySet[Match], *, per_page: int, page_number: str | None
) -> Page[Match]:
    """The page `page_number` (as the query string gave it; `Paginator.get_page`: never an
    error) of `matches` (`matchday_matches`), its matches in its order with their joins.
    The ids are sorted and paged without the joins, then only the page's matches are
    joined: PostgreSQL joined all 500 matches of a 1,000-koppel matchday to their
    entries, koppels and players before keeping 50 (9 ms, issue 20). Three queries: the
    count, the page's ids, its matches."""
    ids_page = Paginator(matches.values_list("pk", flat=True), per_page).get_page(
        page_number_asked(page_number)
    )
    ids = list(ids_page.object_list)
    rows = list(matches.filter(pk__in=ids)) if ids else []
    return Page(rows, ids_page.number, ids_page.paginator)  # type: ignore[arg-type]
