"""Void and replay (issue 22): a director voids a match or one game of it, with a reason; a
voided match can be replayed once, as a new match on another matchday.

A voided match or game stays on its pages and in the history but counts nowhere
(`tournaments.models.match_counts_q`, `scoring.models.game_counts_q`: the one definition
every reader uses). FTC scorekeeper #271 counted an aborted match and its replay both; here
the database refuses it (`match_replayed_is_void`).

No unvoid: a void is the director's decision with a reason on the record, and a replay may
already count in its place. A void given by mistake is a league admin's correction in the
admin's history, not a button beside the void.
"""

from __future__ import annotations

import datetime
from typing import Any, cast

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services.refresh import standings_refresh_on_commit
from scoring.services.schedule import (
    competition_entry_id_set,
    match_with_games_create,
    matchday_places,
    places_check,
)
from tournaments.models import Match, Matchday
from tournaments.services.locks import competition_locked, matchday_locked
from troefclub.writes import trigger_violations

VOID_REASON_MAX = cast(int, Match._meta.get_field("void_reason").max_length)


def void_reason_clean(reason: str) -> str:
    """The reason a match or game is voided with (stripped). Shared by the services and
    the importer.

    Raises RuleViolation: `void_why_missing`, `void_reason_too_long` (param limit).
    """
    reason = (reason or "").strip()
    if not reason:
        raise RuleViolation("void_why_missing")
    if len(reason) > VOID_REASON_MAX:
        raise RuleViolation("void_reason_too_long", limit=VOID_REASON_MAX)
    return reason


def _stamp(moment: datetime.datetime) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")


def _user_id(by: Any) -> int | None:
    """The id of the user `by` (None: an import, a command)."""
    return getattr(by, "pk", None)


@transaction.atomic
def match_void(
    *, match_id: int, reason: str, by: Any = None, voided_at: datetime.datetime | None = None
) -> Match:
    """Void a match: it stays on the schedule, its page and its history, stamped with when,
    why and by whom (`by`, a user, or None for an import), and counts nowhere from now on:
    standings and tie-breaks, season rankings, ratings, highlights, profiles
    (`match_counts_q`). `voided_at` defaults to now; an import passes its file's time.

    The same void asked for again (a double click: voided already with this reason) writes
    nothing: no history row, no refresh. Voided before with another reason is refused.

    Raises RuleViolation: `match_unknown`, `void_why_missing`, `void_reason_too_long`
    (param limit), `match_already_void` (params voided_at, void_reason).
    """
    reason = void_reason_clean(reason)
    # Two directors voiding one match at once: the second must see the first's void and
    # be told, not stamp its own reason over it.
    match = Match.objects.select_for_update().select_related("matchday").filter(pk=match_id).first()
    if match is None:
        raise RuleViolation("match_unknown", match=match_id)
    if match.voided_at is not None:
        if match.void_reason == reason:
            return match  # voided already, as asked: nothing to write
        raise RuleViolation(
            "match_already_void",
            voided_at=_stamp(match.voided_at),
            void_reason=match.void_reason,
        )
    match.voided_at = voided_at or timezone.now()
    match.void_reason = reason
    match.voided_by_id = _user_id(by)
    match.save(update_fields=["voided_at", "void_reason", "voided_by"])
    standings_refresh_on_commit(match.matchday.competition_id)
    return match


@transaction.atomic
def game_void(
    *, game_id: int, reason: str, by: Any = None, voided_at: datetime.datetime | None = None
) -> Game:
    """Void one game of a match: it stays on the match's page and in the history, and
    counts nowhere; its match's total is the sum of the games that count (a club match
    keeps its other sittings). `by`, `voided_at` and a void asked for again as
    `match_void`.

    Raises RuleViolation: `game_unknown`, `void_why_missing`, `void_reason_too_long`
    (param limit), `game_match_void` (its whole match is voided already),
    `game_already_void` (params voided_at, void_reason).
    """
    reason = void_reason_clean(reason)
    # The match first, then the game, as the match's writes lock them: a match voided
    # meanwhile is seen; two voids of one game queue.
    match_id = Game.objects.filter(pk=game_id).values_list("match_id", flat=True).first()
    if match_id is None:
        raise RuleViolation("game_unknown", game=game_id)
    match = Match.objects.select_for_update().select_related("matchday").get(pk=match_id)
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.voided_at is not None:
        if game.void_reason == reason:
            return game  # voided already, as asked: nothing to write
        raise RuleViolation(
            "game_already_void", voided_at=_stamp(game.voided_at), void_reason=game.void_reason
        )
    if match.voided_at is not None:
        raise RuleViolation("game_match_void")
    game.voided_at = voided_at or timezone.now()
    game.void_reason = reason
    game.voided_by_id = _user_id(by)
    game.save(update_fields=["voided_at", "void_reason", "voided_by"])
    standings_refresh_on_commit(match.matchday.competition_id)
    return game


@trigger_violations
@transaction.atomic
def match_replay_schedule(
    *,
    match_id: int,
    matchday_id: int | None = None,
    date: datetime.date | None = None,
    table: int | None = None,
) -> Match:
    """Schedule the replay of a voided match: a new match of the same home and away
    entries, on matchday `matchday_id`, or on a new last matchday dated `date` (exactly one
    of the two), at `table` (default: the first free one). The voided match points to it
    (`Match.replayed_by`; the replay reads it as `replay_of`), so one fixture has one
    counting result: the database refuses a replayed match that is not void, and a second
    replay (`replayed_by` is unique). In a pairs competition the replay gets its one game;
    a club match's lineup is set again by the director. Asked for again once made (a
    double click), it returns the replay made and writes nothing.

    Raises RuleViolation: `match_unknown`, `replay_needs_matchday_or_date`,
    `replay_match_not_void`, `match_replayed_already` (param match), `matchday_unknown`,
    `replay_same_matchday`, `replay_date_too_early` (param date: the latest matchday's),
    `table_taken` (param table), and `places_check`'s codes
    (`entry_twice_on_matchday`, ...).
    """
    if (matchday_id is None) == (date is None):
        raise RuleViolation("replay_needs_matchday_or_date")
    competition_id = (
        Match.objects.filter(pk=match_id).values_list("matchday__competition_id", flat=True).first()
    )
    if competition_id is None:
        raise RuleViolation("match_unknown", match=match_id)
    # Competition, then matchday, then match: the order every schedule write locks in, so
    # a replay and a new matchday (or another replay) queue instead of racing for a number.
    competition = competition_locked(competition_id)
    original = (
        Match.objects.select_for_update()
        .select_related("home", "away", "matchday")
        .get(pk=match_id)
    )
    if original.replayed_by_id is not None:
        replay = Match.objects.select_related("matchday").get(pk=original.replayed_by_id)
        if matchday_id in (None, replay.matchday_id) and date in (None, replay.matchday.date):
            return replay  # made already: the same form sent twice
        raise RuleViolation("match_replayed_already", match=str(replay.matchday))
    if original.voided_at is None:
        raise RuleViolation("replay_match_not_void")
    matchday = _replay_matchday(competition, original, matchday_id, date)
    places_check(
        competition_entry_id_set(competition),
        stored=matchday_places(matchday),
        matches=[(original.home_id, original.away_id)],
    )
    taken = set(matchday.matches.exclude(table=None).values_list("table", flat=True))
    if table is None:
        table = next(n for n in range(1, len(taken) + 2) if n not in taken)
    elif table in taken:
        raise RuleViolation("table_taken", table=table)
    replay = match_with_games_create(
        competition, matchday, original.home, original.away, table=table
    )
    _replay_link(original, replay)
    return replay


@transaction.atomic
def match_replay_link(*, match_id: int, replay_id: int) -> Match:
    """Record that match `replay_id` (stored already: an import's) replays voided match
    `match_id`, as `match_replay_schedule` links the replay it makes. Linked so already:
    nothing written. Returns the voided match.

    Raises RuleViolation: `match_unknown`, `replay_match_not_void`, `match_replayed_already`
    (param match), `replay_same_matchday`, `replay_other_fixture` (the replay is not a
    match of the same two entries of the same competition).
    """
    # Both rows locked, the voided match first (as `match_replay_schedule` locks it): two
    # links of one match queue, and the second sees the first.
    found = {
        row.pk: row
        for row in Match.objects.select_for_update()
        .select_related("matchday")
        .filter(pk__in=[match_id, replay_id])
        .order_by("pk")
    }
    original, replay = found.get(match_id), found.get(replay_id)
    if original is None or replay is None:
        raise RuleViolation("match_unknown", match=match_id if original is None else replay_id)
    if original.replayed_by_id == replay.pk:
        return original
    if original.replayed_by_id is not None:
        raise RuleViolation("match_replayed_already", match=str(original.matchday))
    if original.voided_at is None:
        raise RuleViolation("replay_match_not_void")
    if replay.matchday_id == original.matchday_id:
        raise RuleViolation("replay_same_matchday")
    same = replay.matchday.competition_id == original.matchday.competition_id and {
        replay.home_id,
        replay.away_id,
    } == {original.home_id, original.away_id}
    if not same:
        raise RuleViolation("replay_other_fixture")
    _replay_link(original, replay)
    return original


def _replay_link(original: Match, replay: Match) -> None:
    """Point locked, voided `original` to its `replay`: one history row, one refresh."""
    original.replayed_by = replay
    original.save(update_fields=["replayed_by"])
    standings_refresh_on_commit(original.matchday.competition_id)


def _replay_matchday(
    competition: Any, original: Match, matchday_id: int | None, date: datetime.date | None
) -> Matchday:
    """The matchday a replay is played on, locked: the one chosen (another than the
    voided match's), or a new last one on `date`."""
    if matchday_id is not None:
        matchday = matchday_locked(matchday_id)
        if matchday.competition_id != competition.pk:
            raise RuleViolation("matchday_unknown", matchday=matchday_id)
        if matchday.pk == original.matchday_id:
            raise RuleViolation("replay_same_matchday")
        return matchday
    found = competition.matchdays.aggregate(last=Max("number"), latest=Max("date"))
    # A new last matchday dated before the schedule's latest evening would number the
    # evenings out of their order (a replay before the match it replays, even).
    if date is not None and found["latest"] is not None and date < found["latest"]:
        raise RuleViolation("replay_date_too_early", date=str(found["latest"]))
    return Matchday.objects.create(
        competition=competition, number=(found["last"] or 0) + 1, date=date
    )
