"""One source of a new competition's settings (issue 9 point 4): the model's field defaults,
which read the engine's standard rule set and points scheme; the admin's add form and the
importer (a key a file leaves out) take theirs. The tie-breaks of a new competition are
docs/interchange.md's, not an empty list."""

from __future__ import annotations

import pytest

from interchange.exporter import competition_export
from interchange.importer import competition_import
from scoring.rules import PointsScheme, RuleSet
from tests.admin_pages import admin_url
from tests.interchange.documents import document
from tests.scoring.admin.test_competition_setup import add, competition_page, shown_tiebreaks
from tournaments.models import Competition

DOCUMENTED_TIEBREAKS = ["points", "saldo", "points_for", "head_to_head"]

# Every setting of a competition an import file may leave out.
SETTINGS = [
    *Competition.RULE_FIELDS,
    "trump_open_card",
    "points_win",
    "points_draw",
    "points_loss",
    "tiebreaks",
    "schedule_format",
    "bye_result",
    "bye_score_for",
    "bye_score_against",
    "forfeit_score_for",
    "forfeit_score_against",
    "koppels_per_side",
    "min_koppels",
    "sittings",
    "late_koppel_until_sitting",
    "squads_required",
    "ineligible_deduction",
    "confirmation_required",
    "withdrawal_fixtures",
    "withdrawal_played",
]


def test_the_rule_fields_default_to_the_engines_standard_rules():
    assert Competition().rule_set == RuleSet()
    assert Competition().points_scheme == PointsScheme()


def test_a_new_competition_ranks_ties_by_the_documented_tiebreaks():
    first, second = Competition(), Competition()
    assert first.tiebreaks == DOCUMENTED_TIEBREAKS
    first.tiebreaks.append("wins")
    assert second.tiebreaks == DOCUMENTED_TIEBREAKS  # a new list each time


@pytest.mark.django_db
def test_the_admin_add_form_offers_the_documented_tiebreaks(admin_client):
    page = competition_page(admin_client).content.decode()
    assert shown_tiebreaks(page)[:5] == [*DOCUMENTED_TIEBREAKS, ""]

    response = add(admin_client)

    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Competition.objects.get(slug="club-evening").tiebreaks == DOCUMENTED_TIEBREAKS
    assert admin_url(Competition, "changelist") in response["Location"]


@pytest.mark.django_db
def test_a_file_that_leaves_every_setting_out_gets_the_model_defaults():
    data = document()
    del data["competition"]["rules"], data["competition"]["standings"]

    imported = competition_import(data=data)

    new = Competition()
    assert {name: getattr(imported, name) for name in SETTINGS} == {
        name: getattr(new, name) for name in SETTINGS
    }
    assert imported.tiebreaks == DOCUMENTED_TIEBREAKS
    exported = competition_export(competition=imported)["competition"]
    # The optional keys hold their defaults, so the export leaves them out.
    assert set(exported) == {"slug", "name", "season", "kind", "rules", "standings"}
    assert set(exported["rules"]) == {
        "target_score",
        "fixed_rounds",
        "kap_partner_allowed",
        "stinkende_bonus",
        "redeal_allowed",
    }
    assert exported["standings"]["tiebreaks"] == DOCUMENTED_TIEBREAKS


@pytest.mark.django_db
def test_a_file_may_still_give_no_tiebreaks():
    data = document()
    data["competition"]["standings"]["tiebreaks"] = []

    assert competition_import(data=data).tiebreaks == []
