/**
 * `bismarck_project` as the migrations 1799000000000 to 1799000004000 installed it, in named pieces so
 * that each migration shows what it changed. Frozen: a migration must run the same text whenever it
 * runs (a database migrated long ago and a fresh one end alike), so nothing here is ever edited, not
 * even its white space (migrations.spec.ts holds the hashes). Today's function: ../project-function.ts.
 */

/** The function around its statements: the upserts, a blank line apart, then the inserts. */
export function projectFunction(create: 'CREATE' | 'CREATE OR REPLACE', upserts: string[], inserts: string[]): string {
  return `
      ${create} FUNCTION bismarck_project(p_stream text, p_version int, p_arg jsonb) RETURNS void
      LANGUAGE plpgsql AS $$
      BEGIN${upserts.join('\n')}
${inserts.join('')}
      END $$`;
}

/** The list row follows the deal: its players and options stay as created. */
export const LIST_UPSERT_DEAL_COLUMNS = `
        INSERT INTO match_list SELECT * FROM jsonb_populate_record(NULL::match_list, p_arg->'match')
        ON CONFLICT (id) DO UPDATE SET
          version = EXCLUDED.version, status = EXCLUDED.status, phase = EXCLUDED.phase,
          deal_number = EXCLUDED.deal_number, totals = EXCLUDED.totals, winners = EXCLUDED.winners,
          updated_at = EXCLUDED.updated_at
        WHERE match_list.version < EXCLUDED.version;`;

/** Every column of the list row but its key and creation time (forked_from came later and is not updated). */
export const LIST_UPSERT_EVERY_COLUMN = `
        INSERT INTO match_list SELECT * FROM jsonb_populate_record(NULL::match_list, p_arg->'match')
        ON CONFLICT (id) DO UPDATE SET
          (version, status, phase, deal_number, deals_in_match, players, options, seeded, totals, winners, updated_at) =
          (EXCLUDED.version, EXCLUDED.status, EXCLUDED.phase, EXCLUDED.deal_number, EXCLUDED.deals_in_match, EXCLUDED.players,
           EXCLUDED.options, EXCLUDED.seeded, EXCLUDED.totals, EXCLUDED.winners, EXCLUDED.updated_at)
        WHERE match_list.version < EXCLUDED.version;`;

export const VIEW_UPSERT = `
        INSERT INTO match_views SELECT * FROM jsonb_populate_record(NULL::match_views, p_arg->'view')
        ON CONFLICT (match_id) DO UPDATE SET version = EXCLUDED.version, doc = EXCLUDED.doc
        WHERE match_views.version < EXCLUDED.version;`;

export const SEAT_VIEWS_UPSERT = `
        INSERT INTO seat_views SELECT * FROM jsonb_populate_recordset(NULL::seat_views, p_arg->'seats')
        ON CONFLICT (match_id, seat) DO UPDATE SET version = EXCLUDED.version, doc = EXCLUDED.doc
        WHERE seat_views.version < EXCLUDED.version;`;

/** With every command. */
export const SCORECARD_UPSERT = `
        INSERT INTO scorecards SELECT * FROM jsonb_populate_record(NULL::scorecards, p_arg->'scorecard')
        ON CONFLICT (match_id) DO UPDATE SET version = EXCLUDED.version, doc = EXCLUDED.doc
        WHERE scorecards.version < EXCLUDED.version;`;

/** Only when the command sends one (SlimProjections1799000003000). */
export const SCORECARD_UPSERT_IF_SENT = `
        IF p_arg ? 'scorecard' THEN
          INSERT INTO scorecards SELECT * FROM jsonb_populate_record(NULL::scorecards, p_arg->'scorecard')
          ON CONFLICT (match_id) DO UPDATE SET version = EXCLUDED.version, doc = EXCLUDED.doc
          WHERE scorecards.version < EXCLUDED.version;
        END IF;`;

export const CREDENTIALS_INSERT = `
        IF p_arg ? 'credentials' THEN
          INSERT INTO seat_credentials
          SELECT * FROM jsonb_populate_recordset(NULL::seat_credentials, p_arg->'credentials');
        END IF;`;

export const SECRET_INSERT = `
        IF p_arg ? 'secret' THEN
          INSERT INTO match_secrets SELECT * FROM jsonb_populate_record(NULL::match_secrets, p_arg->'secret');
        END IF;`;

export const SEEDS_INSERT = `
        IF p_arg ? 'seeds' THEN
          INSERT INTO deal_seeds SELECT * FROM jsonb_populate_recordset(NULL::deal_seeds, p_arg->'seeds');
        END IF;`;
