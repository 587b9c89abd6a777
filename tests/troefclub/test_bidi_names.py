"""Names with bidirectional control characters can't turn the text around them (issue 19,
item 6; `troefclub.bidi`).

- Names are stored without bidi controls (`NameField`, the importer).
- Every page shows a user-given name isolated: in `<bdi>` where markup may go, without
  controls where it may not (a title, an attribute, an option). The pages are walked with
  names that hold U+202E RIGHT-TO-LEFT OVERRIDE as stored before this change (raw SQL):
  outside the `<bdi>` elements no page holds one.
- Keys and slugs refuse every invisible formatting character, naming the field, through
  the models (the admin's forms) and the importer (naming the key's place).
- The rules' messages isolate the names they hold.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError
from django.db import connection
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from rankings.services import ratings_refresh
from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services.standings import standings_rebuild
from scoring.services.table import game_links_ensure
from tests.builders import kaps, pairs_competition, pairs_game, record, seasons_rankings_refresh
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    MatchdayFactory,
    PlayerFactory,
    TeamFactory,
    league_staff,
)
from tests.interchange.documents import document, row_counts, run_import
from tests.scoring.views.test_board_display import club_evening
from tournaments.models import Club, Competition, Player, Team
from troefclub.bidi import isolated, isolated_text, name_text
from troefclub.rule_messages import rule_message

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


# ---------------------------------------------------------------- names: stored clean


def test_a_name_loses_its_bidi_controls_and_keeps_its_letters() -> None:
    assert name_text(f"{RLO}evil") == "evil"
    assert name_text(f"A{BIDI_CONTROLS}B") == "AB"
    assert name_text("דוד כהן") == "דוד כהן"  # a Hebrew name needs no controls: kept
    assert name_text("می\u200cخواهم") == "می\u200cخواهم"  # a zero-width non-joiner stays
    assert name_text("Kolibrie\u0308") == "Kolibrië"  # and NFC, as before


@pytest.mark.django_db
@pytest.mark.parametrize(
    "make",
    [
        lambda name: PlayerFactory.create(name=name),
        lambda name: ClubFactory.create(name=name),
        lambda name: TeamFactory.create(name=name),
        lambda name: CompetitionFactory.create(name=name),
    ],
    ids=["player", "club", "koppel", "competition"],
)
def test_a_name_is_stored_without_bidi_controls(make: Callable[[str], Model]) -> None:
    thing = make(f"{RLO}evil{BIDI_CONTROLS}")
    thing.refresh_from_db()
    assert thing.name == "evil"  # type: ignore[attr-defined]
    type(thing)._default_manager.filter(pk=thing.pk).update(name=f"{RLO}live")
    thing.refresh_from_db()
    assert thing.name == "live"  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_a_form_cleans_a_name_as_the_model_does() -> None:
    player = Player(key="p1", name=f"{RLO}evil")
    player.full_clean()
    assert player.name == "evil"


@pytest.mark.django_db
def test_an_imported_name_is_stored_without_bidi_controls(tmp_path: Path) -> None:
    data = document()
    data["players"][0]["name"] = f"{RLO}Anna"
    data["clubs"][0]["name"] = f"Kampoe{RLO}"
    run_import(tmp_path, data)
    assert Player.objects.get(key="anna").name == "Anna"
    assert Club.objects.get(key="kampoe").name == "Kampoe"


# ---------------------------------------------------------------- keys: refused


KEYED: list[tuple[type[Model], str, dict[str, str]]] = [
    (Club, "key", {"name": "Kampoe"}),
    (Player, "key", {"name": "Anna"}),
    (Competition, "slug", {"name": "Evening"}),
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "char",
    ["\u202e", "\u2066", "\u200e", "\u061c", "\u200b", "\ufeff"],
    ids=lambda char: f"U+{ord(char):04X}",
)
@pytest.mark.parametrize(
    ("model", "field", "other"), KEYED, ids=[model.__name__ for model, _, _ in KEYED]
)
def test_a_key_with_an_invisible_character_is_refused_naming_the_field(
    model: type[Model], field: str, other: dict[str, str], char: str
) -> None:
    thing = model(**{field: f"ab{char}c", **other})
    with pytest.raises(ValidationError) as refused:
        thing.full_clean()
    errors = refused.value.error_dict[field]
    assert "key_invisible_char" in [error.code for error in errors]
    message = " ".join(m for error in errors for m in error.messages)
    assert f"U+{ord(char):04X}" in message


@pytest.mark.django_db
def test_a_koppel_key_with_an_override_is_refused() -> None:
    team = Team(key=f"t{RLO}1", player_1=PlayerFactory.create(), player_2=PlayerFactory.create())
    with pytest.raises(ValidationError) as refused:
        team.full_clean()
    assert "RIGHT-TO-LEFT OVERRIDE" in str(refused.value.error_dict["key"])


def _changed(path: tuple[object, ...], value: str) -> dict[str, object]:
    data = copy.deepcopy(document())
    target: object = data
    for step in path[:-1]:
        target = target[step]  # type: ignore[index]
    target[path[-1]] = value  # type: ignore[index]
    return data


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "key", "place"),
    [
        (("clubs", 0, "key"), f"kam{RLO}poe", "clubs[1]"),
        (("players", 0, "key"), f"ann{RLO}a", "players[ann\\u202ea]"),
        (("teams", 0, "key"), f"noo{RLO}rd", "teams[noo\\u202erd]"),
        (("competition", "slug"), f"test{RLO}-evening", "competition"),
    ],
    ids=["club", "player", "koppel", "competition"],
)
def test_an_import_with_an_override_in_a_key_is_refused_naming_its_place(
    tmp_path: Path,
    path: tuple[object, ...],
    key: str,
    place: str,
) -> None:
    before = row_counts()
    with pytest.raises(CommandError) as refused:
        run_import(tmp_path, _changed(path, key))
    message = str(refused.value)
    assert f"{place}: “{path[-1]}”: A key may not hold the invisible character" in message
    assert "U+202E (RIGHT-TO-LEFT OVERRIDE)" in message
    assert RLO not in message  # quoted escaped: the message can't turn around
    assert row_counts() == before


# ---------------------------------------------------------------- pages: isolated


def _stored_with_overrides() -> None:
    """Every name of the scene given a U+202E as a name stored before this change holds
    it (raw SQL: the models clean every other way in)."""
    with connection.cursor() as cursor:
        for table in ("tournaments_player", "tournaments_club", "tournaments_competition"):
            cursor.execute(f"UPDATE {table} SET name = %s || name", [RLO])
        cursor.execute("UPDATE tournaments_team SET name = %s || name WHERE name <> ''", [RLO])
    assert Player.objects.filter(name__startswith=RLO).exists()


def _outside_bdi(html: str) -> str:
    """`html` without its `<bdi>` elements, nor its `<option>`s: a select's option is a
    line of its own (plain text only, no `<bdi>` possible; the form widgets render them),
    nothing else shares it."""
    html = re.sub(r"<bdi>.*?</bdi>", "", html, flags=re.DOTALL)
    return re.sub(r"<option[^>]*>[^<]*</option>", "", html)


@pytest.fixture
def scene() -> dict[str, str]:
    """A pairs evening (one game over, one in play, a table link), a club match, ratings:
    the pages that show names, as a league admin sees them."""
    competition = pairs_competition(4, name="Evening", season="2026-2027")
    club = ClubFactory.create(name="Kampoe", key="kampoe")
    entries = list(competition.entries.select_related("team").order_by("pk"))
    Player.objects.filter(pk=entries[0].team.player_1_id).update(club=club)  # type: ignore[union-attr]
    matchday = MatchdayFactory.create(competition=competition, number=1)
    over = pairs_game(matchday, entries[0], entries[1], table=1)
    kaps(over, 4)
    playing = pairs_game(matchday, entries[2], entries[3], table=2)
    record(playing, "gewone_winst", "a", caller_id=playing.seat_1_id)
    link = game_links_ensure(game_ids=[playing.pk])[playing.pk]["a"]
    club_competition, club_match = club_evening()
    for each in (competition, club_competition):
        standings_rebuild(competition_id=each.pk)
    ratings_refresh()
    _stored_with_overrides()
    seasons_rankings_refresh()  # the season pages read stored lines, names included
    player = Player.objects.get(pk=entries[0].team.player_1_id)  # type: ignore[union-attr]
    koppel = entries[0].team
    assert koppel is not None
    slug, clubs = competition.slug, club_competition.slug
    season = reverse("season_rankings", kwargs={"season": "2026-2027"})
    game = Game.objects.get(pk=over.pk)
    return {
        "standings": reverse("competition_detail", kwargs={"slug": slug}),
        "club standings": reverse("competition_detail", kwargs={"slug": clubs}),
        "matchday": reverse("matchday_detail", kwargs={"slug": slug, "number": 1}),
        "print": reverse("matchday_print", kwargs={"slug": slug, "number": 1}),
        "match": reverse("match_detail", kwargs={"slug": slug, "match_id": game.match_id}),
        "club match": reverse(
            "match_detail", kwargs={"slug": clubs, "match_id": club_match.pk}
        ),
        "game": reverse("game_detail", kwargs={"slug": slug, "game_id": game.pk}),
        "player": reverse("player_detail", kwargs={"key": player.key}),
        "koppel": reverse("koppel_detail", kwargs={"key": koppel.key}),
        "head to head": reverse(
            "koppel_head_to_head", kwargs={"key": koppel.key, "other": entries[1].team.key}  # type: ignore[union-attr]
        ),
        "club": reverse("club_detail", kwargs={"key": club.key}),
        "season players": season,
        "season koppels": season + "?by=koppel",
        "season clubs": season + "?by=club&club=kampoe",
        "ratings": reverse("rating_list"),
        "search": reverse("search") + "?q=a",
        "competitions": reverse("competition_list"),
        "table": reverse("table_sheet", kwargs={"token": link.token}),
        "display": reverse("hall_display", kwargs={"slug": slug}),
        "sheet": reverse("game_sheet", kwargs={"slug": slug, "game_id": playing.pk}),
        "table link": reverse("game_link", kwargs={"slug": slug, "game_id": playing.pk}),
        "manage": reverse("competition_manage", kwargs={"slug": slug}),
        "matchday manage": reverse("matchday_manage", kwargs={"slug": slug, "number": 1}),
        "match manage": reverse("match_manage", kwargs={"slug": slug, "match_id": game.match_id}),
        "club match manage": reverse(
            "match_manage", kwargs={"slug": clubs, "match_id": club_match.pk}
        ),
        "board": reverse("matchday_board", kwargs={"slug": slug, "number": 1}),
        "club board": reverse(
            "matchday_board", kwargs={"slug": clubs, "number": club_match.matchday.number}
        ),
        "queue": reverse("director_queue", kwargs={"slug": slug}),
        "game history": reverse("game_history", kwargs={"slug": slug, "game_id": game.pk}),
        "match history": reverse(
            "match_history", kwargs={"slug": slug, "match_id": game.match_id}
        ),
        "director": reverse("director_home"),
    }  # fmt: skip


@pytest.mark.django_db
def test_every_page_shows_names_isolated(client: Client, scene: dict[str, str]) -> None:
    client.force_login(league_staff())
    leaks = {}
    for page, url in scene.items():
        response = client.get(url)
        assert response.status_code == 200, (page, url, response.status_code)
        html = response.content.decode()
        assert "<bdi>" in html, page
        outside = _outside_bdi(html)
        if RLO in outside:
            at = outside.index(RLO)
            leaks[page] = outside[max(0, at - 150) : at + 30]
    assert not leaks, leaks


@pytest.mark.django_db
def test_a_player_named_with_an_override_renders_inside_bdi(
    client: Client, scene: dict[str, str], settings: Any
) -> None:
    """The issue's example: "\u202eevil" on the standings, the player's page, the match."""
    settings.RATING_MIN_GAMES = 1
    name = Player.objects.get(club__key="kampoe").name
    assert name.startswith(RLO)
    for page in ("player", "game", "season players", "ratings"):
        html = client.get(scene[page]).content.decode()
        assert f"<bdi>{name}</bdi>" in html, page
    koppel = Team.objects.filter(name__startswith=RLO).order_by("pk").first()
    assert koppel is not None
    for page in ("standings", "match", "koppel"):
        assert f"<bdi>{koppel.name}</bdi>" in client.get(scene[page]).content.decode(), page


# ---------------------------------------------------------------- plain text


def test_isolated_html_escapes_and_wraps() -> None:
    assert isolated(f"{RLO}<b>") == f"<bdi>{RLO}&lt;b&gt;</bdi>"


def test_plain_text_isolates_right_to_left_names_only() -> None:
    assert isolated_text(f"{RLO}evil") == "evil"
    assert isolated_text("Anna") == "Anna"
    assert isolated_text("דוד") == "\u2068דוד\u2069"


def test_rule_messages_isolate_the_names_they_hold() -> None:
    text = rule_message(RuleViolation("koppel_not_in_match", koppel=f"{RLO}Noord"))
    assert RLO not in text and "Noord does not play in this match." in text
    hebrew = rule_message(RuleViolation("koppel_not_in_match", koppel="דוד & שרה"))
    assert hebrew.startswith("\u2068דוד & שרה\u2069 does not play")
    placed = rule_message(
        RuleViolation("entry_twice_on_matchday", entry="A", first=(f"{RLO}B", "C"), second=None)
    )
    assert RLO not in placed and "match B – C" in placed
