"""The constants of the interchange format `troefclub-competition/1`: its name, the limits
of what a file may hold, the keys of its objects and the defaults of its optional keys.

Optional keys are exported only when they differ from their default (docs/interchange.md),
so a file that leaves them out round-trips unchanged.
"""

from __future__ import annotations

from typing import Any

from django.db import models

from scoring.rules import Result
from tournaments.models import Competition

FORMAT = "troefclub-competition/1"
RESULTS = tuple(result.value for result in Result)
# How a file exported before `Match.forfeit_cause` (tournaments migration 0007) marked a
# lineup's forfeit: its reason started with this. The import still reads it so.
LINEUP_REASON_PREFIX = "lineup:"

SMALL_INT_MAX = 32767  # PositiveSmallIntegerField on every backend
INT_MAX = 2147483647  # PositiveIntegerField


def competition_default(name: str) -> Any:
    """The default of Competition field `name`: what an import gives a competition whose
    file leaves that key out, and what the export leaves out. The model's field defaults
    are the one source (`tournaments.models`: the engine's standard rules and points
    scheme, docs/interchange.md's tie-breaks); a list comes new on each call."""
    field = Competition._meta.get_field(name)
    assert isinstance(field, models.Field)  # a setting is a column, not a relation
    return field.get_default()


# The optional rule keys (`competition.rules`): exported only when they differ from these.
EXTRA_RULE_DEFAULTS: dict[str, Any] = {
    name: competition_default(name)
    for name in (
        "callers_required",
        "close_by_director_allowed",
        "early_kap_penalty",
        "trump_open_card",
    )
}
TRUMP_OPEN_CARDS = (9, 13)
# The optional competition keys of the formats (`competition.club_matches` members map
# to the model fields on the right). Exported only when they differ from these defaults.
CLUB_MATCH_FIELDS = {
    "koppels": "koppels_per_side",
    "min_koppels": "min_koppels",
    "sittings": "sittings",
    "late_until_sitting": "late_koppel_until_sitting",
}
FORMAT_DEFAULTS: dict[str, Any] = {
    name: competition_default(name)
    for name in (
        "schedule_format",
        "bye_result",
        "bye_score_for",
        "bye_score_against",
        "forfeit_score_for",
        "forfeit_score_against",
        *CLUB_MATCH_FIELDS.values(),
        "squads_required",
        "ineligible_deduction",
        "confirmation_required",
    )
}

DOCUMENT_FIELDS = (
    "format",
    "competition",
    "clubs",
    "players",
    "teams",
    "entries",
    "matchdays",
    "deductions",
    "squads",
    "withdrawals",
    # Issue 22, optional: a play-off stage's link and bracket, a competition's division.
    "playoff",
    "division",
)
COMPETITION_FIELDS = (
    "slug",
    "name",
    "season",
    "kind",
    "time_zone",
    "rules",
    "standings",
    "schedule",
    "bye",
    "forfeit_score",
    "club_matches",
    "squads_required",
    "ineligible_deduction",
    "confirmation_required",
    "withdrawal",
)
RULE_FIELDS = (
    "target_score",
    "fixed_rounds",
    "kap_partner_allowed",
    "stinkende_bonus",
    "redeal_allowed",
    *EXTRA_RULE_DEFAULTS,
)
