"""The director's board and the hall display at league size (issue 20): what a poll
compares before anything is built, which tables changed since the poll's version, and the
board's pages.

- `board_stamp`: the version of a matchday's board in one small query, from stamps every
  write of a table moves (the newest history id of the matchday's games, rounds, disputes,
  matches and byes; its table links), never from the rows the board shows. An unchanged
  poll compares it and answers 204 without building the board.
- `board_changed_games`: the games whose history moved since a poll's stamp: the tables a
  poll sends again (`hx-swap-oob` by element id), the rest staying as shown.
- `board_index`: every table of the matchday with its state group, in board order, from
  two light queries: the counts of the board's summary and its pages (a page of whole
  matches, about `size` tables), without building 500 tables to show 50.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from itertools import groupby
from typing import Any

from django.db.models import Exists, F, Func, OuterRef, QuerySet, Subquery
from django.utils import timezone

from scoring.models import Game, GameDispute, GameLink, Round
from scoring.selectors.board import TABLE_GROUPS, BoardCounts, TableState, table_state
from scoring.selectors.schedule import with_table_shown
from tournaments.models import Bye, Competition, Match, Matchday
from troefclub.live import live_version

MINUTE = "%Y%m%d%H%M"


@dataclass(frozen=True, slots=True)
class BoardStamp:
    """The version of a matchday's board: the newest history ids of its games (`game`),
    rounds (`round`) and disputes (`dispute`), which a poll follows table by table; a short
    hash of what it does not (`others`: matches added, changed or deleted, byes, table
    links); and the minute it is of (`minute`, "YYYYmmddHHMM", "" when nothing shown turns
    with the clock: the board's quiet-table marks do)."""

    game: int
    round: int
    dispute: int
    others: str
    minute: str = ""

    @property
    def version(self) -> str:
        """What the poll URL carries (`?v=`): the stamp's parts, dot-separated."""
        return f"{self.game}.{self.round}.{self.dispute}.{self.others}.{self.minute}"

    @classmethod
    def parse(cls, text: str | None) -> BoardStamp | None:
        """The stamp a poll's `version` was made from; None for anything else (an old
        poll's hash, a hand-made URL)."""
        parts = (text or "").split(".")
        if len(parts) != 5 or not all(p.isascii() and p.isdigit() for p in parts[:3]):
            return None
        if len(parts[3]) > 32 or (parts[4] and not (parts[4].isdigit() and len(parts[4]) == 12)):
            return None
        return cls(int(parts[0]), int(parts[1]), int(parts[2]), parts[3], parts[4])

    @property
    def minute_at(self) -> datetime | None:
        """The minute as an aware datetime (the current time zone); None without one."""
        if not self.minute:
            return None
        return timezone.make_aware(datetime.strptime(self.minute, MINUTE))  # noqa: DTZ007


def _newest_history(model: type, **lookup: object) -> Subquery:
    """The highest `history_id` of `model`'s history rows matching `lookup`: a plain MAX,
    no GROUP BY (as `scoring.selectors.live`)."""
    rows = model.history.model.objects.filter(**lookup).order_by()  # type: ignore[attr-defined]
    return Subquery(
        rows.annotate(newest=Func(F("history_id"), function="MAX")).values("newest")[:1]
    )


def _max(rows: QuerySet, field: str) -> Subquery:
    return Subquery(
        rows.order_by().annotate(newest=Func(F(field), function="MAX")).values("newest")[:1]
    )


def board_stamp(*, matchday: Matchday, minute: datetime | None) -> BoardStamp:
    """The version of `matchday`'s board (`BoardStamp`) at `minute` (None: a page without
    the quiet-table marks). One query: a few index lookups per table of the matchday,
    never the league's whole history.

    Every write of a table moves one of its parts: a round entered, undone or corrected
    (round history; the game's too when its score moves), a confirmation or a closed game
    (game history), a dispute raised or resolved (dispute history), a forfeit, reported
    totals, a match added or deleted (match history, by matchday), a bye, a table link made
    or revoked.
    """
    day = OuterRef("pk")
    links = GameLink.objects.filter(game__match__matchday_id=day)
    row = (
        Matchday.objects.filter(pk=matchday.pk)
        .annotate(
            game_change=_newest_history(Game, match__matchday_id=day),
            round_change=_newest_history(Round, game__match__matchday_id=day),
            dispute_change=_newest_history(GameDispute, game__match__matchday_id=day),
            match_change=_newest_history(Match, matchday_id=day),
            bye_change=_newest_history(Bye, matchday_id=day),
            link_made=_max(links, "id"),
            link_revoked=_max(links, "revoked_at"),
        )
        .values(
            "game_change",
            "round_change",
            "dispute_change",
            "match_change",
            "bye_change",
            "link_made",
            "link_revoked",
        )
        .first()
    )
    assert row is not None, "the matchday was read just before"
    others = live_version(
        row["match_change"], row["bye_change"], row["link_made"], row["link_revoked"]
    )
    return BoardStamp(
        game=row["game_change"] or 0,
        round=row["round_change"] or 0,
        dispute=row["dispute_change"] or 0,
        others=others,
        minute=timezone.localtime(minute).strftime(MINUTE) if minute is not None else "",
    )


def board_changed_games(*, matchday: Matchday, since: BoardStamp) -> set[int]:
    """The ids of `matchday`'s games with a game, round or dispute history row newer than
    `since`'s: the tables a poll holding `since` must be sent again. One query (the
    history rows since, by their primary key: a poll's few)."""
    history = {model: model.history.model for model in (Game, Round, GameDispute)}
    games = (
        history[Game]
        .objects.filter(history_id__gt=since.game, match__matchday=matchday)
        .order_by()
        .values_list("id", flat=True)
    )
    rounds = (
        history[Round]
        .objects.filter(history_id__gt=since.round, game__match__matchday=matchday)
        .order_by()
        .values_list("game_id", flat=True)
    )
    disputes = (
        history[GameDispute]
        .objects.filter(history_id__gt=since.dispute, game__match__matchday=matchday)
        .order_by()
        .values_list("game_id", flat=True)
    )
    return set(games.union(rounds, disputes))


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """One table of the board's index: its match, game (None for a match decided as a whole
    or without a lineup), number shown and state group (`TableState.group`)."""

    match_id: int
    game_id: int | None
    table: int | None
    group: str


@dataclass(frozen=True, slots=True)
class BoardPage:
    """One page of the board: whole matches (`match_ids`, board order) and the tables of
    them it shows (`entries`), numbered from 1."""

    number: int
    match_ids: list[int]
    entries: list[BoardEntry]

    @property
    def first(self) -> int | None:
        numbers = [entry.table for entry in self.entries if entry.table is not None]
        return min(numbers) if numbers else None

    @property
    def last(self) -> int | None:
        numbers = [entry.table for entry in self.entries if entry.table is not None]
        return max(numbers) if numbers else None


@dataclass(frozen=True, slots=True)
class BoardIndex:
    """Every table of a matchday in board order (`BoardEntry`), and the counts of its
    summary (`BoardCounts`)."""

    entries: list[BoardEntry]
    counts: BoardCounts

    def pages(self, *, state: str, size: int) -> list[BoardPage]:
        """The tables in `state` (a `TABLE_GROUPS` key, "" for all) in pages of whole
        matches, about `size` tables each (a club match of more tables is one page of its
        own). No page when no table is in `state`."""
        shown = [entry for entry in self.entries if not state or entry.group == state]
        pages: list[BoardPage] = []
        match_ids: list[int] = []
        entries: list[BoardEntry] = []
        for match_id, tables in groupby(shown, key=lambda entry: entry.match_id):
            of_match = list(tables)
            if entries and len(entries) + len(of_match) > size:
                pages.append(BoardPage(len(pages) + 1, match_ids, entries))
                match_ids, entries = [], []
            match_ids.append(match_id)
            entries.extend(of_match)
        if entries:
            pages.append(BoardPage(len(pages) + 1, match_ids, entries))
        return pages


def board_index(*, matchday: Matchday) -> BoardIndex:
    """Every table of `matchday` with its state group, in the board's order (matches by
    table shown, then id; a match's games by sitting and table), and how many are in each
    group: as `scoring.selectors.board.matchday_board` decides them, from two light queries
    (the matches; the games with whether they have a round and an open dispute).
    `matchday.competition` must be joined."""
    competition = matchday.competition
    clubs = competition.kind == Competition.Kind.CLUBS
    confirming = competition.confirmation_required
    matches = (
        with_table_shown(Match.objects.filter(matchday=matchday))
        .order_by("table_shown", "pk")
        .values_list("pk", "table", "table_shown", "forfeit", "total_home", "total_away")  # type: ignore[misc]
    )
    games = (
        Game.objects.filter(match__matchday=matchday)
        .order_by("match_id", "sitting", "table")
        .annotate(
            has_round=Exists(Round.objects.filter(game=OuterRef("pk"))),
            disputed=Exists(
                GameDispute.objects.filter(game=OuterRef("pk"), resolved_at__isnull=True)
            ),
        )
        .values_list(
            "match_id",
            "pk",
            "table",
            "status",
            "confirmed_at",
            "total_a",
            "score_a",
            "score_b",
            "has_round",
            "disputed",
        )  # fmt: skip
    )
    # Plain rows, no models: at 500 tables a matchday, building them is most of the time.
    by_match: dict[int, list[tuple[Any, ...]]] = {}
    for row in games:
        by_match.setdefault(row[0], []).append(row)
    entries: list[BoardEntry] = []
    for pk, table, shown, forfeit, total_home, total_away in matches:
        of_match = by_match.get(pk, [])
        if forfeit or (total_home is not None and total_away is not None) or not of_match:
            decided = bool(forfeit) or (total_home is not None and total_away is not None)
            group = TableState.FINISHED.value if decided else TableState.NOT_STARTED.value
            entries.append(BoardEntry(pk, None, shown, group))
            continue
        for (
            _match,
            game,
            number,
            status,
            confirmed_at,
            total_a,
            a,
            b,
            has_round,
            disputed,
        ) in of_match:
            state = table_state(
                over=status != Game.Status.OPEN,
                confirmed=confirmed_at is not None,
                started=bool(has_round or total_a is not None or a or b),
                confirming=confirming,
                disputed=disputed,
            )
            entries.append(
                BoardEntry(pk, game, number if clubs else (table or number), state.group)
            )
    groups = {key: 0 for key in TABLE_GROUPS}
    for entry in entries:
        groups[entry.group] += 1
    return BoardIndex(entries, BoardCounts(total=len(entries), **groups))


__all__ = [
    "BoardEntry",
    "BoardIndex",
    "BoardPage",
    "BoardStamp",
    "board_changed_games",
    "board_index",
    "board_stamp",
]
