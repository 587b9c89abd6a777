"""Each standings metric (`scoring.rules.METRICS`) has all it needs outside the engine: its
stored field, its table column headed as it says, its admin choice and explanation, its
Dutch words; and what lists tie-breaks reads the metrics, so adding one is one place.
The engine's side: tests/rules/test_metrics.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.utils import translation
from django.utils.html import escape

from scoring.admin.competitions import TIEBREAK_CHOICES, CompetitionSetupForm
from scoring.management.commands.standings import COLUMNS
from scoring.models import STANDING_COLUMNS, Standing
from scoring.rules import METRICS, TIEBREAK_KEYS, Forfeit, MatchResult, Metric
from scoring.tables import TIEBREAK_COLUMN_OF, TIEBREAK_COLUMNS, TIEBREAK_LABELS, StandingTable
from tournaments.models import Competition, Match

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "nl" / "LC_MESSAGES" / "django.po"


def _texts(metric: Metric) -> list[str]:
    words = [metric.label, metric.explanation, metric.header, metric.title]
    return [text for text in words if text]


@pytest.fixture(scope="module")
def dutch() -> dict[str, str]:
    with CATALOGUE.open("rb") as source:
        catalogue = read_po(source, locale="nl")
    return {str(message.id): str(message.string) for message in catalogue if message.id}


@pytest.mark.parametrize("metric", METRICS, ids=lambda metric: metric.key)
def test_each_metric_is_stored_and_written_by_the_rebuild(metric: Metric) -> None:
    field = Standing._meta.get_field(metric.column)
    assert field.concrete
    assert metric.column in STANDING_COLUMNS


def test_the_rebuild_writes_every_stored_column_of_a_standing() -> None:
    # Derived from the model: the same columns, in the same order, as the list it replaced.
    assert STANDING_COLUMNS == (
        "rank",
        "played",
        "won",
        "drawn",
        "lost",
        "points",
        "points_for",
        "points_against",
        "saldo",
        "kaps",
        "baunies",
        "buchholz",
        "byes",
        "deducted",
        "head_to_head",
    )


@pytest.mark.parametrize("metric", METRICS, ids=lambda metric: metric.key)
def test_each_metric_has_its_table_column_headed_as_it_says(metric: Metric) -> None:
    assert metric.column in StandingTable._meta.fields
    column = StandingTable.base_columns[metric.column]
    with translation.override("en"):
        assert str(column.verbose_name) == metric.header
        title = (column.attrs or {}).get("th", {}).get("title")
        assert (str(title) if title is not None else "") == metric.title
    assert TIEBREAK_COLUMN_OF[metric.key] == metric.column
    assert (metric.key in TIEBREAK_COLUMNS) is not metric.always_shown


def test_a_tiebreak_only_column_shows_while_it_breaks_ties() -> None:
    hidden = StandingTable([], tiebreaks=["saldo"]).columns.names()
    shown = StandingTable([], tiebreaks=["buchholz", "head_to_head"]).columns.names()
    assert {"buchholz", "head_to_head"} & set(hidden) == set()
    assert {"buchholz", "head_to_head"} <= set(shown)


@pytest.mark.parametrize("metric", METRICS, ids=lambda metric: metric.key)
def test_each_metric_is_offered_and_explained_in_the_admin(metric: Metric) -> None:
    with translation.override("en"):
        assert str(dict(TIEBREAK_CHOICES)[metric.key]) == metric.label
        assert str(TIEBREAK_LABELS[metric.key]) == metric.label
        help_text = str(CompetitionSetupForm.base_fields["tiebreaks"].help_text)
    assert f"<li>{escape(metric.label)}: {escape(metric.explanation)}</li>" in help_text


def test_what_lists_tiebreaks_lists_the_metrics_in_their_order() -> None:
    keys = [metric.key for metric in METRICS]
    assert list(TIEBREAK_KEYS) == keys
    assert [key for key, _label in TIEBREAK_CHOICES] == keys
    assert list(TIEBREAK_LABELS) == keys
    assert list(TIEBREAK_COLUMN_OF) == keys


@pytest.mark.parametrize("metric", METRICS, ids=lambda metric: metric.key)
def test_each_metric_speaks_dutch(metric: Metric, dutch: dict[str, str]) -> None:
    for text in _texts(metric):
        assert dutch.get(text), f"{text!r} has no Dutch text in {CATALOGUE.name}"
        with translation.override("nl"):
            assert translation.gettext(text) == dutch[text]
    with translation.override("nl"):
        assert str(TIEBREAK_LABELS[metric.key]) == dutch[metric.label]


def test_the_standings_command_prints_stored_columns() -> None:
    assert COLUMNS[:2] == ("rank", "entry")
    assert set(COLUMNS) - {"entry"} <= set(STANDING_COLUMNS)


def test_the_enums_are_the_stored_choices() -> None:
    assert {forfeit.value for forfeit in Forfeit} == set(Match.Forfeit.values) - {""}
    assert {result.value for result in MatchResult} == set(Competition.ByeResult.values)
    assert Competition._meta.get_field("bye_result").default == MatchResult.WIN
