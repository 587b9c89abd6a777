"""The Troefcall rules engine: pure functions over frozen dataclasses, standard library only.

Everything RULES.md says lives here once. Nothing here imports Django, Celery or our apps
(tests/rules/test_purity.py fails the build otherwise); errors are `RuleViolation` codes
that the edges turn into words (`troefclub.rule_messages`).
"""

from scoring.rules.award import award, check_tricks, round_amounts
from scoring.rules.errors import RuleViolation
from scoring.rules.game import GameState, Replay, Step, replay
from scoring.rules.metrics import METRIC_OF, METRICS, Metric
from scoring.rules.places import (
    found_at_bye,
    game_players_check,
    game_players_violations,
    game_seating_check,
    koppel_club,
    matchday_places_check,
    matchday_places_violations,
    pairs_match_games_check,
    pairs_match_games_violations,
    sitting_koppels_check,
    sitting_koppels_violations,
)
from scoring.rules.seasons import (
    SeasonBy,
    SeasonGame,
    SeasonSide,
    SeasonTally,
    best_n_of_m,
    season_tallies,
)
from scoring.rules.standings import (
    TIEBREAK_KEYS,
    ByeOutcome,
    MatchOutcome,
    PointsScheme,
    StandingRow,
    check_tiebreaks,
    compute_standings,
)
from scoring.rules.totals import check_game_totals, check_match_totals, check_total
from scoring.rules.types import (
    KAP_RESULTS,
    SEATS,
    Forfeit,
    MatchResult,
    Points,
    Result,
    RoundInput,
    RuleSet,
    Side,
    next_seat,
    seat_side,
)

__all__ = [
    "KAP_RESULTS",
    "METRICS",
    "METRIC_OF",
    "SEATS",
    "TIEBREAK_KEYS",
    "ByeOutcome",
    "Forfeit",
    "GameState",
    "MatchOutcome",
    "MatchResult",
    "Metric",
    "Points",
    "PointsScheme",
    "Replay",
    "Result",
    "RoundInput",
    "RuleSet",
    "RuleViolation",
    "SeasonBy",
    "SeasonGame",
    "SeasonSide",
    "SeasonTally",
    "Side",
    "StandingRow",
    "Step",
    "award",
    "best_n_of_m",
    "check_game_totals",
    "check_match_totals",
    "check_tiebreaks",
    "check_total",
    "check_tricks",
    "compute_standings",
    "found_at_bye",
    "game_players_check",
    "game_players_violations",
    "game_seating_check",
    "koppel_club",
    "matchday_places_check",
    "matchday_places_violations",
    "next_seat",
    "pairs_match_games_check",
    "pairs_match_games_violations",
    "replay",
    "round_amounts",
    "season_tallies",
    "seat_side",
    "sitting_koppels_check",
    "sitting_koppels_violations",
]
