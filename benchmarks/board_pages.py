"""The director's matchday board and the hall display of issue 20's table, and their polls.

The generated competition is played out; as the evening would have it, the last matchday is
put back in play (its first game's last round undone, as `benchmarks.live_polls` does) and
the board and the display show it. A poll is the page's own (`hx-get` of its live element,
the version it holds in its URL), asked as htmx does (`HX-Request`):

- unchanged: nothing happened since the page was sent (the answer is a 204);
- changed: one round entered at the table in play before each request (a redeal: the game
  stays open, run after run), the poll still holding the page's version.

The board is read by a director of the competition (a user made once, logged in by the
test client); the display is public.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from html import unescape

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from benchmarks.measures import Runs, counting
from scoring.models import Game
from scoring.services.rounds import round_record, round_undo
from scoring.services.standings import standings_rebuild
from scoring.tokens import game_token_now
from tournaments.models import Competition

HTMX = {"HX-Request": "true"}
DIRECTOR = "bench-director"


def in_play(competition: Competition) -> Game:
    """The last matchday's first game, open again (its last round undone when it was over);
    the standings rebuilt after it."""
    matchday = competition.matchdays.order_by("-number").first()
    assert matchday is not None, "the generated competitions have matchdays"
    game = Game.objects.filter(match__matchday=matchday).order_by("match__table", "pk").first()
    assert game is not None
    if game.status != Game.Status.OPEN:
        last = game.rounds.order_by("-number").first()
        assert last is not None
        round_undo(game_id=game.pk, round_id=last.pk, seen=game_token_now(game_id=game.pk))
    standings_rebuild(competition_id=competition.pk)
    return game


def director_client(competition: Competition) -> Client:
    """A test client logged in as a director of `competition`."""
    user, _ = get_user_model().objects.get_or_create(username=DIRECTOR)
    competition.directors.add(user)
    client = Client()
    client.force_login(user)
    return client


def poll_url(html: str, element: str) -> str:
    """The URL the live element `#element` of a page polls (its `hx-get`)."""
    found = re.search(rf'id="{element}(?:-poll)?"[^>]*?hx-get="([^"]+)"', html, re.S)
    if not found:
        raise RuntimeError(f"#{element} does not poll")
    return unescape(found.group(1))


def get_runs(
    client: Client,
    url: str,
    *,
    repeat: int,
    htmx: bool = False,
    before: Callable[[], None] | None = None,
    status: int = 200,
) -> Runs:
    """GET `url` `repeat` times (after one untimed request that fills the caches), each
    after `before()` when given (untimed): server seconds, bytes and queries of each.
    Raises RuntimeError on an answer other than `status`."""
    headers = HTMX if htmx else {}
    result = Runs()
    for n in range(repeat + 1):
        if before is not None:
            before()
        with counting() as counter:
            started = time.perf_counter()
            response = client.get(url, headers=headers)
            seconds = time.perf_counter() - started
        if response.status_code != status:
            raise RuntimeError(f"GET {url} answered {response.status_code}, not {status}")
        if n:
            result.seconds.append(seconds)
        result.queries = counter.count
        result.size_bytes = len(response.content)
    return result


def board_runs(competition: Competition, *, repeat: int) -> dict[str, tuple[str, Runs]]:
    """The rows "board page", "board unchanged poll", "board changed poll", "hall display"
    and "hall display poll": (the URL asked, its runs) each."""
    game = in_play(competition)
    number = game.match.matchday.number
    slug = competition.slug
    client = director_client(competition)
    board = reverse("matchday_board", kwargs={"slug": slug, "number": number})
    display = reverse("hall_display", kwargs={"slug": slug})

    def a_round() -> None:
        count = game.rounds.count()
        round_record(game_id=game.pk, expected_number=count + 1, result="redeal", side="a")

    found: dict[str, tuple[str, Runs]] = {}
    page = client.get(board)
    board_poll = poll_url(page.content.decode(), "board")
    found["board page"] = (board, get_runs(client, board, repeat=repeat))
    found["board unchanged poll"] = (
        board_poll,
        get_runs(client, board_poll, repeat=repeat, htmx=True, status=204),
    )
    found["board changed poll"] = (
        board_poll,
        get_runs(client, board_poll, repeat=repeat, htmx=True, before=a_round),
    )
    public = Client()
    screen = public.get(display)
    display_poll = poll_url(screen.content.decode(), "display")
    found["hall display"] = (display, get_runs(public, display, repeat=repeat))
    found["hall display poll"] = (
        display_poll,
        get_runs(public, display_poll, repeat=repeat, htmx=True, before=a_round),
    )
    return found
