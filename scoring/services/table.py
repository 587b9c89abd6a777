"""Scoring at the table: a game's private link, and the rounds a koppel enters or undoes on
it.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from scoring.models import Game, GameLink, Round
from scoring.rules import RuleViolation
from scoring.services.disputes import dispute_open
from scoring.services.games import game_locked
from scoring.services.rounds import round_of, round_record, round_undo


@transaction.atomic
def game_links_ensure(*, game_ids: Sequence[int]) -> dict[int, GameLink]:
    """The active table link of each game in `game_ids`, made where a game has none.

    Returns {game id: GameLink}. Idempotent: a second call returns the same links (the
    partial unique constraint `gamelink_one_active_per_game` keeps it one per game even
    when two directors print at once; the loser of that race reads the winner's link).
    Unknown ids are left out.
    """
    wanted = set(game_ids)
    links = {
        link.game_id: link
        for link in GameLink.objects.filter(game_id__in=wanted, revoked_at__isnull=True)
    }
    missing = sorted(
        set(Game.objects.filter(pk__in=wanted - links.keys()).values_list("pk", flat=True))
    )
    if missing:
        GameLink.objects.bulk_create(
            [GameLink(game_id=game_id, token=secrets.token_urlsafe(24)) for game_id in missing],
            ignore_conflicts=True,
        )
        links.update(
            (link.game_id, link)
            for link in GameLink.objects.filter(game_id__in=missing, revoked_at__isnull=True)
        )
    return links


# The longest comment a koppel can give with a dispute (`GameDispute.comment`).
DISPUTE_COMMENT_MAX_LENGTH = 500

# The `history_change_reason` of the rounds a director's rejection removes: the history
# keeps them (simple-history), and says why they went.
ROUND_REJECT_REASON = "rejected"


def koppel_checked(koppel: str) -> str:
    """`koppel` ("a"/"b"): the koppel a phone at the table said it is.

    Raises RuleViolation: `koppel_unknown`.
    """
    if koppel not in ("a", "b"):
        raise RuleViolation("koppel_unknown")
    return koppel


def link_locked(token: str) -> tuple[GameLink, Game]:
    """The active link with `token` and its game, both locked: the game first, as every
    write on a game locks it, so a table's phone and the director's sheet take turns.

    Raises RuleViolation: `link_invalid` (unknown token, or the link was revoked).
    """
    game_id = GameLink.objects.filter(token=token).values_list("game_id", flat=True).first()
    if game_id is None:
        raise RuleViolation("link_invalid")
    game = game_locked(game_id)
    # Locked too: the first round entered through it fixes its koppel, once.
    link = GameLink.objects.select_for_update().filter(token=token, game_id=game_id).first()
    if link is None or link.revoked_at is not None:
        raise RuleViolation("link_invalid")
    return link, game


@transaction.atomic
def game_link_revoke(*, game_id: int, link_id: int) -> GameLink:
    """Revoke a game's table link (a link that got out, a phone that must stop); returns it.

    The token opens nothing any more; the next `game_links_ensure` (the director's link
    page, a printed sheet) makes a new one. `link_id` is the link the director's page
    showed: revoking it twice (the button pressed twice) changes nothing, and never
    revokes the new link made meanwhile. Rounds entered with it stay.

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


@transaction.atomic
def table_round_record(
    *,
    token: str,
    koppel: str,
    expected_number: int,
    result: str,
    side: str,
    caller_id: int | None = None,
    tricks: tuple[int, int] | None = None,
) -> Round:
    """Record the next round of the link's game from the table's phone (`round_record`).

    `token` is the table link's secret: it opens its own game only. `koppel` ("a"/"b") is
    the koppel the phone said it is: the first round entered through the link makes it the
    link's entering koppel, and from then on only that koppel enters rounds (the other one
    confirms). `expected_number` is the round number the phone's page was showing: a
    double tap or a retried request finds the round stored once (`round_already_recorded`).

    Raises RuleViolation: `link_invalid`, `koppel_unknown`, `table_other_koppel_enters`
    (param team: the entering one), `game_confirmed`, `game_disputed`, and everything
    `round_record` raises (`game_finished` on a game that is over).
    """
    link, game = link_locked(token)
    koppel_checked(koppel)
    if link.entering_side and link.entering_side != koppel:
        raise RuleViolation("table_other_koppel_enters", team=link.entering_side)
    if expected_number > game.rounds.count():
        # A new round, not a retry of one stored already (`round_record` says that one).
        if game.confirmed_at is not None:
            raise RuleViolation("game_confirmed")
        if dispute_open(game) is not None:
            raise RuleViolation("game_disputed")
    rnd = round_record(
        game_id=game.pk,
        expected_number=expected_number,
        result=result,
        side=side,
        caller_id=caller_id,
        tricks=tricks,
        link=link,
    )
    if not link.entering_side:
        link.entering_side = koppel
        link.save(update_fields=["entering_side"])
    return rnd


@transaction.atomic
def table_round_undo(*, token: str, koppel: str, round_id: int, seen: str) -> int:
    """Undo the table's own last round (`round_undo`); returns its number.

    Only the link's entering koppel undoes, only a round entered through this link, only
    while the game is neither confirmed nor disputed. `round_id` is the round the page
    showed as the last one and `seen` the page's `game_token`.

    Raises RuleViolation: `link_invalid`, `koppel_unknown`, `table_not_entering`,
    `round_unknown` (not a round of this game, or undone already: the form sent twice),
    `game_changed_meanwhile`, `round_not_from_table` (param number), `game_confirmed`,
    `game_disputed`, `game_closed_by_director` (the director closed it: frozen for the
    table, or undoing round after round would take the game back from the director).
    """
    link, game = link_locked(token)
    if link.entering_side != koppel_checked(koppel):
        raise RuleViolation("table_not_entering")
    rounds = list(game.rounds.order_by("number"))
    doomed = round_of(rounds, round_id)
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
