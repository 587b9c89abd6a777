"""Reads of a league's divisions: the divisions of a season and the moves their final
standings propose (promotion and relegation), from the same final order the play-offs seed
from (`competition_final_order`: the standings' ranks, a deciding match between two
entries tied on everything)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet

from scoring.selectors.playoffs import competition_final_order
from tournaments.models import Division, Entry


@dataclass(frozen=True, slots=True)
class DivisionMoves:
    """One division's final order cut in three: `up` (a level higher next season),
    `staying`, `down` (a level lower); `tied`: groups sharing a rank across one of the two
    lines, undecided (the roll refuses until a deciding match decides them)."""

    division: Division
    up: list[Entry] = field(default_factory=list)
    staying: list[Entry] = field(default_factory=list)
    down: list[Entry] = field(default_factory=list)
    tied: list[tuple[int, list[Entry]]] = field(default_factory=list)  # (rank, entries)

    @property
    def undecided(self) -> set[int]:
        """The ids of the entries in `tied`: whether they go up, stay or go down is not
        known yet (the page must not say; a season not begun is one such tie)."""
        return {entry.pk for _, group in self.tied for entry in group}


def season_divisions(*, season: str, league: str = "") -> QuerySet[Division]:
    """The divisions of `season` (of one `league`, or all), by league then level."""
    rows = Division.objects.filter(season=season).select_related("competition")
    if league:
        rows = rows.filter(league=league)
    return rows.order_by("league", "level")


def season_division_moves(*, season: str) -> list[DivisionMoves]:
    """The proposed moves of every division of `season`: the `promoted` best of a division
    go up (none from a league's top division), its `relegated` worst go down (none from
    its lowest). Ranks from the standings as they stand (call it at the season's end)."""
    divisions = list(season_divisions(season=season))
    tops: dict[str, int] = {}
    bottoms: dict[str, int] = {}
    for division in divisions:
        tops[division.league] = min(tops.get(division.league, division.level), division.level)
        bottoms[division.league] = max(bottoms.get(division.league, 0), division.level)
    found: list[DivisionMoves] = []
    for division in divisions:
        order = competition_final_order(competition=division.competition)
        ids = [place.entry_id for place in order.places]
        entries = Entry.objects.select_related("team__player_1", "team__player_2", "club").in_bulk(
            ids
        )
        up = 0 if division.level == tops[division.league] else min(division.promoted, len(ids))
        down = 0
        if division.level != bottoms[division.league]:
            down = min(division.relegated, len(ids) - up)
        lines = [cut for cut in (up, len(ids) - down) if 0 < cut < len(ids)]
        tied: list[tuple[int, list[Entry]]] = []
        for group in order.unresolved:
            positions = sorted(ids.index(entry) for entry in group)
            if any(positions[0] < cut <= positions[-1] for cut in lines):
                rank = order.places[positions[0]].rank
                tied.append((rank, [entries[entry] for entry in group]))
        found.append(
            DivisionMoves(
                division=division,
                up=[entries[entry] for entry in ids[:up]],
                staying=[entries[entry] for entry in ids[up : len(ids) - down]],
                down=[entries[entry] for entry in ids[len(ids) - down :]],
                tied=tied,
            )
        )
    return found
