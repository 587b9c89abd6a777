"""The director's live board of a matchday and the hall's big screen (issue 8).

States of a table, access, the polling partial, the matchday the screen shows, and query
counts that stay flat from a sample-sized club evening to a 200-koppel competition.
Results are made with the services; confirmations and disputes are set on the rows (the
table-side services that make them are tested with them).
"""

from __future__ import annotations

import datetime
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.html import escape

from benchmarks.generate import random_game
from interchange.importer import competition_import
from scoring.models import Game, GameDispute
from scoring.selectors import board as board_selectors
from scoring.selectors import standings as standings_selectors
from scoring.selectors.board import TableState
from scoring.selectors.board_live import board_stamp
from scoring.selectors.standings_inputs import competition_standings_inputs
from scoring.services.lineups import club_match_lineup_set
from scoring.services.rounds import RoundRecord, game_rounds_load, round_record
from scoring.services.standings import standings_rebuild
from tests.builders import random_matchday
from tests.factories import (
    ClubEntryFactory,
    CompetitionFactory,
    MatchdayFactory,
    MatchFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
    UserFactory,
    koppel_entries,
    league_staff,
)
from tests.pages import without_bdi
from tests.patching import patch_everywhere
from tests.seen import match_token_now
from tournaments.models import Bye, Competition, Match, Matchday

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# The state of table t of the evening `build` makes: t-1 modulo the cycle.
CYCLE = ("not_started", "playing", "finished", "awaiting", "disputed", "forfeit")
SAMPLE, BIG = 8, 200  # koppels: the sample club evening's size, and a big competition


# ---------------------------------------------------------------- set-up


def rounds_to_end(rng: random.Random) -> list[RoundRecord]:
    return [RoundRecord(result=r["result"], side=r["side"]) for r in random_game(rng)]


def play_out(game: Game, rng: random.Random, *, confirmed: bool = True) -> None:
    game_rounds_load(game_id=game.pk, rounds=rounds_to_end(rng))
    if confirmed:
        Game.objects.filter(pk=game.pk).update(confirmed_at=timezone.now(), confirmed_side="b")


@dataclass(frozen=True)
class Evening:
    competition: Competition
    tonight: Matchday
    games: dict[int, Game]  # tonight's games by table


def build(koppels: int, **competition: Any) -> Evening:
    """A pairs competition of `koppels` + 1 entries (a bye each matchday) and confirmation
    on: matchday 1 played out and confirmed, matchday 2 (tonight) with its tables in the
    states of `CYCLE` in turn (table 1 not started, 2 playing, …, 6 forfeited, 7 not
    started, …); standings stored."""
    rng = random.Random(koppels)
    fields = {"slug": f"evening-{koppels}", "confirmation_required": True} | competition
    comp = CompetitionFactory.create(**fields)
    entries = koppel_entries(comp, koppels + 1)
    games: dict[int, Game] = {}
    for number in (1, 2):
        matchday = Matchday.objects.create(
            competition=comp, number=number, date=datetime.date(2026, 10, number)
        )
        for table, game in random_matchday(matchday, entries, rng, seated=False).items():
            if number == 1:
                play_out(game, rng)
                continue
            games[table] = game
            state = CYCLE[(table - 1) % len(CYCLE)]
            if state == "playing":
                round_record(game_id=game.pk, expected_number=1, result="gewone_winst", side="a")
            elif state in ("finished", "awaiting", "disputed"):
                play_out(game, rng, confirmed=state == "finished")
                if state == "disputed":
                    GameDispute.objects.create(game=game, side="b", comment="round 4 was a kap")
            elif state == "forfeit":
                Match.objects.filter(pk=game.match_id).update(
                    forfeit="away", forfeit_reason="no show"
                )
    standings_rebuild(competition_id=comp.pk)
    return Evening(comp, comp.matchdays.get(number=2), games)


@pytest.fixture
def evening() -> Evening:
    """Twelve koppels: six tables, one in each state of `CYCLE`, and a bye."""
    return build(12)


@pytest.fixture
def director(evening: Evening) -> Any:
    user = UserFactory.create()
    evening.competition.directors.add(user)
    return user


def board_url(evening: Evening, **query: str) -> str:
    url = reverse(
        "matchday_board",
        kwargs={"slug": evening.competition.slug, "number": evening.tonight.number},
    )
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def display_url(competition: Competition, query: str = "") -> str:
    return reverse("hall_display", kwargs={"slug": competition.slug}) + query


def fixed_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board's stamp of one minute whatever the clock says: no minute turns between
    two requests of a test (the quiet-table marks move with it)."""
    fixed = datetime.datetime(2026, 10, 2, 20, 15, tzinfo=datetime.UTC)
    original = board_stamp

    def stamp(*, matchday: Matchday, minute: datetime.datetime | None) -> Any:
        return original(matchday=matchday, minute=fixed if minute is not None else None)

    assert patch_everywhere(monkeypatch, original, stamp)


def poll_of(html: str, element: str) -> str:
    """The URL the page's live element `element` polls (its poll's `hx-get`)."""
    found = re.search(rf'id="{element}-poll"[^>]*?hx-get="([^"]+)"', html)
    assert found is not None, f"#{element} does not poll"
    return found.group(1).replace("&amp;", "&")


def states_shown(html: str) -> dict[int, str]:
    """Table number → data-state of each table card on the board."""
    cards = re.findall(
        r'data-state="(\w+)" data-game="\d+" aria-label="Table (\d+)"', html
    ) + re.findall(r'data-state="(\w+)" aria-label="Table (\d+)"', html)
    return {int(table): state for state, table in cards}


# ---------------------------------------------------------------- the board: states


def test_the_board_shows_each_table_in_its_state(client, evening, director):
    client.force_login(director)
    response = client.get(board_url(evening))
    assert response.status_code == 200
    html = response.content.decode()
    expected = {table: CYCLE[(table - 1) % len(CYCLE)] for table in evening.games}
    assert states_shown(html) == expected
    for label in ("not started", "playing", "finished", "awaiting confirmation", "disputed"):
        assert f">{label}</span>" in html, label
    assert "away forfeits" in html and "no show" in html
    # One tap to each game's sheet.
    for game in evening.games.values():
        sheet = reverse("game_sheet", kwargs={"slug": evening.competition.slug, "game_id": game.pk})
        assert f'href="{sheet}"' in html
    bye = Bye.objects.select_related("entry__team").get(matchday=evening.tonight)
    assert escape(bye.entry) in html.split('class="board-byes')[1]


def test_the_selector_states_and_counts(evening):
    board = board_selectors.matchday_board(matchday=evening.tonight)
    by_table = {table.table: table for table in board.tables}
    assert {t: by_table[t].state.value for t in evening.games} == {
        t: CYCLE[(t - 1) % len(CYCLE)] for t in evening.games
    }
    # The forfeit counts as finished; a disputed game doesn't.
    assert board.counts.total == 6
    assert (board.counts.not_started, board.counts.playing) == (1, 1)
    assert (board.counts.finished, board.counts.awaiting, board.counts.disputed) == (2, 1, 1)
    assert by_table[2].rounds == 1 and by_table[2].last_round_at is not None
    assert by_table[2].score_home + by_table[2].score_away > 0 and by_table[1].rounds == 0
    assert [bye.entry_id for bye in board.byes] == list(
        Bye.objects.filter(matchday=evening.tonight).values_list("entry_id", flat=True)
    )


def test_without_confirmation_an_unconfirmed_game_over_is_finished():
    evening = build(SAMPLE, confirmation_required=False)
    board = board_selectors.matchday_board(matchday=evening.tonight)
    assert {t.table: t.state for t in board.tables}[4] == TableState.FINISHED


def test_the_summary_says_how_many_are_finished_and_awaiting(client, evening, director):
    client.force_login(director)
    html = client.get(board_url(evening)).content.decode()
    summary = html.split('id="board-summary"')[1].split("</p>")[0]
    # finished: the finished game and the forfeit; the disputed one isn't.
    assert "2 of 6 tables finished" in summary
    assert "1 awaiting confirmation" in summary
    assert "1 disputed" in summary


def test_a_state_filter_shows_only_those_tables(client, evening, director):
    client.force_login(director)
    shown = states_shown(client.get(board_url(evening, state="finished")).content.decode())
    assert sorted(shown) == [3, 6] and set(shown.values()) == {"finished", "forfeit"}
    shown = states_shown(client.get(board_url(evening, state="disputed")).content.decode())
    assert shown == {5: "disputed"}


def test_an_unknown_state_filter_says_so_and_shows_every_table(client, evening, director):
    client.force_login(director)
    response = client.get(board_url(evening, state="sleeping"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "There is no table state “sleeping”: every table is shown." in html
    assert len(states_shown(html)) == 6


def test_a_table_link_page_is_offered_once_it_exists(client, evening, director):
    client.force_login(director)
    html = client.get(board_url(evening)).content.decode()
    game = evening.games[1]
    try:
        link = reverse("game_link", kwargs={"slug": evening.competition.slug, "game_id": game.pk})
    except NoReverseMatch:
        assert "board-link" not in html
    else:
        assert f'href="{link}"' in html


def test_the_board_and_the_matchday_page_link_to_each_other(client, evening, director):
    client.force_login(director)
    url = board_url(evening)
    manage = reverse(
        "matchday_manage",
        kwargs={"slug": evening.competition.slug, "number": evening.tonight.number},
    )
    assert f'href="{url}"' in client.get(manage).content.decode()
    html = client.get(url).content.decode()
    assert f'href="{manage}"' in html
    assert display_url(evening.competition, f"?matchday={evening.tonight.number}") in html


# ---------------------------------------------------------------- club matches


def club_match_on(matchday: Matchday, seed: int) -> Match:
    """A club match of 4 koppels a side over 4 sittings on `matchday`: sitting 1 played out
    and confirmed, a round entered at table 1 of sitting 2."""
    competition = matchday.competition
    home, away = (ClubEntryFactory.create(competition=competition) for _ in range(2))
    match = MatchFactory.create(matchday=matchday, home=home, away=away)
    teams = {
        entry.pk: [
            TeamFactory.create(
                player_1=PlayerFactory.create(club=entry.club),
                player_2=PlayerFactory.create(club=entry.club),
            ).pk
            for _ in range(4)
        ]
        for entry in (home, away)
    }
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=teams[home.pk],
        away_teams=teams[away.pk],
    )
    rng = random.Random(seed)
    for game in match.games.filter(sitting=1):
        play_out(game, rng)
    second = match.games.get(sitting=2, table=1)
    round_record(game_id=second.pk, expected_number=1, result="kap", side="b")
    return match


def club_evening() -> tuple[Competition, Match]:
    competition = CompetitionFactory.create(
        kind="clubs", koppels_per_side=4, min_koppels=4, sittings=4, confirmation_required=True
    )
    return competition, club_match_on(MatchdayFactory.create(competition=competition), 3)


def test_a_club_match_is_shown_by_sitting_with_the_played_ones_folded(client):
    competition, match = club_evening()
    user = league_staff()
    client.force_login(user)
    url = reverse(
        "matchday_board", kwargs={"slug": competition.slug, "number": match.matchday.number}
    )
    html = without_bdi(client.get(url).content.decode())
    assert escape(f"{match.home} – {match.away}") in html
    # Sitting 1 is done: one line of its scores; sitting 2 is the one in play, as cards;
    # sittings 3 and 4, not started, a line each.
    played = html.split('class="board-sitting-done small')[1].split("</div>")[0]
    assert "Sitting 1" in played and played.count("board-chip") == 4
    assert html.count('class="board-sitting-done small') == 1
    later = html.split('class="board-sitting-done board-sitting-pending')[1:]
    assert [("Sitting 3" in part, "Sitting 4" in part) for part in later] == [
        (True, False),
        (False, True),
    ]
    cards = re.findall(r'data-state="(\w+)"', html)
    assert cards == ["playing", "not_started", "not_started", "not_started"]
    board = board_selectors.matchday_board(matchday=match.matchday)
    assert board.clubs and board.matches[0].current_sitting.number == 2  # type: ignore[union-attr]
    assert board.counts.total == 16 and board.counts.finished == 4


def test_a_club_match_without_a_lineup_asks_for_one(client):
    competition = CompetitionFactory.create(kind="clubs")
    match = MatchFactory.create(
        matchday=MatchdayFactory.create(competition=competition),
        home=ClubEntryFactory.create(competition=competition),
        away=ClubEntryFactory.create(competition=competition),
    )
    client.force_login(league_staff())
    html = client.get(
        reverse(
            "matchday_board", kwargs={"slug": competition.slug, "number": match.matchday.number}
        )
    ).content.decode()
    manage = reverse("match_manage", kwargs={"slug": competition.slug, "match_id": match.pk})
    assert f'href="{manage}">Set the lineup' in html


def test_the_display_shows_a_club_match_and_its_current_sitting(client):
    competition, match = club_evening()
    html = without_bdi(client.get(display_url(competition)).content.decode())
    assert escape(f"{match.home} – {match.away}") in html
    assert "sitting 2" in html
    assert html.count('class="display-item display-table') == 4  # sitting 2's tables


# ---------------------------------------------------------------- access and polling


def test_the_board_sends_anonymous_visitors_to_log_in(client, evening):
    url = board_url(evening)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login")) and "next=" in response["Location"]


def test_the_board_is_forbidden_to_others(client, evening):
    client.force_login(UserFactory.create())
    assert client.get(board_url(evening)).status_code == 403


def test_a_poll_no_longer_allowed_reloads_the_page_instead_of_swapping(client, evening):
    response = client.get(board_url(evening, state="playing"), **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == board_url(evening, state="playing")
    assert response.content == b""


def test_the_board_poll_answers_with_the_board_only(client, evening, director):
    client.force_login(director)
    page = client.get(board_url(evening)).content.decode()
    assert 'hx-trigger="every 5s"' in page and "<html" in page
    assert 'src="/static/js/live.js"' in page  # its connection notice
    partial = client.get(board_url(evening, state="playing"), **HTMX).content.decode()
    assert "<html" not in partial and "breadcrumb" not in partial
    assert partial.lstrip().startswith('<div id="board"')
    assert 'hx-trigger="every 5s"' in partial
    assert 'hx-get="' + board_url(evening, state="playing") + "&amp;v=" in partial
    assert states_shown(partial) == {2: "playing"}


def test_an_unchanged_board_answers_its_poll_with_nothing(client, evening, director, monkeypatch):
    """The poll sends back the version of the board it shows: unchanged, the answer is a
    204 (nothing sent, nothing swapped); a round saved meanwhile, and the poll comes back
    with what changed (tests/scoring/views/test_board_polls.py says what)."""
    fixed_minute(monkeypatch)
    client.force_login(director)
    page = client.get(board_url(evening)).content.decode()
    url = poll_of(page, "board")
    assert "v=" in url

    assert client.get(url, **HTMX).status_code == 204
    assert client.get(url).status_code == 200  # a whole page (not a poll) is always sent

    playing = evening.games[2]
    round_record(game_id=playing.pk, expected_number=2, result="kap", side="b")
    fresh = client.get(url, **HTMX)
    assert fresh.status_code == 200
    assert f'id="board-table-{playing.pk}" hx-swap-oob="true"' in fresh.content.decode()


def test_the_board_takes_only_get(client, evening, director):
    client.force_login(director)
    assert client.post(board_url(evening)).status_code == 405


def test_the_display_is_public_and_polls_its_partial(client, evening):
    url = display_url(evening.competition)
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "<html" in html and 'hx-trigger="every 10s"' in html
    assert 'src="/static/js/display.js"' in html and "<nav" not in html
    assert "<script>" not in html and "style=" not in html  # the CSP allows neither
    partial = client.get(url, **HTMX).content.decode()
    assert "<html" not in partial and partial.lstrip().startswith('<div id="display"')
    assert 'hx-get="' + url + "?v=" in partial


def test_the_display_of_an_unknown_competition_is_a_404(client):
    assert client.get(reverse("hall_display", kwargs={"slug": "nope"})).status_code == 404


# ---------------------------------------------------------------- the display's content


def test_the_display_shows_tonights_tables_and_the_stored_standings(client, evening, monkeypatch):
    def recompute(**_: Any) -> None:
        raise AssertionError("the display must read the stored standings")

    assert patch_everywhere(monkeypatch, competition_standings_inputs, recompute)
    html = client.get(display_url(evening.competition)).content.decode()
    assert "Matchday 2" in html
    for table, game in evening.games.items():
        assert f'<span class="display-table-number">{table}</span>' in html
        assert escape(game.team_a) in html and escape(game.team_b) in html
    bye = Bye.objects.select_related("entry__team").get(matchday=evening.tonight)
    assert escape(bye.entry) in html.split("display-bye-name")[1]
    ranks = re.findall(r'<span class="display-rank">(\d+)</span>', html)
    assert len(ranks) == 12 + 1
    first = standings_selectors.competition_standings(competition=evening.competition)[0]
    assert escape(first.entry) in html.split('class="display-item display-standing"')[1]


def test_the_display_reads_the_top_of_the_standings(client):
    evening = build(20)
    html = client.get(display_url(evening.competition)).content.decode()
    assert html.count('class="display-item display-standing"') == 21
    html = client.get(display_url(evening.competition, "?top=5")).content.decode()
    assert html.count('class="display-item display-standing"') == 5
    html = client.get(display_url(evening.competition, "?top=x")).content.decode()
    assert html.count('class="display-item display-standing"') == 21


def test_the_display_can_be_pinned_to_one_view(client, evening):
    html = client.get(display_url(evening.competition, "?view=standings")).content.decode()
    assert 'data-pinned="standings"' in html
    assert re.search(r'data-view="pairings"[^>]*hidden', html)
    assert not re.search(r'data-view="standings"[^>]*hidden', html)
    html = client.get(display_url(evening.competition, "?view=kitchen")).content.decode()
    assert 'data-pinned=""' in html


def test_the_display_shows_the_matchday_asked_for(client, evening):
    html = client.get(display_url(evening.competition, "?matchday=1")).content.decode()
    assert "Matchday 1" in html and "✓" in html
    assert "display-playing" not in html.split("display-legend")[0]


@pytest.mark.parametrize("asked", ["99", "abc", "-1", "1" * 30])
def test_a_matchday_that_does_not_exist_says_so_and_shows_the_current_one(client, evening, asked):
    response = client.get(display_url(evening.competition, f"?matchday={asked}"))
    assert response.status_code == 200
    html = response.content.decode()
    assert f"There is no matchday “{asked[:20]}”: showing the current one." in html
    assert "Matchday 2" in html


def test_a_competition_without_matchdays_shows_an_empty_screen(client):
    competition = CompetitionFactory.create()
    html = client.get(display_url(competition)).content.decode()
    assert "No matchday yet." in html and "No standings yet" in html


# ---------------------------------------------------------------- which matchday is current


def pairs_matchdays(dates: list[datetime.date | None]) -> tuple[Competition, list[Game]]:
    """A competition of two koppels with one open, unplayed game on each matchday."""
    competition = CompetitionFactory.create()
    home, away = (TeamEntryFactory.create(competition=competition) for _ in range(2))
    games = []
    for number, date in enumerate(dates, start=1):
        matchday = Matchday.objects.create(competition=competition, number=number, date=date)
        match = Match.objects.create(matchday=matchday, home=home, away=away, table=1)
        assert home.team is not None and away.team is not None
        games.append(Game.objects.create(match=match, team_a=home.team, team_b=away.team))
    return competition, games


def current(competition: Competition) -> int | None:
    found = board_selectors.competition_display_matchday(competition=competition)
    return found.number if found else None


def test_the_current_matchday_is_the_newest_with_open_games():
    competition, games = pairs_matchdays([None, None, None])
    assert current(competition) == 3
    rng = random.Random(1)
    play_out(games[2], rng)
    assert current(competition) == 2
    play_out(games[1], rng)
    play_out(games[0], rng)
    assert current(competition) == 3  # all played: the last


def test_a_game_in_play_makes_its_matchday_current():
    competition, games = pairs_matchdays([None, None, None])
    round_record(game_id=games[0].pk, expected_number=1, result="kap", side="a")
    assert current(competition) == 1


def test_matchdays_dated_after_today_are_not_current_yet():
    today = timezone.localdate()
    week = datetime.timedelta(days=7)
    # A round robin: every matchday paired (and open) from the start.
    competition, games = pairs_matchdays([today - week, today, today + week, today + 2 * week])
    assert current(competition) == 2
    play_out(games[0], random.Random(1))
    play_out(games[1], random.Random(2))
    assert current(competition) == 2  # tonight's, played: its final scores
    competition, _games = pairs_matchdays([today + week, today + 2 * week])
    assert current(competition) == 1  # the season has not started


def test_forfeited_matches_leave_no_open_game():
    competition, games = pairs_matchdays([None, None])
    Match.objects.filter(pk=games[1].match_id).update(forfeit="both", forfeit_reason="storm")
    assert current(competition) == 1


def test_a_matchday_asked_for_by_number():
    competition, _games = pairs_matchdays([None, None])
    found = board_selectors.competition_display_matchday(competition=competition, number=1)
    assert found is not None and found.number == 1
    assert board_selectors.competition_display_matchday(competition=competition, number=7) is None


# ---------------------------------------------------------------- query counts


def queries(client: Client, url: str, **headers: Any) -> int:
    client.get(url, **headers)  # warm: the session, caches of the first request
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)
    assert response.status_code == 200, (url, response.status_code)
    return len(captured.captured_queries)


# The most each page may make (sessions and the director's permissions included): the
# poll's stamp (one query), the matchday's table index (two) and one page's board.
BOARD_BUDGET = 13
DISPLAY_BUDGET = 11


# Every variant of both pages: (name, url of an evening, htmx).
VARIANTS = [
    *(
        (f"board{query}{' poll' if htmx else ''}", lambda e, q=query: board_url(e) + q, htmx)
        for query in ("", "?state=playing")
        for htmx in (False, True)
    ),
    *(
        (
            f"display{query}{' poll' if htmx else ''}",
            lambda e, q=query: display_url(e.competition, q),
            htmx,
        )
        for query in ("", "?matchday=1", "?top=500")
        for htmx in (False, True)
    ),
]


@pytest.mark.heavy
def test_query_counts_are_flat_from_the_sample_size_to_200_koppels(client: Client) -> None:
    """Both pages, whole and polled, cost the same queries for a sample-sized evening
    (8 koppels) as for 200 koppels (100 tables), within their budgets. One build for all
    the variants: the big one takes a while."""
    sizes = build(SAMPLE), build(BIG)
    client.force_login(league_staff())
    counts = {
        name: [queries(client, url(evening), **(HTMX if htmx else {})) for evening in sizes]
        for name, url, htmx in VARIANTS
    }
    print("queries (8 koppels, 200 koppels):", counts)  # the numbers for the note
    for name, (small, big) in counts.items():
        budget = BOARD_BUDGET if name.startswith("board") else DISPLAY_BUDGET
        assert small == big <= budget, (name, small, big)
    board = board_selectors.matchday_board(matchday=sizes[1].tonight)
    assert board.counts.total == BIG // 2 and len(board.byes) == 1
    with CaptureQueriesContext(connection) as captured:
        board_selectors.matchday_board(matchday=sizes[1].tonight)
    assert len(captured.captured_queries) == 5


def test_the_club_board_queries_do_not_grow_with_the_matches(client: Client) -> None:
    competition, match = club_evening()
    client.force_login(league_staff())
    url = reverse(
        "matchday_board", kwargs={"slug": competition.slug, "number": match.matchday.number}
    )
    one = queries(client, url)
    for seed in (4, 5, 6):
        club_match_on(match.matchday, seed)
    assert queries(client, url) == one <= BOARD_BUDGET
    assert board_selectors.matchday_board(matchday=match.matchday).counts.total == 4 * 16


# ---------------------------------------------------------------- the sample, in Dutch


@pytest.mark.nl
def test_the_sample_evening_on_the_board_and_the_display_in_dutch(client):
    """The club evening of data/club-evening-sample.json, every game played: the board says
    all four tables finished, the display shows its last matchday and standings; the
    shipped language (Dutch) renders both."""
    data = json.loads((Path(settings.BASE_DIR) / "data" / "club-evening-sample.json").read_text())
    competition = competition_import(data=data)
    client.force_login(league_staff())
    board = client.get(
        reverse("matchday_board", kwargs={"slug": competition.slug, "number": 3})
    ).content.decode()
    assert '<html lang="nl"' in board
    assert re.findall(r'data-state="(\w+)"', board) == ["finished"] * 4
    display = client.get(display_url(competition)).content.decode()
    assert '<html lang="nl"' in display
    assert display.count('class="display-item display-table display-finished"') == 4
    assert display.count('class="display-item display-standing"') == 8
