"""Rows an admin inline repeats (issue 18): the same koppel added twice to a competition was
a server error (the database's unique constraint), on the add and the change page. Every
inline's rows are compared on their model's unique constraints before anything is saved
(`troefclub.admin_formsets.UniqueRowsFormSet`): the page comes back with the repeated row
named, and nothing is written; never a 500."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib import admin
from django.db.models import Model

from scoring.rules import RuleViolation
from tests.admin_pages import admin_url, inline_management, posted_back
from tests.factories import (
    ClubEntryFactory,
    ClubFactory,
    MatchFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
)
from tournaments.models import Bye, Competition, Entry, Match, Matchday, Squad, SquadMember
from tournaments.services.entries import entry_add
from troefclub.admin_formsets import UniqueRowsFormSet
from troefclub.rule_messages import rule_message

pytestmark = pytest.mark.django_db

# Every table whose rows an admin post could write.
WRITTEN: tuple[type[Model], ...] = (Competition, Entry, Squad, SquadMember, Matchday, Match, Bye)


def counts() -> dict[str, int]:
    return {model.__name__: model._default_manager.count() for model in WRITTEN}


def with_rows(data: dict[str, Any], prefix: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """`data` (a page posted back) with `rows` added to the inline `prefix`."""
    data = dict(data)
    start = int(data[f"{prefix}-TOTAL_FORMS"])
    data[f"{prefix}-TOTAL_FORMS"] = start + len(rows)
    for offset, row in enumerate(rows):
        data.update({f"{prefix}-{start + offset}-{name}": value for name, value in row.items()})
    return data


@dataclass(frozen=True)
class Post:
    """An admin page posted with repeated rows: where, what, and the row's words."""

    url: str
    data: dict[str, Any]
    named: str | None  # the repeated row's name in the message; None: the rows are ignored


def competition_add_twice(client: Any) -> Post:
    team = TeamFactory.create(player_1__name="Anna", player_2__name="Bert")
    url = admin_url(Competition, "add")
    data = posted_back(client.get(url), name="Avond", slug="avond", kind="pairs")
    rows = [{"team": team.pk, "club": ""}, {"team": team.pk, "club": ""}]
    return Post(url, with_rows(data, "entries", rows), "Koppel “Anna & Bert”")


def competition_change_entered_already(client: Any) -> Post:
    entry = TeamEntryFactory.create(team__player_1__name="Anna", team__player_2__name="Bert")
    url = admin_url(Competition, "change", entry.competition_id)
    data = posted_back(client.get(url))
    rows = [{"team": entry.team_id, "club": ""}]
    return Post(url, with_rows(data, "entries", rows), "Koppel “Anna & Bert”")


def competition_change_two_new(client: Any) -> Post:
    entry = TeamEntryFactory.create()
    team = TeamFactory.create(name="De Bokkers")
    url = admin_url(Competition, "change", entry.competition_id)
    data = posted_back(client.get(url))
    rows = [{"team": team.pk, "club": ""}, {"team": team.pk, "club": ""}]
    return Post(url, with_rows(data, "entries", rows), "Koppel “De Bokkers”")


def club_competition_change_entered_already(client: Any) -> Post:
    entry = ClubEntryFactory.create(club__name="Kolibrië")
    url = admin_url(Competition, "change", entry.competition_id)
    data = posted_back(client.get(url))
    rows = [{"team": "", "club": entry.club_id}]
    return Post(url, with_rows(data, "entries", rows), "Club “Kolibrië”")


def competition_change_stored_row_left_out(client: Any) -> Post:
    """A crafted post that leaves the stored entry out of the formset: the database refuses
    the second entry, and the page says so (`entry_add` words the refusal)."""
    entry = TeamEntryFactory.create()
    url = admin_url(Competition, "change", entry.competition_id)
    data = posted_back(client.get(url))
    data.update(inline_management("entries", 1, 0))
    data.update({"entries-0-team": entry.team_id, "entries-0-club": ""})
    data.pop("entries-0-id", None)
    words = rule_message(RuleViolation("entry_koppel_entered_twice"))
    return Post(url, data, words)


def entry_add_entered_already(client: Any) -> Post:
    """The entry's own page: one form, which Django checks against the stored rows."""
    entry = TeamEntryFactory.create()
    data = {"competition": entry.competition_id, "team": entry.team_id, "club": ""}
    return Post(admin_url(Entry, "add"), data, "This koppel is entered already.")


def squad_add_twice(client: Any) -> Post:
    club, player = ClubFactory.create(), PlayerFactory.create(name="Gérard Éluard")
    rows = [{"player": player.pk}, {"player": player.pk}]
    data = {"club": club.pk, "season": "2026-2027", "locked_on": ""}
    data |= with_rows(inline_management("members", 0, 0), "members", rows)
    return Post(admin_url(Squad, "add"), data, "Player “Gérard Éluard”")


def squad_change_on_it_already(client: Any) -> Post:
    squad = Squad.objects.create(club=ClubFactory.create(), season="2026-2027")
    player = PlayerFactory.create(name="Gérard Éluard")
    SquadMember.objects.create(squad=squad, player=player, season=squad.season)
    url = admin_url(Squad, "change", squad.pk)
    data = with_rows(posted_back(client.get(url)), "members", [{"player": player.pk}])
    return Post(url, data, "Player “Gérard Éluard”")


def matchday_change_match_rows(client: Any) -> Post:
    """The matchday's matches and byes are only shown: rows posted anyway are ignored."""
    match = MatchFactory.create()
    url = admin_url(Matchday, "change", match.matchday_id)
    data = posted_back(client.get(url))
    row = {"home": match.home_id, "away": match.away_id, "table": 1}
    data = with_rows(data, "matches", [row, row])
    data = with_rows(data, "byes", [{"entry": match.home_id}, {"entry": match.home_id}])
    return Post(url, data, None)


POSTS: dict[str, Callable[[Any], Post]] = {
    "competition-add-koppel-twice": competition_add_twice,
    "competition-change-koppel-entered-already": competition_change_entered_already,
    "competition-change-two-new-rows": competition_change_two_new,
    "club-competition-change-club-entered-already": club_competition_change_entered_already,
    "competition-change-stored-row-left-out": competition_change_stored_row_left_out,
    "entry-add-koppel-entered-already": entry_add_entered_already,
    "squad-add-player-twice": squad_add_twice,
    "squad-change-player-on-it-already": squad_change_on_it_already,
    "matchday-change-match-and-bye-rows": matchday_change_match_rows,
}


@pytest.mark.parametrize("build", POSTS.values(), ids=POSTS.keys())
def test_repeated_inline_rows_are_refused_naming_the_row(admin_client, build):
    post = build(admin_client)
    before = counts()
    admin_client.raise_request_exception = False

    response = admin_client.post(post.url, post.data)

    if post.named is None:
        assert response.status_code == 302, response.content.decode()[:2000]
    else:
        assert response.status_code == 200
        page = html.unescape(response.content.decode())
        assert post.named in page
        if post.named.startswith(("Koppel", "Club", "Player")):
            assert f"{post.named} is in this list twice: keep one row." in page
    assert counts() == before


@pytest.mark.nl
def test_the_refusal_speaks_dutch(admin_client):
    post = competition_change_two_new(admin_client)
    response = admin_client.post(post.url, post.data)
    page = html.unescape(response.content.decode())
    assert "Koppel “De Bokkers” staat twee keer in deze lijst: houd één rij over." in page


def test_every_inline_compares_its_rows():
    """The kind, not the instance: every inline of our admins uses `UniqueRowsFormSet`."""
    inlines = [
        (type(model_admin).__name__, inline)
        for model_admin in admin.site._registry.values()
        if type(model_admin).__module__.split(".")[0] in {"tournaments", "scoring", "rankings"}
        for inline in model_admin.inlines
    ]
    assert len(inlines) >= 4
    assert [
        (name, inline.__name__)
        for name, inline in inlines
        if not issubclass(inline.formset, UniqueRowsFormSet)
    ] == []


@pytest.mark.parametrize(
    ("factory", "field", "code"),
    [
        (TeamEntryFactory, "team", "entry_koppel_entered_twice"),
        (ClubEntryFactory, "club", "entry_club_entered_twice"),
    ],
)
def test_entry_add_words_the_database_refusal(factory, field, code):
    """Every door that enters through `entry_add` gets the rule, not an IntegrityError."""
    entry = factory.create()
    with pytest.raises(RuleViolation) as caught:
        entry_add(competition_id=entry.competition_id, **{f"{field}_id": getattr(entry, field).pk})
    assert caught.value.code == code
    assert Entry.objects.count() == 1
