"""The director's evening: the competitions a user directs, tonight's matchdays, and the
score sheets of a matchday in table order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Case, Count, Exists, F, OuterRef, Q, QuerySet, Subquery, When
from django.utils import timezone

from scoring.models import Game, Round
from tournaments.models import Competition, Matchday


@dataclass(frozen=True, slots=True)
class SheetStop:
    """One game of a matchday as the score sheet's table switch shows it.

    `started`: rounds or totals entered (a game of redeals only has started too).
    """

    game_id: int
    table: int
    sitting: int
    status: str
    started: bool


# The order a director walks a matchday's tables: a pairs match sits at one table (its
# game's), a club match's games by sitting and table.
SHEET_ORDER = (F("match__table").asc(nulls_last=True), "match_id", "sitting", "table", "pk")


def matchday_sheet_stops(*, matchday_id: int) -> list[SheetStop]:
    """Every game of a matchday in table order (`SHEET_ORDER`), in one query of a few
    columns: the score sheet's previous/next table and its table switch."""
    rows = (
        Game.objects.filter(match__matchday_id=matchday_id)
        .annotate(has_rounds=Exists(Round.objects.filter(game=OuterRef("pk"))))
        .order_by(*SHEET_ORDER)
        .values_list("pk", "table", "sitting", "status", "total_a", "has_rounds")
    )
    return [
        SheetStop(pk, table, sitting, status, total_a is not None or has_rounds)
        for pk, table, sitting, status, total_a, has_rounds in rows
    ]


@dataclass(frozen=True, slots=True)
class EveningMatchday:
    """The matchday a director is most likely running now, with its games counted.

    `tonight`: its date is today (else it is the first matchday with games still open).
    `not_started`: open at 0–0 (no points yet); `playing`: open with points;
    `over`: finished or closed; `awaiting`: over and not confirmed (counts only where the
    competition asks for confirmation). `first_sheet`: the game whose score sheet to open
    first: the first open one by table, else the first.
    """

    matchday: Matchday
    tonight: bool
    tables: int
    not_started: int
    playing: int
    over: int
    awaiting: int
    first_sheet: int | None


@dataclass(frozen=True, slots=True)
class DirectedCompetition:
    """A competition the user directs, and its matchdays for tonight: every one dated today
    (a club may play two speelrondes in one evening), else the first with open games;
    empty: nothing to play."""

    competition: Competition
    evenings: tuple[EveningMatchday, ...]

    @property
    def evening(self) -> EveningMatchday | None:
        """The first of `evenings`, None when there is nothing to play."""
        return self.evenings[0] if self.evenings else None


def directed_competitions(*, user: Any) -> list[DirectedCompetition]:
    """The competitions `user` directs (`Competition.is_directed_by`: their own, or every
    one for staff allowed to direct them all), newest season first, each with tonight's
    matchdays: every one dated today, else the first with open games.

    Two queries (and the user's permissions), whatever the number of competitions, matchdays
    or games. An anonymous user directs nothing.
    """
    if not user.is_authenticated:
        return []
    competitions: QuerySet[Competition] = Competition.objects.order_by("-season", "name")
    if not user.has_perm("tournaments.direct_every_competition"):
        competitions = competitions.filter(directors=user)
    found = list(competitions)
    if not found:
        return []
    today = timezone.localdate()
    open_games = Game.objects.filter(status=Game.Status.OPEN, total_a__isnull=True)
    first_open = (
        open_games.filter(match__matchday__competition=OuterRef("competition"))
        .order_by("match__matchday__number")
        .values("match__matchday__number")[:1]
    )
    first_sheet = (
        Game.objects.filter(match__matchday=OuterRef("pk"))
        .order_by(Case(When(status=Game.Status.OPEN, then=0), default=1), *SHEET_ORDER)
        .values("pk")[:1]
    )
    games = "matches__games"
    is_open = Q(matches__games__status=Game.Status.OPEN)
    no_points = Q(matches__games__score_a=0, matches__games__score_b=0)
    candidates = (
        Matchday.objects.filter(competition__in=found)
        .filter(Q(date=today) | Q(number=Subquery(first_open)))
        .annotate(
            tables=Count(games),
            not_started=Count(games, filter=is_open & no_points),
            playing=Count(games, filter=is_open & ~no_points),
            over=Count(games, filter=~is_open),
            awaiting=Count(games, filter=~is_open & Q(matches__games__confirmed_at__isnull=True)),
            first_sheet=Subquery(first_sheet),
        )
        .order_by("competition_id", "number")
    )
    by_id = {competition.pk: competition for competition in found}
    chosen: dict[int, list[EveningMatchday]] = {}
    for matchday in candidates:
        matchday.competition = by_id[matchday.competition_id]  # for its links, no query
        tonight = matchday.date == today
        held = chosen.setdefault(matchday.competition_id, [])
        if held and not held[0].tonight and tonight:
            held.clear()  # a matchday dated today replaces the first open one
        elif held and not (held[0].tonight and tonight):
            continue  # every one dated today, else the first open one (they come by number)
        held.append(
            EveningMatchday(
                matchday=matchday,
                tonight=tonight,
                tables=matchday.tables,
                not_started=matchday.not_started,
                playing=matchday.playing,
                over=matchday.over,
                awaiting=matchday.awaiting,
                first_sheet=matchday.first_sheet,
            )
        )
    return [DirectedCompetition(c, tuple(chosen.get(c.pk, ()))) for c in found]
