"""The directors' history pages of a game and of a match (issue 6, audit history), and
that every write path leaves history: services as a user, imports and table moves.

Changes go through the services "as a user": `acting(user)` sets the request the way
simple-history's HistoryRequestMiddleware does for a web request; one test goes through
the real score sheet to show the middleware does it.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from simple_history.models import HistoricalRecords

from interchange.importer import competition_import
from scoring.models import Game, Round
from scoring.services.confirmations import game_confirm
from scoring.services.games import (
    game_close,
    game_reopen,
    game_seats_set,
    game_seats_token,
    game_totals_enter,
    match_totals_enter,
)
from scoring.services.lineups import club_match_lineup_set
from scoring.services.matches import match_forfeit_set, match_table_move
from scoring.services.rounds import round_correct, round_delete, round_undo
from scoring.services.schedule import schedule_round_robin_create
from scoring.tokens import game_token_now, match_token_now, matchday_token
from tests.builders import club_competition, koppels_of, record
from tests.factories import (
    CompetitionFactory,
    GameFactory,
    MatchFactory,
    TeamEntryFactory,
    UserFactory,
)
from tests.interchange.documents import document
from tests.paths import DATA
from tests.seen import round_seen
from tournaments.models import Bye, Competition, Deduction, Match
from tournaments.services.deductions import deduction_add, deduction_void
from tournaments.tokens import deductions_token

pytestmark = pytest.mark.django_db


@contextmanager
def acting(user: User) -> Iterator[None]:
    """Writes inside record `user` in their history, as a web request by `user` would."""
    request = RequestFactory().get("/")
    request.user = user
    HistoricalRecords.context.request = request
    try:
        yield
    finally:
        del HistoricalRecords.context.request


@pytest.fixture
def director() -> User:
    return UserFactory.create(username="dina", first_name="Dina", last_name="Director")


def directed(competition: Competition, director: User) -> Competition:
    competition.directors.add(director)
    return competition


def game_url(game: Game) -> str:
    slug = game.match.matchday.competition.slug
    return reverse("game_history", kwargs={"slug": slug, "game_id": game.pk})


def match_url(match: Match) -> str:
    slug = match.matchday.competition.slug
    return reverse("match_history", kwargs={"slug": slug, "match_id": match.pk})


def lines_of(response: Any) -> list[str]:
    """The history lines of a page as plain text, newest first."""
    page = response.content.decode().partition("history-lines")[2].split("</ol>", 1)[0]
    items = page.split('<li class="list-group-item history-line">')[1:]
    return [html.unescape(" ".join(re.sub(r"<[^>]+>", " ", item).split())) for item in items]


def position(lines: list[str], text: str) -> int:
    """Index of the first line containing `text` (newest first)."""
    return next(index for index, line in enumerate(lines) if text in line)


# ---------------------------------------------------------------- the game's page


def test_game_history_words_every_change_newest_first_with_the_users_name(client, director):
    game = GameFactory.create(competition__close_by_director_allowed=True)
    directed(game.match.matchday.competition, director)
    with acting(director):
        record(game, "kap", "a")
        second = record(game, "gewone_winst", "b", tricks=(3, 7))
        round_correct(round_id=second.pk, result="kap", side="b", seen=second.token)
        first = game.rounds.get(number=1)
        round_delete(round_id=first.pk, seen=first.token)
        game_close(game_id=game.pk, seen=game_token_now(game_id=game.pk))
        game_reopen(game_id=game.pk, seen=game_token_now(game_id=game.pk))
    client.force_login(director)

    lines = lines_of(client.get(game_url(game)))

    koppel_a, koppel_b = str(game.team_a), str(game.team_b)
    assert f"Round 1 added: kap for {koppel_a}" in lines[-2]  # the oldest after "created"
    assert "Game created" in lines[-1]
    corrected = lines[position(lines, "Round 2 corrected")]
    assert "result gewone winst → kap" in corrected
    assert "tricks 3–7 → none" in corrected
    assert f"2 points to {koppel_b} → 5 points to {koppel_b}" in corrected
    assert "re-scored" not in corrected  # its points are part of the correction
    assert "score 5–2 → 5–5" in corrected  # the game's score joins the change that moved it
    deleted = lines[position(lines, "Round 1 deleted")]
    assert "Round 2 is now round 1" in deleted  # the renumbering is part of the delete
    assert position(lines, "Reopened") < position(lines, "Closed by the director")
    assert position(lines, "Closed by the director") < position(lines, "Round 1 deleted")
    assert position(lines, "Round 1 deleted") < position(lines, "Round 2 corrected")
    user_lines = [line for line in lines if "Game created" not in line]
    assert all("Dina Director" in line for line in user_lines)


def test_every_stored_change_of_a_game_is_a_line_of_its_page(client, director):
    """Issue 19: the page hid the records of saves that changed nothing (3 lines shown, 59
    records stored); no such record is written now, and what is, is worded: a first caller
    found after the seats too."""
    game = GameFactory.create()
    directed(game.match.matchday.competition, director)
    seats = [game.seat_1_id, game.seat_2_id, game.seat_3_id, game.seat_4_id]
    with acting(director):
        for first_caller in (None, 2, 2, 3):  # the same seating sent twice writes nothing
            seen = game_seats_token(Game.objects.get(pk=game.pk), [])
            game_seats_set(game_id=game.pk, seats=seats, first_caller=first_caller, seen=seen)
        rnd = record(game, "kap", "a")
        for _ in range(3):  # a correction page saved as it was opened writes nothing
            round_correct(round_id=rnd.pk, result="kap", side="a", seen=round_seen(rnd.pk))
    client.force_login(director)

    lines = lines_of(client.get(game_url(game)))

    stored = Game.history.filter(id=game.pk).count() + Round.history.filter(game_id=game.pk).count()
    # Created, two first callers, the round (its score joins it): every record a line.
    assert (len(lines), stored) == (4, 5)
    player = {seat: str(getattr(game, f"seat_{seat}")) for seat in (2, 3)}
    assert f"first caller — → {player[2]}" in lines[2]
    assert f"first caller {player[2]} → {player[3]}" in lines[1]


def test_a_redeal_names_no_koppel_and_an_undo_says_undone(client, director):
    game = GameFactory.create()
    directed(game.match.matchday.competition, director)
    with acting(director):
        record(game, "redeal", "a")
        last = record(game, "kap", "b")
        round_undo(game_id=game.pk, round_id=last.pk, seen=game_token_now(game_id=game.pk))
        first = game.rounds.get(number=1)
        round_delete(round_id=first.pk, seen=first.token)
    client.force_login(director)

    lines = lines_of(client.get(game_url(game)))

    koppel_b = str(game.team_b)
    added = lines[position(lines, "Round 1 added")]
    assert "Round 1 added: redeal (no picture)" in added
    assert " for " not in added.split("·")[0]  # a redeal is about neither koppel
    assert f"Round 2 undone: kap for {koppel_b}" in lines[position(lines, "Round 2 undone")]
    assert not any("Round 2 deleted" in line for line in lines)
    assert "Round 1 deleted: redeal (no picture)" in lines[0]  # the delete button's own word


def test_history_times_read_like_the_other_pages_and_the_user_may_wrap(client, director):
    game = GameFactory.create()
    directed(game.match.matchday.competition, director)
    record(game, "kap", "a")  # no user: the longest "who"
    client.force_login(director)

    page = client.get(game_url(game)).content.decode()

    when = Round.history.get(number=1, history_type="+").history_date
    shown = timezone.localtime(when).strftime("%-d %B %Y, %H:%M")
    assert f">{shown}</time>" in page  # "1 December 2026, 00:42", as on the score sheet
    assert "a.m." not in page and "p.m." not in page
    line = page.partition('class="list-group-item history-line"')[2].split("</li>", 1)[0]
    assert "no user (an import or a command)" in line
    # Only the time itself stays on one line; the "who" wraps on a phone.
    assert line.count("text-nowrap") == 1
    assert '<time class="text-nowrap"' in line


def test_game_history_shows_totals_entered_confirmed_and_cleared(client, director):
    game = GameFactory.create(competition__confirmation_required=True)
    directed(game.match.matchday.competition, director)
    with acting(director):
        game_totals_enter(
            game_id=game.pk, total_a=20, total_b=12, seen=game_token_now(game_id=game.pk)
        )
        game_confirm(game_id=game.pk, user=director, seen=game_token_now(game_id=game.pk))
        game_reopen(game_id=game.pk, seen=game_token_now(game_id=game.pk))
    client.force_login(director)

    lines = lines_of(client.get(game_url(game)))

    assert "Totals cleared (were 20–12)" in lines[0]
    assert "Result confirmed" in lines[1]
    assert "Totals entered: 20–12" in lines[2]
    assert "score 0–0 → 20–12" in lines[2]


def test_a_round_saved_on_the_score_sheet_names_the_logged_in_director(client, director):
    game = GameFactory.create()
    directed(game.match.matchday.competition, director)
    client.force_login(director)
    slug = game.match.matchday.competition.slug
    response = client.post(
        reverse("game_sheet", kwargs={"slug": slug, "game_id": game.pk}),
        {"result": "kap", "side": "a", "number": "1", "caller": ""},
    )
    assert response.status_code == 302

    assert Round.history.get(game_id=game.pk).history_user == director
    lines = lines_of(client.get(game_url(game)))
    assert "Round 1 added" in lines[0]
    assert "Dina Director" in lines[0]


def test_an_imported_game_lists_its_rounds_without_a_user(client, director):
    competition = competition_import(
        data=json.loads((DATA / "club-evening-sample.json").read_text(encoding="utf-8"))
    )
    directed(competition, director)
    game = Game.objects.filter(match__matchday__competition=competition).first()
    assert game is not None
    client.force_login(director)

    response = client.get(game_url(game))

    lines = lines_of(response)
    assert len(lines) >= game.rounds.count() + 1
    assert "no user (an import or a command)" in lines[0]


# ---------------------------------------------------------------- the match's page


def test_match_history_lists_totals_forfeit_deductions_and_byes(client, director):
    competition = directed(CompetitionFactory.create(), director)
    match = MatchFactory.create(matchday__competition=competition)
    third = TeamEntryFactory.create(competition=competition)
    with acting(director):
        match_totals_enter(
            match_id=match.pk,
            total_home=20,
            total_away=12,
            seen=match_token_now(match_id=match.pk),
        )
        match_forfeit_set(
            match_id=match.pk,
            side="away",
            reason="left early",
            seen=match_token_now(match_id=match.pk),
        )
        deduction = deduction_add(
            competition_id=competition.pk,
            entry_id=match.away_id,
            points=2,
            reason="rude",
            match_id=match.pk,
            seen=deductions_token(competition_id=competition.pk),
        )
        deduction_void(deduction_id=deduction.pk, reason="apologised")
        Bye.objects.create(matchday=match.matchday, entry=third)
    client.force_login(director)

    lines = lines_of(client.get(match_url(match)))

    away = str(match.away)
    assert f"Bye on this matchday for {third}" in lines[0]
    assert f"Deduction voided: 2 points from {away}" in lines[1]
    assert "why: apologised" in lines[1]
    assert f"Deduction added: 2 points from {away}" in lines[2]
    assert "Forfeit: away side forfeits. Reason: left early" in lines[3]
    assert "Reported totals entered: 20–12" in lines[4]
    assert "Match created" in lines[5]
    assert all("Dina Director" in line for line in lines[:5])


def test_match_history_lists_the_lineup_and_its_games(client, director):
    competition = directed(club_competition(), director)
    schedule_round_robin_create(competition_id=competition.pk)
    match = Match.objects.get(matchday__competition=competition, matchday__number=1)
    home, away = koppels_of(match.home), koppels_of(match.away)
    with acting(director):
        club_match_lineup_set(
            match_id=match.pk,
            home_teams=[home[0].pk, home[1].pk],
            away_teams=[away[0].pk, away[1].pk],
            seen=match_token_now(match_id=match.pk),
        )
        game = match.games.order_by("sitting", "table").first()
        assert game is not None
        game_totals_enter(
            game_id=game.pk, total_a=20, total_b=4, seen=game_token_now(game_id=game.pk)
        )
    client.force_login(director)

    lines = lines_of(client.get(match_url(match)))

    lineup = lines[position(lines, "Lineup set")]
    assert f"home: {home[0]}, {home[1]}" in lineup
    assert f"away: {away[0]}, {away[1]}" in lineup
    assert "Table 1, sitting 1: Totals entered: 20–4" in lines[0]
    created = [line for line in lines if line.startswith("Game created")]
    assert len(created) == match.games.count()
    assert all(", sitting " in line for line in created)
    assert "History of this game" in lines[0]


def test_the_score_sheet_and_the_match_page_link_to_their_history(client, director):
    game = GameFactory.create()
    directed(game.match.matchday.competition, director)
    client.force_login(director)
    slug = game.match.matchday.competition.slug

    sheet = client.get(reverse("game_sheet", kwargs={"slug": slug, "game_id": game.pk}))
    manage = client.get(reverse("match_manage", kwargs={"slug": slug, "match_id": game.match_id}))

    assert f'href="{game_url(game)}"' in sheet.content.decode()
    assert f'href="{match_url(game.match)}"' in manage.content.decode()


# ---------------------------------------------------------------- access and cost


@pytest.mark.parametrize("page", ["game", "match"])
def test_the_history_pages_are_for_directors_only(client, page):
    game = GameFactory.create()
    url = game_url(game) if page == "game" else match_url(game.match)

    anonymous = client.get(url)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("login"))

    client.force_login(UserFactory.create(is_staff=True))  # admin access, not a director
    stranger = client.get(url)
    assert stranger.status_code == 403
    assert "Only the directors can do this" in stranger.content.decode()


def test_a_game_of_another_competition_is_not_found(client, director):
    game = GameFactory.create()
    other = directed(CompetitionFactory.create(), director)
    client.force_login(director)
    url = reverse("game_history", kwargs={"slug": other.slug, "game_id": game.pk})
    assert client.get(url).status_code == 404


def history_of_size(director: User, corrections: int) -> Game:
    """A game with two rounds, corrected `corrections` times back and forth, a deduction
    and a bye on its match's matchday: more changes, same kinds of records."""
    game = GameFactory.create()
    competition = directed(game.match.matchday.competition, director)
    with acting(director):
        record(game, "kap", "a")
        record(game, "gewone_winst", "b", tricks=(3, 7))
        for number in range(corrections):
            rnd = game.rounds.get(number=2)
            result = "kap" if number % 2 == 0 else "gewone_winst"
            tricks = None if result == "kap" else (3, 7)
            round_correct(round_id=rnd.pk, result=result, side="b", tricks=tricks, seen=rnd.token)
        for _ in range(corrections):
            deduction = deduction_add(
                competition_id=competition.pk,
                entry_id=game.match.home_id,
                points=1,
                reason="late",
                match_id=game.match_id,
                seen=deductions_token(competition_id=competition.pk),
            )
            deduction_void(deduction_id=deduction.pk, reason="was not")
    return game


@pytest.mark.parametrize("page", ["game", "match"])
def test_history_pages_take_the_same_queries_for_few_and_many_changes(
    client, director, django_assert_max_num_queries, page
):
    client.force_login(director)
    counts = []
    for corrections in (1, 12):
        game = history_of_size(director, corrections)
        url = game_url(game) if page == "game" else match_url(game.match)
        with django_assert_max_num_queries(13), CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        assert len(lines_of(response)) >= corrections
        counts.append(len(queries))
    assert counts[0] == counts[1]


# ---------------------------------------------------------------- every write leaves history


def test_an_import_leaves_a_created_record_for_every_result_row():
    data = document(
        deductions=[{"entry": "noord", "points": 1, "reason": "late", "matchday": 1,
                     "match": "noord-zuid"}],
    )  # fmt: skip
    data["players"] += [{"key": "eva", "name": "Eva"}, {"key": "frank", "name": "Frank"}]
    data["teams"].append({"key": "west", "players": ["eva", "frank"]})
    data["entries"].append("west")
    data["matchdays"][0]["byes"] = ["west"]
    competition = competition_import(data=data)
    in_competition = {
        Match: Match.objects.filter(matchday__competition=competition),
        Bye: Bye.objects.filter(matchday__competition=competition),
        Game: Game.objects.filter(match__matchday__competition=competition),
        Round: Round.objects.filter(game__match__matchday__competition=competition),
        Deduction: Deduction.objects.filter(competition=competition),
    }
    for model, rows in in_competition.items():
        ids = set(rows.values_list("pk", flat=True))
        history = model.history  # type: ignore[attr-defined]
        created = set(history.filter(id__in=ids, history_type="+").values_list("id", flat=True))
        assert ids, model.__name__
        assert created == ids, model.__name__


def test_moving_a_match_to_another_table_leaves_history_for_both_matches(director):
    competition = CompetitionFactory.create()
    for _ in range(4):
        TeamEntryFactory.create(competition=competition)
    schedule_round_robin_create(competition_id=competition.pk)
    first, second = Match.objects.filter(matchday__number=1, matchday__competition=competition)
    assert first.table is not None and second.table is not None
    with acting(director):
        match_table_move(match_id=first.pk, table=second.table)

    for match, table in ((first, second.table), (second, first.table)):
        latest = match.history.latest()
        assert (latest.table, latest.history_user) == (table, director)
        game = Game.history.filter(match_id=match.pk).latest()
        assert (game.table, game.history_user) == (table, director)
    assert matchday_token(matchday_id=first.matchday_id)  # the move changed the pairings


def test_making_someone_director_is_kept_in_the_competition_history(director):
    competition = CompetitionFactory.create()
    newcomer = UserFactory.create()
    with acting(director):
        competition.directors.add(newcomer)

    latest = competition.history.latest()
    assert latest.history_user == director
    assert [row.user_id for row in latest.directors.all()] == [newcomer.pk]
