"""The insert triggers of matches and byes check once a statement, not once a row (issue
20: "an importer within 3× a trigger-free COPY", "set-based checks after the bulk load
instead of row triggers during it").

0004_one_place_a_matchday's `troefclub_match_places_insert` and
`troefclub_bye_places_insert` ran a PL/pgSQL check for every inserted row: an import's COPY
of 7,500 matches made 7,500 calls, each taking its matchday's lock and looking up the
matchday's other matches, about a second in all, and far more once a rolled-back import
left dead rows the cached plans walked. On PostgreSQL they become statement triggers with
a transition table (`REFERENCING NEW TABLE AS new_rows`): the same rules, as one set-based
query over the statement's rows, so a single insert is checked as before and a COPY is
checked once, after its rows are in.

The same as before, per statement: the matchdays the new rows name are locked first (in id
order, so two statements can't deadlock on them), and then each new match or bye is checked
against every row of its matchday, the new ones included, with the same codes
(`troefclub:entry_other_competition` before `troefclub:entry_twice_on_matchday`). Only the
rows the statement inserted are checked: a clash stored earlier by a path around the
triggers doesn't refuse an unrelated insert, as with the row triggers. The update triggers
stay row triggers (PostgreSQL allows no transition table on a trigger with a column list;
they fire only when a place really changes). SQLite has no statement triggers: it keeps
0004's row triggers, which cost little there (no lock, one process).
"""

from django.db import migrations

POSTGRESQL = [
    """
    CREATE OR REPLACE FUNCTION troefclub_match_places_inserted() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        -- One writer per matchday: two concurrent inserts don't see each other's rows.
        PERFORM 1 FROM tournaments_matchday
          WHERE id IN (SELECT matchday_id FROM new_rows) ORDER BY id FOR UPDATE;
        IF EXISTS (SELECT 1 FROM new_rows n
                     JOIN tournaments_matchday d ON d.id = n.matchday_id
                     JOIN tournaments_entry e ON e.id IN (n.home_id, n.away_id)
                    WHERE e.competition_id <> d.competition_id) THEN
            RAISE EXCEPTION 'troefclub:entry_other_competition'
                USING ERRCODE = 'check_violation';
        END IF;
        -- The places of the new matches' matchdays, counted: an entry of a new match
        -- found twice plays twice. Read through the matchday's index whatever the
        -- planner knows of the rows (the statistics predate the statement's).
        IF EXISTS (
            WITH days AS (SELECT DISTINCT matchday_id FROM new_rows),
            places AS (
                SELECT m.matchday_id, m.home_id AS entry_id
                  FROM tournaments_match m JOIN days USING (matchday_id)
                UNION ALL
                SELECT m.matchday_id, m.away_id
                  FROM tournaments_match m JOIN days USING (matchday_id)
                UNION ALL
                SELECT b.matchday_id, b.entry_id
                  FROM tournaments_bye b JOIN days USING (matchday_id)
            ),
            clashes AS (
                SELECT matchday_id, entry_id FROM places
                 GROUP BY matchday_id, entry_id HAVING count(*) > 1
            )
            SELECT 1 FROM clashes c
              JOIN new_rows n ON n.matchday_id = c.matchday_id
                             AND c.entry_id IN (n.home_id, n.away_id)
        ) THEN
            RAISE EXCEPTION 'troefclub:entry_twice_on_matchday'
                USING ERRCODE = 'unique_violation';
        END IF;
        RETURN NULL;
    END $$;
    """,
    "DROP TRIGGER IF EXISTS troefclub_match_places_insert ON tournaments_match",
    """
    CREATE TRIGGER troefclub_match_places_insert
    AFTER INSERT ON tournaments_match
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION troefclub_match_places_inserted();
    """,
    """
    CREATE OR REPLACE FUNCTION troefclub_bye_places_inserted() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        -- One writer per matchday: two concurrent inserts don't see each other's rows.
        PERFORM 1 FROM tournaments_matchday
          WHERE id IN (SELECT matchday_id FROM new_rows) ORDER BY id FOR UPDATE;
        IF EXISTS (SELECT 1 FROM new_rows n
                     JOIN tournaments_matchday d ON d.id = n.matchday_id
                     JOIN tournaments_entry e ON e.id = n.entry_id
                    WHERE e.competition_id <> d.competition_id) THEN
            RAISE EXCEPTION 'troefclub:entry_other_competition'
                USING ERRCODE = 'check_violation';
        END IF;
        IF EXISTS (
            WITH days AS (SELECT DISTINCT matchday_id FROM new_rows),
            places AS (
                SELECT m.matchday_id, m.home_id AS entry_id
                  FROM tournaments_match m JOIN days USING (matchday_id)
                UNION ALL
                SELECT m.matchday_id, m.away_id
                  FROM tournaments_match m JOIN days USING (matchday_id)
                UNION ALL
                SELECT b.matchday_id, b.entry_id
                  FROM tournaments_bye b JOIN days USING (matchday_id)
            ),
            clashes AS (
                SELECT matchday_id, entry_id FROM places
                 GROUP BY matchday_id, entry_id HAVING count(*) > 1
            )
            SELECT 1 FROM clashes c
              JOIN new_rows n ON n.matchday_id = c.matchday_id AND n.entry_id = c.entry_id
        ) THEN
            RAISE EXCEPTION 'troefclub:entry_twice_on_matchday'
                USING ERRCODE = 'unique_violation';
        END IF;
        RETURN NULL;
    END $$;
    """,
    "DROP TRIGGER IF EXISTS troefclub_bye_places_insert ON tournaments_bye",
    """
    CREATE TRIGGER troefclub_bye_places_insert
    AFTER INSERT ON tournaments_bye
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION troefclub_bye_places_inserted();
    """,
]

# Back to 0004's row triggers (their functions are still there: the update triggers use them).
POSTGRESQL_REVERSE = [
    "DROP TRIGGER IF EXISTS troefclub_match_places_insert ON tournaments_match",
    "DROP TRIGGER IF EXISTS troefclub_bye_places_insert ON tournaments_bye",
    "DROP FUNCTION IF EXISTS troefclub_match_places_inserted()",
    "DROP FUNCTION IF EXISTS troefclub_bye_places_inserted()",
    """
    CREATE TRIGGER troefclub_match_places_insert
    AFTER INSERT ON tournaments_match
    FOR EACH ROW EXECUTE FUNCTION troefclub_match_places();
    """,
    """
    CREATE TRIGGER troefclub_bye_places_insert
    AFTER INSERT ON tournaments_bye
    FOR EACH ROW EXECUTE FUNCTION troefclub_bye_places();
    """,
]

SQLITE: list[str] = []
SQLITE_REVERSE: list[str] = []


def run(statements: dict[str, list[str]]):
    def apply(apps, schema_editor):
        for sql in statements.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql)

    return apply


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0011_history_only_for_a_change")]

    operations = [
        migrations.RunPython(
            run({"postgresql": POSTGRESQL, "sqlite": SQLITE}),
            run({"postgresql": POSTGRESQL_REVERSE, "sqlite": SQLITE_REVERSE}),
        ),
    ]
