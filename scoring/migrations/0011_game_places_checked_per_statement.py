"""The insert trigger of games checks once a statement, not once a row (issue 20, as
tournaments/0012_places_checked_per_statement does for matches and byes).

0003_game_places's `troefclub_game_places_insert` ran a PL/pgSQL check for every inserted
game: an import's COPY of 7,500 games made 7,500 calls, each locking its matchday and
searching the sitting for the koppels' other games, about 1.5 s (and 15 s after a
rolled-back import left dead rows the cached plans walked). On PostgreSQL it becomes a
statement trigger with a transition table (`REFERENCING NEW TABLE AS new_rows`): the same
three rules as one set-based query each over the statement's games, in the same order
(`troefclub:pairs_match_one_game`, `troefclub:game_koppels_not_of_match`,
`troefclub:koppel_twice_in_sitting`), after the matchdays of those games are locked in id
order. Only the inserted games are checked, each against every game of its match or
sitting, the new ones included. The update trigger stays a row trigger (no transition
table with a column list; it fires only when a game moves). SQLite keeps 0003's row
triggers.
"""

from django.db import migrations

POSTGRESQL = [
    """
    CREATE OR REPLACE FUNCTION troefclub_game_places_inserted() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        -- One writer per matchday: two concurrent inserts don't see each other's rows.
        PERFORM 1 FROM tournaments_matchday
          WHERE id IN (SELECT m.matchday_id FROM new_rows n
                         JOIN tournaments_match m ON m.id = n.match_id)
          ORDER BY id FOR UPDATE;
        -- Each new game's match, its games counted through the match's index (LATERAL:
        -- driven from the statement's rows whatever the planner believes of the table's;
        -- statistics taken before a COPY say it is empty).
        IF EXISTS (
            SELECT 1 FROM (SELECT DISTINCT match_id FROM new_rows) n
              JOIN tournaments_match m ON m.id = n.match_id
              JOIN tournaments_matchday d ON d.id = m.matchday_id
              JOIN tournaments_competition c ON c.id = d.competition_id
             CROSS JOIN LATERAL (SELECT count(*) AS games FROM scoring_game g
                                  WHERE g.match_id = n.match_id) k
             WHERE c.kind = 'pairs' AND k.games > 1
        ) THEN
            RAISE EXCEPTION 'troefclub:pairs_match_one_game'
                USING ERRCODE = 'unique_violation';
        END IF;
        IF EXISTS (SELECT 1 FROM new_rows n
                     JOIN tournaments_match m ON m.id = n.match_id
                     JOIN tournaments_matchday d ON d.id = m.matchday_id
                     JOIN tournaments_competition c ON c.id = d.competition_id
                     JOIN tournaments_entry h ON h.id = m.home_id
                     JOIN tournaments_entry a ON a.id = m.away_id
                    WHERE c.kind = 'pairs'
                      AND NOT ((n.team_a_id = h.team_id AND n.team_b_id = a.team_id)
                               OR (n.team_a_id = a.team_id AND n.team_b_id = h.team_id))) THEN
            RAISE EXCEPTION 'troefclub:game_koppels_not_of_match'
                USING ERRCODE = 'check_violation';
        END IF;
        -- The koppels seated in the new games' sittings, counted: a koppel of a new game
        -- found twice in its sitting plays at two tables.
        IF EXISTS (
            WITH slots AS (
                SELECT DISTINCT m.matchday_id, n.sitting
                  FROM new_rows n JOIN tournaments_match m ON m.id = n.match_id
            ),
            seated AS (
                SELECT m.matchday_id, g.sitting, g.team_a_id, g.team_b_id
                  FROM slots s
                  JOIN tournaments_match m ON m.matchday_id = s.matchday_id
                  JOIN scoring_game g ON g.match_id = m.id AND g.sitting = s.sitting
            ),
            clashes AS (
                SELECT matchday_id, sitting, team_id
                  FROM (SELECT matchday_id, sitting, team_a_id AS team_id FROM seated
                        UNION ALL
                        SELECT matchday_id, sitting, team_b_id FROM seated) seats
                 GROUP BY matchday_id, sitting, team_id HAVING count(*) > 1
            )
            SELECT 1 FROM clashes c
              JOIN tournaments_match m ON m.matchday_id = c.matchday_id
              JOIN new_rows n ON n.match_id = m.id AND n.sitting = c.sitting
                             AND c.team_id IN (n.team_a_id, n.team_b_id)
        ) THEN
            RAISE EXCEPTION 'troefclub:koppel_twice_in_sitting'
                USING ERRCODE = 'unique_violation';
        END IF;
        RETURN NULL;
    END $$;
    """,
    "DROP TRIGGER IF EXISTS troefclub_game_places_insert ON scoring_game",
    """
    CREATE TRIGGER troefclub_game_places_insert
    AFTER INSERT ON scoring_game
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION troefclub_game_places_inserted();
    """,
]

# Back to 0003's row trigger (its function is still there: the update trigger uses it).
POSTGRESQL_REVERSE = [
    "DROP TRIGGER IF EXISTS troefclub_game_places_insert ON scoring_game",
    "DROP FUNCTION IF EXISTS troefclub_game_places_inserted()",
    """
    CREATE TRIGGER troefclub_game_places_insert
    AFTER INSERT ON scoring_game
    FOR EACH ROW EXECUTE FUNCTION troefclub_game_places();
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
    dependencies = [
        ("scoring", "0010_history_newest_index"),
        ("tournaments", "0012_places_checked_per_statement"),
    ]

    operations = [
        migrations.RunPython(
            run({"postgresql": POSTGRESQL, "sqlite": SQLITE}),
            run({"postgresql": POSTGRESQL_REVERSE, "sqlite": SQLITE_REVERSE}),
        ),
    ]
