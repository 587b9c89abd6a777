"""The models of play: games and rounds (`games`), table links and disputes
(`table`), standings rows (`standings`). Derived columns (a game's score, kaps, status; a
standing's every number) are written by the services from the engine's replay, never by
save().
"""

# Django finds an app's models here; callers import them from here too.
from scoring.models.games import Game, Round, game_counts_q, game_counts_sql
from scoring.models.standings import STANDING_COLUMNS, Standing
from scoring.models.table import GameDispute, GameLink

__all__ = [
    "Game",
    "GameDispute",
    "GameLink",
    "Round",
    "STANDING_COLUMNS",
    "Standing",
    "game_counts_q",
    "game_counts_sql",
]
