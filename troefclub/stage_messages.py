"""The words of the play-offs' and divisions' RuleViolation codes (issue 22), merged into
`troefclub.rule_messages`: kept apart so that module stays one screen's worth shorter."""

from __future__ import annotations

from django.utils.translation import gettext as _


def stage_messages() -> dict[str, str]:
    """Code -> message template, in the active language."""
    return {
        "playoff_size_invalid": _("A knock-out has 2, 4 or 8 entries, not %(size)s."),
        "playoff_legs_invalid": _(
            "A tie is played in one match or two (home and away), not %(legs)s."
        ),
        "playoff_level_rule_invalid": _("Choose one of the listed rules for a level tie."),
        "playoff_too_few_entries": _(
            "A knock-out of %(size)s needs %(size)s entries; the competition has %(entries)s."
        ),
        "playoff_source_unfinished": _(
            "The standings are not final yet: %(open)s match(es) still have to be played or "
            "confirmed."
        ),
        "playoff_lot_not_a_tie": _(
            "A drawing of lots orders entries that share a rank, all of them: this one does not."
        ),
        "playoff_lot_reason_required": _(
            "Say how the lots were drawn (who drew, when): the reason is kept with the seeding."
        ),
        "playoff_seeding_tied": _(
            "%(entries)s share rank %(rank)s, tied on every tie-break: play a deciding match "
            "(two entries) or draw lots before seeding."
        ),
        "playoff_unknown": _("This play-off does not exist."),
        "playoff_exists": _(
            "This competition has its play-offs already (%(stage)s): nothing was made."
        ),
        "deciding_match_two_entries": _("A deciding match is between two different entries."),
        "deciding_match_not_tied": _(
            "%(entries)s are not tied on everything in the standings: no deciding match is needed."
        ),
        "deciding_match_exists": _("These two entries have a deciding match already."),
        "division_season_exists": _(
            "Season %(season)s of %(league)s has divisions already: nothing was made."
        ),
        "division_none": _("Season %(season)s has no divisions to roll over."),
        "division_boundary_tied": _(
            "%(division)s: %(entries)s share rank %(rank)s across the line of promotion or "
            "relegation: play a deciding match first."
        ),
        "division_same_season": _("The next season must differ from this one."),
    }
