"""The API's reads (issue 21), timed as the pages are (`measures.page_runs`: the test
client, server time a request, queries, bytes): the ranked tables, the calendar feeds, and
the clubs, players, koppels, competitions, matchdays, fixtures, matches, games and game
lists.

Each table is measured beside its page at the same size (the floor: the page reads the
same stored rows, 50 a page); the next page, the unchanged poll (304) and the feeds beside
the smallest size. Every row asks from an address of its own, so the API's per-address
throttle (300 a minute) never answers a run 429.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from django.db.models import Count
from django.test import Client
from django.urls import reverse

from benchmarks.measures import Runs, counting, page_runs
from scoring.models import Game
from tournaments.models import Club, Competition

# Addresses of the documentation range (RFC 5737): one a measured row.
_addresses = (f"192.0.2.{n % 250 + 1}" for n in itertools.count())


def _client() -> Client:
    return Client(REMOTE_ADDR=next(_addresses))


def api_get_runs(url: str, *, repeat: int, headers: dict[str, str] | None = None) -> Runs:
    """GET `url` of the API `repeat` times after one untimed request, as `page_runs`
    does; a 304 counts as an answer (the unchanged poll)."""
    client = _client()
    headers = headers or {}
    warm = client.get(url, headers=headers)
    if warm.status_code not in (200, 304):
        raise RuntimeError(f"GET {url} answered {warm.status_code}")
    result = Runs(size_bytes=len(warm.content))
    for _ in range(repeat):
        with counting() as counter:
            started = time.perf_counter()
            response = client.get(url, headers=headers)
            result.seconds.append(time.perf_counter() - started)
        result.queries = counter.count
        result.size_bytes = len(response.content)
    result.extra["status"] = response.status_code
    return result


def api_runs(competition: Competition, *, repeat: int) -> dict[str, dict[str, Any]]:
    """By row name: the API `url`, its `runs`, the `floor` (its page's runs, or None) and
    a `note`."""
    slug, season = competition.slug, competition.season
    standings = reverse("api:competition-standings", kwargs={"slug": slug})
    season_api = reverse("api:season-ranking", kwargs={"season": season}) + "?by=player"
    ratings = reverse("api:rating-list")
    feed = reverse("api:competition-fixtures-feed", kwargs={"slug": slug})
    entry = competition.entries.select_related("team").order_by("pk").first()
    assert entry is not None and entry.team is not None, "the generated entries are koppels"
    koppel_feed = reverse("api:koppel-fixtures-feed", kwargs={"key": entry.team.key})
    first = _client().get(standings + "?page_size=50").json()
    next_page = first["next"] or standings + "?page_size=50"
    etag = _client().get(standings)["ETag"]
    pages = {
        "standings": reverse("competition_detail", kwargs={"slug": slug}),
        "season": reverse("season_rankings", kwargs={"season": season}) + "?by=player",
        "ratings": reverse("rating_list"),
    }
    rows: dict[str, dict[str, Any]] = {
        "API standings": {"url": standings, "page": pages["standings"]},
        "API standings, next page": {"url": next_page, "page": None},
        "API standings unchanged (304)": {
            "url": standings,
            "page": None,
            "headers": {"if-none-match": etag},
        },
        "API season ranking by player": {"url": season_api, "page": pages["season"]},
        "API ratings": {"url": ratings, "page": pages["ratings"]},
        "API competition fixtures feed": {"url": feed, "page": None},
        "API koppel fixtures feed": {"url": koppel_feed, "page": None},
    }
    rows.update(_entity_rows(competition))
    for row in rows.values():
        row["runs"] = api_get_runs(row["url"], repeat=repeat, headers=row.get("headers"))
        row["floor"] = page_runs(row["page"], repeat=repeat) if row["page"] else None
        row["note"] = row["url"].split("?cursor=")[0] + (
            f" (its page: {row['page']})" if row["page"] else ""
        )
    for name in ("API competition fixtures feed", "API koppel fixtures feed"):
        body = _client().get(rows[name]["url"]).content
        rows[name]["note"] += f"; {body.count(b'BEGIN:VEVENT')} events"
    return rows


def _entity_rows(competition: Competition) -> dict[str, dict[str, Any]]:
    """The rows of the entity and game reads, beside their pages where they have one."""
    slug = competition.slug
    game = (
        Game.objects.filter(match__matchday__competition=competition)
        .select_related("match__matchday", "team_a__player_1")
        .order_by("-match__matchday__number", "match__table", "pk")
        .first()
    )
    assert game is not None, "the generated competition has games"
    match, matchday = game.match, game.match.matchday
    koppel = game.team_a
    player = koppel.player_1
    # The club with the most players; the generated league has none (its players are
    # clubless), and then the club rows are left out.
    club = Club.objects.annotate(size=Count("players")).order_by("-size", "pk").first()
    number = {"slug": slug, "number": matchday.number}
    api = {
        "API clubs": (reverse("api:club-list"), None),
        "API players": (reverse("api:player-list"), None),
        "API koppels": (reverse("api:koppel-list"), None),
        "API competitions": (reverse("api:competition-list"), None),
        "API competition": (reverse("api:competition-detail", kwargs={"slug": slug}), None),
        "API matchdays": (reverse("api:matchday-list", kwargs={"slug": slug}), None),
        "API matchday": (reverse("api:matchday-detail", kwargs=number), None),
        "API fixtures of a matchday": (
            reverse("api:fixture-list", kwargs=number),
            reverse("matchday_detail", kwargs=number),
        ),
        "API match": (
            reverse("api:match-detail", kwargs={"match_id": match.pk}),
            reverse("match_detail", kwargs={"slug": slug, "match_id": match.pk}),
        ),
        "API game": (
            reverse("api:game-detail", kwargs={"game_id": game.pk}),
            reverse("game_detail", kwargs={"slug": slug, "game_id": game.pk}),
        ),
        "API player's games": (
            reverse("api:player-games", kwargs={"key": player.key}),
            reverse("player_detail", kwargs={"key": player.key}),
        ),
        "API koppel's games": (
            reverse("api:koppel-games", kwargs={"key": koppel.key}),
            reverse("koppel_detail", kwargs={"key": koppel.key}),
        ),
        "API seasons": (reverse("api:season-list"), None),
    }
    if club is not None:
        api["API club's games"] = (
            reverse("api:club-games", kwargs={"key": club.key}),
            reverse("club_detail", kwargs={"key": club.key}),
        )
    return {name: {"url": url, "page": page} for name, (url, page) in api.items()}
