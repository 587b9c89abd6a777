"""The Django admin stays flat as the league grows (issue 7): every registered model's
list and the change page of one of its rows make as many queries with a big competition
as with a small one.

The league runs its data in the admin, so a list that queries per row (a foreign key's
`__str__` without `list_select_related`, an inline reading each row's names) would make a
1,000-koppel season unusable there long before anyone noticed at 8 koppels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Model
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.test_query_budgets import LARGE, SMALL, Built, build

pytestmark = pytest.mark.django_db

MODELS = sorted(admin.site._registry, key=lambda model: model._meta.label)
# The paths from a row to its competition: a change page of these shows a competition's
# rows (inlines, related names) and could grow with it. Other models' change pages (users,
# clubs, squads, lockouts) show one row whatever the competitions hold.
COMPETITION_PATHS = (
    "competition",
    "matchday__competition",
    "match__matchday__competition",
    "game__match__matchday__competition",
)


def admin_queries(client: Client, url: str) -> int:
    client.get(url)  # warm: the session, the content types
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(captured.captured_queries)


def competition_path(model: type[Model]) -> str | None:
    """How `model` reaches its competition ("" for Competition itself); None if it doesn't."""
    if model._meta.label == "tournaments.Competition":
        return ""
    names = {field.name for field in model._meta.get_fields()}
    return next((path for path in COMPETITION_PATHS if path.split("__")[0] in names), None)


IN_A_COMPETITION = [model for model in MODELS if competition_path(model) is not None]


def row_of(model: type[Model], built: Built) -> Model:
    """The last row of `model` in `built`'s competition."""
    path = competition_path(model)
    if path == "":
        return built.competition
    assert path is not None
    found = model._default_manager.filter(**{path: built.competition}).order_by("pk").last()
    assert found is not None, f"no {model._meta.label} row in the built competition: add one"
    return found


@dataclass
class League:
    """The module's data, built once (`module_atomic`): an admin, the small competition
    with the query count of each admin list while it was the only one (or why that list
    failed), then the large one too."""

    admin: Any
    small_lists: dict[type[Model], int | Exception]
    sizes: tuple[Built, Built]


def list_url(model: type[Model]) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


@pytest.fixture(scope="module")
def league(module_atomic: None, django_db_blocker: Any) -> League:
    with django_db_blocker.unblock():
        admin = get_user_model().objects.create_superuser("budget-admin", "a@example.org", "x")
        client = Client()
        client.force_login(admin)
        small = build(SMALL)
        small_lists: dict[type[Model], int | Exception] = {}
        for model in MODELS:
            try:
                with transaction.atomic():  # a failed list undoes only its own writes
                    small_lists[model] = admin_queries(client, list_url(model))
            except Exception as failed:  # noqa: BLE001 - that model's test fails with it
                small_lists[model] = failed
        large = build(LARGE)
        for built in (small, large):
            _stage_rows(built)
        return League(admin, small_lists, (small, large))


def _stage_rows(built: Built) -> None:
    """Issue 22's rows of a competition: it is a play-off stage (of a league made here) and
    a division of its season, so that their change pages are counted too."""
    from tests.factories import CompetitionFactory
    from tournaments.models import Division, Playoff

    source = CompetitionFactory.create(slug=f"{built.competition.slug}-league")
    Playoff.objects.create(competition=built.competition, source=source, size=2, legs=1)
    Division.objects.create(
        league=built.competition.slug,
        season="2026-2027",
        name="Hoofdklasse",
        level=1,
        competition=built.competition,
    )


@pytest.fixture
def superuser_client(client: Client, league: League) -> Client:
    client.force_login(league.admin)
    return client


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model._meta.label)
def test_admin_list_is_flat(model: type[Model], league: League, superuser_client: Client) -> None:
    small = league.small_lists[model]  # counted with only the small competition built
    if isinstance(small, Exception):
        raise small
    large = admin_queries(superuser_client, list_url(model))  # the large one built too
    assert small == large, f"{model._meta.label} list: {small} queries, {large} when bigger"


def test_every_competition_model_is_checked() -> None:
    labels = {model._meta.label for model in IN_A_COMPETITION}
    assert {"tournaments.Competition", "tournaments.Matchday", "scoring.Game"} <= labels


@pytest.mark.parametrize("model", IN_A_COMPETITION, ids=lambda model: model._meta.label)
def test_admin_change_page_is_flat(
    model: type[Model], league: League, superuser_client: Client
) -> None:
    counts = []
    for built in league.sizes:
        row = row_of(model, built)
        url = reverse(
            f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[row.pk]
        )
        counts.append(admin_queries(superuser_client, url))
    assert counts[0] == counts[1], f"{model._meta.label} change page: {counts[0]}, {counts[1]}"
