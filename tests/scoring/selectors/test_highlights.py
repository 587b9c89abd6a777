"""Top koppels of a match and highlights of a matchday (issue 10), against hand-computed
values, and their pages: the match page ranks the koppels, the matchday page shows the
highlights, each in a fixed number of queries."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Game
from scoring.selectors import highlights as highlights_module
from scoring.selectors.highlights import KoppelLine, match_top_koppels, matchday_highlights
from scoring.services.lineups import club_match_lineup_set
from scoring.services.schedule import schedule_round_robin_create
from scoring.services.standings import standings_rebuild
from tests.builders import (
    club_competition,
    finished_game,
    koppels_of,
    pairs_competition,
    pairs_game,
    pairs_matchday,
    play,
    record,
)
from tests.pages import without_bdi
from tests.seen import match_token_now
from tournaments.models import Competition, Match, Team

pytestmark = pytest.mark.django_db

# The club match of `club_match`: its four games, each as (home koppel, away koppel) and the
# rounds played, as (koppel, result) with "h1" = Kampoe 1, "a2" = Toppers 2 ...
#   sitting 1  Kampoe 1 – Toppers 1   baunie 15, gewone winst 2 (Toppers 1), kap 5 → 20–2
#              Kampoe 2 – Toppers 2   four kaps for Toppers 2                     →  0–20
#   sitting 2  Kampoe 1 – Toppers 2   3 kaps, then kap + gewone winst (Toppers 2), kap → 20–7
#              Kampoe 2 – Toppers 1   baunie (Toppers 1), kap (Kampoe 2), kap      →  5–20
GAMES = {
    ("h1", "a1"): [("h1", "baunie"), ("a1", "gewone_winst"), ("h1", "kap")],
    ("h2", "a2"): [("a2", "kap")] * 4,
    ("h1", "a2"): [("h1", "kap")] * 3 + [("a2", "kap"), ("a2", "gewone_winst"), ("h1", "kap")],
    ("h2", "a1"): [("a1", "baunie"), ("h2", "kap"), ("a1", "kap")],
}
# Hand-summed over both sittings: (name, club, points, games, kaps, baunies, top).
RANKING = [
    ("Kampoe 1", "Kampoe", 40, 2, 5, 1, True),
    ("Toppers 2", "Toppers", 27, 2, 5, 0, False),
    ("Toppers 1", "Toppers", 22, 2, 1, 1, False),
    ("Kampoe 2", "Kampoe", 5, 2, 1, 0, False),
]


def lined_up(size: int = 2, **fields: Any) -> tuple[Match, dict[str, Team]]:
    """Matchday 1 of a two-club `club_competition` (`size` koppels a side, as many
    sittings; `fields` as it takes them) with its lineup set: the match and its koppels by
    short name ("h1", "h2", "a1", "a2", ...)."""
    sizes = {"koppels_per_side": size, "min_koppels": size, "sittings": size}
    competition = club_competition(**(sizes | fields))
    schedule_round_robin_create(competition_id=competition.pk)
    match = Match.objects.select_related("home__club", "away__club").get(
        matchday__competition=competition, matchday__number=1
    )
    # By name ("Kampoe 1" ...): `koppels_of` goes by key, and factory keys sort as text.
    home, away = (
        sorted(koppels_of(entry), key=lambda team: team.name)[:size]
        for entry in (match.home, match.away)
    )
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=[team.pk for team in home],
        away_teams=[team.pk for team in away],
    )
    named = {f"h{n}": team for n, team in enumerate(home, start=1)}
    return match, named | {f"a{n}": team for n, team in enumerate(away, start=1)}


def game_of(match: Match, koppel: Team, other: Team) -> Game:
    return Game.objects.get(match=match, team_a__in=[koppel, other], team_b__in=[koppel, other])


def play_as_koppels(game: Game, rounds: list[tuple[Team, str]]) -> None:
    """`rounds` on `game`, each result for the koppel named (whichever side it sits)."""
    play(
        game, *((result, "a" if koppel.pk == game.team_a_id else "b") for koppel, result in rounds)
    )


def club_match(skip: tuple[str, str] | None = None, **fields: Any) -> tuple[Match, dict[str, Team]]:
    """`lined_up` with the games of `GAMES` played, all but `skip` (left without rounds)."""
    match, koppels = lined_up(**fields)
    for (home, away), rounds in GAMES.items():
        if (home, away) == skip:
            continue
        play_as_koppels(
            game_of(match, koppels[home], koppels[away]),
            [(koppels[who], result) for who, result in rounds],
        )
    return match, koppels


def shown(lines: list[KoppelLine]) -> list[tuple[str, str | None, int, int, int, int, bool]]:
    return [
        (
            str(line.koppel),
            line.club.name if line.club else None,
            line.points,
            line.games,
            line.kaps,
            line.baunies,
            line.top,
        )
        for line in lines
    ]


# ------------------------------------------------------------------ top koppels of a match


def test_the_koppels_of_a_club_match_are_ranked_by_points_over_all_sittings():
    match, _ = club_match()
    assert [g.status for g in Game.objects.filter(match=match)] == [Game.Status.FINISHED] * 4
    assert shown(match_top_koppels(match=match)) == RANKING


def test_a_game_still_in_play_does_not_count_yet():
    match, koppels = club_match(skip=("h2", "a1"))
    game = game_of(match, koppels["h2"], koppels["a1"])
    play_as_koppels(game, [(koppels["a1"], "baunie")])  # 15–0, still in play
    assert shown(match_top_koppels(match=match)) == [
        ("Kampoe 1", "Kampoe", 40, 2, 5, 1, True),
        ("Toppers 2", "Toppers", 27, 2, 5, 0, False),
        ("Toppers 1", "Toppers", 2, 1, 0, 0, False),
        ("Kampoe 2", "Kampoe", 0, 1, 0, 0, False),
    ]


def test_unconfirmed_games_do_not_count_where_the_competition_asks_for_confirmation():
    match, _ = club_match(confirmation_required=True)
    assert match_top_koppels(match=match) == []
    assert matchday_highlights(matchday=match.matchday) is None


def test_koppels_level_on_points_share_the_top():
    match, koppels = lined_up()
    # Sitting 1 only: both games 20–0 for the home koppels (equal kaps: names decide order).
    for home, away in (("h1", "a1"), ("h2", "a2")):
        finished_game(game_of(match, koppels[home], koppels[away]), winner="a")
    lines = shown(match_top_koppels(match=match))
    assert [(name, points, top) for name, _, points, _, _, _, top in lines] == [
        ("Kampoe 1", 20, True),
        ("Kampoe 2", 20, True),
        ("Toppers 1", 0, False),
        ("Toppers 2", 0, False),
    ]


def test_koppels_level_on_points_share_their_rank():
    match, koppels = lined_up()
    for home, away in (("h1", "a1"), ("h2", "a2")):
        finished_game(game_of(match, koppels[home], koppels[away]), winner="a")
    lines = match_top_koppels(match=match)
    assert [(str(line.koppel), line.points, line.rank) for line in lines] == [
        ("Kampoe 1", 20, 1),
        ("Kampoe 2", 20, 1),
        ("Toppers 1", 0, 3),
        ("Toppers 2", 0, 3),
    ]


def test_the_match_page_numbers_tied_koppels_alike(client):
    match, koppels = lined_up()
    for home, away in (("h1", "a1"), ("h2", "a2")):
        finished_game(game_of(match, koppels[home], koppels[away]), winner="a")
    url = reverse(
        "match_detail", kwargs={"slug": match.matchday.competition.slug, "match_id": match.pk}
    )
    page = without_bdi(client.get(url).content.decode())
    section = page.split('class="koppel-ranking ')[1].split("</section>")[0]
    body = section.split("<tbody>")[1]
    assert re.findall(r"<tr[^>]*>\s*<td>(\d+)</td>", body) == ["1", "1", "3", "3"]
    assert section.count('class="koppel-top"') == 2


def test_a_pairs_match_has_no_koppel_ranking():
    game = finished_game()
    match = Match.objects.select_related("home__club", "away__club").get(pk=game.match_id)
    assert match_top_koppels(match=match) == []


def test_the_match_page_lists_the_koppels_with_the_top_one_and_links(client):
    match, koppels = club_match()
    url = reverse(
        "match_detail", kwargs={"slug": match.matchday.competition.slug, "match_id": match.pk}
    )
    page = without_bdi(client.get(url).content.decode())
    section = page.split('class="koppel-ranking ')[1].split("</section>")[0]
    assert "Top koppel" in section
    assert "Kampoe 1</a> (Kampoe) 40</strong>" in section
    assert section.count('class="koppel-top"') == 1
    for team in koppels.values():
        assert reverse("koppel_detail", kwargs={"key": team.key}) in section
    assert match.home.club is not None
    assert reverse("club_detail", kwargs={"key": match.home.club.key}) in section
    # In ranking order.
    positions = [section.index(f">{name}</a>") for name, *_ in RANKING]
    assert positions == sorted(positions)


def test_the_match_page_of_a_pairs_match_shows_no_ranking(client):
    game = finished_game()
    url = reverse(
        "match_detail",
        kwargs={"slug": game.match.matchday.competition.slug, "match_id": game.match_id},
    )
    assert "koppel-ranking" not in client.get(url).content.decode()


# -------------------------------------------------------------- highlights of a matchday


def test_the_highlights_of_a_club_matchday_are_the_hand_counted_ones():
    match, koppels = club_match()
    highlights = matchday_highlights(matchday=match.matchday)
    assert highlights is not None
    assert highlights.games == 4
    assert [(str(line.koppel), line.baunies) for line in highlights.baunies] == [
        ("Kampoe 1", 1),
        ("Toppers 1", 1),
    ]
    assert highlights.baunies_total == 2
    assert highlights.most_kaps is not None
    assert highlights.most_kaps.value == 5
    assert [str(line.koppel) for line in highlights.most_kaps.lines] == ["Kampoe 1", "Toppers 2"]
    assert highlights.kaps_total == 12
    # Every game has a 20: the highest score goes to the biggest margin (20–0), 3 more have 20.
    best = highlights.highest_score
    assert best is not None
    assert (str(best.koppel), best.points, best.against, str(best.opponent), best.also) == (
        "Toppers 2",
        20,
        0,
        "Kampoe 2",
        3,
    )
    win = highlights.biggest_win
    assert win is not None
    assert (str(win.koppel), win.club.name if win.club else None, win.margin, win.also) == (
        "Toppers 2",
        "Toppers",
        20,
        0,
    )
    assert highlights.top_koppel is not None
    assert highlights.top_koppel.value == 40
    assert [str(line.koppel) for line in highlights.top_koppel.lines] == ["Kampoe 1"]


def test_a_pairs_matchday_has_no_top_koppel_and_names_no_clubs():
    competition, matchday, entries = pairs_matchday(4)
    first = pairs_game(matchday, entries[0], entries[1], table=1)
    second = pairs_game(matchday, entries[2], entries[3], table=2)
    play(first, ("baunie", "a"), ("kap", "b"), ("kap", "a"))  # Kampoe 20–5 Toppers
    play(second, ("kap", "b"), ("gewone_winst", "a"), ("kap", "b"), ("kap", "b"), ("kap", "b"))
    highlights = matchday_highlights(matchday=matchday)
    assert highlights is not None
    assert highlights.top_koppel is None
    assert [(str(line.koppel), line.club, line.baunies) for line in highlights.baunies] == [
        ("Kampoe", None, 1)
    ]
    assert highlights.most_kaps is not None
    assert (highlights.most_kaps.value, [str(x.koppel) for x in highlights.most_kaps.lines]) == (
        4,
        ["Ekta"],
    )
    assert highlights.highest_score is not None
    assert (str(highlights.highest_score.koppel), highlights.highest_score.against) == ("Ekta", 2)
    assert highlights.biggest_win is not None
    assert (str(highlights.biggest_win.koppel), highlights.biggest_win.margin) == ("Ekta", 18)


def test_a_matchday_without_a_finished_game_has_no_highlights(client):
    competition, matchday, entries = pairs_matchday(2)
    game = pairs_game(matchday, entries[0], entries[1], table=1)
    record(game, "kap", "a")  # in play
    assert matchday_highlights(matchday=matchday) is None
    url = reverse("matchday_detail", kwargs={"slug": competition.slug, "number": 1})
    assert "matchday-highlights" not in client.get(url).content.decode()


def test_most_kaps_names_five_koppels_and_counts_the_rest():
    competition, matchday, entries = pairs_matchday(14)
    for table in range(1, 8):
        finished_game(
            pairs_game(matchday, entries[2 * table - 2], entries[2 * table - 1], table=table)
        )
    highlights = matchday_highlights(matchday=matchday)
    assert highlights is not None and highlights.most_kaps is not None
    assert (highlights.most_kaps.value, len(highlights.most_kaps.lines)) == (4, 5)
    assert highlights.most_kaps.more == 2
    assert highlights.highest_score is not None and highlights.highest_score.also == 6


def test_the_matchday_page_shows_the_highlights_with_links(client):
    match, koppels = club_match()
    competition = match.matchday.competition
    url = reverse("matchday_detail", kwargs={"slug": competition.slug, "number": 1})
    page = without_bdi(client.get(url).content.decode())
    section = page.split('class="matchday-highlights')[1].split("</section>")[0]
    assert "4 games finished" in section
    assert "Baunies" in section and "Most kaps" in section
    assert "Top koppel" in section and "40 points" in section
    assert "12 kaps on the matchday" in section
    biggest = section.split('highlight-biggest-win"')[1].split("</dd>")[0]
    assert "Toppers 2</a> (Toppers)" in biggest and "20–0" in biggest and "by 20" in biggest
    best = Game.objects.get(match=match, score_a=0, score_b=20)
    assert reverse("game_detail", kwargs={"slug": competition.slug, "game_id": best.pk}) in biggest
    assert reverse("koppel_detail", kwargs={"key": koppels["h1"].key}) in section


def test_an_htmx_page_of_matches_reads_no_highlights(client):
    match, _ = club_match()
    url = reverse("matchday_detail", kwargs={"slug": match.matchday.competition.slug, "number": 1})
    page = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert 'id="matches"' in page and "matchday-highlights" not in page


# ----------------------------------------------------------------------- query counts


def pairs_evening(games: int) -> Competition:
    """A pairs matchday of `games` finished games (a baunie at every other table)."""
    competition, matchday, entries = pairs_matchday(2 * games)
    for table in range(1, games + 1):
        game = pairs_game(matchday, entries[2 * table - 2], entries[2 * table - 1], table=table)
        if table % 2:
            play(game, ("baunie", "a"), ("kap", "b"), ("kap", "a"))
        else:
            finished_game(game, winner="b")
    return competition


def queries_of(action) -> int:
    with CaptureQueriesContext(connection) as captured:
        action()
    return len(captured.captured_queries)


@pytest.mark.parametrize("games", [2])
def test_highlights_take_three_queries_whatever_the_number_of_games(games):
    # The games' columns, the koppels named, their clubs (none in a pairs competition).
    counts = []
    for size in (games, 3 * games):
        matchday = pairs_evening(size).matchdays.select_related("competition").get()
        counts.append(queries_of(lambda matchday=matchday: matchday_highlights(matchday=matchday)))
    assert counts == [2, 2]


def test_the_baunies_line_names_the_first_ones_and_counts_the_rest(monkeypatch):
    monkeypatch.setattr(highlights_module, "BAUNIES_SHOWN", 2)
    matchday = pairs_evening(7).matchdays.select_related("competition").get()  # 4 baunies
    highlights = matchday_highlights(matchday=matchday)
    assert highlights is not None
    assert len(highlights.baunies) == 2
    assert highlights.baunies_more == 2
    assert highlights.baunies_total == 4
    names = [str(line.koppel).casefold() for line in highlights.baunies]
    assert names == sorted(names)


def test_top_koppels_take_one_query_whatever_the_number_of_games():
    small, _ = club_match()
    big, _ = lined_up(3, slug="big-league")  # 9 games against 4
    for game in Game.objects.filter(match=big):
        finished_game(game, winner="a" if game.table % 2 else "b")
    counts = []
    for match in (small, big):
        match = Match.objects.select_related("home__club", "away__club").get(pk=match.pk)
        counts.append(queries_of(lambda match=match: match_top_koppels(match=match)))
    assert counts == [1, 1]


def test_the_matchday_page_costs_the_same_for_n_and_3n_games(client):
    counts = []
    for games in (3, 9):
        competition = pairs_evening(games)
        url = reverse("matchday_detail", kwargs={"slug": competition.slug, "number": 1})
        client.get(url)  # warm
        counts.append(queries_of(lambda url=url: client.get(url)))
    assert counts[0] == counts[1]


# ------------------------------------------------- links to the player, koppel, club pages


def test_standings_names_link_to_the_koppel_or_club_page(client):
    pairs = pairs_competition(3)
    clubs, _ = club_match()
    for competition in (pairs, clubs.matchday.competition):
        standings_rebuild(competition_id=competition.pk)
        page = client.get(reverse("competition_detail", kwargs={"slug": competition.slug}))
        html = page.content.decode()
        for entry in competition.entries.select_related("team", "club"):
            if entry.team is not None:
                target = reverse("koppel_detail", kwargs={"key": entry.team.key})
            else:
                assert entry.club is not None
                target = reverse("club_detail", kwargs={"key": entry.club.key})
            assert f'<td class="standing-entry"><a href="{target}">' in html


def test_the_game_page_links_its_koppels_and_players(client):
    game = finished_game()
    url = reverse(
        "game_detail", kwargs={"slug": game.match.matchday.competition.slug, "game_id": game.pk}
    )
    seats = client.get(url).content.decode().split('class="row small mb-3 seats"')[1]
    seats = seats.split("</dl>")[0]
    for team in (game.team_a, game.team_b):
        assert reverse("koppel_detail", kwargs={"key": team.key}) in seats
        for player in (team.player_1, team.player_2):
            assert reverse("player_detail", kwargs={"key": player.key}) in seats
