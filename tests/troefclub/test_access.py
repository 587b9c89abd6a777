"""Who may open a director's page (`troefclub.access.director_required`, issue 9): every
page of a competition's director sends an anonymous visitor to log in and a logged-in
non-director to the friendly 403 page, and answers an unknown competition, matchday,
match or game with a 404 before asking who is there. A new page is classified here, or
this fails.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, reverse

from scoring import urls as scoring_urls
from scoring.models import Game
from tests.builders import record
from tests.factories import GameFactory, UserFactory
from tournaments import urls as tournament_urls

pytestmark = pytest.mark.django_db

UNKNOWN = 987654321
HTMX = {"HTTP_HX_REQUEST": "true"}

Kwargs = Callable[[Game], dict[str, Any]]


def _slug(game: Game) -> dict[str, Any]:
    return {"slug": game.match.matchday.competition.slug}


def _matchday(game: Game) -> dict[str, Any]:
    return {**_slug(game), "number": game.match.matchday.number}


def _match(game: Game) -> dict[str, Any]:
    return {**_slug(game), "match_id": game.match_id}


def _game(game: Game) -> dict[str, Any]:
    return {**_slug(game), "game_id": game.pk}


def _round(game: Game) -> dict[str, Any]:
    return {**_game(game), "round_id": game.rounds.get().pk}


# Each director's page: how its URL comes from a game, and whether it answers GET (else
# it takes a POST only).
DIRECTED: dict[str, tuple[Kwargs, bool]] = {
    "competition_manage": (_slug, True),
    "director_queue": (_slug, True),
    "matchday_manage": (_matchday, True),
    "matchday_board": (_matchday, True),
    "matchday_sheets_pdf": (_matchday, True),
    "match_manage": (_match, True),
    "match_history": (_match, True),
    "match_totals": (_match, False),
    "game_sheet": (_game, True),
    "game_history": (_game, True),
    "game_link": (_game, True),
    "game_sheet_pdf": (_game, True),
    "round_edit": (_round, True),
    "round_delete": (_round, True),
    "round_undo": (_game, False),
    "sheet_round_send": (_game, False),
    "game_totals": (_game, False),
    "game_close": (_game, False),
    "game_reopen": (_game, False),
    "game_confirm": (_game, False),
    "game_seats": (_game, False),
    # Issue 22: the seeding from the final standings, deciding matches, the play-offs made.
    "playoff_manage": (_slug, True),
    # Issue 22: withdrawals of entries, the check-in of an evening.
    "withdrawals_manage": (_slug, True),
    "checkin_manage": (_matchday, True),
}
# Open to everybody (the table's page to whoever holds its link); the director's home
# page is not a competition's (it lists the competitions its user directs).
NOT_DIRECTED = {
    "competition_list",
    "competition_detail",
    "matchday_detail",
    "matchday_print",
    "matchday_pairings_pdf",
    "standings_export",
    "results_export",
    "match_detail",
    "hall_display",
    "game_detail",
    "table_sheet",
    "table_round_send",
    "table_manifest",
    "service_worker",
    "director_home",
    # Issue 22: a stage's bracket (page and PDF), a season's divisions.
    "playoff_bracket",
    "playoff_bracket_pdf",
    "season_divisions",
}


@pytest.fixture
def game() -> Game:
    game = GameFactory.create()
    record(game, result="kap", side="a")
    return game


def ask(client: Client, name: str, game: Game, **extra: Any) -> Any:
    kwargs, answers_get = DIRECTED[name]
    url = reverse(name, kwargs=kwargs(game))
    return client.get(url, **extra) if answers_get else client.post(url, **extra)


def unknown(name: str, game: Game) -> dict[str, Any]:
    """The page's URL arguments with its object unknown (its game, match, matchday or
    competition)."""
    kwargs = DIRECTED[name][0](game)
    for key in ("game_id", "match_id"):
        if key in kwargs:
            return {**kwargs, key: UNKNOWN}
    if "number" in kwargs:
        return {**kwargs, "number": UNKNOWN}
    return {**kwargs, "slug": "no-such-competition"}


def test_every_page_is_classified() -> None:
    patterns = [*tournament_urls.urlpatterns, *scoring_urls.urlpatterns]
    names = {p.name for p in patterns if isinstance(p, URLPattern) and p.name}
    assert names == set(DIRECTED) | NOT_DIRECTED
    assert not set(DIRECTED) & NOT_DIRECTED


@pytest.mark.parametrize("name", sorted(DIRECTED))
def test_an_anonymous_visitor_is_sent_to_log_in(client: Client, game: Game, name: str) -> None:
    response = ask(client, name, game)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")


@pytest.mark.parametrize("name", sorted(DIRECTED))
def test_a_non_director_gets_the_friendly_403(client: Client, game: Game, name: str) -> None:
    client.force_login(UserFactory.create(is_staff=True))  # admin access, not a director
    response = ask(client, name, game)
    assert response.status_code == 403
    assert [t.name for t in response.templates][:1] == ["forbidden.html"]
    assert response.context["competition"] == game.match.matchday.competition


@pytest.mark.parametrize("name", sorted(DIRECTED))
def test_an_unknown_object_is_a_404_before_the_login(client: Client, game: Game, name: str) -> None:
    _kwargs, answers_get = DIRECTED[name]
    url = reverse(name, kwargs=unknown(name, game))
    response = client.get(url) if answers_get else client.post(url)
    assert response.status_code == 404


def test_a_logged_out_htmx_write_reloads_the_page_it_came_from_at_the_login(
    client: Client, game: Game
) -> None:
    sheet = reverse("game_sheet", kwargs=_game(game))
    response = ask(
        client, "game_close", game, HTTP_HX_CURRENT_URL=f"http://testserver{sheet}", **HTMX
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"{reverse('login')}?next={sheet}"


def test_a_board_poll_no_longer_allowed_reloads_the_board(client: Client, game: Game) -> None:
    response = ask(client, "matchday_board", game, **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("matchday_board", kwargs=_matchday(game))
