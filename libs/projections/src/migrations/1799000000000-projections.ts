import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The read side: one row per match (list), its public view, each seat's view and the scorecard,
 * each stamped with the stream version it reflects. `bismarck_project` is the inline projection that
 * the event store calls inside the append transaction, so a command's rows commit with its events.
 * Seat credentials and seeds are written there too but are not projections: they are never in the log.
 */
export class Projections1799000000000 implements MigrationInterface {
  name = 'Projections1799000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE match_list (
        id text PRIMARY KEY,
        version int NOT NULL,
        status text NOT NULL,
        phase text NOT NULL,
        deal_number int NOT NULL,
        deals_in_match int NOT NULL,
        players jsonb NOT NULL,
        options jsonb NOT NULL,
        seeded boolean NOT NULL,
        totals jsonb NOT NULL,
        winners jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX match_list_newest ON match_list (created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX match_list_status_newest ON match_list (status, created_at DESC, id DESC)`);
    await q.query(`CREATE TABLE match_views (match_id text PRIMARY KEY, version int NOT NULL, doc jsonb NOT NULL)`);
    await q.query(`
      CREATE TABLE seat_views (
        match_id text NOT NULL, seat smallint NOT NULL, version int NOT NULL, doc jsonb NOT NULL,
        PRIMARY KEY (match_id, seat)
      )`);
    await q.query(`CREATE TABLE scorecards (match_id text PRIMARY KEY, version int NOT NULL, doc jsonb NOT NULL)`);
    await q.query(`
      CREATE TABLE seat_credentials (
        match_id text NOT NULL, seat smallint NOT NULL, token_hash text NOT NULL UNIQUE,
        PRIMARY KEY (match_id, seat)
      )`);
    await q.query(`CREATE TABLE match_secrets (match_id text PRIMARY KEY, seed text NOT NULL)`);
    // Rows only move forward: a late or repeated write of an older version changes nothing.
    await q.query(`
      CREATE FUNCTION bismarck_project(p_stream text, p_version int, p_arg jsonb) RETURNS void
      LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO match_list SELECT * FROM jsonb_populate_record(NULL::match_list, p_arg->'match')
        ON CONFLICT (id) DO UPDATE SET
          version = EXCLUDED.version, status = EXCLUDED.status, phase = EXCLUDED.phase,
          deal_number = EXCLUDED.deal_number, totals = EXCLUDED.totals, winners = EXCLUDED.winners,
          updated_at = EXCLUDED.updated_at
        WHERE match_list.version < EXCLUDED.version;

        INSERT INTO match_views SELECT * FROM jsonb_populate_record(NULL::match_views, p_arg->'view')
        ON CONFLICT (match_id) DO UPDATE SET version = EXCLUDED.version, doc = EXCLUDED.doc
        WHERE match_views.version < EXCLUDED.version;

        INSERT INTO seat_views SELECT * FROM jsonb_populate_recordset(NULL::seat_views, p_arg->'seats')
        ON CONFLICT (match_id, seat) DO UPDATE SET version = EXCLUDED.version, doc = EXCLUDED.doc
        WHERE seat_views.version < EXCLUDED.version;

        INSERT INTO scorecards SELECT * FROM jsonb_populate_record(NULL::scorecards, p_arg->'scorecard')
        ON CONFLICT (match_id) DO UPDATE SET version = EXCLUDED.version, doc = EXCLUDED.doc
        WHERE scorecards.version < EXCLUDED.version;

        IF p_arg ? 'credentials' THEN
          INSERT INTO seat_credentials
          SELECT * FROM jsonb_populate_recordset(NULL::seat_credentials, p_arg->'credentials');
        END IF;
        IF p_arg ? 'secret' THEN
          INSERT INTO match_secrets SELECT * FROM jsonb_populate_record(NULL::match_secrets, p_arg->'secret');
        END IF;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION bismarck_project(text, int, jsonb)`);
    for (const t of ['match_secrets', 'seat_credentials', 'scorecards', 'seat_views', 'match_views', 'match_list']) {
      await q.query(`DROP TABLE ${t}`);
    }
  }
}
