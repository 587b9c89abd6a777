"""The director's score sheet's offline queue (issue 18, `game_round_send`): each queued round
sent with its own idempotency key (`client_key`) and the game token it was built on (`seen`).

A retry, a lost answer or two tabs replaying one queue store each round once; a queued
round built on a state the game has left (a table phone's round, another director, a
correction, a closed game) is refused with the reason, never applied over the newer state.
Each case is a script of steps, as the sheet (or someone else, meanwhile) would send them.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from scoring.models import Game, Round
from scoring.rules import RuleViolation
from scoring.services.games import game_close
from scoring.services.rounds import SentRound, game_round_send, round_correct, round_undo
from scoring.services.table import game_links_ensure, table_round_record
from tests.factories import CompetitionFactory, GameFactory, UserFactory
from tests.seen import game_token_now

pytestmark = pytest.mark.django_db


@dataclass
class Sheet:
    """One tab of a director's score sheet: its queue (keys in order) and the token its next
    round is sent with (the page's, then each answer's)."""

    game: Game
    user: Any
    seen: str
    keys: dict[str, uuid.UUID] = field(default_factory=dict)

    def send(self, name: str, side: str = "a") -> SentRound:
        key = self.keys.setdefault(name, uuid.uuid4())
        sent = game_round_send(
            game_id=self.game.pk,
            expected_number=list(self.keys).index(name) + 1,
            result="gewone_winst",
            side=side,
            client_key=key,
            seen=self.seen,
            user=self.user,
        )
        self.seen = sent.game_token
        return sent


@pytest.fixture
def game() -> Game:
    return GameFactory.create(competition=CompetitionFactory.create(close_by_director_allowed=True))


def director(game: Game) -> Any:
    user = UserFactory.create()
    game.match.matchday.competition.directors.add(user)
    return user


def sheet_of(game: Game, user: Any) -> Sheet:
    return Sheet(game=game, user=user, seen=game_token_now(game_id=game.pk))


def stored(game: Game) -> list[str]:
    return [rnd.side for rnd in game.rounds.order_by("number")]


def table_round(game: Game, _sheet: Sheet) -> None:
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["b"]
    table_round_record(
        token=link.token,
        expected_number=game.rounds.count() + 1,
        result="gewone_winst",
        side="b",
        client_key=uuid.uuid4(),
        seen=game_token_now(game_id=game.pk),
    )


def other_director(game: Game, _sheet: Sheet) -> None:
    other = sheet_of(game, director(game))
    other.keys = {f"x{n}": uuid.uuid4() for n in range(game.rounds.count())}
    other.send("other", side="b")


def correction(game: Game, _sheet: Sheet) -> None:
    first = game.rounds.get(number=1)
    round_correct(round_id=first.pk, result="gewone_winst", side="b", seen=first.token)


def closed(game: Game, _sheet: Sheet) -> None:
    game_close(game_id=game.pk, seen=game_token_now(game_id=game.pk))


Meanwhile = Callable[[Game, Sheet], None]


@pytest.mark.parametrize(
    ("meanwhile", "codes"),
    [
        pytest.param(table_round, {"game_changed_meanwhile"}, id="a table phone's round"),
        pytest.param(other_director, {"game_changed_meanwhile"}, id="another director"),
        pytest.param(correction, {"game_changed_meanwhile"}, id="a correction"),
        # A close adds no round: a replay of r1 then finds no change in the rounds, and the
        # rules refuse r2 themselves (the game is over).
        pytest.param(closed, {"game_changed_meanwhile", "game_finished"}, id="a closed game"),
    ],
)
@pytest.mark.parametrize("answer_lost", [False, True], ids=["answered", "answer lost"])
def test_a_queued_round_on_a_changed_game_is_refused_not_applied(
    game, meanwhile, codes, answer_lost
):
    """Round 1 is stored; then someone else changes the game; the queue's round 2 (sent
    with round 1's answer, or after replaying round 1 when that answer was lost) is refused."""
    sheet = sheet_of(game, director(game))
    first_token = sheet.seen
    sheet.send("r1")
    meanwhile(game, sheet)
    before = stored(game)
    if answer_lost:
        sheet.seen = first_token
        replay = sheet.send("r1")
        assert replay.stored_already
        assert replay.game_token == "" or meanwhile is closed
    with pytest.raises(RuleViolation) as caught:
        sheet.send("r2")
    assert caught.value.code in codes
    assert stored(game) == before
    assert not Round.objects.filter(client_key=sheet.keys["r2"]).exists()


@pytest.mark.parametrize(
    "script",
    [
        pytest.param(["r1", "r2", "r3"], id="in order"),
        pytest.param(["r1", "r1", "r2", "r2", "r3"], id="each retried"),
    ],
)
def test_retries_store_each_round_once_in_order(game, script):
    sheet = sheet_of(game, director(game))
    for name in script:
        sheet.send(name)
    assert stored(game) == ["a", "a", "a"]
    assert [r.client_key for r in game.rounds.order_by("number")] == list(sheet.keys.values())


def test_a_lost_answer_replayed_keeps_the_chain(game):
    """The answer of r1 never came: the queue sends r1 again with the old token; it is
    found stored, and the token it gets lets r2 through."""
    sheet = sheet_of(game, director(game))
    page = sheet.seen
    sheet.send("r1")
    sheet.seen = page
    again = sheet.send("r1")
    assert again.stored_already and again.game_token == game_token_now(game_id=game.pk)
    sheet.send("r2")
    assert stored(game) == ["a", "a"]


def test_two_tabs_replaying_one_queue_store_it_once(game):
    user = director(game)
    first, second = sheet_of(game, user), sheet_of(game, user)
    first.send("r1")
    first.send("r2")
    second.keys = dict(first.keys)
    for name in ("r1", "r2"):
        assert second.send(name).stored_already
    assert stored(game) == ["a", "a"]
    assert second.seen == first.seen == game_token_now(game_id=game.pk)


@pytest.mark.parametrize(
    ("code", "prepare"),
    [
        pytest.param("round_key_elsewhere", "other_game", id="a key of another game"),
        pytest.param("round_removed_meanwhile", "undone", id="a round undone since"),
    ],
)
def test_a_key_that_does_not_fit_is_refused(game, code, prepare):
    user = director(game)
    sheet = sheet_of(game, user)
    sheet.send("r1")
    if prepare == "other_game":
        other = GameFactory.create(competition=game.match.matchday.competition)
        elsewhere = sheet_of(other, user)
        elsewhere.keys = {"r1": sheet.keys["r1"]}
        target = elsewhere
    else:
        only = game.rounds.get()
        round_undo(game_id=game.pk, round_id=only.pk, seen=game_token_now(game_id=game.pk))
        target = sheet
    with pytest.raises(RuleViolation) as caught:
        target.send("r1")
    assert caught.value.code == code
    assert game.rounds.count() == (1 if prepare == "other_game" else 0)


def test_a_round_past_the_end_is_refused_by_the_rules(game):
    """A fresh token on a closed game: not "changed meanwhile" but the rule itself."""
    sheet = sheet_of(game, director(game))
    sheet.send("r1")
    closed(game, sheet)
    sheet.seen = game_token_now(game_id=game.pk)
    with pytest.raises(RuleViolation) as caught:
        sheet.send("r2")
    assert caught.value.code == "game_finished"
    assert game.rounds.count() == 1
