"""No 500 from a URL or a parameter (issue 19, item 3): every URL pattern of the project,
the admin's included, opened with real and hostile addresses and queries.

The walk (`tests/url_walk.py`) gives every pattern its real addresses in a small world
(`walk_scene`). Each address is opened by an anonymous visitor, a director and the league
admin (a superuser), as a page and as an htmx request; then, as the league admin
(`HOSTILE`), each argument of each pattern is
replaced in turn by a hostile path segment (`HOSTILE_SEGMENTS`: NUL, invalid UTF-8, huge,
negative, 5,000 characters, quotes and markup, `../`, a right-to-left override, an emoji,
a word for a number and a number for a word); each page is asked with hostile values for
every query parameter the views read (`QUERY_PARAMETERS`, `QUERY_VALUES`), one at a time on
the pages that read them and all at once on every page; and garbage is posted to every
address. No answer may be a server error (5xx), and no paged table may show more rows than
`PER_PAGE_MAX`, whatever `?per_page=` asks. Every request runs in a savepoint rolled back
after it, so that a write one of them makes (or a database error that ends its
transaction) never changes what the next one sees.

The whole walk (about 11,000 requests) is `heavy`; the fast tests keep what it and issue
19 found: a NUL in a path (`/t/%00/`), a query (`?q=%00` on the standings, an admin
filter), a cookie (the session's) or a header (the user agent a failed login stores) was
a 500 on PostgreSQL, now the 400 page (`troefclub.nul`); an admin history page of an id
that is no number was a 500 everywhere, now a 404 (`troefclub.admin_input`); and
`?per_page=-1` or a huge `per_page` on the standings, the season rankings and the rating
list is a page within the cap.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import django_tables2 as tables
import pytest
from django.core.paginator import Page
from django.db import transaction
from django.test import Client
from django.urls import resolve
from django.urls import reverse as django_reverse

from tests.url_walk import SEASON, Leaf, Scene, address, leaves, real_urls, walk_scene
from troefclub import tables as troefclub_tables
from troefclub.tables import PER_PAGE_MAX

pytestmark = pytest.mark.django_db

LEAVES = list(leaves())

# Put in place of one argument of a pattern at a time, percent-encoded as sent.
HOSTILE_SEGMENTS = {
    "nul": "%00",
    "nul-inside": "ab%00cd",
    "minus-one": "-1",
    "zero": "0",
    "huge": "9" * 20,
    "long": "a" * 5000,
    "quote": "%27",
    "markup": "%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "dot-dot": "../..",
    "dot-dot-encoded": "..%2F..%2F",
    "rtl-override": "%E2%80%AEevil",
    "emoji": "%F0%9F%83%8F",
    "invalid-utf8": "%FF%FE",
    "word": "not-a-number",
    "number": "12345",
}

# Every query parameter a view of ours reads (grep request.GET: the tables' sort and pages,
# searches, the season page's choices, the display's and the board's, the koppel page's
# head-to-head box, the live pages' version, the login's next), and some no view reads.
QUERY_PARAMETERS = (
    "per_page",
    "page",
    "sort",
    "q",
    "by",
    "kind",
    "club",
    "state",
    "matchday",
    "top",
    "view",
    "vs",
    "v",
    "next",
    "date",
    "since",
    "format",
)
# The admin list's own: search, order, page, errors, show all, filters kept, popups.
ADMIN_QUERY_PARAMETERS = (
    "q",
    "o",
    "p",
    "e",
    "all",
    "_changelist_filters",
    "_popup",
    "_to_field",
    "status__exact",
    "page",
    "per_page",
)
# Asked one parameter at a time: the pages that read the query.
QUERY_PAGES = (
    "competition_list",
    "competition_detail",
    "matchday_detail",
    "matchday_manage",
    "matchday_board",
    "hall_display",
    "rankings_latest",
    "season_rankings",
    "rating_list",
    "player_detail",
    "koppel_detail",
    "koppel_head_to_head",
    "club_detail",
    "search",
    "login",
    "table_sheet",
    "game_sheet",
    "director_queue",
    "admin:scoring_game_changelist",
    "admin:scoring_round_changelist",
    "admin:tournaments_competition_changelist",
    "admin:tournaments_player_changelist",
)
QUERY_VALUES = {
    "minus-one": "-1",
    "zero": "0",
    "word": "abc",
    "exponent": "1e9",
    "large": "100000",
    "huge": "9" * 30,
    "nul": "%00",
    "invalid-utf8": "%FF",
    "empty": "",
    "long": "x" * 5000,
}
# Asked of every page, all parameters at once.
EVERY_PAGE_VALUES = ("-1", "abc", "9" * 30)
# Field names posted with garbage: those of our forms and the admin's, and some it never
# expects.
POST_FIELDS = (
    "action",
    "html",
    "seen",
    "key",
    "expected_number",
    "number",
    "result",
    "side",
    "caller",
    "tricks_a",
    "tricks_b",
    "total_a",
    "total_b",
    "total_home",
    "total_away",
    "comment",
    "reason",
    "points",
    "entry",
    "home",
    "away",
    "table",
    "language",
    "next",
    "username",
    "password",
    "email",
    "q",
    "_selected_action",
    "select_across",
    "index",
    "void_confirm",
)
POST_VALUES = ["\x00", "-1", "9" * 25, "x" * 5000, "abc", "\u202eevil"]

USERS = ("anonymous", "director", "league_admin")
# The hostile walks go as the league admin only: every page an anonymous reader or a
# director reaches, they reach too, and further (the real addresses are walked as all
# three). Three times the requests found no fault the one did not, and cost CI minutes.
HOSTILE = ("league_admin",)
HUGE = "9" * 20  # more than a 64-bit number holds
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(scope="module")
def built(module_atomic: None, django_db_blocker: Any) -> Scene:
    with django_db_blocker.unblock():
        return walk_scene()


@pytest.fixture
def scene(db: None, built: Scene, settings: Any) -> Scene:
    # The password-reset pages answer 404 without e-mail: with it they are walked too.
    settings.EMAIL_HOST = "mail.example.invalid"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    return built


@dataclass
class Walk:
    """Requests made and the server errors among them (`failures`), each request in a
    savepoint rolled back after it."""

    scene: Scene
    who: str
    cap: int = PER_PAGE_MAX
    requests: int = 0
    failures: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.client = Client(raise_request_exception=False)
        self._login()

    def _login(self) -> None:
        user = {"director": self.scene.director, "league_admin": self.scene.league_admin}
        if self.who in user:
            self.client.force_login(user[self.who])

    def open(self, method: str, url: str, **extra: Any) -> Any:
        """`method` ("get"/"post") `url` with the client's `extra`; a 5xx or a page of a
        table longer than the cap is noted in `failures`."""
        self.requests += 1
        with transaction.atomic():
            response = getattr(self.client, method)(url, **extra)
            transaction.set_rollback(True)
        if method == "post" and url.startswith("/accounts/logout/"):
            self._login()
        shown = url if len(url) < 160 else url[:150] + f"…({len(url)} chars)"
        if response.status_code >= 500:
            error = response.exc_info[1] if response.exc_info else ""
            self.failures.append(
                f"{method.upper()} {shown} as {self.who}: {response.status_code} {error!r}"
            )
        for rows, limit in page_sizes(response, self.cap):
            if rows > limit:
                self.failures.append(f"{method.upper()} {shown}: {rows} rows, cap {limit}")
        return response

    def report(self, what: str) -> None:
        print(f"\n{what} as {self.who}: {self.requests} requests, {len(self.failures)} failures")
        assert not self.failures, "\n".join(self.failures[:50])


def page_sizes(response: Any, cap: int) -> Iterator[tuple[int, int]]:
    """(rows shown, the most allowed) of every paged table and page of rows the response's
    templates were given: a django-tables2 table `cap`, a Paginator page its size, itself
    at most `PER_PAGE_MAX`."""
    contexts = response.context
    if contexts is None:
        return
    seen: set[int] = set()
    for context in contexts if isinstance(contexts, list) else [contexts]:
        for value in context.flatten().values():
            if id(value) in seen:
                continue
            seen.add(id(value))
            if isinstance(value, tables.Table) and getattr(value, "page", None) is not None:
                yield len(value.page.object_list), cap
            elif isinstance(value, Page):
                yield len(value.object_list), min(value.paginator.per_page, PER_PAGE_MAX)


def leaf_named(name: str) -> Leaf:
    return next(leaf for leaf in LEAVES if leaf.name == name)


def real(scene: Scene) -> list[tuple[Leaf, str]]:
    return [(leaf, url) for leaf in LEAVES for url in real_urls(scene.places, leaf)]


# ---------------------------------------------------------------- fast: what issue 19 found


def test_every_pattern_has_a_real_address_that_resolves_to_it(scene: Scene) -> None:
    assert len(LEAVES) > 150  # the admin's included
    for leaf in LEAVES:
        urls = real_urls(scene.places, leaf)
        assert urls, leaf
        for url in urls:
            match = resolve(url.split("?")[0])
            assert (match.view_name or "") == leaf.name or not leaf.name, (url, match)


@pytest.mark.nl
@pytest.mark.parametrize(
    "url",
    [
        "/t/%00/",
        "/t/ab%00cd/manifest.webmanifest",
        "/rankings/%00/",
        "/c/live-4/?q=%00",
        "/c/live-4/matchday/2/?q=a%00",
        "/search/?q=%00",
        "/search/?q=a%00b",
        "/ratings/?club=%00",
        "/rankings/?club=%00",
        f"/rankings/{SEASON}/?club=%00&by=club",
        "/?%00=1",
    ],
)
def test_a_nul_in_the_address_is_a_400_in_the_readers_language(scene: Scene, url: str) -> None:
    walk = Walk(scene, "anonymous")
    response = walk.open("get", url)
    assert response.status_code == 400
    assert "Dit adres kan niet worden geopend" in response.content.decode()


def test_a_nul_posted_to_a_table_link_is_a_400(scene: Scene) -> None:
    walk = Walk(scene, "anonymous")
    assert walk.open("post", "/t/%00/round/", data={"key": "x"}).status_code == 400
    assert walk.open("post", "/t/%00/", data={"action": "undo"}).status_code == 400


def test_a_nul_in_a_cookie_or_a_header_is_a_400(scene: Scene) -> None:
    """The session is looked up by its cookie, the login lockout stores the user agent."""
    walk = Walk(scene, "anonymous")
    walk.client.cookies["sessionid"] = "\x00" + "a" * 31
    assert walk.open("get", "/director/").status_code == 400
    walk = Walk(scene, "anonymous")
    login = {"username": "nobody", "password": "wrong"}
    response = walk.open("post", "/accounts/login/", data=login, HTTP_USER_AGENT="x\x00y")
    assert response.status_code == 400


def test_a_nul_in_an_admin_search_or_filter_is_a_400(scene: Scene) -> None:
    walk = Walk(scene, "league_admin")
    for name in ("admin:scoring_game_changelist", "admin:tournaments_player_changelist"):
        assert walk.open("get", django_reverse(name) + "?q=%00").status_code == 400
    url = django_reverse("admin:scoring_game_changelist") + "?status__exact=%00"
    assert walk.open("get", url).status_code == 400
    assert walk.open("get", "/c/live-4/matchday/2/manage/?q=%00").status_code == 400


@pytest.mark.parametrize(
    "url",
    [
        "/admin/scoring/game/abc/history/",
        "/admin/scoring/round/%27/history/",
        "/admin/scoring/game/abc/history/1/",
        "/admin/scoring/round/1/history/abc/",
        "/admin/tournaments/competition/abc/history/",
        f"/admin/rankings/playerrating/{HUGE}/change/",
        f"/admin/rankings/playerrating/{HUGE}/history/",
        f"/admin/scoring/game/{HUGE}/history/{HUGE}/",
    ],
)
def test_an_admin_id_no_key_can_hold_is_a_row_that_does_not_exist(scene: Scene, url: str) -> None:
    """django-simple-history's pages handed any id to the database (ValueError, 500);
    Django's a number too big for it (SQLite: OverflowError, 500: a player rating's key is
    its player's, and Django checks the range of its own number keys only). Now the
    admin's "doesn't exist" (a redirect), or a 404."""
    walk = Walk(scene, "league_admin")
    response = walk.open("get", url)
    assert response.status_code in (302, 404), response.status_code
    walk.report(url)


@pytest.mark.parametrize(
    "url",
    [
        f"/admin/tournaments/player/?club={HUGE}",
        f"/admin/tournaments/entry/?club={HUGE}",
        f"/admin/tournaments/squad/?club={HUGE}",
        f"/admin/tournaments/match/?matchday={HUGE}",
        f"/admin/tournaments/bye/?matchday={HUGE}",
        f"/admin/tournaments/match/?matchday__id__exact={HUGE}",
        f"/admin/tournaments/player/?club__in=1,{HUGE}",
        "/admin/tournaments/match/?matchday=-1",
    ],
)
def test_an_admin_filter_on_a_number_no_key_can_hold_is_the_admins_error_page(
    scene: Scene, url: str
) -> None:
    """A change list filtered on a number too big for the database was a 500 on SQLite
    (OverflowError; a new user's walk, issue 19): now the admin's "?e=1" answer, as for any
    filter it can't apply."""
    walk = Walk(scene, "league_admin")
    response = walk.open("get", url)
    assert response.status_code in (200, 302), response.status_code
    if response.status_code == 302:
        assert response["Location"].endswith("?e=1")
    walk.report(url)


def paged_tables(scene: Scene) -> list[str]:
    slug = scene.places.places[0].slug
    season = django_reverse("season_rankings", kwargs={"season": SEASON})
    return [
        django_reverse("competition_detail", kwargs={"slug": slug}),
        season,
        season + "?by=koppel",
        django_reverse("rating_list"),
    ]


@pytest.mark.parametrize("value", ["-1", "0", "abc", "1e9", "100000", "", "%00", "9" * 30])
def test_any_per_page_on_the_standings_rankings_and_ratings_is_a_page_within_the_cap(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, settings: Any, value: str
) -> None:
    """With the cap lowered to 2 (the scene's tables are longer), `?per_page=` shows one
    row a page for a number below 1, two for anything else (too many, or no number: the
    page's default, which is more); a NUL is refused before any view."""
    monkeypatch.setattr(troefclub_tables, "PER_PAGE_MAX", 2)
    settings.RATING_MIN_GAMES = 1  # the scene's players have played one or two games
    expected = 1 if value in ("-1", "0") else 2
    walk = Walk(scene, "anonymous", cap=2)
    for url in paged_tables(scene):
        glue = "&" if "?" in url else "?"
        response = walk.open("get", f"{url}{glue}per_page={value}")
        assert response.status_code == (400 if value == "%00" else 200), url
        if value != "%00":
            table = response.context["table"]
            assert len(table.rows) > 2, f"{url}: the scene's table is too short to test"
            assert len(table.page.object_list) == expected, url
    walk.report(f"per_page={value}")


# ---------------------------------------------------------------- heavy: the whole walk


@pytest.mark.heavy
@pytest.mark.parametrize("who", USERS)
def test_every_address_opens_without_a_server_error(scene: Scene, who: str) -> None:
    walk = Walk(scene, who)
    for _leaf, url in real(scene):
        walk.open("get", url)
        walk.open("get", url, **HTMX)
    walk.report(f"{len(real(scene))} real addresses, as a page and by htmx")


@pytest.mark.heavy
@pytest.mark.parametrize("who", HOSTILE)
def test_hostile_path_segments_never_make_a_server_error(scene: Scene, who: str) -> None:
    walk = Walk(scene, who)
    slots = 0
    for leaf in LEAVES:
        values = scene.places.values(leaf, scene.places.places[0])
        for name in leaf.params:
            slots += 1
            for segment in HOSTILE_SEGMENTS.values():
                walk.open("get", address(leaf, values, {name: segment}))
    walk.report(f"{slots} arguments of {len(LEAVES)} patterns x {len(HOSTILE_SEGMENTS)} segments")


def with_query(url: str, query: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}{query}"


@pytest.mark.heavy
@pytest.mark.parametrize("who", HOSTILE)
@pytest.mark.parametrize("name", QUERY_PAGES)
def test_hostile_query_values_never_make_a_server_error_nor_a_longer_page(
    scene: Scene, who: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each parameter alone on a page that reads the query: every value (every other one
    by htmx), and given twice (`?a=-1&a=abc`). The cap of `?per_page=` lowered to 2: no
    table may show more. (The director sees no page the league admin doesn't.)"""
    monkeypatch.setattr(troefclub_tables, "PER_PAGE_MAX", 2)
    walk = Walk(scene, who, cap=2)
    url = real_urls(scene.places, leaf_named(name))[0]
    parameters = ADMIN_QUERY_PARAMETERS if name.startswith("admin:") else QUERY_PARAMETERS
    for parameter in parameters:
        for index, value in enumerate(QUERY_VALUES.values()):
            walk.open("get", with_query(url, f"{parameter}={value}"), **(HTMX if index % 2 else {}))
        walk.open("get", with_query(url, f"{parameter}=-1&{parameter}=abc"))
    walk.report(f"{name}: {len(parameters)} parameters x {len(QUERY_VALUES) + 1} values")


@pytest.mark.heavy
@pytest.mark.parametrize("who", HOSTILE)
def test_every_page_takes_every_parameter_at_once(
    scene: Scene, who: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every real address with all of `QUERY_PARAMETERS` at once (but `vs`, a redirect,
    and `v`, an unchanged poll's 204, which would cut it short): pages that read a
    parameter `QUERY_PAGES` doesn't know of are asked too."""
    monkeypatch.setattr(troefclub_tables, "PER_PAGE_MAX", 2)
    walk = Walk(scene, who, cap=2)
    every = [parameter for parameter in QUERY_PARAMETERS if parameter not in ("vs", "v")]
    for _leaf, url in real(scene):
        for value in EVERY_PAGE_VALUES:
            query = "&".join(f"{parameter}={value}" for parameter in every)
            walk.open("get", with_query(url, query), **(HTMX if value == "abc" else {}))
    walk.report(f"{len(real(scene))} addresses x {len(EVERY_PAGE_VALUES)} values")


@pytest.mark.heavy
@pytest.mark.parametrize("who", HOSTILE)
def test_garbage_posted_to_every_address_never_makes_a_server_error(scene: Scene, who: str) -> None:
    walk = Walk(scene, who)
    for _leaf, url in real(scene):
        for value in POST_VALUES:
            walk.open("post", url, data=dict.fromkeys(POST_FIELDS, value) | {"post": "yes"})
        walk.open(
            "post",
            url,
            data=b"action=\xff\xfe&seen=%00&key=\xc3",
            content_type="application/x-www-form-urlencoded",
        )
        walk.open("post", url, data=b"\x00\xff{", content_type="application/json")
    walk.report("garbage posts")


def test_the_walk_knows_every_pattern_by_name() -> None:
    """A page added without a name would be walked by address only: name it."""
    unnamed = [str(leaf) for leaf in LEAVES if not leaf.name]
    # Django's admin (its catch-all, the old change address) and the favicon.
    allowed = re.compile(r"^/(favicon\.ico|admin/.*)$")
    assert [name for name in unnamed if not allowed.match(name)] == []
