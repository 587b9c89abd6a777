"""Every URL pattern of the project as an address to open (issue 19, item 3): the walk of
`tests/test_url_walk.py` and its scene.

`leaves()` lists every pattern of the URL conf (the admin's included) as a `Leaf`: its
name, the format of its address (`django.utils.regex_helper.normalize`, as `reverse`
builds one) and the arguments it takes. `walk_scene()` builds a small world every page has
something to show in: a pairs competition in play (a played matchday, tonight's with a
round), a club competition with a lineup and a round, the admin's row of every model, a
season with ratings, table links, a director and a league admin. `Places` fills a leaf's
arguments from it: `real_urls` gives every leaf its real addresses; a hostile value is put
in one argument at a time (`address`).
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from django.contrib import admin
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db.models import Model
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.regex_helper import normalize

from rankings.services import ratings_refresh
from scoring.models import Game, Round
from scoring.services.lineups import club_match_lineup_set
from scoring.services.schedule import schedule_round_robin_create
from scoring.services.table import game_links_ensure
from scoring.tokens import match_token_now
from tests.admin_scenes import admin_scene
from tests.builders import (
    club_competition,
    koppels_of,
    league_in_play,
    record,
    seasons_rankings_refresh,
)
from tests.factories import UserFactory
from tournaments.models import Competition, Match

SEASON = "2026-2027"  # CompetitionFactory's season


@dataclass(frozen=True)
class Leaf:
    """One URL pattern: `name` ("admin:scoring_game_change"; "" when unnamed), the
    address's format (`%(slug)s` for an argument) and its arguments in order; `model` the
    admin page's model, if any."""

    name: str
    format: str
    params: tuple[str, ...]
    model: type[Model] | None = None

    def __str__(self) -> str:
        return self.name or f"/{self.format}"


def _model_of(pattern: URLPattern, name: str) -> type[Model] | None:
    """The model of an admin page: the `model_admin` Django's admin puts on its views, or
    the model its name starts with (django-simple-history's pages have no `model_admin`)."""
    model_admin = getattr(pattern.callback, "model_admin", None)
    if model_admin is not None:
        return model_admin.model
    for model in admin.site._registry:
        if name.startswith(f"admin:{model._meta.app_label}_{model._meta.model_name}_"):
            return model
    return None


def leaves(
    patterns: list[Any] | None = None, prefix: str = "", namespace: tuple[str, ...] = ()
) -> Iterator[Leaf]:
    """Every pattern under `patterns` (default: the project's URL conf), depth first."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        regex = prefix + pattern.pattern.regex.pattern.removeprefix("^")
        if isinstance(pattern, URLResolver):
            inner = (*namespace, pattern.namespace) if pattern.namespace else namespace
            yield from leaves(pattern.url_patterns, regex, inner)
            continue
        name = ":".join((*namespace, pattern.name)) if pattern.name else ""
        fmt, params = normalize("^" + regex)[0]
        yield Leaf(name, fmt, tuple(params), _model_of(pattern, name))


@dataclass
class Place:
    """One consistent set of argument values: a competition, one of its matchdays, a
    match, a game of it with a round, that game's table link."""

    slug: str
    number: int
    match_id: int
    game_id: int
    round_id: int
    token: str
    fmt: str


@dataclass
class Places:
    """The values `walk_scene` offers the leaves' arguments."""

    places: list[Place]
    player: str
    koppel: str
    other_koppel: str
    club: str
    uidb64: str
    reset_token: str
    content_type_id: int
    competition_id: int
    # A model's stored version in its history (django-simple-history): (pk, history_id).
    versions: dict[type[Model], tuple[Any, int]] = field(default_factory=dict)

    def values(self, leaf: Leaf, place: Place) -> dict[str, str]:
        """The real value of every argument of `leaf` at `place`, as text."""
        found: dict[str, Any] = {
            "slug": place.slug,
            "number": place.number,
            "match_id": place.match_id,
            "game_id": place.game_id,
            "round_id": place.round_id,
            "token": place.token,
            "fmt": place.fmt,
            "season": SEASON,
            "other": self.other_koppel,
            "uidb64": self.uidb64,
            "app_label": "scoring",
            "url": "no-such-page/",
            "content_type_id": self.content_type_id,
        }
        if leaf.name == "password_reset_confirm":
            found["token"] = self.reset_token
        found["key"] = {
            "player_detail": self.player,
            "club_detail": self.club,
        }.get(leaf.name, self.koppel)
        if leaf.model is not None:
            first = leaf.model._default_manager.order_by("pk").first()
            pk = first.pk if first is not None else 1
            found.update(object_id=pk, id=pk, _0=pk, _1=1)
            if leaf.model in self.versions:
                found["_0"], found["_1"] = self.versions[leaf.model]
        elif "content_type_id" in leaf.params:
            found["object_id"] = self.competition_id
        return {name: str(found[name]) for name in leaf.params}


def address(leaf: Leaf, values: Mapping[str, str], raw: Mapping[str, str] | None = None) -> str:
    """The path of `leaf` with `values` quoted as `reverse` quotes them and `raw` (already
    percent-encoded, hostile) put in as they are."""
    filled = {name: quote(value, safe="-_.~:@") for name, value in values.items()}
    filled.update(raw or {})
    return "/" + leaf.format % filled


def real_urls(places: Places, leaf: Leaf) -> list[str]:
    """The addresses of `leaf` at every place, each once."""
    urls = [address(leaf, places.values(leaf, place)) for place in places.places]
    return list(dict.fromkeys(urls))


def _place(game: Game, fmt: str) -> Place:
    links = game_links_ensure(game_ids=[game.pk])[game.pk]
    round_ = Round.objects.filter(game=game).order_by("number").first()
    assert round_ is not None, "every place's game has a round"
    return Place(
        slug=game.match.matchday.competition.slug,
        number=game.match.matchday.number,
        match_id=game.match_id,
        game_id=game.pk,
        round_id=round_.pk,
        token=links["a"].token,
        fmt=fmt,
    )


def _club_game() -> Game:
    """A club competition's first match with its lineup set (two koppels a side, two
    sittings) and a round on its first game."""
    competition = club_competition(2)
    schedule_round_robin_create(competition_id=competition.pk, start=datetime.date(2026, 10, 2))
    match = Match.objects.filter(matchday__competition=competition).order_by("pk").first()
    assert match is not None
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=[team.pk for team in koppels_of(match.home)[:2]],
        away_teams=[team.pk for team in koppels_of(match.away)[:2]],
    )
    game = Game.objects.filter(match=match).order_by("sitting", "table").first()
    assert game is not None
    record(game)
    return game


@dataclass
class Scene:
    """What `walk_scene` built: the argument values, the director (of every competition,
    the demo director's rights) and the league admin (a superuser)."""

    places: Places
    director: User
    league_admin: User


def walk_scene() -> Scene:
    """The walk's world (see the module's docstring). Writes through the services."""
    admin_game = admin_scene()
    league = league_in_play(4)
    played = Game.objects.filter(match__matchday=league.played).order_by("table").first()
    assert played is not None
    club_game = _club_game()
    ratings_refresh()
    seasons_rankings_refresh()
    league_admin = UserFactory.create(username="league-admin", is_staff=True, is_superuser=True)
    call_command("ensure_demo_director", "--force", stdout=io.StringIO())
    director = User.objects.get(username="director")
    competition = league.competition
    places = Places(
        places=[
            _place(league.games[1], "csv"),
            _place(played, "xlsx"),
            _place(club_game, "csv"),
            _place(admin_game, "xlsx"),
        ],
        player=league.games[1].match.home.team.player_1.key,  # type: ignore[union-attr]
        koppel=league.games[1].team_a.key,
        other_koppel=league.games[1].team_b.key,
        club=club_game.match.home.club.key,  # type: ignore[union-attr]
        uidb64=urlsafe_base64_encode(force_bytes(league_admin.pk)),
        reset_token=default_token_generator.make_token(league_admin),
        content_type_id=ContentType.objects.get_for_model(Competition).pk,
        competition_id=competition.pk,
    )
    for model in admin.site._registry:
        history = getattr(model, "history", None)
        if history is not None and hasattr(history, "model"):
            version = history.model.objects.order_by("history_id").first()
            if version is not None:
                places.versions[model] = (version.instance.pk, version.history_id)
    return Scene(places, director, league_admin)
