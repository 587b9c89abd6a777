"""The table phone's queue of rounds (issue 18): each round sent with its own idempotency key
(`client_key`) and the game token it was built on (`seen`).

A retry, a lost answer or two tabs replaying one queue store each round once; a queued
round built on a state the game has left (a director's correction, an undo, a dispute, a
closed game) is refused, never applied over the newer state. Each case is a script of
steps run against the service, as the phone (or the director, meanwhile) would send them.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest

from scoring.models import Game, GameLink, Round
from scoring.rules import RuleViolation
from scoring.services.confirmations import table_game_dispute
from scoring.services.games import game_close
from scoring.services.rounds import round_correct, round_record
from scoring.services.table import TableRound, game_links_ensure, table_round_record
from scoring.services.table import table_round_undo as undo_service
from tests.factories import CompetitionFactory, GameFactory
from tests.seen import game_token_now

pytestmark = pytest.mark.django_db


@dataclass
class Phone:
    """One tab of the table phone: its queue of rounds (keys in order) and the game token
    its next round is sent with (the page's, then each answer's)."""

    link: GameLink
    seen: str
    keys: dict[str, uuid.UUID] = field(default_factory=dict)

    def send(self, name: str, *, quick: str = "a", result: str = "kap") -> TableRound:
        """Send queued round `name` (made on its first send; a resend reuses its key), its
        number the rounds the phone believes stored plus one, as table.js does."""
        key = self.keys.setdefault(name, uuid.uuid4())
        sent = table_round_record(
            token=self.link.token,
            expected_number=list(self.keys).index(name) + 1,
            result=result,
            side=quick,
            client_key=key,
            seen=self.seen,
        )
        self.seen = sent.game_token
        return sent


def stored(game: Game) -> list[str]:
    return [f"{rnd.result}:{rnd.side}" for rnd in game.rounds.order_by("number")]


@pytest.fixture
def table() -> tuple[Game, GameLink]:
    game = GameFactory.create(competition=CompetitionFactory.create(close_by_director_allowed=True))
    return game, game_links_ensure(game_ids=[game.pk])[game.pk]["a"]


def phone_of(link: GameLink) -> Phone:
    return Phone(link=link, seen=game_token_now(game_id=link.game_id))


def refused(code: str, call: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        call()
    assert caught.value.code == code, caught.value
    return caught.value


def test_a_retry_of_a_stored_round_is_stored_once_and_writes_nothing(table):
    """The answer got lost: the phone sends the same round again."""
    game, link = table
    phone = phone_of(link)
    first = phone.send("r1")
    history = Round.history.count()

    again = table_round_record(
        token=link.token,
        expected_number=1,
        result="kap",
        side="a",
        client_key=phone.keys["r1"],
        seen="the token of before: a replay is not checked against it",
    )

    assert again.stored_already and not first.stored_already
    assert again.round.pk == first.round.pk and game.rounds.count() == 1
    assert Round.history.count() == history  # nothing written
    assert again.game_token == first.game_token == game_token_now(game_id=game.pk)


def test_a_lost_answer_then_the_rest_of_the_queue(table):
    """Round 2's answer never arrived; the phone retries it and goes on with 3."""
    game, link = table
    phone = phone_of(link)
    phone.send("r1")
    seen_before = phone.seen
    phone.send("r2")
    phone.seen = seen_before  # the answer to r2 was lost: the phone still holds r1's token

    retried = phone.send("r2")
    assert retried.stored_already and retried.game_token == game_token_now(game_id=game.pk)
    phone.send("r3", quick="b", result="gewone_winst")

    assert stored(game) == ["kap:a", "kap:a", "gewone_winst:b"]


def test_two_tabs_replaying_one_queue_store_each_round_once(table):
    """Both tabs send the queue r1..r4 at the same time, interleaved."""
    game, link = table
    first, second = phone_of(link), phone_of(link)
    second.keys = first.keys  # one queue (IndexedDB), two senders
    order = [
        (first, "r1"),
        (second, "r1"),
        (second, "r2"),
        (first, "r2"),
        (first, "r3"),
        (second, "r3"),
        (second, "r4"),
        (first, "r4"),
    ]
    answers = [tab.send(name) for tab, name in order]

    assert stored(game) == ["kap:a"] * 4
    assert [answer.stored_already for answer in answers] == [
        False, True, False, True, False, True, False, True,
    ]  # fmt: skip
    assert game.rounds.filter(client_key__in=first.keys.values()).count() == 4
    assert first.seen == second.seen == game_token_now(game_id=game.pk)


def correct_round_1(game: Game, link: GameLink) -> None:
    rnd = game.rounds.get(number=1)
    round_correct(round_id=rnd.pk, result="gewone_winst", side="b", seen=rnd.token)


def directors_round(game: Game, link: GameLink) -> None:
    round_record(game_id=game.pk, expected_number=game.rounds.count() + 1, result="kap", side="b")


def undo_last(game: Game, link: GameLink) -> None:
    last = game.rounds.order_by("number").last()
    assert last is not None
    undo_service(token=link.token, round_id=last.pk, seen=game_token_now(game_id=game.pk))


def close(game: Game, link: GameLink) -> None:
    game_close(game_id=game.pk, seen=game_token_now(game_id=game.pk))


CHANGED = "game_changed_meanwhile"


@pytest.mark.parametrize(
    ("meanwhile", "replay_r2", "code_r3"),
    [
        # The director corrects round 1 after the phone stored r1 and r2, answers lost.
        pytest.param(correct_round_1, "stored, token empty", CHANGED, id="correction"),
        # The director enters a round of their own on the score sheet.
        pytest.param(directors_round, "stored, token empty", CHANGED, id="directors-round"),
        # The phone (another tab) undid r2.
        pytest.param(undo_last, "round_removed_meanwhile", CHANGED, id="undo"),
        # The director closed the game at the time limit: no round changed, so the replay
        # gives the token of now; the rules refuse the next round.
        pytest.param(close, "stored, token now", "game_finished", id="closed"),
    ],
)
def test_a_queue_built_on_an_old_state_is_refused_not_applied(table, meanwhile, replay_r2, code_r3):
    """The phone stored r1 and r2 but lost both answers; meanwhile the game changed. The
    retry of r2 is recognised, but says the game moved on (an empty token: or the round is
    gone), and r3, built on the phone's state, is refused: never applied over the new one."""
    game, link = table
    phone = phone_of(link)
    page_token = phone.seen
    phone.send("r1")
    phone.send("r2")
    phone.seen = page_token  # both answers lost
    meanwhile(game, link)
    before = stored(game)

    if replay_r2.startswith("stored"):
        retried = phone.send("r2")
        now = game_token_now(game_id=game.pk)
        assert retried.stored_already
        assert retried.game_token == ("" if replay_r2.endswith("empty") else now)
    else:
        refused(replay_r2, lambda: phone.send("r2"))
    refused(code_r3, lambda: phone.send("r3"))
    # Sent again with the token of the page it was built on: refused all the same.
    phone.seen = page_token
    refused("game_changed_meanwhile", lambda: phone.send("r4"))
    assert stored(game) == before


def test_a_dispute_between_refuses_the_next_queued_round(table):
    game, link = table
    phone = phone_of(link)
    for name in ("r1", "r2", "r3", "r4"):
        phone.send(name)  # 20–0: over
    seen_before = phone.seen
    theirs = game_links_ensure(game_ids=[game.pk])[game.pk]["b"]
    table_game_dispute(token=theirs.token, comment="Round 4 was ours", seen=seen_before)

    retried = phone.send("r4")
    assert retried.stored_already
    refused("game_disputed", lambda: phone.send("r5"))
    assert game.rounds.count() == 4


def test_only_this_links_own_later_rounds_keep_a_replay_valid(table):
    """r1 replayed after r2 and r3 of the same queue: the token of now, the queue goes on."""
    game, link = table
    phone = phone_of(link)
    for name in ("r1", "r2", "r3"):
        phone.send(name, result="gewone_winst")
    replay = phone.send("r1", result="gewone_winst")
    assert replay.stored_already and replay.game_token == game_token_now(game_id=game.pk)


def test_a_key_of_another_game_is_refused(table):
    game, link = table
    phone = phone_of(link)
    phone.send("r1")
    elsewhere = GameFactory.create()
    their_link = game_links_ensure(game_ids=[elsewhere.pk])[elsewhere.pk]["a"]
    refused(
        "round_key_elsewhere",
        lambda: table_round_record(
            token=their_link.token,
            expected_number=1,
            result="kap",
            side="a",
            client_key=phone.keys["r1"],
            seen=game_token_now(game_id=elsewhere.pk),
        ),
    )
    assert not elsewhere.rounds.exists()


def test_a_new_round_on_a_stale_token_writes_nothing(table):
    game, link = table
    phone = phone_of(link)
    phone.send("r1")
    history = Round.history.count()
    phone.seen = "stale"
    refused("game_changed_meanwhile", lambda: phone.send("r2"))
    assert game.rounds.count() == 1 and Round.history.count() == history


def test_a_round_removed_by_a_rejection_is_not_brought_back(table):
    """The director sent the game back to the table: a replay of its old queue is refused."""
    from scoring.services.confirmations import game_table_reject

    game, link = table
    phone = phone_of(link)
    for name in ("r1", "r2", "r3", "r4"):
        phone.send(name)
    game_table_reject(game_id=game.pk, user=None, seen=game_token_now(game_id=game.pk))
    error = refused("round_removed_meanwhile", lambda: phone.send("r2"))
    assert error.params == {"number": 2}
    assert not game.rounds.exists()
