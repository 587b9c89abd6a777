"""Every search box and picker ignores case and accents (issue 18): "Gérard Éluard" is found
typed "gerard eluard" or "GÉRARD", "Kolibrië" typed "Kolibrie", and a koppel typed as it
is shown ("Anna & Bert"). One transform does it in the database (`troefclub.text.Fold`),
on SQLite and PostgreSQL alike (CI runs this module on PostgreSQL): the public search,
the standings' and matchday's find boxes (public and director's), the head-to-head
picker, and the admin's change lists and autocomplete pickers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import Model, TextField, Value
from django.test import Client
from django.urls import reverse

from rankings.profiles.koppels import koppels_matching
from rankings.search import site_search
from scoring.services.standings import standings_rebuild
from tests.admin_pages import admin_url
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    MatchdayFactory,
    MatchFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
    league_staff,
)
from tournaments.models import Club, Entry, Player, Team
from troefclub.text import Fold, fold_letters

pytestmark = pytest.mark.django_db

QUERIES = ["gerard eluard", "GÉRARD", "Kolibrie", "kolibrië", "Anna & Bert"]

# Shown as: the koppel of Gérard Éluard, the koppel named Kolibrië, Anna & Bert.
GERARD, KOLIBRIE, ANNA = "Gérard Éluard & Jan Smit", "Kolibrië", "Anna & Bert"
# What each query is after: a koppel (K), and for the player and club pickers, a player
# (P) or club (C); None where the query names no row of that kind.
WANTED: dict[str, dict[str, str | None]] = {
    "gerard eluard": {"K": GERARD, "P": "Gérard Éluard", "C": None},
    "GÉRARD": {"K": GERARD, "P": "Gérard Éluard", "C": None},
    "Kolibrie": {"K": KOLIBRIE, "P": "Gérard Éluard", "C": "Kolibrië"},  # his club
    "kolibrië": {"K": KOLIBRIE, "P": "Gérard Éluard", "C": "Kolibrië"},
    "Anna & Bert": {"K": ANNA, "P": None, "C": None},
}


@pytest.fixture
def scene() -> dict[str, Any]:
    """A pairs competition of four koppels, two matches on its first matchday."""
    kolibrie = ClubFactory.create(key="kol", name="Kolibrië")
    ClubFactory.create(key="noord", name="Noord")
    gerard = PlayerFactory.create(key="ge", name="Gérard Éluard", club=kolibrie)
    koppels = {
        GERARD: TeamFactory.create(
            key="k1", player_1=gerard, player_2=PlayerFactory.create(name="Jan Smit")
        ),
        ANNA: TeamFactory.create(
            key="k2", player_1__name="Anna", player_2__name="Bert", player_1__key="anna"
        ),
        KOLIBRIE: TeamFactory.create(
            key="k3", name="Kolibrië", player_1__name="Piet Kok", player_2__name="Klaas Vos"
        ),
        "other": TeamFactory.create(
            key="k4", player_1__name="Roy Sharda", player_2__name="Amit Baldew"
        ),
    }
    competition = CompetitionFactory.create(slug="avond", name="Avond")
    entries = {
        name: TeamEntryFactory.create(competition=competition, team=team)
        for name, team in koppels.items()
    }
    matchday = MatchdayFactory.create(competition=competition, number=1)
    MatchFactory.create(matchday=matchday, home=entries[GERARD], away=entries["other"])
    MatchFactory.create(matchday=matchday, home=entries[ANNA], away=entries[KOLIBRIE])
    standings_rebuild(competition_id=competition.pk)
    return {"competition": competition, "matchday": matchday, "koppels": koppels}


def _match_names(page: Any) -> set[str]:
    return {name for match in page.object_list for name in (str(match.home), str(match.away))}


# Each door: (what it finds rows of, how to ask it) → the names it finds.
Door = Callable[[Client, dict[str, Any], str], set[str]]


def site(client: Client, scene: dict[str, Any], query: str) -> set[str]:
    results = site_search(text=query)
    groups = (results.players, results.koppels, results.clubs)
    return {str(row) for group in groups for row in group.rows}


def standings(client: Client, scene: dict[str, Any], query: str) -> set[str]:
    url = reverse("competition_detail", args=[scene["competition"].slug])
    response = client.get(url, {"q": query})
    return {str(row.entry) for row in response.context["table"].data}


def matchday_public(client: Client, scene: dict[str, Any], query: str) -> set[str]:
    url = reverse("matchday_detail", args=[scene["competition"].slug, 1])
    return _match_names(client.get(url, {"q": query}).context["page"])


def matchday_director(client: Client, scene: dict[str, Any], query: str) -> set[str]:
    client.force_login(league_staff())
    url = reverse("matchday_manage", args=[scene["competition"].slug, 1])
    return _match_names(client.get(url, {"q": query}).context["page"])


def head_to_head(client: Client, scene: dict[str, Any], query: str) -> set[str]:
    return {str(team) for team in koppels_matching(text=query, exclude=scene["koppels"]["other"])}


def changelist(model: type[Model]) -> Door:
    def door(client: Client, scene: dict[str, Any], query: str) -> set[str]:
        client.force_login(_superuser())
        response = client.get(admin_url(model, "changelist"), {"q": query})
        assert response.status_code == 200
        return {str(row) for row in response.context["cl"].result_list}

    return door


def autocomplete(model: type[Model], field: str) -> Door:
    """The admin's picker of `model.field` (select2's AJAX view)."""

    def door(client: Client, scene: dict[str, Any], query: str) -> set[str]:
        client.force_login(_superuser())
        opts = model._meta
        params = {
            "term": query,
            "app_label": opts.app_label,
            "model_name": str(opts.model_name),
            "field_name": field,
        }
        response = client.get(reverse("admin:autocomplete"), params)
        assert response.status_code == 200, response.content
        return {row["text"] for row in response.json()["results"]}

    return door


def _superuser() -> Any:
    from django.contrib.auth import get_user_model

    user, _created = get_user_model().objects.get_or_create(
        username="admin", defaults={"is_staff": True, "is_superuser": True}
    )
    return user


# door name → (door, the kind of row it finds: K koppel, P player, C club)
DOORS: dict[str, tuple[Door, str]] = {
    "public-search": (site, "K"),
    "standings-find-box": (standings, "K"),
    "matchday-find-box": (matchday_public, "K"),
    "director-matchday-find-box": (matchday_director, "K"),
    "head-to-head-picker": (head_to_head, "K"),
    "admin-koppels": (changelist(Team), "K"),
    "admin-entries": (changelist(Entry), "K"),
    "admin-koppel-picker": (autocomplete(Entry, "team"), "K"),
    "admin-players": (changelist(Player), "P"),
    "admin-player-picker": (autocomplete(Team, "player_1"), "P"),
    "admin-clubs": (changelist(Club), "C"),
    "admin-club-picker": (autocomplete(Player, "club"), "C"),
}

CASES = [
    pytest.param(door, query, id=f"{door}:{query}")
    for door, (_ask, kind) in DOORS.items()
    for query in QUERIES
    if WANTED[query][kind] is not None
]


@pytest.mark.parametrize(("door", "query"), CASES)
def test_every_search_finds_the_row_without_its_accents_and_case(client, scene, door, query):
    ask, kind = DOORS[door]
    found = ask(client, scene, query)
    assert WANTED[query][kind] in found


@pytest.mark.parametrize("door", ["standings-find-box", "admin-koppel-picker", "public-search"])
def test_a_search_still_narrows(client, scene, door):
    """Folding finds more spellings, not more rows: the other koppels stay out."""
    ask, _kind = DOORS[door]
    assert ask(client, scene, "gerard eluard") & {ANNA, KOLIBRIE, "Roy Sharda & Amit Baldew"} == (
        set()
    )


# Names whose folded form both engines agree on (PostgreSQL's `unaccent` and `fold`).
NAMES = [
    "Gérard Éluard",
    "Kolibrië",
    "Kolibrie\u0308",  # NFD, as macOS and some phones type it
    "ØYSTEIN Ærø",
    "Łukasz Straße",
    "Ramdín  Sünita",
    "Ｋ７",
]


@pytest.mark.parametrize("name", NAMES)
def test_the_database_folds_as_python_does(name):
    PlayerFactory.create()  # a row to read the function's value with
    value = Value(name, output_field=TextField())
    folded = Player.objects.annotate(folded=Fold(value)).values_list("folded", flat=True)
    assert folded.first() == fold_letters(name)
