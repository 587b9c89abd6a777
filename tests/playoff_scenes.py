"""Scenes of the play-off and division tests (issue 22): competitions whose final standings
have ties on everything, played through the services (`finished_game`)."""

from __future__ import annotations

import datetime

from scoring.models import Game
from tests.builders import finished_game, pairs_competition, pairs_game
from tournaments.models import Competition, Entry, Matchday, PlayoffTie


def played(competition: Competition, meetings: list[tuple[Entry, Entry]]) -> None:
    """Each (winner, loser) meeting on a matchday of its own, won 20–0 by the first."""
    start = competition.matchdays.count()
    for number, (winner, loser) in enumerate(meetings, start=start + 1):
        matchday = Matchday.objects.create(
            competition=competition, number=number, date=datetime.date(2026, 10, number)
        )
        finished_game(pairs_game(matchday, winner, loser, table=1))


def three_way_tie(**fields: object) -> tuple[Competition, dict[str, Entry]]:
    """Five koppels: Pintoboys first (beat Ekta), Kampoe, Toppers and Formula tied on every
    key at rank 2 (each beat one of the others 20–0: a circle), Ekta last."""
    competition = pairs_competition(5, **fields)
    entries = {str(entry.team.name): entry for entry in competition.entries.select_related("team")}  # type: ignore[union-attr]
    kampoe, toppers, formula = entries["Kampoe"], entries["Toppers"], entries["Formula"]
    played(
        competition,
        [
            (kampoe, toppers),
            (toppers, formula),
            (formula, kampoe),
            (entries["Pintoboys"], entries["Ekta"]),
        ],
    )
    return competition, entries


def two_pairs_tied(**fields: object) -> tuple[Competition, dict[str, Entry]]:
    """Four koppels: Kampoe beat Toppers, Formula beat Ekta, both 20–0: Kampoe and Formula
    share rank 1, Toppers and Ekta rank 3 (they never met: head-to-head separates nobody)."""
    competition = pairs_competition(4, **fields)
    entries = {str(entry.team.name): entry for entry in competition.entries.select_related("team")}  # type: ignore[union-attr]
    played(
        competition,
        [(entries["Kampoe"], entries["Toppers"]), (entries["Formula"], entries["Ekta"])],
    )
    return competition, entries


def leg_won(tie: PlayoffTie, leg: int, *, by_home: bool) -> None:
    """Leg `leg` of `tie` played out 20–0 for its home side (`by_home`) or its away side."""
    match = tie.leg_1 if leg == 1 else tie.leg_2
    assert match is not None
    finished_game(Game.objects.get(match=match), winner="a" if by_home else "b")
