"""Scoring at the table (issue 8): a game's private link, rounds entered on a phone by one
koppel, confirmed or disputed by the other, the director's queue and its decisions."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from scoring.models import Game, GameDispute, GameLink, Round, Standing
from scoring.rules import RuleViolation
from scoring.selectors.table import director_queue, game_entering_koppels
from scoring.services.confirmations import (
    game_dispute_resolve,
    game_table_reject,
    games_accept_all,
    table_game_confirm,
    table_game_dispute,
)
from scoring.services.games import game_close, game_reopen
from scoring.services.rounds import (
    RoundRecord,
    game_rounds_load,
    round_correct,
    round_delete,
    round_record,
    round_undo,
)
from scoring.services.standings import standings_rebuild
from scoring.services.table import (
    game_link_revoke,
    game_links_ensure,
    table_round_record,
    table_round_undo,
)
from tests.builders import pairs_game
from tests.factories import (
    CompetitionFactory,
    GameFactory,
    PlayerFactory,
    UserFactory,
    koppel_entries,
    league_staff,
)
from tests.seen import game_token_now, next_round
from tournaments.models import Competition, Matchday
from troefclub.rule_messages import rule_message

pytestmark = pytest.mark.django_db


def links_of(game: Game) -> dict[str, GameLink]:
    return game_links_ensure(game_ids=[game.pk])[game.pk]


def link_of(game: Game, koppel: str = "a") -> GameLink:
    """The table link of `game`'s koppel `koppel`."""
    return links_of(game)[koppel]


def other(link: GameLink) -> GameLink:
    """The other koppel's link of the same game."""
    return links_of(link.game)["b" if link.side == "a" else "a"]


def enter(link: GameLink, result: str = "kap", side: str = "a", **extra: Any) -> Round:
    """A round entered at the table through `link` as its page would send it now."""
    number = extra.pop("expected_number", next_round(link.game_id))
    return table_round_record(
        token=link.token,
        expected_number=number,
        result=result,
        side=side,
        **extra,
    ).round


def finish(link: GameLink) -> Game:
    """Four kaps for koppel A, entered at the table through `link`: 20–0, over."""
    for _ in range(4):
        enter(link)
    game = Game.objects.get(pk=link.game_id)
    assert game.status == Game.Status.FINISHED
    return game


def refused(code: str, call: Any, *args: Any, **kwargs: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value
    assert "Not allowed by the rules" not in rule_message(caught.value)
    return caught.value


@pytest.fixture
def confirming() -> Game:
    return GameFactory.create(competition=CompetitionFactory.create(confirmation_required=True))


# ---------------------------------------------------------------- links


def test_links_are_one_active_per_koppel_and_revoking_makes_a_new_one(game):
    first, theirs = link_of(game, "a"), link_of(game, "b")
    assert (first.side, theirs.side) == ("a", "b") and first.token != theirs.token
    assert link_of(game) == first and links_of(game) == {"a": first, "b": theirs}

    game_link_revoke(game_id=game.pk, link_id=first.pk)
    game_link_revoke(game_id=game.pk, link_id=first.pk)  # pressed twice: nothing more
    second = link_of(game)

    assert second.pk != first.pk and second.token != first.token and second.side == "a"
    first.refresh_from_db()
    assert first.revoked_at is not None
    active = GameLink.objects.filter(game=game, revoked_at__isnull=True)
    assert set(active) == {second, theirs}  # the other koppel's link stays
    # Revoking the old link again doesn't touch the new one.
    game_link_revoke(game_id=game.pk, link_id=first.pk)
    second.refresh_from_db()
    assert second.revoked_at is None


def test_a_second_active_link_of_one_koppel_is_refused_by_the_database(game):
    from django.db import IntegrityError, transaction

    link_of(game)
    with pytest.raises(IntegrityError), transaction.atomic():
        GameLink.objects.create(game=game, side="a", token="another-token")


def test_a_link_of_another_game_cannot_be_revoked_from_this_one(game):
    other = GameFactory.create()
    refused("link_unknown", game_link_revoke, game_id=game.pk, link_id=link_of(other).pk)


def test_a_revoked_link_enters_nothing(game):
    link = link_of(game)
    game_link_revoke(game_id=game.pk, link_id=link.pk)
    refused("link_invalid", enter, link)
    refused("link_invalid", table_game_confirm, token=link.token, seen="x")
    assert not Round.objects.filter(game=game).exists()


def test_an_unknown_token_enters_nothing(game):
    refused(
        "link_invalid",
        table_round_record,
        token="no-such-token",
        expected_number=1,
        result="kap",
        side="a",
    )


# ---------------------------------------------------------------- entering rounds


def test_the_first_round_fixes_the_entering_koppel(game):
    link = link_of(game, "b")
    rnd = enter(link, side="b")

    assert game_entering_koppels(game=game) == {"b"}
    assert rnd.link_id == link.pk and rnd.recorded_by_id is None
    error = refused("table_other_koppel_enters", enter, link_of(game, "a"))
    assert error.params == {"team": "b"}
    enter(link)
    assert game.rounds.count() == 2


def test_a_refused_first_round_fixes_nobody(game):
    refused("result_unknown", enter, link_of(game, "b"), result="nonsense")
    assert game_entering_koppels(game=game) == frozenset()
    enter(link_of(game, "a"))


def test_a_double_tap_is_stored_once(game):
    link = link_of(game)
    enter(link, expected_number=1)
    refused("round_already_recorded", enter, link, expected_number=1)
    assert game.rounds.count() == 1


def test_a_double_tap_on_the_last_round_says_recorded_not_over(game):
    link = link_of(game)
    finish(link)
    refused("round_already_recorded", enter, link, expected_number=4)
    assert game.rounds.count() == 4


def test_no_round_after_the_end(game):
    link = link_of(game)
    finish(link)
    refused("game_finished", enter, link)


def test_no_round_on_a_confirmed_game(confirming):
    link = link_of(confirming)
    finish(link)
    table_game_confirm(token=other(link).token, seen=game_token_now(game_id=confirming.pk))
    refused("game_confirmed", enter, link)


def test_the_caller_is_checked_by_the_rules(game):
    link = link_of(game)
    refused("caller_not_at_table", enter, link, caller_id=PlayerFactory.create().pk)


# ---------------------------------------------------------------- undo


def test_the_table_undoes_its_own_last_round(game):
    link = link_of(game)
    enter(link)
    last = enter(link)
    seen = game_token_now(game_id=game.pk)

    assert table_round_undo(token=link.token, round_id=last.pk, seen=seen) == 2
    assert game.rounds.count() == 1
    refused("round_unknown", table_round_undo, token=link.token, round_id=last.pk, seen=seen)


def test_only_the_entering_koppel_undoes(game):
    link = link_of(game)
    last = enter(link)
    seen = game_token_now(game_id=game.pk)
    refused(
        "table_not_entering",
        table_round_undo,
        token=other(link).token,
        round_id=last.pk,
        seen=seen,
    )


def test_undo_touches_only_the_links_own_game(game):
    link = link_of(game)
    enter(link)
    other = GameFactory.create()
    elsewhere = round_record(game_id=other.pk, expected_number=1, result="kap", side="a")
    seen = game_token_now(game_id=game.pk)

    refused(
        "round_unknown",
        table_round_undo,
        token=link.token,
        round_id=elsewhere.pk,
        seen=seen,
    )
    assert Round.objects.filter(pk=elsewhere.pk).exists()


def test_undo_refuses_a_round_the_director_entered(game):
    link = link_of(game)
    enter(link)
    director = round_record(game_id=game.pk, expected_number=2, result="kap", side="a")
    seen = game_token_now(game_id=game.pk)
    refused(
        "round_not_from_table",
        table_round_undo,
        token=link.token,
        round_id=director.pk,
        seen=seen,
    )


def test_undo_refuses_a_round_that_is_not_the_last(game):
    link = link_of(game)
    first = enter(link)
    enter(link)
    seen = game_token_now(game_id=game.pk)
    refused(
        "game_changed_meanwhile",
        table_round_undo,
        token=link.token,
        round_id=first.pk,
        seen=seen,
    )


def test_undo_refuses_a_confirmed_or_disputed_game(game):
    link = link_of(game)
    finish(link)
    seen = game_token_now(game_id=game.pk)
    last = game.rounds.order_by("number").last()
    assert last is not None
    table_game_dispute(token=other(link).token, comment="Round 3 was ours", seen=seen)
    refused("game_disputed", table_round_undo, token=link.token, round_id=last.pk, seen=seen)


def test_a_game_the_director_closed_is_frozen_for_the_table(client):
    """After the director's "close the game" the table's undo button is gone, and an undo
    sent anyway (a page left open) is refused: round after round could be undone."""
    game = GameFactory.create(competition__close_by_director_allowed=True)
    link = link_of(game)
    enter(link)
    last = enter(link)
    assert b'id="table-undo"' in client.get(table_url(link)).content
    game_close(game_id=game.pk, seen=game_token_now(game_id=game.pk))
    seen = game_token_now(game_id=game.pk)

    assert b'id="table-undo"' not in client.get(table_url(link)).content
    refused(
        "game_closed_by_director",
        table_round_undo,
        token=link.token,
        round_id=last.pk,
        seen=seen,
    )
    response = post(client, link, action="undo", round=last.pk, seen=seen)
    assert response.status_code == 422
    assert b"The director closed this game" in response.content
    game.refresh_from_db()
    assert game.rounds.count() == 2 and game.status == Game.Status.CLOSED


# ---------------------------------------------------------------- confirm and dispute


def test_the_other_koppel_confirms(confirming):
    link = link_of(confirming)
    finish(link)
    seen = game_token_now(game_id=confirming.pk)

    table_game_confirm(token=other(link).token, seen=seen)
    table_game_confirm(token=other(link).token, seen=seen)  # pressed twice

    confirming.refresh_from_db()
    assert confirming.confirmed_at is not None
    assert (confirming.confirmed_side, confirming.confirmed_by) == ("b", None)


def test_the_entering_koppel_cannot_confirm_its_own_rounds(confirming):
    link = link_of(confirming)
    finish(link)
    seen = game_token_now(game_id=confirming.pk)
    refused("table_own_rounds", table_game_confirm, token=link.token, seen=seen)
    refused("table_own_rounds", table_game_dispute, token=link.token, comment="x", seen=seen)
    confirming.refresh_from_db()
    assert confirming.confirmed_at is None


def test_the_entering_koppel_stays_itself_under_a_new_link(confirming):
    old = link_of(confirming)
    finish(old)
    game_link_revoke(game_id=confirming.pk, link_id=old.pk)
    new = link_of(confirming)
    seen = game_token_now(game_id=confirming.pk)
    refused("table_own_rounds", table_game_confirm, token=new.token, seen=seen)
    table_game_confirm(token=other(new).token, seen=seen)


def test_an_open_game_is_not_confirmed_at_the_table(confirming):
    link = link_of(confirming)
    enter(link)
    seen = game_token_now(game_id=confirming.pk)
    refused("game_not_over", table_game_confirm, token=other(link).token, seen=seen)


def test_a_result_changed_meanwhile_is_not_confirmed(confirming):
    link = link_of(confirming)
    enter(link)
    seen = game_token_now(game_id=confirming.pk)
    for _ in range(3):
        enter(link)
    refused("game_changed_meanwhile", table_game_confirm, token=other(link).token, seen=seen)


def test_a_game_the_director_entered_is_confirmed_by_either_koppel(confirming):
    for number in range(1, 5):
        round_record(game_id=confirming.pk, expected_number=number, result="kap", side="b")
    link = link_of(confirming)
    table_game_confirm(token=link.token, seen=game_token_now(game_id=confirming.pk))
    confirming.refresh_from_db()
    assert confirming.confirmed_side == "a"


def test_a_dispute_needs_a_comment_of_at_most_500_characters(game):
    link = link_of(game)
    finish(link)
    seen = game_token_now(game_id=game.pk)
    refused(
        "dispute_comment_missing",
        table_game_dispute,
        token=other(link).token,
        comment="  ",
        seen=seen,
    )
    refused(
        "dispute_comment_too_long",
        table_game_dispute,
        token=other(link).token,
        comment="x" * 501,
        seen=seen,
    )
    table_game_dispute(token=other(link).token, comment="x" * 500, seen=seen)


def test_a_dispute_sent_twice_is_stored_once_and_blocks_the_table(game):
    link = link_of(game)
    finish(link)
    seen = game_token_now(game_id=game.pk)
    first = table_game_dispute(token=other(link).token, comment="Round 2 was a baunie", seen=seen)
    again = table_game_dispute(token=other(link).token, comment="Round 2 was a baunie", seen=seen)

    assert first == again and GameDispute.objects.filter(game=game).count() == 1
    refused(
        "game_disputed",
        table_game_dispute,
        token=other(link).token,
        comment="Other",
        seen=seen,
    )
    refused("game_disputed", table_game_confirm, token=other(link).token, seen=seen)


def test_confirmation_required_counts_a_game_only_once_confirmed(confirming):
    link = link_of(confirming)
    finish(link)
    standings_rebuild(competition_id=confirming.match.matchday.competition_id)
    home = Standing.objects.get(entry=confirming.match.home)
    assert (home.played, home.points_for) == (0, 0)

    table_game_confirm(token=other(link).token, seen=game_token_now(game_id=confirming.pk))
    standings_rebuild(competition_id=confirming.match.matchday.competition_id)
    home.refresh_from_db()
    assert (home.played, home.won, home.points_for) == (1, 1, 20)


# ---------------------------------------------------------------- the director's decisions


def disputed(game: Game) -> tuple[GameLink, GameDispute]:
    link = link_of(game)
    finish(link)
    dispute = table_game_dispute(
        token=other(link).token,
        comment="Round 4 was ours",
        seen=game_token_now(game_id=game.pk),
    )
    return link, dispute


def test_a_dispute_accepted_confirms_the_result_as_entered(confirming):
    _link, dispute = disputed(confirming)
    director = UserFactory.create()
    seen = game_token_now(game_id=confirming.pk)

    game_dispute_resolve(dispute_id=dispute.pk, resolution="accepted", user=director, seen=seen)
    game_dispute_resolve(dispute_id=dispute.pk, resolution="accepted", user=director, seen=seen)

    dispute.refresh_from_db()
    confirming.refresh_from_db()
    assert (dispute.resolution, dispute.resolved_by) == ("accepted", director)
    assert confirming.confirmed_by == director and confirming.confirmed_side == ""
    assert (confirming.score_a, confirming.score_b) == (20, 0)
    refused(
        "dispute_resolved_already",
        game_dispute_resolve,
        dispute_id=dispute.pk,
        resolution="rejected",
        user=director,
        seen=seen,
    )


def test_a_dispute_corrected_on_the_sheet_confirms_the_corrected_result(confirming):
    _link, dispute = disputed(confirming)
    last = confirming.rounds.order_by("number").last()
    assert last is not None
    # Round 4 was a baunie, not a kap: the game stays over, the dispute stays open.
    round_correct(round_id=last.pk, result="baunie", side="a", seen=last.token)
    confirming.refresh_from_db()
    assert (confirming.score_a, confirming.score_b, confirming.status) == (30, 0, "finished")

    queue = director_queue(
        competition=confirming.match.matchday.competition, wait=timedelta(minutes=10)
    )
    [item] = queue.disputes
    assert item.corrected
    game_dispute_resolve(dispute_id=dispute.pk, resolution="corrected", user=None, seen=item.seen)

    dispute.refresh_from_db()
    confirming.refresh_from_db()
    assert dispute.resolution == "corrected" and confirming.confirmed_at is not None


@pytest.mark.parametrize("write", ["correct", "delete", "undo"])
def test_a_correction_that_leaves_the_game_open_lets_the_table_play_on(confirming, write):
    """Not a dead end: the director's correction reopens the game, so it decides the
    dispute (corrected, by that director); the table plays on and the other koppel
    confirms the result at the end, as usual."""
    link, dispute = disputed(confirming)
    director = UserFactory.create()
    last = confirming.rounds.order_by("number").last()
    assert last is not None
    if write == "correct":
        round_correct(round_id=last.pk, result="kap", side="b", seen=last.token, user=director)
    elif write == "delete":
        round_delete(round_id=last.pk, seen=last.token, user=director)
    else:
        seen = game_token_now(game_id=confirming.pk)
        round_undo(game_id=confirming.pk, round_id=last.pk, seen=seen, user=director)

    dispute.refresh_from_db()
    confirming.refresh_from_db()
    assert (dispute.resolution, dispute.resolved_by) == ("corrected", director)
    assert confirming.status == "open" and confirming.confirmed_at is None
    assert not director_queue(
        competition=confirming.match.matchday.competition, wait=timedelta(minutes=10)
    ).disputes
    while Game.objects.get(pk=confirming.pk).status == "open":
        enter(link)
    table_game_confirm(token=other(link).token, seen=game_token_now(game_id=confirming.pk))
    confirming.refresh_from_db()
    assert confirming.confirmed_side == "b"
    # The history keeps the dispute as raised, and its resolution.
    assert [h.resolution for h in dispute.history.order_by("history_date")] == ["", "corrected"]


def test_reopening_a_disputed_closed_game_decides_the_dispute():
    game = GameFactory.create(
        competition=CompetitionFactory.create(
            confirmation_required=True, close_by_director_allowed=True
        )
    )
    link = link_of(game)
    enter(link)
    game_close(game_id=game.pk, seen=game_token_now(game_id=game.pk))
    seen = game_token_now(game_id=game.pk)
    dispute = table_game_dispute(token=other(link).token, comment="Not closed", seen=seen)
    director = UserFactory.create()
    game_reopen(game_id=game.pk, seen=seen, user=director)
    dispute.refresh_from_db()
    assert (dispute.resolution, dispute.resolved_by) == ("corrected", director)
    enter(link)  # the table plays on


def test_a_dispute_rejected_sends_the_game_back_to_the_table(confirming):
    link, dispute = disputed(confirming)
    ids = list(confirming.rounds.values_list("pk", flat=True))
    seen = game_token_now(game_id=confirming.pk)

    game_dispute_resolve(dispute_id=dispute.pk, resolution="rejected", user=None, seen=seen)
    game_dispute_resolve(dispute_id=dispute.pk, resolution="rejected", user=None, seen=seen)

    confirming.refresh_from_db()
    assert not confirming.rounds.exists()
    assert (confirming.status, confirming.score_a, confirming.score_b) == ("open", 0, 0)
    assert game_entering_koppels(game=confirming) == frozenset()
    # The history keeps the rounds that were removed, and says why.
    removed = Round.history.filter(id__in=ids, history_type="-")
    assert removed.count() == 4
    assert set(removed.values_list("history_change_reason", flat=True)) == {"rejected"}
    # The table enters again, from round 1; either koppel may be the one.
    enter(other(link), side="b")
    assert confirming.rounds.count() == 1


def test_a_dispute_of_a_changed_result_is_not_decided_unseen(confirming):
    _link, dispute = disputed(confirming)
    seen = game_token_now(game_id=confirming.pk)
    last = confirming.rounds.order_by("number").last()
    assert last is not None
    round_correct(round_id=last.pk, result="baunie", side="a", seen=last.token)
    refused(
        "game_changed_meanwhile",
        game_dispute_resolve,
        dispute_id=dispute.pk,
        resolution="accepted",
        user=None,
        seen=seen,
    )


def test_unknown_disputes_and_resolutions_are_refused(confirming):
    _link, dispute = disputed(confirming)
    refused(
        "dispute_unknown",
        game_dispute_resolve,
        dispute_id=dispute.pk + 99,
        resolution="accepted",
        user=None,
        seen="x",
    )
    refused(
        "resolution_unknown",
        game_dispute_resolve,
        dispute_id=dispute.pk,
        resolution="maybe",
        user=None,
        seen="x",
    )


def test_an_unconfirmed_result_rejected_goes_back_to_the_table(confirming):
    link = link_of(confirming)
    finish(link)
    seen = game_token_now(game_id=confirming.pk)
    game_table_reject(game_id=confirming.pk, user=None, seen=seen)
    game_table_reject(game_id=confirming.pk, user=None, seen=seen)  # pressed twice
    confirming.refresh_from_db()
    assert confirming.status == "open" and not confirming.rounds.exists()


def test_accept_all_confirms_the_undisputed_results_listed(confirming):
    competition = confirming.match.matchday.competition
    others = [GameFactory.create(competition=competition) for _ in range(3)]
    finish(link_of(confirming))
    for game in others[:2]:
        finish(link_of(game))
    table_game_dispute(
        token=link_of(others[0], "b").token,
        comment="no",
        seen=game_token_now(game_id=others[0].pk),
    )
    seen = {game.pk: game_token_now(game_id=game.pk) for game in [confirming, *others]}
    director = UserFactory.create()

    accepted = games_accept_all(competition_id=competition.pk, user=director, seen=seen)
    again = games_accept_all(competition_id=competition.pk, user=director, seen=seen)

    assert sorted(accepted) == sorted([confirming.pk, others[1].pk]) and again == []
    assert Game.objects.get(pk=confirming.pk).confirmed_by == director
    assert Game.objects.get(pk=others[0].pk).confirmed_at is None  # disputed
    assert Game.objects.get(pk=others[2].pk).confirmed_at is None  # still open
    # The confirmation is in the game's history.
    assert confirming.history.filter(confirmed_at__isnull=False).exists()


def test_accept_all_leaves_a_result_changed_since_the_page(confirming):
    link = link_of(confirming)
    finish(link)
    stale = {confirming.pk: "stale-token"}
    assert (
        games_accept_all(
            competition_id=confirming.match.matchday.competition_id, user=None, seen=stale
        )
        == []
    )
    # Without a list: every result of the matchday that waits.
    assert games_accept_all(
        competition_id=confirming.match.matchday.competition_id,
        user=None,
        matchday_id=confirming.match.matchday_id,
    ) == [confirming.pk]


# ---------------------------------------------------------------- the queue


def finished_ago(game: Game, ago: timedelta) -> None:
    """Date the history of `game` and its rounds `ago`: it last changed then."""
    when = timezone.now() - ago
    Game.history.filter(id=game.pk).update(history_date=when)
    Round.history.filter(game_id=game.pk).update(history_date=when)


def test_the_queue_lists_disputes_and_long_unconfirmed_results(confirming):
    competition = confirming.match.matchday.competition
    waiting = GameFactory.create(competition=competition)
    fresh = GameFactory.create(competition=competition)
    _link, dispute = disputed(confirming)
    finish(link_of(waiting))
    finish(link_of(fresh))
    # `waiting` finished 15 minutes ago: its newest history records (its own and its
    # rounds') say when.
    finished_ago(waiting, timedelta(minutes=15))

    queue = director_queue(competition=competition, wait=timedelta(minutes=10))

    assert [item.dispute for item in queue.disputes] == [dispute]
    assert [item.game.pk for item in queue.waiting] == [waiting.pk]
    assert queue.waiting[0].seen == game_token_now(game_id=waiting.pk)


def test_a_round_corrected_after_the_dispute_shows_in_the_queue_the_score_unchanged(confirming):
    """Issue 19: the correction of a caller leaves the game's own fields (and its history)
    as they were; the round's record still says the director corrected it."""
    _link, dispute = disputed(confirming)
    queue = director_queue(competition=confirming.match.matchday.competition, wait=timedelta(0))
    assert not queue.disputes[0].corrected
    last = confirming.rounds.get(number=4)
    round_correct(
        round_id=last.pk, result="kap", side="a", caller_id=confirming.seat_1_id, seen=last.token
    )
    queue = director_queue(competition=confirming.match.matchday.competition, wait=timedelta(0))
    assert [item.dispute for item in queue.disputes] == [dispute]
    assert queue.disputes[0].corrected


def test_without_confirmation_the_queue_lists_only_disputes(game):
    finish(link_of(GameFactory.create(competition=game.match.matchday.competition)))
    _link, dispute = disputed(game)
    queue = director_queue(competition=game.match.matchday.competition, wait=timedelta(minutes=0))
    assert [item.dispute for item in queue.disputes] == [dispute] and queue.waiting == []


# ---------------------------------------------------------------- the table's page


def table_url(link: GameLink) -> str:
    return reverse("table_sheet", kwargs={"token": link.token})


def post(client: Client, link: GameLink, **data: Any) -> Any:
    return client.post(table_url(link), data)


@pytest.mark.parametrize("koppel", ["a", "b"])
def test_the_table_page_knows_its_koppel_from_the_link(client, game, koppel):
    """No "which koppel are you?": each koppel's link says which koppel the phone is, and
    either may start entering."""
    link = link_of(game, koppel)
    response = client.get(table_url(link))
    assert response.status_code == 200
    assert b"Which koppel are you?" not in response.content and b"Not you?" not in response.content
    team = game.team_a if koppel == "a" else game.team_b
    who = response.content.split(b'id="who-am-i"')[1].split(b"</div>")[0]
    assert escape(str(team)).encode() in who
    assert b'id="quick-a"' in response.content
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert "no-cache" in response["Cache-Control"]


def test_the_anonymous_table_flow(client, confirming):
    """Koppel A's phone enters the game with one-tap buttons, undoes a mistake; koppel B's
    phone (another session) confirms it."""
    link = link_of(confirming)
    url = table_url(link)

    page = client.get(url)
    assert b'id="quick-a"' in page.content and b"Round 1" in page.content
    response = post(client, link, action="round", number=1, quick="b")
    assert response.status_code == 302
    assert confirming.rounds.get().side == "b"
    # A double tap of the same button: stored once, said as news.
    response = post(client, link, action="round", number=1, quick="b")
    assert response.status_code == 302 and confirming.rounds.count() == 1
    assert b"recorded already" in client.get(url).content
    # Undo it.
    last = confirming.rounds.get()
    seen = game_token_now(game_id=confirming.pk)
    assert post(client, link, action="undo", round=last.pk, seen=seen).status_code == 302
    assert not confirming.rounds.exists()
    assert post(client, link, action="undo", round=last.pk, seen=seen).status_code == 302
    assert b"undone already" in client.get(url).content
    # Another result through the select: a kap for A, four times.
    for number in range(1, 5):
        response = post(client, link, action="round", number=number, result="kap", side="a")
        assert response.status_code == 302, response.content
    page = client.get(url)
    assert b"Waiting for the other koppel" in page.content
    assert b'id="table-confirm"' not in page.content

    phone_b, theirs = Client(), other(link)
    page = phone_b.get(table_url(theirs))
    assert b'id="table-confirm"' in page.content
    seen = game_token_now(game_id=confirming.pk)
    assert post(phone_b, theirs, action="confirm", seen=seen).status_code == 302
    confirming.refresh_from_db()
    assert confirming.confirmed_side == "b"
    assert b"Result confirmed by" in phone_b.get(table_url(theirs)).content


def test_the_koppel_that_entered_cannot_confirm_even_from_a_fresh_browser(confirming):
    """Issue 18: with one link for both koppels, clearing the cookies let the koppel that
    entered the rounds say it was the other one and confirm its own result. Now its own
    link is all it has: a fresh browser (no cookies) on it can neither confirm nor
    dispute; the opponents confirm through their own link."""
    link = link_of(confirming, "a")
    for number in range(1, 5):
        post(Client(), link, action="round", number=number, result="kap", side="a")
    assert confirming.rounds.count() == 4
    fresh = Client()
    page = fresh.get(table_url(link))
    assert b'id="table-confirm"' not in page.content and b'id="table-waiting"' in page.content
    seen = game_token_now(game_id=confirming.pk)

    response = post(fresh, link, action="confirm", seen=seen)
    assert response.status_code == 422
    assert b"Your koppel entered these rounds" in response.content
    response = post(fresh, link, action="dispute", seen=seen, comment="All wrong")
    assert response.status_code == 422
    confirming.refresh_from_db()
    assert confirming.confirmed_at is None and not confirming.disputes.exists()

    theirs = other(link)
    assert post(Client(), theirs, action="confirm", seen=seen).status_code == 302
    confirming.refresh_from_db()
    assert confirming.confirmed_side == "b"


def test_the_caller_whose_turn_it_is_comes_preselected(client, game):
    link = link_of(game)
    Game.objects.filter(pk=game.pk).update(first_caller=2)
    page = client.get(table_url(link)).content.decode()
    assert f'<option value="{game.seat_2_id}" selected>' in page
    # It is recorded with a one-tap round, and the next caller (seat 3) comes next.
    post(client, link, action="round", number=1, quick="a", caller=game.seat_2_id)
    assert game.rounds.get().caller_id == game.seat_2_id
    page = client.get(table_url(link)).content.decode()
    assert f'<option value="{game.seat_3_id}" selected>' in page


def test_the_table_page_says_why_a_round_is_refused(client, game):
    link = link_of(game)
    response = post(client, link, action="round", number=1, result="kap")  # no koppel
    assert response.status_code == 422
    assert b"Choose the koppel the result is about" in response.content
    response = post(client, link, action="round", result="kap", side="a")  # no number
    assert response.status_code == 422
    response = post(client, link, action="nonsense")
    assert response.status_code == 422
    assert not game.rounds.exists()


def test_the_other_koppel_follows_and_cannot_enter(client, game):
    link = link_of(game)
    enter(link)
    theirs = other(link)
    page = client.get(table_url(theirs))
    assert b'id="quick-a"' not in page.content and b'id="table-following"' in page.content
    assert b'hx-trigger="every 10s"' in page.content
    response = post(client, theirs, action="round", number=2, quick="b")
    assert response.status_code == 422
    assert game.rounds.count() == 1


def test_the_other_koppel_disputes_on_the_page(client, game):
    link = link_of(game)
    finish(link)
    theirs = other(link)
    seen = game_token_now(game_id=game.pk)
    response = post(client, theirs, action="dispute", seen=seen, comment="")
    assert response.status_code == 422
    response = post(client, theirs, action="dispute", seen=seen, comment="Round 3 was a redeal")
    assert response.status_code == 302
    assert GameDispute.objects.get(game=game).comment == "Round 3 was a redeal"
    assert b"Round 3 was a redeal" in client.get(table_url(theirs)).content
    assert b"Round 3 was a redeal" in client.get(table_url(link)).content


def test_the_table_page_answers_htmx_with_its_partial(client, game):
    link = link_of(game)
    response = client.post(
        table_url(link), {"action": "round", "number": 1, "quick": "a"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert response.content.lstrip().startswith(b'<div id="table"')
    assert b"Round 1 recorded" in response.content


@pytest.mark.parametrize("revoked", [True, False], ids=["revoked", "unknown"])
def test_a_revoked_or_unknown_link_is_a_friendly_404(client, game, revoked, caplog):
    link = link_of(game)
    if revoked:
        game_link_revoke(game_id=game.pk, link_id=link.pk)
        token = link.token
    else:
        token = "x" * 40
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get(reverse("table_sheet", kwargs={"token": token}))
        posted = client.post(
            reverse("table_sheet", kwargs={"token": token}), {"action": "round", "quick": "a"}
        )
    assert response.status_code == posted.status_code == 404
    assert b"This link is no longer valid" in response.content
    assert b"ask the director" in response.content
    # The secret is kept out of the server's log.
    assert token not in caplog.text
    assert "/t/…" in caplog.text


def test_the_table_page_sends_its_referrer_to_this_site_only(client, game):
    """`same-origin`, not `no-referrer`: with that one Chromium posts `Origin: null`, and
    the CSRF check refuses the page's forms and the language switch."""
    response = client.get(table_url(link_of(game)))
    assert response["Referrer-Policy"] == "same-origin"
    assert b"no-referrer" not in response.content


def test_the_table_page_keeps_csrf_on(game):
    link = link_of(game)
    client = Client(enforce_csrf_checks=True)
    response = client.post(table_url(link), {"action": "round", "number": 1, "quick": "a"})
    assert response.status_code == 403


# ---------------------------------------------------------------- the director's pages


def test_the_link_page_shows_each_koppels_link_and_qr_code_and_revokes_one(client, game):
    client.force_login(league_staff())
    url = reverse(
        "game_link", kwargs={"slug": game.match.matchday.competition.slug, "game_id": game.pk}
    )
    page = client.get(url)
    links = {link.side: link for link in GameLink.objects.filter(game=game)}
    assert page.status_code == 200 and set(links) == {"a", "b"}
    html = page.content.decode()
    for side, team in (("a", game.team_a), ("b", game.team_b)):
        section = html.split(f'id="link-{side}"')[1].split("</section>")[0]
        assert f"http://testserver/t/{links[side].token}/" in section
        assert escape(str(team)) in section
        assert '<svg role="img"' in section and 'class="qr-code"' in section
    assert b"style=" not in page.content.split(b'<svg role="img"')[1].split(b"</svg>")[0]

    link = links["a"]
    assert client.post(url, {"link": link.pk}).status_code == 302
    assert client.post(url, {"link": link.pk}).status_code == 302  # pressed twice
    page = client.get(url)
    new = GameLink.objects.get(game=game, side="a", revoked_at__isnull=True)
    assert new.pk != link.pk and new.token.encode() in page.content
    assert client.get(table_url(link)).status_code == 404
    assert client.get(table_url(new)).status_code == 200
    assert client.get(table_url(links["b"])).status_code == 200  # B's link untouched


@pytest.mark.parametrize("name", ["game_link", "director_queue"])
def test_the_directors_pages_are_for_directors(client, game, name):
    slug = game.match.matchday.competition.slug
    kwargs = {"slug": slug, "game_id": game.pk} if name == "game_link" else {"slug": slug}
    url = reverse(name, kwargs=kwargs)
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(UserFactory.create())
    assert client.get(url).status_code == 403
    assert client.post(url, {"action": "accept_all"}).status_code == 403
    assert not GameLink.objects.filter(game=game).exists()


def test_the_queue_page_decides_disputes_and_accepts_all(client, confirming):
    competition = confirming.match.matchday.competition
    waiting = GameFactory.create(competition=competition)
    _link, dispute = disputed(confirming)
    finish(link_of(waiting))
    finished_ago(waiting, timedelta(hours=1))
    director = league_staff()
    client.force_login(director)
    url = reverse("director_queue", kwargs={"slug": competition.slug})

    page = client.get(url)
    assert page.status_code == 200
    assert b"Round 4 was ours" in page.content and b'id="accept-all"' in page.content
    seen = game_token_now(game_id=confirming.pk)
    response = client.post(
        url, {"action": "resolve", "dispute": dispute.pk, "resolution": "accepted", "seen": seen}
    )
    assert response.status_code == 302
    dispute.refresh_from_db()
    assert dispute.resolution == "accepted"

    games = [f"{waiting.pk}:{game_token_now(game_id=waiting.pk)}"]
    assert client.post(url, {"action": "accept_all", "games": games}).status_code == 302
    waiting.refresh_from_db()
    assert waiting.confirmed_by == director
    page = client.get(url)
    assert b"1 result confirmed." in page.content
    assert b"No open disputes." in page.content


def test_the_queue_refuses_another_competitions_game(client, confirming):
    other = GameFactory.create(competition=CompetitionFactory.create(confirmation_required=True))
    finish(link_of(other))
    client.force_login(UserFactory.create())
    competition = confirming.match.matchday.competition
    competition.directors.add(client.session["_auth_user_id"])
    url = reverse("director_queue", kwargs={"slug": competition.slug})
    seen = game_token_now(game_id=other.pk)
    assert client.post(url, {"action": "accept", "game": other.pk, "seen": seen}).status_code == 404
    assert client.post(url, {"action": "reject", "game": other.pk, "seen": seen}).status_code == 404
    assert client.post(url, {"action": "accept", "seen": seen}).status_code == 422
    other.refresh_from_db()
    assert other.confirmed_at is None and other.rounds.count() == 4


# ---------------------------------------------------------------- query counts


def evening(koppels: int) -> tuple[Competition, Game]:
    """A confirming pairs competition of `koppels` koppels on one matchday, every game but
    the last over an hour ago, a third of them disputed, the rest waiting for confirmation;
    returns the competition and its last game (open, at its table)."""
    competition = CompetitionFactory.create(slug=f"table-{koppels}", confirmation_required=True)
    entries = koppel_entries(competition, koppels)
    matchday = Matchday.objects.create(competition=competition, number=1)
    games = [
        pairs_game(matchday, entries[index], entries[index + 1], table=table)
        for table, index in enumerate(range(0, koppels, 2), start=1)
    ]
    *over, last = games
    for number, game in enumerate(over):
        side = "ab"[number % 2]
        game_rounds_load(game_id=game.pk, rounds=[RoundRecord("kap", side)] * 4)
        if number % 3 == 0:
            GameDispute.objects.create(game=game, side="b", comment=f"table {number + 1}")
    Game.history.filter(id__in=[g.pk for g in over]).update(
        history_date=timezone.now() - timedelta(hours=1)
    )
    return competition, last


def counted(client: Client, url: str) -> int:
    client.get(url)  # warm: the session, the caches of a first request
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries)


def test_table_page_and_queue_queries_are_flat(client):
    small, large = evening(8), evening(200)
    director = Client()
    director.force_login(league_staff())
    queue = [
        counted(director, reverse("director_queue", kwargs={"slug": c.slug}))
        for c, _g in (small, large)
    ]
    tables = []
    for _competition, game in (small, large):
        link = link_of(game)
        phone = Client()
        enter(link)
        tables.append(counted(phone, table_url(link)))
    # Measured: 8 each (session, user and permissions included).
    assert queue[0] == queue[1] <= 9, queue
    assert tables[0] == tables[1] <= 9, tables


def test_confirming_on_the_sheet_accepts_an_open_dispute(confirming):
    """The director's confirm button on the score sheet decides the dispute as well."""
    from scoring.services.confirmations import game_confirm

    _link, dispute = disputed(confirming)
    director = UserFactory.create()
    game_confirm(game_id=confirming.pk, user=director, seen=game_token_now(game_id=confirming.pk))

    dispute.refresh_from_db()
    assert (dispute.resolution, dispute.resolved_by) == ("accepted", director)
    assert not director_queue(
        competition=confirming.match.matchday.competition, wait=timedelta(minutes=10)
    ).disputes


def test_confirming_on_the_sheet_after_a_correction_marks_the_dispute_corrected(confirming):
    from scoring.services.confirmations import game_confirm

    _link, dispute = disputed(confirming)
    last = confirming.rounds.order_by("number").last()
    assert last is not None
    round_correct(round_id=last.pk, result="baunie", side="a", seen=last.token)
    game_confirm(game_id=confirming.pk, user=None, seen=game_token_now(game_id=confirming.pk))

    dispute.refresh_from_db()
    assert dispute.resolution == "corrected" and dispute.resolved_at is not None


def test_the_sheet_shows_an_open_dispute_and_its_comment(client, confirming):
    _link, _dispute = disputed(confirming)
    director = UserFactory.create()
    confirming.match.matchday.competition.directors.add(director)
    client.force_login(director)
    slug = confirming.match.matchday.competition.slug
    sheet = client.get(reverse("game_sheet", kwargs={"slug": slug, "game_id": confirming.pk}))

    html = sheet.content.decode()
    assert "disputed-badge" in html and "awaiting-badge" not in html
    assert "Round 4 was ours" in html and 'id="confirm-button"' in html


# ---------------------------------------------------------------- the game's history


def test_the_history_says_what_the_table_did_and_shows_the_dispute(client, confirming):
    """Rounds entered and a confirmation through the link say "at the table" and the
    koppel, not "no user"; the dispute (with its comment) and its decision are events."""
    from tests.scoring.views.test_history import acting, lines_of

    for team, name in ((confirming.team_a, "Kampoe"), (confirming.team_b, "Toppers")):
        team.name = name
        team.save()
    link, _dispute = disputed(confirming)
    director = UserFactory.create(first_name="Dina", last_name="Director")
    confirming.match.matchday.competition.directors.add(director)
    last = confirming.rounds.order_by("number").last()
    assert last is not None
    with acting(director):
        round_correct(round_id=last.pk, result="kap", side="b", seen=last.token, user=director)
    while Game.objects.get(pk=confirming.pk).status == "open":
        enter(link)
    table_game_confirm(token=other(link).token, seen=game_token_now(game_id=confirming.pk))

    client.force_login(director)
    slug = confirming.match.matchday.competition.slug
    response = client.get(reverse("game_history", kwargs={"slug": slug, "game_id": confirming.pk}))
    lines = lines_of(response)
    # Only the factory's "Game created" had no user.
    assert [line for line in lines if "no user" in line and "Game created" not in line] == []
    added = [line for line in lines if "Round 1 added" in line]
    assert added and "at the table (Kampoe, through the game's link)" in added[0]
    [raised] = [line for line in lines if "Result disputed by Toppers" in line]
    assert "comment: Round 4 was ours" in raised and "at the table (Toppers" in raised
    [decided] = [line for line in lines if "Dispute of Toppers decided" in line]
    assert "Corrected by the director" in decided and "Dina Director" in decided
    [confirmed] = [line for line in lines if "Result confirmed" in line]
    assert "at the table (Toppers, through the game's link)" in confirmed
    order = [lines.index(line) for line in (confirmed, decided, raised, added[-1])]
    assert order == sorted(order)  # newest first


@pytest.mark.parametrize("confirmation_required", [True, False])
def test_the_sheets_confirm_card_says_confirmation_counts_only_where_it_does(
    client, confirmation_required
):
    # Found by a tester: a disputed game in a competition without confirmation said "a
    # result counts only once it is confirmed", while the queue said the opposite.
    game = GameFactory.create(
        competition=CompetitionFactory.create(confirmation_required=confirmation_required)
    )
    disputed(game)
    client.force_login(league_staff())
    page = client.get(
        reverse(
            "game_sheet", kwargs={"slug": game.match.matchday.competition.slug, "game_id": game.pk}
        )
    )
    assert b'id="confirm-button"' in page.content
    said = b"counts in the standings only once it is confirmed" in page.content
    assert said is confirmation_required
