"""What the public pages that follow the evening read (issue 18): the version of what a
standings or matchday page shows, in one small query whatever the league's size, and
whether a matchday is in play (so the page keeps polling).

The versions are built from stamps that every result write moves, never from the rows the
page shows:

- the competition's standings stamps (`standings_computed_at`, `standings_stale_since`):
  every write that can move the standings marks them stale, and each rebuild stamps its
  time (scoring/services/standings.py);
- the matchday's newest game and match history row (django-simple-history keeps one for
  every save, delete and bulk write of a game or a match, with an id that only grows):
  a round entered, undone or corrected saves its game; a confirmation, a closed game, a
  reported total or a forfeit saves the game or the match;
- today's date: a matchday dated today counts as in play before its first round, and the
  page stops polling once the day is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Exists, F, Func, Max, OuterRef, Q, Subquery
from django.utils import timezone

from scoring.models import Game, Round
from tournaments.models import Competition, Match, Matchday
from troefclub.live import live_version


@dataclass(frozen=True, slots=True)
class LiveStamp:
    """The version of a live page (`troefclub.live`), and when its competition's standings
    were marked stale (None: they are not), which decides whether a poll may be answered
    "unchanged" (`scoring.services.standings.standings_catch_up_due`)."""

    version: str
    stale_since: datetime | None


def _stamp(
    computed_at: datetime | None, stale_since: datetime | None, *changes: int | None
) -> LiveStamp:
    today: date = timezone.localdate()
    return LiveStamp(live_version(computed_at, stale_since, *changes, today), stale_since)


def competition_live_stamp(*, competition: Competition) -> LiveStamp:
    """The version of `competition`'s standings page: its standings stamps (the standings,
    their "as of" and the open and awaiting counts move with them). No query."""
    return _stamp(competition.standings_computed_at, competition.standings_stale_since)


def _newest(model: type[Game] | type[Match], **lookup: object) -> Subquery:
    """The newest history id of `model`'s history rows matching `lookup` (one match's):
    MAX over an indexed column's few rows, no GROUP BY (a plain function, not an aggregate
    Django would group by)."""
    newest = Func(F("history_id"), function="MAX")
    history = model.history.model  # made by simple-history
    rows = history.objects.filter(**lookup).order_by().annotate(newest=newest)
    return Subquery(rows.values("newest")[:1])


def matchday_live_stamp(*, matchday: Matchday) -> LiveStamp:
    """The version of `matchday`'s page: its competition's standings stamps (joined by
    `matchday_for`) and the newest game and match history of the matchday's matches (the
    scores, the states and the highlights move with them; byes, deductions and matches
    added or deleted mark the standings stale).

    One query: the matchday's matches (by their index), each with two index lookups into
    the history (by match id), so its cost follows the tables of one matchday, never the
    league's whole history.
    """
    newest = (
        Match.objects.filter(matchday=matchday)
        .order_by()
        .annotate(
            game_change=_newest(Game, match_id=OuterRef("pk")),
            match_change=_newest(Match, id=OuterRef("pk")),
        )
        .aggregate(game=Max("game_change"), match=Max("match_change"))
    )
    competition = matchday.competition
    return _stamp(
        competition.standings_computed_at,
        competition.standings_stale_since,
        newest["game"],
        newest["match"],
    )


def _playing(*, confirming: bool) -> Q:
    """The games that keep a page polling: open with a round entered or on a matchday
    dated today; where results need confirming, over and not confirmed yet on a matchday
    not dated before today. Never a game of a forfeited or reported match."""
    today = timezone.localdate()
    open_game = Q(status=Game.Status.OPEN) & (
        Exists(Round.objects.filter(game=OuterRef("pk"))) | Q(match__matchday__date=today)
    )
    playing = open_game
    if confirming:
        playing |= (
            ~Q(status=Game.Status.OPEN)
            & Q(confirmed_at__isnull=True)
            & (Q(match__matchday__date__isnull=True) | Q(match__matchday__date__gte=today))
        )
    return playing & Q(match__forfeit="", match__total_home__isnull=True)


def competition_in_play(*, competition: Competition) -> bool:
    """Whether the competition's standings page keeps polling: standings owed a refresh,
    or a matchday in play (`_playing`). At most one query."""
    if competition.standings_stale_since is not None:
        return True
    games = Game.objects.filter(match__matchday__competition=competition)
    return games.filter(_playing(confirming=competition.confirmation_required)).exists()


def matchday_in_play(*, matchday: Matchday) -> bool:
    """Whether the matchday's page keeps polling: a game of it in play (`_playing`). One
    query; `matchday.competition` is read (joined by `matchday_for`)."""
    confirming = matchday.competition.confirmation_required
    games = Game.objects.filter(match__matchday=matchday)
    return games.filter(_playing(confirming=confirming)).exists()
