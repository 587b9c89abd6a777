"""A game's four seats hold four different players (issue 6: one player, one place)."""

import importlib

from django.conf import settings
from django.db import migrations, models

_0003 = importlib.import_module("scoring.migrations.0003_game_places")


def _sqlite(statements: list[str]):
    def apply(apps, schema_editor):
        if schema_editor.connection.vendor == "sqlite":
            for sql in statements:
                schema_editor.execute(sql)

    return apply


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0003_game_places"),
        ("tournaments", "0004_one_place_a_matchday"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    # SQLite adds a constraint by rebuilding scoring_game, which a trigger naming the table
    # (0003's) forbids: those triggers are dropped around it and made again.
    operations = [
        migrations.RunPython(_sqlite(_0003.SQLITE_REVERSE), _sqlite(_0003.SQLITE)),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("seat_1__isnull", True),
                        ("seat_2__isnull", True),
                        models.Q(("seat_1", models.F("seat_2")), _negated=True),
                        _connector="OR",
                    ),
                    models.Q(
                        ("seat_1__isnull", True),
                        ("seat_3__isnull", True),
                        models.Q(("seat_1", models.F("seat_3")), _negated=True),
                        _connector="OR",
                    ),
                    models.Q(
                        ("seat_1__isnull", True),
                        ("seat_4__isnull", True),
                        models.Q(("seat_1", models.F("seat_4")), _negated=True),
                        _connector="OR",
                    ),
                    models.Q(
                        ("seat_2__isnull", True),
                        ("seat_3__isnull", True),
                        models.Q(("seat_2", models.F("seat_3")), _negated=True),
                        _connector="OR",
                    ),
                    models.Q(
                        ("seat_2__isnull", True),
                        ("seat_4__isnull", True),
                        models.Q(("seat_2", models.F("seat_4")), _negated=True),
                        _connector="OR",
                    ),
                    models.Q(
                        ("seat_3__isnull", True),
                        ("seat_4__isnull", True),
                        models.Q(("seat_3", models.F("seat_4")), _negated=True),
                        _connector="OR",
                    ),
                ),
                name="game_distinct_players",
                violation_error_message="A player sits at one place: the four seats are four different players.",
            ),
        ),
        migrations.RunPython(_sqlite(_0003.SQLITE), _sqlite(_0003.SQLITE_REVERSE)),
    ]
