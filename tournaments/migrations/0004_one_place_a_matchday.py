"""Database triggers for what a constraint on one row can't say (issue 6):

- an entry plays at most once a matchday: in one match (home or away) or the bye;
- a match's and a bye's entries belong to the matchday's competition;
- a matchday's competition, and an entry's competition, koppel or club, don't change once
  they are on the schedule.

Written for PostgreSQL and SQLite. Each trigger raises an error whose text starts with
`troefclub:<code>`; `troefclub.rule_messages.integrity_message` words it. The services, the
admin and the importer check the same first, with a message that names the place: these
triggers are the backstop for every other path (a shell, a race, a bug). On PostgreSQL the
trigger locks the matchday row, so two transactions adding conflicting matches at once
can't both pass the check.
"""

from django.db import migrations

POSTGRESQL = [
    """
    CREATE OR REPLACE FUNCTION troefclub_matchday_places_check(
        p_matchday bigint, p_entries bigint[], p_match bigint, p_bye bigint
    ) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
        v_competition bigint;
    BEGIN
        -- One writer per matchday: two concurrent inserts don't see each other's rows.
        SELECT competition_id INTO v_competition
          FROM tournaments_matchday WHERE id = p_matchday FOR UPDATE;
        IF EXISTS (SELECT 1 FROM tournaments_entry e
                    WHERE e.id = ANY (p_entries) AND e.competition_id <> v_competition) THEN
            RAISE EXCEPTION 'troefclub:entry_other_competition'
                USING ERRCODE = 'check_violation';
        END IF;
        IF EXISTS (SELECT 1 FROM tournaments_match m
                    WHERE m.matchday_id = p_matchday
                      AND m.id IS DISTINCT FROM p_match
                      AND (m.home_id = ANY (p_entries) OR m.away_id = ANY (p_entries)))
           OR EXISTS (SELECT 1 FROM tournaments_bye b
                       WHERE b.matchday_id = p_matchday
                         AND b.id IS DISTINCT FROM p_bye
                         AND b.entry_id = ANY (p_entries)) THEN
            RAISE EXCEPTION 'troefclub:entry_twice_on_matchday'
                USING ERRCODE = 'unique_violation';
        END IF;
    END $$;
    """,
    """
    CREATE OR REPLACE FUNCTION troefclub_match_places() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM troefclub_matchday_places_check(
            NEW.matchday_id, ARRAY[NEW.home_id, NEW.away_id], NEW.id, NULL);
        RETURN NULL;
    END $$;
    """,
    """
    CREATE TRIGGER troefclub_match_places_insert
    AFTER INSERT ON tournaments_match
    FOR EACH ROW EXECUTE FUNCTION troefclub_match_places();
    """,
    # Only when a place really changes: a save() of totals or a lineup names every column,
    # and must not take the matchday's lock (scorers of one evening would queue on it).
    """
    CREATE TRIGGER troefclub_match_places_update
    AFTER UPDATE OF matchday_id, home_id, away_id ON tournaments_match
    FOR EACH ROW WHEN (OLD.matchday_id IS DISTINCT FROM NEW.matchday_id
                       OR OLD.home_id IS DISTINCT FROM NEW.home_id
                       OR OLD.away_id IS DISTINCT FROM NEW.away_id)
    EXECUTE FUNCTION troefclub_match_places();
    """,
    """
    CREATE OR REPLACE FUNCTION troefclub_bye_places() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM troefclub_matchday_places_check(
            NEW.matchday_id, ARRAY[NEW.entry_id], NULL, NEW.id);
        RETURN NULL;
    END $$;
    """,
    """
    CREATE TRIGGER troefclub_bye_places_insert
    AFTER INSERT ON tournaments_bye
    FOR EACH ROW EXECUTE FUNCTION troefclub_bye_places();
    """,
    """
    CREATE TRIGGER troefclub_bye_places_update
    AFTER UPDATE OF matchday_id, entry_id ON tournaments_bye
    FOR EACH ROW WHEN (OLD.matchday_id IS DISTINCT FROM NEW.matchday_id
                       OR OLD.entry_id IS DISTINCT FROM NEW.entry_id)
    EXECUTE FUNCTION troefclub_bye_places();
    """,
    """
    CREATE OR REPLACE FUNCTION troefclub_matchday_competition_fixed() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.competition_id <> OLD.competition_id
           AND (EXISTS (SELECT 1 FROM tournaments_match WHERE matchday_id = NEW.id)
                OR EXISTS (SELECT 1 FROM tournaments_bye WHERE matchday_id = NEW.id)) THEN
            RAISE EXCEPTION 'troefclub:matchday_competition_fixed'
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
    END $$;
    """,
    """
    CREATE TRIGGER troefclub_matchday_competition_fixed
    AFTER UPDATE OF competition_id ON tournaments_matchday
    FOR EACH ROW EXECUTE FUNCTION troefclub_matchday_competition_fixed();
    """,
    """
    CREATE OR REPLACE FUNCTION troefclub_entry_fixed() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        IF (NEW.competition_id IS DISTINCT FROM OLD.competition_id
            OR NEW.team_id IS DISTINCT FROM OLD.team_id
            OR NEW.club_id IS DISTINCT FROM OLD.club_id)
           AND (EXISTS (SELECT 1 FROM tournaments_match
                         WHERE home_id = NEW.id OR away_id = NEW.id)
                OR EXISTS (SELECT 1 FROM tournaments_bye WHERE entry_id = NEW.id)) THEN
            RAISE EXCEPTION 'troefclub:entry_scheduled_fixed'
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
    END $$;
    """,
    """
    CREATE TRIGGER troefclub_entry_fixed
    AFTER UPDATE OF competition_id, team_id, club_id ON tournaments_entry
    FOR EACH ROW EXECUTE FUNCTION troefclub_entry_fixed();
    """,
]

POSTGRESQL_REVERSE = [
    "DROP TRIGGER IF EXISTS troefclub_match_places_insert ON tournaments_match",
    "DROP TRIGGER IF EXISTS troefclub_match_places_update ON tournaments_match",
    "DROP TRIGGER IF EXISTS troefclub_bye_places_insert ON tournaments_bye",
    "DROP TRIGGER IF EXISTS troefclub_bye_places_update ON tournaments_bye",
    "DROP TRIGGER IF EXISTS troefclub_matchday_competition_fixed ON tournaments_matchday",
    "DROP TRIGGER IF EXISTS troefclub_entry_fixed ON tournaments_entry",
    "DROP FUNCTION IF EXISTS troefclub_match_places()",
    "DROP FUNCTION IF EXISTS troefclub_bye_places()",
    "DROP FUNCTION IF EXISTS troefclub_matchday_competition_fixed()",
    "DROP FUNCTION IF EXISTS troefclub_entry_fixed()",
    "DROP FUNCTION IF EXISTS troefclub_matchday_places_check(bigint, bigint[], bigint, bigint)",
]

# SQLite serialises writers, so no lock is needed; AFTER triggers see the row's id.
_SQLITE_MATCH_CHECK = """
BEGIN
    SELECT RAISE(ABORT, 'troefclub:entry_other_competition')
     WHERE EXISTS (SELECT 1 FROM tournaments_entry e, tournaments_matchday d
                    WHERE d.id = NEW.matchday_id AND e.id IN (NEW.home_id, NEW.away_id)
                      AND e.competition_id <> d.competition_id);
    SELECT RAISE(ABORT, 'troefclub:entry_twice_on_matchday')
     WHERE EXISTS (SELECT 1 FROM tournaments_match m
                    WHERE m.matchday_id = NEW.matchday_id AND m.id <> NEW.id
                      AND (m.home_id IN (NEW.home_id, NEW.away_id)
                           OR m.away_id IN (NEW.home_id, NEW.away_id)))
        OR EXISTS (SELECT 1 FROM tournaments_bye b
                    WHERE b.matchday_id = NEW.matchday_id
                      AND b.entry_id IN (NEW.home_id, NEW.away_id));
END
"""
_SQLITE_BYE_CHECK = """
BEGIN
    SELECT RAISE(ABORT, 'troefclub:entry_other_competition')
     WHERE EXISTS (SELECT 1 FROM tournaments_entry e, tournaments_matchday d
                    WHERE d.id = NEW.matchday_id AND e.id = NEW.entry_id
                      AND e.competition_id <> d.competition_id);
    SELECT RAISE(ABORT, 'troefclub:entry_twice_on_matchday')
     WHERE EXISTS (SELECT 1 FROM tournaments_match m
                    WHERE m.matchday_id = NEW.matchday_id
                      AND (m.home_id = NEW.entry_id OR m.away_id = NEW.entry_id))
        OR EXISTS (SELECT 1 FROM tournaments_bye b
                    WHERE b.matchday_id = NEW.matchday_id AND b.id <> NEW.id
                      AND b.entry_id = NEW.entry_id);
END
"""
SQLITE = [
    "CREATE TRIGGER troefclub_match_places_insert AFTER INSERT ON tournaments_match"
    + _SQLITE_MATCH_CHECK,
    "CREATE TRIGGER troefclub_match_places_update"
    " AFTER UPDATE OF matchday_id, home_id, away_id ON tournaments_match"
    " WHEN NEW.matchday_id IS NOT OLD.matchday_id OR NEW.home_id IS NOT OLD.home_id"
    " OR NEW.away_id IS NOT OLD.away_id" + _SQLITE_MATCH_CHECK,
    "CREATE TRIGGER troefclub_bye_places_insert AFTER INSERT ON tournaments_bye"
    + _SQLITE_BYE_CHECK,
    "CREATE TRIGGER troefclub_bye_places_update"
    " AFTER UPDATE OF matchday_id, entry_id ON tournaments_bye"
    " WHEN NEW.matchday_id IS NOT OLD.matchday_id OR NEW.entry_id IS NOT OLD.entry_id"
    + _SQLITE_BYE_CHECK,
    """
    CREATE TRIGGER troefclub_matchday_competition_fixed
    AFTER UPDATE OF competition_id ON tournaments_matchday
    WHEN NEW.competition_id <> OLD.competition_id
    BEGIN
        SELECT RAISE(ABORT, 'troefclub:matchday_competition_fixed')
         WHERE EXISTS (SELECT 1 FROM tournaments_match WHERE matchday_id = NEW.id)
            OR EXISTS (SELECT 1 FROM tournaments_bye WHERE matchday_id = NEW.id);
    END
    """,
    """
    CREATE TRIGGER troefclub_entry_fixed
    AFTER UPDATE OF competition_id, team_id, club_id ON tournaments_entry
    WHEN NEW.competition_id IS NOT OLD.competition_id OR NEW.team_id IS NOT OLD.team_id
         OR NEW.club_id IS NOT OLD.club_id
    BEGIN
        SELECT RAISE(ABORT, 'troefclub:entry_scheduled_fixed')
         WHERE EXISTS (SELECT 1 FROM tournaments_match
                        WHERE home_id = NEW.id OR away_id = NEW.id)
            OR EXISTS (SELECT 1 FROM tournaments_bye WHERE entry_id = NEW.id);
    END
    """,
]

SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS troefclub_match_places_insert",
    "DROP TRIGGER IF EXISTS troefclub_match_places_update",
    "DROP TRIGGER IF EXISTS troefclub_bye_places_insert",
    "DROP TRIGGER IF EXISTS troefclub_bye_places_update",
    "DROP TRIGGER IF EXISTS troefclub_matchday_competition_fixed",
    "DROP TRIGGER IF EXISTS troefclub_entry_fixed",
]


def run(statements: dict[str, list[str]]):
    def apply(apps, schema_editor):
        for sql in statements.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql)

    return apply


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0003_trust")]

    operations = [
        migrations.RunPython(
            run({"postgresql": POSTGRESQL, "sqlite": SQLITE}),
            run({"postgresql": POSTGRESQL_REVERSE, "sqlite": SQLITE_REVERSE}),
        ),
    ]
