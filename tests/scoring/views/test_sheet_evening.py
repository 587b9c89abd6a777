"""The director's evening on the score sheet (issue 8): seats and the first caller set on
the sheet, the caller proposed and checked from round 1, a gewone winst in one tap, the
next table, "not started" instead of "0–0 in play", no koppel on a redeal, undo on a game
that is over said before it is done, and where a director lands after logging in.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring.models import Game, Round
from scoring.rules import RuleViolation
from scoring.selectors.evening import directed_competitions
from scoring.selectors.sheet import competition_games_replay, game_next_caller
from scoring.services.games import (
    competition_games_rescore,
    game_close,
    game_seats_set,
    game_seats_token,
)
from scoring.tokens import game_token
from tests.builders import finished_game, record
from tests.factories import (
    CompetitionFactory,
    GameFactory,
    MatchdayFactory,
    MatchFactory,
    PlayerFactory,
    UserFactory,
    league_staff,
)
from tests.test_query_budgets import build

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- helpers


def unseated(**kwargs: Any) -> Game:
    """A game whose seats are not set yet (as a paired matchday makes them)."""
    return GameFactory.create(seat_1=None, seat_2=None, seat_3=None, seat_4=None, **kwargs)


def seats_token(game: Game) -> str:
    game = Game.objects.get(pk=game.pk)
    return game_seats_token(game, list(game.rounds.all()))


def clockwise(game: Game) -> tuple[int, int, int, int]:
    """Koppel A's first player in seat 1, koppel B's second in seat 2, partners opposite."""
    a, b = game.team_a, game.team_b
    return (a.player_1_id, b.player_2_id, a.player_2_id, b.player_1_id)


def sheet_url(game: Game) -> str:
    slug = game.match.matchday.competition.slug
    return reverse("game_sheet", kwargs={"slug": slug, "game_id": game.pk})


def write_url(name: str, game: Game) -> str:
    slug = game.match.matchday.competition.slug
    return reverse(name, kwargs={"slug": slug, "game_id": game.pk})


def directing(client: Client, game: Game) -> Any:
    director = UserFactory.create()
    game.match.matchday.competition.directors.add(director)
    client.force_login(director)
    return director


def sheet_token(game: Game) -> str:
    game = Game.objects.get(pk=game.pk)
    return game_token(game, list(game.rounds.all()))


def last_round_id(game: Game) -> int:
    return Game.objects.get(pk=game.pk).rounds.order_by("-number").values_list("pk", flat=True)[0]


# ---------------------------------------------------------------- game_seats_set


def test_seats_and_first_caller_are_stored_and_propose_round_1s_caller():
    game = unseated()
    seats = clockwise(game)

    game_seats_set(game_id=game.pk, seats=seats, first_caller=2, seen=seats_token(game))

    game = Game.objects.get(pk=game.pk)
    assert (game.seats, game.first_caller) == (seats, 2)
    assert game_next_caller(game=game, rounds=[]) == seats[1]


@pytest.mark.parametrize(
    ("seats", "code"),
    [
        ("b_in_seat_1", "seats_do_not_fit"),
        ("stranger", "seats_do_not_fit"),
        ("nobody", "seats_do_not_fit"),
        ("twice", "seat_player_twice"),
        ("three", "seats_incomplete"),
    ],
)
def test_seats_of_the_wrong_players_are_refused_and_nothing_is_saved(seats: str, code: str):
    game = unseated()
    a, b = game.team_a, game.team_b
    given = {
        "b_in_seat_1": (b.player_1_id, a.player_1_id, b.player_2_id, a.player_2_id),
        "stranger": (PlayerFactory.create().pk, b.player_1_id, a.player_2_id, b.player_2_id),
        "nobody": (999_999, b.player_1_id, a.player_2_id, b.player_2_id),
        "twice": (a.player_1_id, b.player_1_id, a.player_1_id, b.player_2_id),
        "three": (a.player_1_id, b.player_1_id, a.player_2_id, None),
    }[seats]

    with pytest.raises(RuleViolation) as refused:
        game_seats_set(game_id=game.pk, seats=given, first_caller=None, seen=seats_token(game))

    assert refused.value.code == code
    game.refresh_from_db()
    assert (game.seats, game.first_caller) == ((None, None, None, None), None)


def test_seats_are_refused_once_the_game_has_rounds():
    game = GameFactory.create()  # seated
    record(game, "kap", "a")
    a, b = game.team_a, game.team_b
    swapped = (a.player_2_id, b.player_2_id, a.player_1_id, b.player_1_id)

    with pytest.raises(RuleViolation) as refused:
        game_seats_set(game_id=game.pk, seats=swapped, first_caller=1, seen=seats_token(game))

    assert refused.value.code == "game_has_rounds_setup"
    assert Game.objects.get(pk=game.pk).first_caller is None


def test_stale_seats_are_refused_and_the_same_seats_sent_twice_are_done():
    game = unseated()
    seen = seats_token(game)
    seats = clockwise(game)
    game_seats_set(game_id=game.pk, seats=seats, first_caller=1, seen=seen)

    # The same form sent twice: done already, nothing changes.
    game_seats_set(game_id=game.pk, seats=seats, first_caller=1, seen=seen)
    # Another form opened before that change: refused, the first one's seats stay.
    a, b = game.team_a, game.team_b
    other = (a.player_2_id, b.player_1_id, a.player_1_id, b.player_2_id)
    with pytest.raises(RuleViolation) as refused:
        game_seats_set(game_id=game.pk, seats=other, first_caller=3, seen=seen)

    assert refused.value.code == "game_changed_meanwhile"
    game.refresh_from_db()
    assert (game.seats, game.first_caller) == (seats, 1)


def test_a_first_caller_needs_a_seat_from_1_to_4_and_the_seats():
    game = unseated()
    for first, seats, code in (
        (5, clockwise(game), "seat_invalid"),
        (2, (None, None, None, None), "seats_required"),
    ):
        with pytest.raises(RuleViolation) as refused:
            game_seats_set(game_id=game.pk, seats=seats, first_caller=first, seen=seats_token(game))
        assert refused.value.code == code


def test_seats_can_be_cleared_before_round_1():
    game = GameFactory.create(first_caller=3)

    game_seats_set(
        game_id=game.pk, seats=(None, None, None, None), first_caller=None, seen=seats_token(game)
    )

    game.refresh_from_db()
    assert (game.seats, game.first_caller) == ((None, None, None, None), None)


# ---------------------------------------------------------------- the first caller


def test_the_first_caller_is_checked_from_round_1():
    game = GameFactory.create(first_caller=2)
    seat_1, seat_2 = game.seat_1_id, game.seat_2_id

    with pytest.raises(RuleViolation) as refused:
        record(game, "gewone_winst", "a", caller_id=seat_1)
    assert (refused.value.code, refused.value.params["expected"]) == ("caller_out_of_turn", 2)

    record(game, "gewone_winst", "b", caller_id=seat_2)  # seat 2's koppel wins: calls on
    game = Game.objects.get(pk=game.pk)
    assert game_next_caller(game=game, rounds=list(game.rounds.all())) == seat_2


def test_replays_of_the_whole_competition_start_from_the_first_caller():
    game = GameFactory.create(first_caller=2)
    record(game, "gewone_winst", "b", caller_id=game.seat_2_id)
    competition = game.match.matchday.competition

    replayed = competition_games_replay(competition=competition, rules=competition.rule_set)
    assert replayed[0][2] is not None and replayed[0][2].state.caller == 2
    assert competition_games_rescore(competition_id=competition.pk) >= 0


def test_the_sheet_preselects_round_1s_caller(client):
    game = GameFactory.create(first_caller=4)
    directing(client, game)

    html = client.get(sheet_url(game)).content.decode()

    assert re.search(rf'<option value="{game.seat_4_id}" selected>', html)
    assert f'name="caller" value="{game.seat_4_id}"' in html  # the one-tap buttons' caller


def test_seats_are_set_on_the_sheet(client):
    game = unseated()
    directing(client, game)
    a, b = game.team_a, game.team_b
    html = client.get(sheet_url(game)).content.decode()
    seen = re.search(r'id="seats-form".*?name="seen" value="([^"]+)"', html, re.S)
    assert seen is not None

    response = client.post(
        write_url("game_seats", game),
        {
            "seat_1": a.player_2_id,
            "seat_2": b.player_1_id,
            "first_caller": b.player_2_id,
            "seen": seen.group(1),
        },
    )

    assert response.status_code == 302
    game.refresh_from_db()
    assert game.seats == (a.player_2_id, b.player_1_id, a.player_1_id, b.player_2_id)
    assert game.first_caller == 4
    page = client.get(sheet_url(game)).content.decode()
    assert f"Seats set; {b.player_2} calls round 1." in page
    assert re.search(rf'<option value="{b.player_2_id}" selected>', page)


def test_seats_from_the_sheet_refused_in_words(client):
    game = GameFactory.create()
    directing(client, game)
    stranger = PlayerFactory.create()
    seen = seats_token(game)

    wrong = client.post(
        write_url("game_seats", game),
        {"seat_1": stranger.pk, "seat_2": game.team_b.player_1_id, "seen": seen},
    )
    assert wrong.status_code == 422
    assert "Select a valid choice" in wrong.content.decode()

    record(game, "kap", "a")
    late = client.post(
        write_url("game_seats", game),
        {
            "seat_1": game.team_a.player_2_id,
            "seat_2": game.team_b.player_1_id,
            "seen": seats_token(game),
        },
    )
    assert late.status_code == 422
    assert "This game has rounds" in late.content.decode()
    assert 'id="seats-form"' not in late.content.decode()  # no seats form once rounds exist


# ---------------------------------------------------------------- one tap, next table


def one_tap(game: Game, side: str, html: str) -> dict[str, str]:
    """The hidden fields of the sheet's one-tap form for koppel `side`, as the page has them."""
    form = re.search(rf'<form[^>]*>(?:(?!</form>).)*id="one-tap-{side}"', html, re.S)
    assert form is not None, f"no one-tap button for {side}"
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0)))


def test_a_gewone_winst_in_one_tap_with_the_expected_caller(client):
    game = GameFactory.create(first_caller=1)
    directing(client, game)
    html = client.get(sheet_url(game)).content.decode()
    data = one_tap(game, "b", html)
    assert data["result"] == "gewone_winst" and data["number"] == "1"

    response = client.post(sheet_url(game), data, HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert "Round 1 recorded: gewone winst, 2 points to" in response.content.decode()
    game.refresh_from_db()
    rnd = game.rounds.get()
    assert (rnd.result, rnd.side, rnd.caller_id) == ("gewone_winst", "b", game.seat_1_id)
    assert (game.score_a, game.score_b) == (0, 2)
    # A double tap: the same post again is stored once.
    again = client.post(sheet_url(game), data, HTTP_HX_REQUEST="true")
    assert again.status_code == 200 and "recorded already" in again.content.decode()
    assert game.rounds.count() == 1


def test_no_one_tap_where_callers_are_required_and_unknown(client):
    game = unseated(competition=CompetitionFactory.create(callers_required=True))
    directing(client, game)

    html = client.get(sheet_url(game)).content.decode()

    assert 'id="one-tap-a"' not in html
    assert re.search(r'<details[^>]*id="seats-panel" open', html)  # seats first


def test_the_sheet_links_the_previous_and_next_table_and_the_board(client):
    matchday = MatchdayFactory.create()
    games = [
        GameFactory.create(match=MatchFactory.create(matchday=matchday, table=table), table=table)
        for table in (2, 1, 3)
    ]
    by_table = sorted(games, key=lambda game: game.table)
    directing(client, games[0])

    html = client.get(sheet_url(by_table[1])).content.decode()

    assert re.search(rf'id="previous-table" href="{sheet_url(by_table[0])}"', html)
    assert re.search(rf'id="next-table" href="{sheet_url(by_table[2])}"', html)
    board = reverse(
        "matchday_board", kwargs={"slug": matchday.competition.slug, "number": matchday.number}
    )
    assert f'href="{board}"' in html
    last = client.get(sheet_url(by_table[2])).content.decode()
    assert 'id="next-table"' not in last


# ---------------------------------------------------------------- not started, redeal


def test_an_unstarted_game_reads_not_started(client):
    game = GameFactory.create()
    directing(client, game)
    match_page = reverse(
        "match_detail",
        kwargs={"slug": game.match.matchday.competition.slug, "match_id": game.match_id},
    )

    for url in (sheet_url(game), write_url("game_detail", game), match_page):
        html = client.get(url).content.decode()
        assert "Not started" in html, url
        assert "In play" not in html, url

    matchday_pages = [
        reverse(name, args=[game.match.matchday.competition.slug, game.match.matchday.number])
        for name in ("matchday_detail", "matchday_manage")
    ]
    for url in matchday_pages:  # the match's score: not "0–0 in play"
        html = client.get(url).content.decode()
        assert "not-started-badge" in html and "in play" not in html, url

    record(game, "gewone_winst", "a")
    for url in matchday_pages:
        html = client.get(url).content.decode()
        assert "not-started-badge" not in html and "in play" in html, url

    game = GameFactory.create()
    directing(client, game)
    record(game, "redeal", "a")  # dealt once: started, even at 0–0
    for url in (sheet_url(game), write_url("game_detail", game)):
        html = client.get(url).content.decode()
        assert "In play" in html and "Not started" not in html, url


def test_a_redeal_shows_no_koppel(client):
    game = GameFactory.create()
    game.team_a.name, game.team_b.name = "Kampoe", "Toppers"
    game.team_a.save()
    game.team_b.save()
    directing(client, game)
    record(game, "kap", "b")

    response = client.post(
        sheet_url(game), {"number": 2, "result": "redeal", "side": "", "caller": ""}, follow=True
    )

    html = response.content.decode()
    row = re.search(r'<tr id="round-2".*?</tr>', html, re.S)
    assert row is not None
    assert "koppel-letter" not in row.group(0)
    assert "Toppers" not in row.group(0) and "Kampoe" not in row.group(0)
    assert "Round 2 recorded: redeal (no picture), no points" in html


# ---------------------------------------------------------------- undo on a game that is over


def test_undo_on_a_finished_game_says_it_reopens_before_it_is_done(client):
    game = finished_game(match__home__team__name="Kampoe")  # 20–0: over
    directing(client, game)

    html = client.get(sheet_url(game)).content.decode()
    assert re.search(r'hx-confirm="Undo round 4\? Round 4 ended the game: undoing it reopens', html)
    assert "Kampoe is no longer the winner" in html

    # Without the confirmation (no JavaScript): asked on the page, nothing undone.
    undo = {"round": last_round_id(game), "seen": sheet_token(game)}
    asked = client.post(write_url("round_undo", game), undo)
    assert asked.status_code == 200
    assert 'id="undo-confirm"' in asked.content.decode()
    assert Game.objects.get(pk=game.pk).rounds.count() == 4

    done = client.post(write_url("round_undo", game), {**undo, "confirmed": "1"}, follow=True)
    text = done.content.decode()
    assert "Round 4 undone: the game is open again; Kampoe is no longer the winner." in text
    game.refresh_from_db()
    assert (game.status, game.score_a, game.rounds.count()) == (Game.Status.OPEN, 15, 3)


def test_undo_on_a_closed_game_says_the_winner_changes(client):
    game = GameFactory.create(competition__close_by_director_allowed=True)
    game.team_a.name, game.team_b.name = "Kampoe", "Toppers"
    game.team_a.save()
    game.team_b.save()
    record(game, "gewone_winst", "b")  # 0–2
    record(game, "kap", "a")  # 5–2
    game_close(game_id=game.pk, seen=sheet_token(game))
    directing(client, game)

    html = client.get(sheet_url(game)).content.decode()
    assert "the winner changes from Kampoe to Toppers" in html

    undo = {"round": last_round_id(game), "seen": sheet_token(game), "confirmed": "1"}
    done = client.post(write_url("round_undo", game), undo, follow=True)
    assert "Round 2 undone: the game stays closed at 0–2; the winner changes from Kampoe to" in (
        done.content.decode()
    )
    game.refresh_from_db()
    assert (game.status, game.winner) == (Game.Status.CLOSED, "b")


def test_undo_on_an_open_game_needs_no_confirmation(client):
    game = GameFactory.create()
    record(game, "kap", "a")
    directing(client, game)

    response = client.post(
        write_url("round_undo", game),
        {"round": last_round_id(game), "seen": sheet_token(game)},
        follow=True,
    )

    assert "Round 1 undone." in response.content.decode()
    assert not Game.objects.get(pk=game.pk).rounds.exists()


# ---------------------------------------------------------------- after logging in


def test_a_director_lands_on_their_competitions_and_tonights_matchday(client):
    today = timezone.localdate()
    game = GameFactory.create(match__matchday__date=today, competition__name="Club evening")
    competition = game.match.matchday.competition
    later = MatchdayFactory.create(competition=competition, date=today + datetime.timedelta(7))
    GameFactory.create(match=MatchFactory.create(matchday=later))
    CompetitionFactory.create(name="Somebody else's")
    director = UserFactory.create()
    competition.directors.add(director)

    login = client.post(
        reverse("login"), {"username": director.username, "password": "pass-word-123"}
    )
    assert login.status_code == 302 and login["Location"] == reverse("director_home")

    html = client.get(reverse("director_home")).content.decode()
    assert "Club evening" in html and "Somebody else" not in html
    matchday = game.match.matchday
    args = {"slug": competition.slug, "number": matchday.number}
    assert f'href="{reverse("matchday_board", kwargs=args)}"' in html
    assert f'href="{reverse("matchday_manage", kwargs=args)}"' in html
    assert f'href="{sheet_url(game)}"' in html
    assert "1 not started" in html


def test_without_a_matchday_today_the_first_with_open_games_is_tonights():
    game = GameFactory.create(match__matchday__date=datetime.date(2020, 1, 1))
    competition = game.match.matchday.competition
    for _ in range(4):
        record(game, "kap", "a")  # matchday 1 is over
    open_one = GameFactory.create(
        match=MatchFactory.create(
            matchday=MatchdayFactory.create(competition=competition, date=None)
        )
    )
    director = UserFactory.create()
    competition.directors.add(director)

    [directed] = directed_competitions(user=director)

    assert directed.evening is not None
    assert directed.evening.matchday.pk == open_one.match.matchday_id
    assert (directed.evening.tonight, directed.evening.tables) == (False, 1)
    assert directed.evening.first_sheet == open_one.pk


def test_staff_allowed_to_direct_every_competition_see_them_all(client):
    first, second = CompetitionFactory.create(), CompetitionFactory.create()
    client.force_login(league_staff())

    html = client.get(reverse("director_home")).content.decode()

    assert first.name in html and second.name in html


@pytest.mark.parametrize("who", ["player", "staff_without_permission"])
def test_somebody_who_directs_nothing_lands_on_the_competition_list(client, who: str):
    CompetitionFactory.create()
    user = UserFactory.create(is_staff=who == "staff_without_permission")
    client.force_login(user)

    response = client.get(reverse("director_home"))

    assert response.status_code == 302 and response["Location"] == reverse("competition_list")


def test_the_director_home_asks_an_anonymous_visitor_to_log_in(client):
    response = client.get(reverse("director_home"))

    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_nav_links_to_the_director_home_once_logged_in(client):
    assert 'id="director-home-link"' not in client.get(reverse("competition_list")).content.decode()
    client.force_login(league_staff())
    assert 'id="director-home-link"' in client.get(reverse("competition_list")).content.decode()


# ---------------------------------------------------------------- query counts


def count(client: Client, url: str) -> int:
    client.get(url)  # warm: the session, the first request's caches
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(captured.captured_queries)


def test_director_home_and_the_sheet_are_flat_from_a_small_to_a_200_koppel_competition(
    client, django_assert_max_num_queries
):
    counts: dict[str, list[int]] = {"director_home": [], "game_sheet": []}
    for koppels in (4, 200):
        built = build(koppels)
        director = UserFactory.create()
        built.competition.directors.add(director)
        client.force_login(director)
        counts["director_home"].append(count(client, reverse("director_home")))
        counts["game_sheet"].append(count(client, sheet_url(built.game)))
        if koppels == 200:
            with django_assert_max_num_queries(6):
                client.get(reverse("director_home"))
            with django_assert_max_num_queries(12):  # a finished game: + its open dispute
                client.get(sheet_url(built.game))
    for name, (small, large) in counts.items():
        assert small == large, f"{name}: {small} queries at 4 koppels, {large} at 200"
    print("queries (4 koppels, 200 koppels):", counts)  # noqa: T201 - the note reads them


def test_director_home_permission_lookups(db):
    """`directed_competitions` tells the direct-every-competition permission apart."""
    staff = UserFactory.create(is_staff=True)
    CompetitionFactory.create()
    assert directed_competitions(user=staff) == []
    staff.user_permissions.add(Permission.objects.get(codename="direct_every_competition"))
    staff = type(staff).objects.get(pk=staff.pk)
    assert len(directed_competitions(user=staff)) == 1


def test_a_logged_out_tap_on_the_sheet_goes_to_the_login_page_not_into_the_sheet(client):
    """A tap on a sheet left open after logging out: the whole page goes to the login page
    (back to the sheet afterwards) and says nothing was saved; nothing is recorded."""
    game = GameFactory.create()
    url = sheet_url(game)
    response = client.post(
        url,
        {"number": 1, "result": "gewone_winst", "side": "a"},
        headers={"hx-request": "true", "hx-current-url": f"http://testserver{url}"},
    )
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(reverse("login"))
    assert response["HX-Redirect"].endswith("next=" + url)
    assert not Round.objects.filter(game=game).exists()
    page = client.get(response["HX-Redirect"]).content.decode()
    assert "Not saved: you were logged out" in page


# ---------------------------------------------------------------- tester's findings


def selected_caller(html: str) -> str | None:
    """The value of the round form's caller select's selected option."""
    select = re.search(r'<select name="caller"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None, "no caller select"
    chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select.group(1))
    return chosen.group(1) if chosen else None


@pytest.mark.parametrize("side", ["a", "b"])
def test_after_a_one_tap_race_the_form_proposes_the_caller_now_in_turn(client, side: str):
    """Two screens tap a gewone winst on the same game at once: the loser's sheet (an
    "already recorded" for the same koppel, a refusal for the other) offers the round
    form with the caller whose turn it is now, as its heading says."""
    game = GameFactory.create(first_caller=1)
    directing(client, game)
    html = client.get(sheet_url(game)).content.decode()
    data = one_tap(game, side, html)
    assert data["caller"] == str(game.seat_1_id)
    # The other screen, first: koppel B wins against the caller, so the next one calls.
    record(game, "gewone_winst", "b", caller_id=game.seat_1_id)
    fresh = Game.objects.get(pk=game.pk)
    now = game_next_caller(game=fresh, rounds=list(fresh.rounds.all()))
    assert now == game.seat_2_id

    response = client.post(sheet_url(game), data, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == (200 if side == "b" else 422)
    assert selected_caller(html) == str(now)
    assert str(response.context["round_form"]["caller"].value()) == str(now)
    assert 'name="number" value="2"' in html
    assert 'id="round-form" autocomplete="off"' in html
    assert Game.objects.get(pk=game.pk).rounds.count() == 1


def test_a_round_refused_for_its_caller_comes_back_with_the_caller_in_turn(client):
    game = GameFactory.create(first_caller=1)
    directing(client, game)
    data = {"number": "1", "result": "kap", "side": "a", "caller": str(game.seat_2_id)}

    response = client.post(sheet_url(game), data, HTTP_HX_REQUEST="true")

    assert response.status_code == 422
    html = response.content.decode()
    assert "turn to call" in html
    assert selected_caller(html) == str(game.seat_1_id)
    assert 'value="kap"' in html and Game.objects.get(pk=game.pk).rounds.count() == 0


def test_close_is_offered_and_allowed_only_once_the_game_has_rounds(client):
    game = GameFactory.create(competition__close_by_director_allowed=True)
    directing(client, game)
    response = client.get(sheet_url(game))
    assert (
        not response.context["can_close"] and 'id="close-button"' not in response.content.decode()
    )

    refused = client.post(write_url("game_close", game), {"seen": sheet_token(game)})

    assert refused.status_code == 422
    assert "has not started (no rounds yet): it cannot be closed" in refused.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    record(game, "kap", "a")
    assert client.get(sheet_url(game)).context["can_close"]
    closed = client.post(write_url("game_close", game), {"seen": sheet_token(game)})
    assert closed.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.CLOSED


def test_every_matchday_dated_today_is_tonights(client):
    today = timezone.localdate()
    done = GameFactory.create(match__matchday__date=today, match__matchday__number=4)
    competition = done.match.matchday.competition
    for _ in range(4):
        record(done, "kap", "a")  # speelronde 4 is over
    playing = GameFactory.create(
        match=MatchFactory.create(
            matchday=MatchdayFactory.create(competition=competition, number=5, date=today)
        )
    )
    later = MatchdayFactory.create(competition=competition, number=6, date=None)
    GameFactory.create(match=MatchFactory.create(matchday=later))
    director = directing(client, done)

    [directed] = directed_competitions(user=director)
    html = client.get(reverse("director_home")).content.decode()

    numbers = [evening.matchday.number for evening in directed.evenings]
    assert numbers == [4, 5] and all(evening.tonight for evening in directed.evenings)
    for number in (4, 5):
        board = reverse("matchday_board", kwargs={"slug": competition.slug, "number": number})
        assert f'href="{board}"' in html
    assert f'id="evening-{competition.slug}"' in html  # the first card, as before
    assert f'id="evening-{competition.slug}-5"' in html
    assert f'href="{sheet_url(playing)}"' in html
    assert "Matchday 6" not in html
