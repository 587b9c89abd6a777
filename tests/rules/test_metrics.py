"""The standings metrics (scoring/rules/metrics.py): one definition per tie-break, which
the engine reads; and the StrEnums of forfeits and match results, equal to the stored
strings. The Django side (model fields, table columns, admin, translations):
tests/scoring/test_standing_metrics.py."""

from __future__ import annotations

from dataclasses import fields

import pytest

from scoring.rules import (
    METRIC_OF,
    METRICS,
    TIEBREAK_KEYS,
    ByeOutcome,
    Forfeit,
    MatchResult,
    Metric,
    StandingRow,
    check_tiebreaks,
)
from scoring.rules.metrics import gettext_noop
from scoring.rules.standings import TIEBREAK_ATTRIBUTES

# DESIGN.md "Interchange format": the tie-break keys, in this order.
DESIGN_KEYS = (
    "points",
    "saldo",
    "points_for",
    "wins",
    "kaps",
    "baunies",
    "buchholz",
    "head_to_head",
)


def test_the_metrics_are_the_designed_tiebreak_keys_each_once() -> None:
    assert tuple(metric.key for metric in METRICS) == DESIGN_KEYS
    assert len({metric.column for metric in METRICS}) == len(METRICS)


def test_the_engine_takes_its_keys_from_the_metrics() -> None:
    assert TIEBREAK_KEYS == DESIGN_KEYS
    check_tiebreaks(DESIGN_KEYS)
    assert {metric.key: metric for metric in METRICS} == METRIC_OF


@pytest.mark.parametrize("metric", METRICS, ids=lambda metric: metric.key)
def test_each_metric_names_a_standing_row_attribute(metric: Metric) -> None:
    stored = {field.name for field in fields(StandingRow)} | {"saldo"}  # saldo: a property
    assert metric.column in stored
    assert hasattr(StandingRow(entry="a"), metric.column)


@pytest.mark.parametrize("metric", METRICS, ids=lambda metric: metric.key)
def test_each_metric_has_its_words(metric: Metric) -> None:
    assert metric.label and metric.explanation and metric.header
    assert all(text == text.strip() for text in (metric.label, metric.explanation, metric.title))


def test_the_engine_compares_each_column_metric_by_its_column() -> None:
    # head_to_head is the mini-table (`_split`), not a column read off the rows.
    assert {
        metric.key: metric.column for metric in METRICS if metric.key != "head_to_head"
    } == TIEBREAK_ATTRIBUTES
    assert TIEBREAK_ATTRIBUTES["wins"] == "won"


def test_gettext_noop_only_marks() -> None:
    assert gettext_noop("points for") == "points for"


# ---------------------------------------------------------------- forfeits and results


def test_forfeits_and_results_are_the_stored_strings() -> None:
    # Match.forfeit and Competition.bye_result store these values (their TextChoices:
    # tests/scoring/test_standing_metrics.py).
    assert [forfeit.value for forfeit in Forfeit] == ["home", "away", "both"]
    assert [result.value for result in MatchResult] == ["win", "draw", "loss"]
    assert Forfeit.HOME == "home" and Forfeit("both") is Forfeit.BOTH
    # The engine's tables keyed by member find a stored string, and the other way round.
    by_member: dict[str, int] = {Forfeit.AWAY: 1}
    assert by_member["away"] == 1 and {"away": 1}[Forfeit.AWAY] == 1
    assert f"{MatchResult.DRAW}" == str(MatchResult.DRAW) == "draw"


def test_a_stored_bye_result_reads_as_its_match_result() -> None:
    assert ByeOutcome("a", result=MatchResult("loss")).result is MatchResult.LOSS
