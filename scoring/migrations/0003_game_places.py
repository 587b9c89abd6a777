"""Database triggers for games (issue 6), for PostgreSQL and SQLite:

- a pairs match has one game, between the match's two koppels;
- a koppel plays at most one game in a sitting of a matchday (one table at a time);
- a pairs match with a game keeps its two entries (the game would keep the old koppels).

Errors start with `troefclub:<code>` (worded by `troefclub.rule_messages.integrity_message`).
The services, the admin and the importer check the same first; these are the backstop.
"""

from django.db import migrations

POSTGRESQL = [
    """
    CREATE OR REPLACE FUNCTION troefclub_game_places() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
        v_matchday bigint;
        v_kind varchar;
        v_home_team bigint;
        v_away_team bigint;
    BEGIN
        SELECT m.matchday_id, c.kind, h.team_id, a.team_id
          INTO v_matchday, v_kind, v_home_team, v_away_team
          FROM tournaments_match m
          JOIN tournaments_matchday d ON d.id = m.matchday_id
          JOIN tournaments_competition c ON c.id = d.competition_id
          JOIN tournaments_entry h ON h.id = m.home_id
          JOIN tournaments_entry a ON a.id = m.away_id
         WHERE m.id = NEW.match_id;
        -- One writer per matchday: two concurrent inserts don't see each other's rows.
        PERFORM 1 FROM tournaments_matchday WHERE id = v_matchday FOR UPDATE;
        IF v_kind = 'pairs' THEN
            IF EXISTS (SELECT 1 FROM scoring_game g
                        WHERE g.match_id = NEW.match_id AND g.id <> NEW.id) THEN
                RAISE EXCEPTION 'troefclub:pairs_match_one_game'
                    USING ERRCODE = 'unique_violation';
            END IF;
            IF NOT ((NEW.team_a_id = v_home_team AND NEW.team_b_id = v_away_team)
                    OR (NEW.team_a_id = v_away_team AND NEW.team_b_id = v_home_team)) THEN
                RAISE EXCEPTION 'troefclub:game_koppels_not_of_match'
                    USING ERRCODE = 'check_violation';
            END IF;
        END IF;
        IF EXISTS (SELECT 1 FROM scoring_game g
                     JOIN tournaments_match m ON m.id = g.match_id
                    WHERE m.matchday_id = v_matchday AND g.sitting = NEW.sitting
                      AND g.id <> NEW.id
                      AND (g.team_a_id IN (NEW.team_a_id, NEW.team_b_id)
                           OR g.team_b_id IN (NEW.team_a_id, NEW.team_b_id))) THEN
            RAISE EXCEPTION 'troefclub:koppel_twice_in_sitting'
                USING ERRCODE = 'unique_violation';
        END IF;
        RETURN NULL;
    END $$;
    """,
    """
    CREATE TRIGGER troefclub_game_places_insert
    AFTER INSERT ON scoring_game
    FOR EACH ROW EXECUTE FUNCTION troefclub_game_places();
    """,
    # Only when a place really changes: every round saves its game's score, and that must
    # not take the matchday's lock (the evening's scorers would queue on it).
    """
    CREATE TRIGGER troefclub_game_places_update
    AFTER UPDATE OF match_id, sitting, team_a_id, team_b_id ON scoring_game
    FOR EACH ROW WHEN (OLD.match_id IS DISTINCT FROM NEW.match_id
                       OR OLD.sitting IS DISTINCT FROM NEW.sitting
                       OR OLD.team_a_id IS DISTINCT FROM NEW.team_a_id
                       OR OLD.team_b_id IS DISTINCT FROM NEW.team_b_id)
    EXECUTE FUNCTION troefclub_game_places();
    """,
]

POSTGRESQL += [
    # A pairs match that changes its entries would leave its game with the old koppels.
    """
    CREATE OR REPLACE FUNCTION troefclub_match_games_follow() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        IF EXISTS (
            SELECT 1 FROM scoring_game g
              JOIN tournaments_matchday d ON d.id = NEW.matchday_id
              JOIN tournaments_competition c ON c.id = d.competition_id
              JOIN tournaments_entry h ON h.id = NEW.home_id
              JOIN tournaments_entry a ON a.id = NEW.away_id
             WHERE g.match_id = NEW.id AND c.kind = 'pairs'
               AND NOT ((g.team_a_id = h.team_id AND g.team_b_id = a.team_id)
                        OR (g.team_a_id = a.team_id AND g.team_b_id = h.team_id))) THEN
            RAISE EXCEPTION 'troefclub:game_koppels_not_of_match'
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
    END $$;
    """,
    """
    CREATE TRIGGER troefclub_match_games_follow
    AFTER UPDATE OF home_id, away_id ON tournaments_match
    FOR EACH ROW WHEN (OLD.home_id IS DISTINCT FROM NEW.home_id
                       OR OLD.away_id IS DISTINCT FROM NEW.away_id)
    EXECUTE FUNCTION troefclub_match_games_follow();
    """,
]

POSTGRESQL_REVERSE = [
    "DROP TRIGGER IF EXISTS troefclub_match_games_follow ON tournaments_match",
    "DROP FUNCTION IF EXISTS troefclub_match_games_follow()",
    "DROP TRIGGER IF EXISTS troefclub_game_places_insert ON scoring_game",
    "DROP TRIGGER IF EXISTS troefclub_game_places_update ON scoring_game",
    "DROP FUNCTION IF EXISTS troefclub_game_places()",
]

_SQLITE_GAME_CHECK = """
BEGIN
    SELECT RAISE(ABORT, 'troefclub:pairs_match_one_game')
     WHERE EXISTS (SELECT 1 FROM scoring_game g
                     JOIN tournaments_match m ON m.id = g.match_id
                     JOIN tournaments_matchday d ON d.id = m.matchday_id
                     JOIN tournaments_competition c ON c.id = d.competition_id
                    WHERE g.match_id = NEW.match_id AND g.id <> NEW.id AND c.kind = 'pairs');
    SELECT RAISE(ABORT, 'troefclub:game_koppels_not_of_match')
     WHERE EXISTS (SELECT 1 FROM tournaments_match m
                     JOIN tournaments_matchday d ON d.id = m.matchday_id
                     JOIN tournaments_competition c ON c.id = d.competition_id
                     JOIN tournaments_entry h ON h.id = m.home_id
                     JOIN tournaments_entry a ON a.id = m.away_id
                    WHERE m.id = NEW.match_id AND c.kind = 'pairs'
                      AND NOT ((NEW.team_a_id = h.team_id AND NEW.team_b_id = a.team_id)
                               OR (NEW.team_a_id = a.team_id AND NEW.team_b_id = h.team_id)));
    SELECT RAISE(ABORT, 'troefclub:koppel_twice_in_sitting')
     WHERE EXISTS (SELECT 1 FROM scoring_game g
                     JOIN tournaments_match m ON m.id = g.match_id
                    WHERE m.matchday_id = (SELECT matchday_id FROM tournaments_match
                                            WHERE id = NEW.match_id)
                      AND g.sitting = NEW.sitting AND g.id <> NEW.id
                      AND (g.team_a_id IN (NEW.team_a_id, NEW.team_b_id)
                           OR g.team_b_id IN (NEW.team_a_id, NEW.team_b_id)));
END
"""

SQLITE = [
    "CREATE TRIGGER troefclub_game_places_insert AFTER INSERT ON scoring_game"
    + _SQLITE_GAME_CHECK,
    "CREATE TRIGGER troefclub_game_places_update"
    " AFTER UPDATE OF match_id, sitting, team_a_id, team_b_id ON scoring_game"
    " WHEN NEW.match_id IS NOT OLD.match_id OR NEW.sitting IS NOT OLD.sitting"
    " OR NEW.team_a_id IS NOT OLD.team_a_id OR NEW.team_b_id IS NOT OLD.team_b_id"
    + _SQLITE_GAME_CHECK,
]

SQLITE.append(
    """
    CREATE TRIGGER troefclub_match_games_follow
    AFTER UPDATE OF home_id, away_id ON tournaments_match
    WHEN NEW.home_id IS NOT OLD.home_id OR NEW.away_id IS NOT OLD.away_id
    BEGIN
        SELECT RAISE(ABORT, 'troefclub:game_koppels_not_of_match')
         WHERE EXISTS (
            SELECT 1 FROM scoring_game g
              JOIN tournaments_matchday d ON d.id = NEW.matchday_id
              JOIN tournaments_competition c ON c.id = d.competition_id
              JOIN tournaments_entry h ON h.id = NEW.home_id
              JOIN tournaments_entry a ON a.id = NEW.away_id
             WHERE g.match_id = NEW.id AND c.kind = 'pairs'
               AND NOT ((g.team_a_id = h.team_id AND g.team_b_id = a.team_id)
                        OR (g.team_a_id = a.team_id AND g.team_b_id = h.team_id)));
    END
    """
)

SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS troefclub_match_games_follow",
    "DROP TRIGGER IF EXISTS troefclub_game_places_insert",
    "DROP TRIGGER IF EXISTS troefclub_game_places_update",
]


def run(statements: dict[str, list[str]]):
    def apply(apps, schema_editor):
        for sql in statements.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql)

    return apply


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0002_competition_formats"),
        ("tournaments", "0004_one_place_a_matchday"),
    ]

    operations = [
        migrations.RunPython(
            run({"postgresql": POSTGRESQL, "sqlite": SQLITE}),
            run({"postgresql": POSTGRESQL_REVERSE, "sqlite": SQLITE_REVERSE}),
        ),
    ]
