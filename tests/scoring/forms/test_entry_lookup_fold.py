"""What a director types for a koppel on a big competition's matchday page (issue 7):
the lookup reads suggestions, keys, names and players folded (`fold`); the standings'
Entry column sorts by the name shown, in the database, on both engines."""

from __future__ import annotations

import html
import json
import re

import pytest
from django import forms
from django.urls import reverse

from interchange.importer import competition_import
from scoring.forms.schedule import entry_from_text, entry_lookup
from scoring.selectors.standings import competition_standings
from scoring.services.standings import standings_rebuild
from tests.factories import ClubEntryFactory, CompetitionFactory, TeamEntryFactory
from tests.paths import SAMPLE
from tournaments.models import Competition, Entry
from troefclub.text import fold

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Ramdin", "ramdin"),
        ("  RAMDÍN   &\tSünita ", "ramdin & sunita"),
        ("Ｋ７", "k7"),  # NFKD: full-width letters and digits
        ("Straße", "strasse"),  # casefold
        ("", ""),
    ],
)
def test_fold(text, folded):
    assert fold(text) == folded


# (key, koppel name, player 1, player 2): "Ramdin" plays in three koppels, "Orlando" in one.
KOPPELS = [
    ("k1", "", "Sunita Ramdin", "Orlando Dé Vries"),
    ("k2", "De Bokkers", "Ramdin", "Roy Sharda"),
    ("k3", "", "Ramdin", "Amit Baldew"),
    ("k4", "", "Ramdin", "Kiran Jagroep"),
]


@pytest.fixture
def koppels() -> dict[str, Entry]:
    competition = CompetitionFactory.create(slug="lookup")
    return {
        key: TeamEntryFactory.create(
            competition=competition,
            team__key=key,
            team__name=name,
            team__player_1__name=first,
            team__player_2__name=second,
        )
        for key, name, first, second in KOPPELS
    }


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("Sunita Ramdin & Orlando Dé Vries (k1)", ["k1"]),  # the suggestion
        ("k2", ["k2"]),  # the key
        ("K2", ["k2"]),
        ("De Bokkers", ["k2"]),  # the koppel's name
        ("de   bokkers ", ["k2"]),  # case, spaces
        ("Sunita Ramdin & Orlando Dé Vries", ["k1"]),  # players, either order
        ("Orlando Dé Vries & Sunita Ramdin", ["k1"]),
        ("orlando de vries&sunita ramdin", ["k1"]),  # accents, case, spaces
        ("Orlando Dé Vries", ["k1"]),  # one player's name, in one koppel
        ("ORLANDO DE VRIES", ["k1"]),
        ("Amit  Baldew", ["k3"]),
        ("Ramdin & Kiran Jagroep", ["k4"]),
        ("Ramdin", ["k2", "k3", "k4"]),  # in three koppels: all, by name
        ("Ramdin & Nobody", []),
        ("Sunita", []),  # part of a name is not a name
        ("nobody", []),
        ("  ", []),
    ],
)
def test_entry_lookup_reads_what_a_director_types(koppels, typed, found):
    competition = koppels["k1"].competition
    result = entry_lookup(competition, typed)
    assert [entry.key for entry in result] == found


def test_entry_lookup_is_one_query(koppels, django_assert_num_queries):
    competition = koppels["k1"].competition
    with django_assert_num_queries(1):
        assert [entry.key for entry in entry_lookup(competition, "Ramdin")] == ["k2", "k3", "k4"]


def test_a_name_in_several_koppels_is_refused_naming_them(koppels):
    with pytest.raises(forms.ValidationError) as caught:
        entry_from_text(koppels["k1"].competition, "ramdin")
    assert caught.value.code == "entry_ambiguous"
    assert caught.value.messages == [
        "“ramdin” matches 3 koppels: De Bokkers (k2), Ramdin & Amit Baldew (k3), "
        "Ramdin & Kiran Jagroep (k4): pick one from the list."
    ]


def test_a_long_list_of_matches_names_five_and_counts_the_rest():
    competition = CompetitionFactory.create(slug="many")
    for number in range(8):
        TeamEntryFactory.create(
            competition=competition, team__key=f"m{number}", team__player_1__name="Ramdin"
        )
    with pytest.raises(forms.ValidationError) as caught:
        entry_from_text(competition, "Ramdin")
    message = caught.value.messages[0]
    assert message.startswith("“Ramdin” matches 8 koppels: ")
    assert message.count("(m") == 5
    assert message.endswith(" and 3 more: pick one from the list.")


def test_nothing_found_keeps_its_message(koppels):
    with pytest.raises(forms.ValidationError) as caught:
        entry_from_text(koppels["k1"].competition, "Nobody")
    assert caught.value.messages == ["There is no koppel “Nobody” in this competition."]


def test_a_club_is_found_by_its_name_folded():
    entry = ClubEntryFactory.create(club__key="wn", club__name="Wéstelijke Noord")
    assert entry_lookup(entry.competition, "westelijke  NOORD") == [entry]
    assert entry_lookup(entry.competition, "WN") == [entry]


# ---------------------------------------------------------------- standings by entry


def shown_entries(client, competition: Competition, sort: str) -> list[str]:
    url = reverse("competition_detail", kwargs={"slug": competition.slug})
    page = client.get(url, {"sort": sort}).content.decode()
    cells = re.findall(r'<td class="standing-entry">(.*?)</td>', page, flags=re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in cells]


@pytest.mark.parametrize("sort", ["entry", "-entry"])
def test_standings_sorted_by_entry_are_alphabetical(client, sort):
    competition = competition_import(data=json.loads(SAMPLE.read_text(encoding="utf-8")))
    names = shown_entries(client, competition, sort)
    expected = sorted(
        (str(row.entry) for row in competition_standings(competition=competition)),
        key=str.casefold,
        reverse=sort.startswith("-"),
    )
    assert len(names) == Entry.objects.filter(competition=competition).count() > 2
    assert names == expected


def test_club_standings_sort_by_club_name():
    competition = CompetitionFactory.create(slug="clubs", kind=Competition.Kind.CLUBS)
    for name in ("noord", "Amstel", "Zuid", "berg"):
        ClubEntryFactory.create(competition=competition, club__name=name)
    standings_rebuild(competition_id=competition.pk)
    rows = competition_standings(competition=competition).order_by("entry_sort")
    assert [str(row.entry) for row in rows] == ["Amstel", "berg", "noord", "Zuid"]
