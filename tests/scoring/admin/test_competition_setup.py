"""Admin set-up without raw JSON (issue 8): tie-breaks chosen from a list in order, a bye
score that follows the target, and every field explained."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import models

from scoring.admin.competitions import CompetitionSetupForm, match_points_limit
from scoring.models import Game, Round, Standing
from scoring.rules import TIEBREAK_KEYS, RuleSet
from tests.admin_pages import admin_url, posted_back
from tests.factories import CompetitionFactory, GameFactory
from tournaments.models import (
    Bye,
    Club,
    Competition,
    Deduction,
    Entry,
    Match,
    Matchday,
    Player,
    Squad,
    SquadMember,
    Team,
)
from troefclub.admin_input import OrderedChoicesField, OrderedChoicesWidget

# The models a league admin or director edits (or reads) in the admin.
ADMIN_MODELS = [
    Club,
    Player,
    Team,
    Competition,
    Entry,
    Matchday,
    Match,
    Bye,
    Deduction,
    Squad,
    SquadMember,
    Game,
    Round,
    Standing,
]


def shown_tiebreaks(html: str) -> list[str]:
    """The tie-break selected at each place of the page, in order ("" for an empty one)."""
    selects = re.findall(r'<select name="tiebreaks".*?</select>', html, flags=re.S)
    chosen = []
    for select in selects:
        found = re.search(r'<option value="([^"]*)"[^>]*\sselected', select)
        chosen.append(found.group(1) if found else "")
    return chosen


def competition_page(client: Any, competition: Competition | None = None) -> Any:
    if competition is None:
        response = client.get(admin_url(Competition, "add"))
    else:
        response = client.get(admin_url(Competition, "change", competition.pk))
    assert response.status_code == 200
    return response


def save(client: Any, competition: Competition, **changes: Any) -> Any:
    """POST the competition's change page back as shown, with `changes`."""
    page = competition_page(client, competition)
    return client.post(
        admin_url(Competition, "change", competition.pk), posted_back(page, **changes)
    )


def add(client: Any, **changes: Any) -> Any:
    """POST the add page back as shown (a new competition), with `changes`."""
    page = competition_page(client)
    data = posted_back(page, name="Club evening", slug="club-evening", directors=[], **changes)
    return client.post(admin_url(Competition, "add"), data)


def form_errors(response: Any) -> dict[str, list[str]]:
    assert response.status_code == 200, "expected the form back with its errors"
    return {
        name: list(errors) for name, errors in response.context["adminform"].form.errors.items()
    }


# ------------------------------------------------------------------ tie-breaks


def test_every_tiebreak_is_offered_with_what_it_compares():
    field = CompetitionSetupForm.base_fields["tiebreaks"]
    assert isinstance(field, OrderedChoicesField)
    assert [key for key, _label in field.choices] == list(TIEBREAK_KEYS)
    assert str(dict(field.choices)["saldo"]) == "saldo"
    assert "<li>saldo: game points for minus game points against</li>" in str(field.help_text)
    assert str(field.help_text).count("<li>") == len(TIEBREAK_KEYS)


@pytest.mark.django_db
def test_the_page_shows_the_stored_tiebreaks_in_their_places(admin_client):
    competition = CompetitionFactory.create(tiebreaks=["saldo", "head_to_head", "points"])

    html = competition_page(admin_client, competition).content.decode()

    places = shown_tiebreaks(html)
    assert places[:3] == ["saldo", "head_to_head", "points"]
    assert places[3:] == [""] * (len(TIEBREAK_KEYS) - 3)
    assert 'name="tiebreaks"' in html and "<textarea" not in html  # no JSON to type
    assert 'for="id_tiebreaks_0"' in html  # the field's label names the first place


@pytest.mark.django_db
def test_saving_an_order_stores_that_order(admin_client):
    competition = CompetitionFactory.create(tiebreaks=["points", "saldo"])

    order = ["head_to_head", "", "wins", "buchholz", "", ""]  # empty places are skipped
    response = save(admin_client, competition, tiebreaks=order)

    assert response.status_code == 302, form_errors(response)
    competition.refresh_from_db()
    assert competition.tiebreaks == ["head_to_head", "wins", "buchholz"]
    page = competition_page(admin_client, competition).content.decode()
    assert shown_tiebreaks(page)[:3] == ["head_to_head", "wins", "buchholz"]


@pytest.mark.django_db
def test_saved_as_shown_the_tiebreaks_stay_and_count_as_unchanged(admin_client):
    competition = CompetitionFactory.create(tiebreaks=["points", "saldo", "points_for"])
    page = competition_page(admin_client, competition)
    form = CompetitionSetupForm(
        data=posted_back(page) | {"name": competition.name},
        instance=competition,
    )
    assert "tiebreaks" not in form.changed_data

    response = save(admin_client, competition)

    assert response.status_code == 302, form_errors(response)
    competition.refresh_from_db()
    assert competition.tiebreaks == ["points", "saldo", "points_for"]


@pytest.mark.django_db
def test_no_tiebreaks_stores_an_empty_list(admin_client):
    competition = CompetitionFactory.create(tiebreaks=["saldo"])

    response = save(admin_client, competition, tiebreaks=[""] * len(TIEBREAK_KEYS))

    assert response.status_code == 302, form_errors(response)
    competition.refresh_from_db()
    assert competition.tiebreaks == []


@pytest.mark.django_db
def test_a_tiebreak_chosen_twice_is_refused_naming_it_and_its_places(admin_client):
    competition = CompetitionFactory.create(tiebreaks=["points"])

    response = save(admin_client, competition, tiebreaks=["saldo", "points", "saldo"])

    assert form_errors(response)["tiebreaks"] == [
        "“saldo” is chosen twice (places 1 and 3): each tie-break counts once, choose it once."
    ]
    competition.refresh_from_db()
    assert competition.tiebreaks == ["points"]
    # The form comes back as it was posted, to be put right.
    assert shown_tiebreaks(response.content.decode())[:3] == ["saldo", "points", "saldo"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("posted", "named"),
    [
        ("luck", "“luck”"),
        ('["points", "saldo"]', '“["points", "saldo"]”'),
        ("x" * 500, "“" + "x" * 39 + "…”"),  # a long text shortened
        ("sal\x00do", "“sal?do”"),  # what does not print, shown as ?
    ],
)
def test_an_unknown_tiebreak_is_refused_naming_it(admin_client, posted, named):
    competition = CompetitionFactory.create(tiebreaks=["points"])

    response = save(admin_client, competition, tiebreaks=["points", posted])

    (message,) = form_errors(response)["tiebreaks"]
    assert message == f"{named} is not a known tie-break: choose one from the list."
    competition.refresh_from_db()
    assert competition.tiebreaks == ["points"]


def test_the_ordered_field_alone():
    field = OrderedChoicesField(choices=[("a", "A"), ("b", "B")], places=3)
    assert field.clean(None) == []
    assert field.clean(["", "b", " a "]) == ["b", "a"]
    assert field.clean("a") == ["a"]
    assert field.has_changed(["b", "a"], ["", "b", "a"]) is False
    assert field.has_changed(["a", "b"], ["b", "a"]) is True
    with pytest.raises(ValidationError) as refused:
        field.clean(["a", "c", "a"])
    assert [error.code for error in refused.value.error_list] == ["unknown", "twice"]
    widget = field.widget
    assert isinstance(widget, OrderedChoicesWidget)
    html = widget.render("order", ["b"], {"id": "id_order"})
    assert html.count('<select name="order"') == 3
    assert 'id="id_order_0"' in html and 'id="id_order_2"' in html
    assert 'aria-label="Place 1"' in html


# ------------------------------------------------------------------ the bye follows the target


@pytest.mark.django_db
def test_a_new_competition_s_bye_follows_its_target(admin_client):
    response = add(admin_client, target_score=15)

    assert response.status_code == 302, form_errors(response)
    competition = Competition.objects.get(slug="club-evening")
    assert (competition.target_score, competition.bye_score_for) == (15, 15)


@pytest.mark.django_db
def test_the_bye_follows_a_changed_target_while_it_equals_the_old_one(admin_client):
    competition = CompetitionFactory.create(target_score=20, bye_score_for=20)

    response = save(admin_client, competition, target_score=50)

    assert response.status_code == 302, form_errors(response)
    competition.refresh_from_db()
    assert (competition.target_score, competition.bye_score_for) == (50, 50)


@pytest.mark.django_db
def test_a_bye_the_director_set_otherwise_stays(admin_client):
    competition = CompetitionFactory.create(target_score=15, bye_score_for=10)

    response = save(admin_client, competition, target_score=50)

    assert response.status_code == 302, form_errors(response)
    competition.refresh_from_db()
    assert (competition.target_score, competition.bye_score_for) == (50, 10)


@pytest.mark.django_db
def test_a_bye_typed_with_the_new_target_is_kept(admin_client):
    competition = CompetitionFactory.create(target_score=20, bye_score_for=20)

    response = save(admin_client, competition, target_score=30, bye_score_for=25)

    assert response.status_code == 302, form_errors(response)
    competition.refresh_from_db()
    assert (competition.target_score, competition.bye_score_for) == (30, 25)


@pytest.mark.django_db
def test_no_target_leaves_the_bye_as_it_was(admin_client):
    competition = CompetitionFactory.create(target_score=20, bye_score_for=20)

    response = save(
        admin_client,
        competition,
        target_score="",
        fixed_rounds=16,
    )

    assert response.status_code == 302, form_errors(response)
    competition.refresh_from_db()
    assert (competition.target_score, competition.bye_score_for) == (None, 20)


def test_the_most_a_side_scores_in_a_match():
    # A koppel at 19 that makes a baunie (15) ends a game to 20 at 34.
    assert match_points_limit(RuleSet(target_score=20), games=1) == (34, 34)
    assert match_points_limit(RuleSet(target_score=20), games=24) == (816, 34)
    # The stinkende bonus makes the biggest round bigger.
    assert match_points_limit(
        RuleSet(target_score=20, stinkende_kap_bonus=1, stinkende_baunie_bonus=5), games=1
    ) == (39, 39)
    # Ten rounds of at most 15, or the target: whichever ends the game first.
    assert match_points_limit(RuleSet(target_score=None, fixed_rounds=10), games=1) == (150, 150)
    assert match_points_limit(RuleSet(target_score=20, fixed_rounds=1), games=1) == (15, 15)
    assert (
        match_points_limit(
            RuleSet(target_score=None, fixed_rounds=None, close_by_director_allowed=True), games=1
        )
        is None
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"bye_score_for": 35},
            "bye_score_for",
            "At most 34: a bye can't give more game points than a side can score in one "
            "match under these rules (1 × 34).",
        ),
        ({"bye_score_against": 40}, "bye_score_against", "At most 34"),
        (
            {"bye_score_for": 20, "bye_score_against": 20},
            "bye_score_against",
            "Both koppels cannot reach 20: the game stops when one of them does.",
        ),
    ],
)
def test_a_bye_worth_more_than_the_rules_allow_is_refused(admin_client, changes, field, message):
    competition = CompetitionFactory.create(target_score=20, bye_score_for=20)

    response = save(admin_client, competition, **changes)

    assert form_errors(response)[field][0].startswith(message)
    competition.refresh_from_db()
    assert (competition.bye_score_for, competition.bye_score_against) == (20, 0)


@pytest.mark.django_db
def test_the_most_a_bye_gives_is_exactly_allowed(admin_client):
    competition = CompetitionFactory.create(target_score=20)

    response = save(admin_client, competition, bye_score_for=34)

    assert response.status_code == 302, form_errors(response)
    competition.refresh_from_db()
    assert competition.bye_score_for == 34


@pytest.mark.django_db
def test_a_club_match_bye_may_give_what_all_its_games_can(admin_client):
    competition = CompetitionFactory.create(
        kind=Competition.Kind.CLUBS, target_score=20, koppels_per_side=6, sittings=4
    )

    assert save(admin_client, competition, bye_score_for=80).status_code == 302
    response = save(admin_client, competition, bye_score_for=817)
    assert form_errors(response)["bye_score_for"][0].startswith("At most 816:")


@pytest.mark.django_db
def test_a_lower_target_checks_the_bye_again(admin_client):
    competition = CompetitionFactory.create(target_score=50, bye_score_for=60)

    response = save(admin_client, competition, target_score=20)

    assert form_errors(response)["bye_score_for"][0].startswith("At most 34:")


@pytest.mark.django_db
def test_an_imported_bye_worth_more_is_kept_when_neither_it_nor_the_rules_change(admin_client):
    # The importer takes any bye score (docs/interchange.md); the admin only checks what
    # its form changes, so other settings can still be saved.
    competition = CompetitionFactory.create(target_score=20, bye_score_for=100)

    response = save(admin_client, competition, points_win=3)

    assert response.status_code == 302, form_errors(response)
    competition.refresh_from_db()
    assert (competition.points_win, competition.bye_score_for) == (3, 100)


@pytest.mark.django_db
def test_the_bye_field_names_the_target_it_follows_for_the_script(admin_client):
    html = competition_page(admin_client).content.decode()

    bye = re.search(r'<input[^>]*name="bye_score_for"[^>]*>', html)
    assert bye is not None
    assert 'data-follows="id_target_score"' in bye.group(0)
    assert 'data-default="20"' in bye.group(0)
    assert re.search(r'<script src="[^"]*js/admin_setup\.js"', html)


# ------------------------------------------------------------------ every field explained


@pytest.mark.parametrize("model", ADMIN_MODELS, ids=lambda model: model.__name__)
def test_every_field_of_the_admin_s_models_is_explained(model: type[models.Model]):
    unexplained = [
        field.name
        for field in model._meta.get_fields()
        if field.concrete
        and not field.auto_created
        and not str(getattr(field, "help_text", "")).strip()
    ]
    assert unexplained == []


@pytest.mark.parametrize("model", ADMIN_MODELS, ids=lambda model: model.__name__)
def test_help_texts_hold_no_markup(model: type[models.Model]):
    # The admin shows help texts as HTML (`|safe`): a "<" or "&" would be markup.
    marked = [
        field.name
        for field in model._meta.get_fields()
        if field.concrete and re.search(r"[<>&]", str(getattr(field, "help_text", "")))
    ]
    assert marked == []


def registered(model: type[models.Model]) -> bool:
    return model in admin.site._registry


@pytest.mark.django_db
@pytest.mark.parametrize(
    "model", [m for m in ADMIN_MODELS if registered(m)], ids=lambda model: model.__name__
)
def test_every_field_of_the_admin_s_forms_is_explained(admin_client, model):
    game = GameFactory.create()
    Round.objects.create(game=game, number=1, result="redeal", side="a")
    rows: dict[type[models.Model], models.Model | None] = {
        Game: game,
        Round: game.rounds.get(),
        Competition: game.match.matchday.competition,
        Matchday: game.match.matchday,
        Match: game.match,
        Team: game.team_a,
        Player: game.seat_1,
        Entry: game.match.home,
    }
    pages = [admin_url(model, "add")]
    row = rows.get(model)
    if row is not None:
        pages.append(admin_url(model, "change", row.pk))
    for url in pages:
        response = admin_client.get(url)
        if response.status_code == 403:  # rows not added here (rounds, standings)
            continue
        assert response.status_code == 200, url
        html = response.content.decode()
        form = response.context["adminform"].form
        unexplained = [name for name, field in form.fields.items() if not field.help_text]
        assert unexplained == [], url
        for name, field in form.fields.items():
            assert str(field.help_text) in html, (url, name)


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["add", "change"])
def test_the_competition_page_opens_with_its_help(admin_client, page):
    competition = CompetitionFactory.create()
    response = competition_page(admin_client, competition if page == "change" else None)
    html = response.content.decode()

    for text in (
        "Follows the target score unless you change it.",
        "each only among those still level on all before it",
        "Competition points for a won match",
        "Game points: a game ends when a koppel reaches this score",
    ):
        assert text in html


@pytest.mark.nl
@pytest.mark.django_db
def test_the_competition_page_opens_in_dutch(admin_client):
    # The tie-breaks' help is built when shown, in the reader's language.
    response = competition_page(admin_client, CompetitionFactory.create())

    assert 'name="tiebreaks"' in response.content.decode()


@pytest.mark.django_db
def test_switching_confirmation_on_mid_season_keeps_the_games_played_so_far(admin_client):
    """Games finished before confirmation was asked for count as confirmed (by the admin
    who switched it on), instead of all leaving the standings for the queue; a game still
    in play waits for its confirmation as usual."""
    from scoring.services.rounds import round_record

    played = GameFactory.create()
    competition = played.match.matchday.competition
    for number in range(1, 3):
        round_record(game_id=played.pk, expected_number=number, result="baunie", side="a")
    in_play = GameFactory.create(match__matchday=played.match.matchday)
    round_record(game_id=in_play.pk, expected_number=1, result="kap", side="a")

    response = save(admin_client, competition, confirmation_required="on")

    assert response.status_code == 302, form_errors(response)
    played.refresh_from_db()
    in_play.refresh_from_db()
    assert played.status == "finished" and played.confirmed_at is not None
    assert played.confirmed_by is not None and played.confirmed_by.is_superuser
    assert in_play.confirmed_at is None
    page = admin_client.get(response["Location"]).content.decode()
    assert "Confirmation switched on: the 1 game finished so far counts as confirmed." in page
