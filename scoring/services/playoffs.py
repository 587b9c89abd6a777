"""Writes of the play-offs: a knock-out stage seeded from a competition's final standings
(`playoff_create`), a deciding match between two entries tied on everything
(`deciding_match_create`), and the winners moved on as results come in (`playoff_advance`,
run after each standings refresh of a stage: `scoring.tasks.standings_refresh`).

A stage is a competition of its own (`tournaments.models.playoffs`): its matches are
ordinary matches with games, scored through every door like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.rules import RuleViolation
from scoring.selectors.playoffs import (
    DECIDED_BY_LOT,
    FinalPlace,
    competition_final_order,
    playoff_tie_scores,
    tie_level,
    tie_winner,
)
from scoring.selectors.results import competition_match_outcomes
from scoring.selectors.standings import competition_table
from scoring.services.refresh import standings_refresh_on_commit
from scoring.services.schedule import match_with_games_create
from tournaments.models import Competition, Entry, Match, Matchday, Playoff, PlayoffSeed, PlayoffTie
from tournaments.services.locks import competition_locked

# The seeds that meet in round 1, top of the bracket first (1 and 2 can meet only in the
# final, 1 meets the lowest seed first): the usual seeded draw.
FIRST_ROUND = {2: [(1, 2)], 4: [(1, 4), (2, 3)], 8: [(1, 8), (4, 5), (3, 6), (2, 7)]}

# The competition's columns a stage does not take over from its source: its own key,
# name and schedule, and the source's standings bookkeeping.
_NOT_COPIED = {
    "id",
    "slug",
    "name",
    "schedule_format",
    "standings_stale_since",
    "standings_computed_at",
}


def _source_finished(source: Competition) -> None:
    """Refuse to seed from standings that are not final: a match still to count. A voided
    match counts nowhere (`match_void`): it is not one still to be played."""
    matches = Match.objects.filter(matchday__competition=source, voided_at__isnull=True).count()
    counted = len(competition_match_outcomes(competition=source))
    if counted < matches:
        raise RuleViolation("playoff_source_unfinished", open=matches - counted)


def _stage_slug(source: Competition, suffix: str) -> str:
    base = f"{source.slug[: 80 - len(suffix) - 4]}-{suffix}"
    slug, number = base, 1
    while Competition.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


def _stage_create(
    source: Competition,
    *,
    kind: str,
    size: int,
    legs: int,
    level_rule: str,
    places: Sequence[FinalPlace],
    lot_reason: str,
    by: Any,
) -> Playoff:
    """The stage competition (the source's rules and directors), its entries, seeds and
    ties, and round 1's matchdays and matches."""
    if kind == Playoff.Kind.KNOCKOUT:
        slug, name = _stage_slug(source, "playoffs"), _("%(name)s: play-offs")
    else:
        slug, name = _stage_slug(source, "beslissing"), _("%(name)s: deciding match")
    copied = {
        column.attname: getattr(source, column.attname)
        for column in Competition._meta.concrete_fields
        if column.attname not in _NOT_COPIED
    }
    stage = Competition.objects.create(
        **copied, slug=slug, name=(name % {"name": source.name})[:160]
    )
    stage.directors.set(source.directors.all())
    playoff = Playoff.objects.create(
        competition=stage,
        source=source,
        kind=kind,
        size=size,
        legs=legs,
        level_rule=level_rule,
        lot_reason=lot_reason,
        created_by=by if getattr(by, "pk", None) else None,
    )
    source_entries = Entry.objects.in_bulk([place.entry_id for place in places])
    by_seed: dict[int, Entry] = {}
    for seed, place in enumerate(places, start=1):
        was = source_entries[place.entry_id]
        entry = Entry.objects.create(
            competition=stage,
            team_id=was.team_id,
            club_id=was.club_id,
            player_1_club_id=was.player_1_club_id,
            player_2_club_id=was.player_2_club_id,
        )
        PlayoffSeed.objects.create(
            playoff=playoff,
            seed=seed,
            entry=entry,
            source_entry=was,
            source_rank=place.rank,
            decided_by=place.decided_by,
        )
        by_seed[seed] = entry
    for round_number in range(1, playoff.rounds + 1):
        for position in range(1, size // 2**round_number + 1):
            tie = PlayoffTie(playoff=playoff, round=round_number, position=position)
            if round_number == 1:
                home, away = FIRST_ROUND[size][position - 1]
                tie.home, tie.away = by_seed[home], by_seed[away]
            tie.save()
    for tie in playoff.ties.filter(round=1).select_related("home", "away"):
        _tie_legs_create(playoff, tie)
    standings_refresh_on_commit(stage.pk)
    return playoff


def _tie_legs_create(playoff: Playoff, tie: PlayoffTie) -> None:
    """The tie's matches: leg 1 at the home entry (the higher seed), leg 2 the other way
    round, on the round's matchdays (round r, leg l: matchday (r − 1) × legs + l), at the
    tie's position as table."""
    stage = playoff.competition
    assert tie.home is not None and tie.away is not None
    sides = [(tie.home, tie.away), (tie.away, tie.home)][: playoff.legs]
    made: list[Match] = []
    for leg, (home, away) in enumerate(sides, start=1):
        matchday, _created = Matchday.objects.get_or_create(
            competition=stage, number=(tie.round - 1) * playoff.legs + leg
        )
        made.append(match_with_games_create(stage, matchday, home, away, table=tie.position))
    tie.leg_1 = made[0]
    tie.leg_2 = made[1] if len(made) > 1 else None
    tie.save(update_fields=["leg_1", "leg_2"])


def _decider_create(playoff: Playoff, tie: PlayoffTie) -> None:
    """The deciding match of a tie level after all its legs (`deciding_game`): the home
    entry at home, on matchday rounds × legs + round (after every leg of the stage)."""
    stage = playoff.competition
    matchday, _created = Matchday.objects.get_or_create(
        competition=stage, number=playoff.rounds * playoff.legs + tie.round
    )
    assert tie.home_id is not None and tie.away_id is not None
    home = Entry.objects.get(pk=tie.home_id)
    away = Entry.objects.get(pk=tie.away_id)
    tie.decider = match_with_games_create(stage, matchday, home, away, table=tie.position)
    tie.save(update_fields=["decider"])


def _size_legs_check(size: int, legs: int) -> None:
    if size not in FIRST_ROUND:
        raise RuleViolation("playoff_size_invalid", size=size)
    if legs not in (1, 2):
        raise RuleViolation("playoff_legs_invalid", legs=legs)


@transaction.atomic
def playoff_create(
    *,
    competition_id: int,
    size: int,
    legs: int,
    by: Any,
    level_rule: str = Playoff.LevelRule.HIGHER_SEED,
    lots: Sequence[Sequence[int]] = (),
    lot_reason: str = "",
) -> Playoff:
    """A knock-out stage of the best `size` (2, 4 or 8) entries of the competition's final
    standings, `legs` (1, or 2: home and away) a tie.

    Seeds are the standings' ranks as the standings page shows them
    (`competition_final_order`: the competition's own tie-breaks, sendou.ink #2645).
    Entries tied on every key are ordered by a decided deciding match between the two,
    else by `lots`: the director's drawing of lots (each a tied group's entry ids in the
    drawn order), whose `lot_reason` is kept on the stage. `by` is the user (kept).

    Raises RuleViolation `playoff_size_invalid` (size), `playoff_legs_invalid` (legs),
    `playoff_level_rule_invalid`, `playoff_too_few_entries` (size, entries),
    `playoff_source_unfinished` (open), `playoff_lot_not_a_tie`,
    `playoff_lot_reason_required`, `playoff_seeding_tied` (entries: names, rank),
    `playoff_exists` (stage: its name; the competition has its knock-out already: the
    same one asked for again returns it, writing nothing), `competition_unknown`.
    """
    _size_legs_check(size, legs)
    if level_rule not in Playoff.LevelRule.values:
        raise RuleViolation("playoff_level_rule_invalid")
    # One stage at a time from a competition: two clicks must not make two.
    source = competition_locked(competition_id)
    made = (
        Playoff.objects.filter(source=source, kind=Playoff.Kind.KNOCKOUT)
        .select_related("competition")
        .first()
    )
    if made is not None:
        if (made.size, made.legs, made.level_rule) == (size, legs, level_rule):
            return made  # the same form sent twice (a double click, the back button)
        raise RuleViolation("playoff_exists", stage=made.competition.name)
    entries = source.entries.count()
    if entries < size:
        raise RuleViolation("playoff_too_few_entries", size=size, entries=entries)
    _source_finished(source)
    lot_reason = lot_reason.strip()
    if lots and not lot_reason:
        raise RuleViolation("playoff_lot_reason_required")
    order = competition_final_order(competition=source, lots=lots)
    unresolved = order.unresolved_within(size)
    if unresolved:
        raise _tied(unresolved[0], order.places)
    return _stage_create(
        source,
        kind=Playoff.Kind.KNOCKOUT,
        size=size,
        legs=legs,
        level_rule=level_rule,
        places=order.places[:size],
        lot_reason=lot_reason
        if any(p.decided_by == DECIDED_BY_LOT for p in order.places[:size])
        else "",
        by=by,
    )


def _tied(group: Sequence[int], places: Sequence[FinalPlace]) -> RuleViolation:
    names = Entry.objects.in_bulk(list(group))
    rank = next(place.rank for place in places if place.entry_id == group[0])
    return RuleViolation(
        "playoff_seeding_tied",
        entries=", ".join(str(names[entry]) for entry in group),
        rank=rank,
    )


@transaction.atomic
def deciding_match_create(*, competition_id: int, entry_ids: Sequence[int], by: Any) -> Playoff:
    """A deciding match (beslissingswedstrijd) between two entries of the competition tied
    on every key of its standings (they share a rank): a stage of one match, the first
    in the standings' order at home. Its winner goes above the other wherever the final
    order is read (play-off seeding, promotion and relegation). A level result has no
    automatic winner (level rule `deciding_game`): the director adds a deciding game.

    Raises RuleViolation `deciding_match_two_entries`, `deciding_match_not_tied`
    (entries), `deciding_match_exists`, `playoff_source_unfinished`, `competition_unknown`.
    """
    wanted = list(dict.fromkeys(int(entry) for entry in entry_ids))
    if len(wanted) != 2:
        raise RuleViolation("deciding_match_two_entries")
    source = competition_locked(competition_id)
    _source_finished(source)
    rows = {int(row.entry): row.rank for row in competition_table(competition=source)}  # type: ignore[call-overload]
    if any(entry not in rows for entry in wanted) or rows[wanted[0]] != rows[wanted[1]]:
        names = Entry.objects.in_bulk(wanted)
        raise RuleViolation(
            "deciding_match_not_tied", entries=", ".join(str(names.get(e, e)) for e in wanted)
        )
    for playoff in Playoff.objects.filter(source=source, kind=Playoff.Kind.DECIDING):
        if set(playoff.seeds.values_list("source_entry_id", flat=True)) == set(wanted):
            raise RuleViolation("deciding_match_exists")
    order = [
        place
        for place in competition_final_order(competition=source).places
        if place.entry_id in wanted
    ]
    return _stage_create(
        source,
        kind=Playoff.Kind.DECIDING,
        size=2,
        legs=1,
        level_rule=Playoff.LevelRule.DECIDING_GAME,
        places=[FinalPlace(place.entry_id, place.rank, "") for place in order],
        lot_reason="",
        by=by,
    )


@transaction.atomic
def playoff_advance(*, playoff_id: int) -> int:
    """Record the winner of every tie of the stage its counted results decide, and put
    each into its next tie (the better seed of the two at home); a tie that has both its
    entries gets its matches, a tie level after all legs under `deciding_game` its
    deciding match. Returns the number of ties changed now (0: nothing written).

    A decided tie stays decided: a result corrected afterwards is the director's to
    settle (the bracket page shows the score beside the winner).

    Raises RuleViolation `playoff_unknown`.
    """
    playoff = Playoff.objects.filter(pk=playoff_id).select_related("competition").first()
    if playoff is None:
        raise RuleViolation("playoff_unknown")
    # Two refreshes of the same stage must not both move a winner on: the stage first.
    competition_locked(playoff.competition_id)
    seeds = dict(playoff.seeds.values_list("entry_id", "seed"))
    scores = playoff_tie_scores(playoff=playoff)
    ties = {(tie.round, tie.position): tie for tie in playoff.ties.select_for_update()}
    decided = 0
    for (round_number, position), tie in sorted(ties.items()):
        if tie.winner_id is not None or tie.pk not in scores:
            continue
        winner = tie_winner(playoff, tie, scores[tie.pk])
        if winner is None:
            if (
                tie.decider_id is None
                and playoff.level_rule == Playoff.LevelRule.DECIDING_GAME
                and tie_level(scores[tie.pk])
            ):
                _decider_create(playoff, tie)
                decided += 1
            continue
        tie.winner_id = winner
        tie.save(update_fields=["winner"])
        decided += 1
        following = ties.get((round_number + 1, (position + 1) // 2))
        if following is None:
            continue
        if position % 2:
            following.home_id = winner
        else:
            following.away_id = winner
        if following.home_id and following.away_id:
            if seeds[following.away_id] < seeds[following.home_id]:
                following.home_id, following.away_id = following.away_id, following.home_id
            following.save(update_fields=["home", "away"])
            following = PlayoffTie.objects.select_related("home", "away").get(pk=following.pk)
            ties[(round_number + 1, (position + 1) // 2)] = following
            _tie_legs_create(playoff, following)
        else:
            following.save(update_fields=["home", "away"])
    # Winners and new fixtures move no standings: no refresh is owed.
    return decided


def playoff_advance_after_refresh(*, competition_id: int) -> int:
    """`playoff_advance` of the stage `competition_id` is, if it is one (the standings
    refresh calls it after each rebuild: a result moves winners on). Returns the ties
    decided."""
    playoff_id = (
        Playoff.objects.filter(competition_id=competition_id).values_list("pk", flat=True).first()
    )
    if playoff_id is None:
        return 0
    return playoff_advance(playoff_id=playoff_id)
