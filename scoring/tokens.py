"""Version tokens: what a director's form saw, so a stale form never overwrites a result.

Every form that changes a stored result carries, in a hidden `seen` field, the token of
what the page showed when it was rendered. The service recomputes the token under the
row lock and refuses the write (`game_changed_meanwhile`, `match_changed_meanwhile`, ...)
when it differs: another tab, another phone or another director changed it meanwhile.
`Round.token` (on the model) is the same idea for one round.

A token covers the fields the writes change, nothing else: editing a player's name does
not make a score sheet stale. Game and match tokens are short hashes (they cover whole
lists of rounds or games); the deductions token stays readable because `deduction_add`
reads the newest id back out of it (a form sent twice finds its own deduction).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from scoring.models import Game, Round
from tournaments.models import Bye, Match

TOKEN_MAX_LENGTH = 80  # the hidden fields' max_length: room for every token below


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


def game_token(game: Game, rounds: Sequence[Round]) -> str:
    """The token of a game's result: status, entered totals, score and every round.

    `rounds` are the game's stored rounds (any order). The confirmation is left out on
    purpose: confirming does not change what the game says, so a stale tab may still
    close or reopen the result it saw (`game_confirm` is idempotent on its own).
    """
    return _digest(
        [
            game.status,
            game.total_a,
            game.total_b,
            game.score_a,
            game.score_b,
            sorted((rnd.number, rnd.pk, rnd.token) for rnd in rounds),
        ]
    )


def game_token_now(*, game_id: int) -> str:
    """The token of game `game_id` as stored now (for callers that saw no page: imports).

    Raises Game.DoesNotExist.
    """
    game = Game.objects.get(pk=game_id)
    return game_token(game, list(game.rounds.all()))


def match_token(match: Match, game_ids: Iterable[int]) -> str:
    """The token of a match's result: reported totals, forfeit, lineup and its games.

    `game_ids` are the ids of the match's games: a lineup makes them anew, and reported
    totals are only possible without them. The games' own results have their own tokens.
    """
    return _digest(
        [
            match.total_home,
            match.total_away,
            match.forfeit,
            match.forfeit_reason,
            match.lineup or {},
            sorted(game_ids),
        ]
    )


def match_token_now(*, match_id: int) -> str:
    """The token of match `match_id` as stored now. Raises Match.DoesNotExist."""
    match = Match.objects.get(pk=match_id)
    return match_token(match, match.games.values_list("pk", flat=True))


def matchday_token_of(matches: Iterable[Match], byes: Iterable[Bye]) -> str:
    """The token of a matchday's pairings, from its loaded matches and byes: who plays whom
    at which table, and who has the bye."""
    rows = sorted((m.pk, m.home_id, m.away_id, m.table) for m in matches)
    return _digest([rows, sorted(bye.entry_id for bye in byes)])


def matchday_token(*, matchday_id: int) -> str:
    """The token of matchday `matchday_id`'s pairings as stored now (`matchday_token_of`)."""
    return matchday_token_of(
        Match.objects.filter(matchday_id=matchday_id).only("pk", "home_id", "away_id", "table"),
        Bye.objects.filter(matchday_id=matchday_id).only("entry_id"),
    )
