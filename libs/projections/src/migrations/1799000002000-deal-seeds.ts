import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Provably fair deals: the server's secret seed behind each deck commitment, kept out of the log until
 * the deal is scored (then a SeedRevealed event publishes it). Written by the inline projection
 * function in the same transaction as the DeckCommitted event, so a commitment never exists without
 * its seed. Not a projection: a rebuild never touches it.
 */
export class DealSeeds1799000002000 implements MigrationInterface {
  name = 'DealSeeds1799000002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE deal_seeds (
        match_id text NOT NULL,
        deal int NOT NULL,
        commitment text NOT NULL,
        seed text NOT NULL,
        PRIMARY KEY (match_id, commitment)
      )`);
    await q.query(`CREATE INDEX deal_seeds_by_deal ON deal_seeds (match_id, deal)`);
    // The inline projection, as before, and now also the seeds behind new deck commitments.
    await q.query(`
      CREATE OR REPLACE FUNCTION bismarck_project(p_stream text, p_version int, p_arg jsonb) RETURNS void
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
        IF p_arg ? 'seeds' THEN
          INSERT INTO deal_seeds SELECT * FROM jsonb_populate_recordset(NULL::deal_seeds, p_arg->'seeds');
        END IF;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE deal_seeds`);
  }
}
