"""The models of the registry and the calendar: clubs, players and koppels
(`clubs`), competitions, their entries and standings-refresh claims (`competitions`),
matchdays, matches, byes and deductions (`schedule`), squads (`squads`). Each database
rule is a constraint or trigger of its model; no model writes another on save.
"""

# Django finds an app's models here; callers import them from here too. `tiebreaks_default`
# is the competition's default that migration 0008 names by this path.
from tournaments.models.clubs import Club, Player, Team
from tournaments.models.competitions import (
    Competition,
    Entry,
    StandingsRefreshClaim,
    tiebreaks_default,
)
from tournaments.models.divisions import Division
from tournaments.models.playoffs import Playoff, PlayoffSeed, PlayoffTie
from tournaments.models.schedule import (
    Bye,
    Deduction,
    Match,
    Matchday,
    match_counts_q,
    match_counts_sql,
)
from tournaments.models.squads import Squad, SquadMember
from tournaments.models.withdrawals import (
    CheckIn,
    Withdrawal,
    WithdrawalFixtures,
    WithdrawalPlayed,
)

__all__ = [
    "Bye",
    "CheckIn",
    "Club",
    "Competition",
    "Deduction",
    "Division",
    "Entry",
    "Match",
    "Matchday",
    "Player",
    "Playoff",
    "PlayoffSeed",
    "PlayoffTie",
    "Squad",
    "SquadMember",
    "StandingsRefreshClaim",
    "Team",
    "Withdrawal",
    "WithdrawalFixtures",
    "WithdrawalPlayed",
    "match_counts_q",
    "match_counts_sql",
    "tiebreaks_default",
]
