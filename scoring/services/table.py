"""Scoring at the table: each koppel's private link to its game, and the rounds the entering
koppel records or undoes with it (a tap on the phone, or its offline queue sent later).
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from scoring.models import Game, GameLink
from scoring.rules import RuleViolation
from scoring.selectors.table import game_entering_koppels
from scoring.services.disputes import dispute_open
from scoring.services.games import game_locked
from scoring.services.rounds import (
    SentRound,
    round_of,
    round_record_locked,
    round_sent_before,
    round_undo,
)
from scoring.tokens import game_token

SIDES = ("a", "b")


@transaction.atomic
def game_links_ensure(*, game_ids: Sequence[int]) -> dict[int, dict[str, GameLink]]:
    """The active table links of each game in `game_ids`, one per koppel, made where
    missing.

    Returns {game id: {"a": koppel A's link, "b": koppel B's link}}. Idempotent: a second
    call returns the same links (the partial unique constraint
    `gamelink_one_active_per_koppel` keeps it one per koppel even when two directors print
    at once; the loser of that race reads the winner's link). Unknown ids are left out.
    """
    wanted = set(game_ids)

    def active() -> dict[int, dict[str, GameLink]]:
        found: dict[int, dict[str, GameLink]] = {}
        for link in GameLink.objects.filter(game_id__in=wanted, revoked_at__isnull=True):
            found.setdefault(link.game_id, {})[link.side] = link
        return found

    links = active()
    complete = {game_id for game_id, sides in links.items() if len(sides) == len(SIDES)}
    existing = set(Game.objects.filter(pk__in=wanted - complete).values_list("pk", flat=True))
    missing = [
        GameLink(game_id=game_id, side=side, token=secrets.token_urlsafe(24))
        for game_id in sorted(existing)
        for side in SIDES
        if side not in links.get(game_id, {})
    ]
    if missing:
        GameLink.objects.bulk_create(missing, ignore_conflicts=True)
        links = active()
    return links


@transaction.atomic
def game_links_koppels_follow(*, game_id: int, koppels_before: tuple[int, int]) -> list[str]:
    """Revoke the active table links of the sides of game `game_id` whose koppel is no
    longer the one it had (`koppels_before`: koppel A's and koppel B's ids before the
    write); returns those sides ("a", "b").

    A link says which koppel the phone is (`GameLink.side`): the admin's game page may give
    a game without a result other koppels, and the link printed for the koppel that left
    must then open nothing rather than the game as another koppel (issue 19). The next
    `game_links_ensure` makes a new link for the new koppel; a side whose koppel stayed
    keeps its link. A game gone meanwhile has no links to revoke.
    """
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        return []
    now = (game.team_a_id, game.team_b_id)
    changed = [
        side for side, old, new in zip(SIDES, koppels_before, now, strict=True) if old != new
    ]
    if changed:
        GameLink.objects.filter(game=game, side__in=changed, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    return changed


# The longest comment a koppel can give with a dispute (`GameDispute.comment`).
DISPUTE_COMMENT_MAX_LENGTH = 500

# The `history_change_reason` of the rounds a director's rejection removes: the history
# keeps them (simple-history), and says why they went.
ROUND_REJECT_REASON = "rejected"


def link_locked(token: str) -> tuple[GameLink, Game]:
    """The active link with `token` and its game, both locked: the game first, as every
    write on a game locks it, so a table's phone and the director's sheet take turns.

    Raises RuleViolation: `link_invalid` (unknown token, the link was revoked, or its game
    was deleted while this waited for its lock: a lineup that took the pairing away).
    """
    game_id = GameLink.objects.filter(token=token).values_list("game_id", flat=True).first()
    if game_id is None:
        raise RuleViolation("link_invalid")
    try:
        game = game_locked(game_id)
    except RuleViolation:  # `game_unknown`: the game went with its links meanwhile
        raise RuleViolation("link_invalid") from None
    # Locked too: a revocation meanwhile is seen.
    link = GameLink.objects.select_for_update().filter(token=token, game_id=game_id).first()
    if link is None or link.revoked_at is not None:
        raise RuleViolation("link_invalid")
    return link, game


@transaction.atomic
def game_link_revoke(*, game_id: int, link_id: int) -> GameLink:
    """Revoke one koppel's table link (a link that got out, a phone that must stop);
    returns it.

    The token opens nothing any more; the next `game_links_ensure` (the director's link
    page, a printed sheet) makes a new one for that koppel; the other koppel's link
    stays. `link_id` is the link the director's page showed: revoking it twice (the
    button pressed twice) changes nothing, and never revokes the new link made meanwhile.
    Rounds entered with it stay.

    Raises RuleViolation: `game_unknown`, `link_unknown` (not a link of this game).
    """
    game = game_locked(game_id)
    link = GameLink.objects.select_for_update().filter(pk=link_id, game=game).first()
    if link is None:
        raise RuleViolation("link_unknown")
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    return link


# A round sent from the table's phone, as the server took it (`SentRound`).
TableRound = SentRound


def _entering_checked(game: Game, link: GameLink) -> None:
    """Only the koppel that entered the stored rounds enters more (any koppel before the
    first). Raises RuleViolation: `table_other_koppel_enters` (param team)."""
    entering = game_entering_koppels(game=game)
    if entering and link.side not in entering:
        raise RuleViolation("table_other_koppel_enters", team=sorted(entering)[0])


@transaction.atomic
def table_round_record(
    *,
    token: str,
    expected_number: int,
    result: str,
    side: str,
    caller_id: int | None = None,
    tricks: tuple[int, int] | None = None,
    client_key: uuid.UUID | None = None,
    seen: str | None = None,
) -> TableRound:
    """Record the next round of the link's game from the table's phone (`round_record`).

    `token` is a koppel's table link: it opens its own game only, as that koppel. The
    first round entered makes the link's koppel the entering one; from then on only that
    koppel enters rounds (the other one confirms). `expected_number` is the round number
    the phone gave the round (the stored rounds plus those queued before it).

    `client_key` is the idempotency key the phone made for this round: a key stored on
    this game already (a retry, a lost answer, two tabs replaying one queue) returns that
    round (`stored_already`), nothing stored twice. `seen` is the `game_token` the phone
    built the round on (the page's, then each answer's `game_token`): a new round on
    another state is refused (`game_changed_meanwhile`), never applied over a
    correction made meanwhile. None: not checked (an import-like caller).

    Raises RuleViolation: `link_invalid`, `round_key_elsewhere`,
    `round_removed_meanwhile` (param number), `game_changed_meanwhile`,
    `table_other_koppel_enters` (param team: the entering one), `game_confirmed`,
    `game_disputed`, and everything `round_record` raises (`game_finished` on a game that
    is over, `round_already_recorded` for a double tap without a key).
    """
    link, game = link_locked(token)
    if client_key is not None:
        sent = round_sent_before(game, client_key=client_key, link=link)
        if sent is not None:
            return sent
    _entering_checked(game, link)
    rounds = list(game.rounds.order_by("number"))
    # A keyed round is always new (its retries were found above); a form without a key
    # that adds a round stored already is a double tap, which `round_record` names.
    new = client_key is not None or expected_number > len(rounds)
    if new and seen is not None and seen != game_token(game, rounds):
        raise RuleViolation("game_changed_meanwhile")
    if expected_number > len(rounds):
        if game.confirmed_at is not None:
            raise RuleViolation("game_confirmed")
        if dispute_open(game) is not None:
            raise RuleViolation("game_disputed")
    rnd = round_record_locked(
        game,
        rounds,
        expected_number=expected_number,
        result=result,
        side=side,
        caller_id=caller_id,
        tricks=tricks,
        link=link,
        client_key=client_key,
    )
    # `game` holds its new state: the token as stored, without reading it back.
    return TableRound(
        round=rnd,
        stored_already=False,
        game_token=game_token(game, [*rounds, rnd]),
        rounds=len(rounds) + 1,
    )


@transaction.atomic
def table_round_undo(*, token: str, round_id: int, seen: str) -> int:
    """Undo the table's own last round (`round_undo`); returns its number.

    Only the entering koppel's link undoes, only a round entered through it, only while
    the game is neither confirmed nor disputed. `round_id` is the round the page showed
    as the last one and `seen` the page's `game_token`.

    Raises RuleViolation: `link_invalid`, `table_not_entering`, `round_unknown` (not a
    round of this game, or undone already: the form sent twice),
    `game_changed_meanwhile`, `round_not_from_table` (param number), `game_confirmed`,
    `game_disputed`, `game_closed_by_director` (the director closed it: frozen for the
    table, or undoing round after round would take the game back from the director).
    """
    link, game = link_locked(token)
    rounds = list(game.rounds.order_by("number"))
    doomed = round_of(rounds, round_id)
    if link.side not in game_entering_koppels(game=game):
        raise RuleViolation("table_not_entering")
    if doomed is not rounds[-1]:
        raise RuleViolation("game_changed_meanwhile")
    if doomed.link_id != link.pk:
        raise RuleViolation("round_not_from_table", number=doomed.number)
    if game.confirmed_at is not None:
        raise RuleViolation("game_confirmed")
    if dispute_open(game) is not None:
        raise RuleViolation("game_disputed")
    if game.status == Game.Status.CLOSED:
        raise RuleViolation("game_closed_by_director")
    return round_undo(game_id=game.pk, round_id=round_id, seen=seen)
