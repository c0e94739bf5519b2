import type { MigrationInterface, QueryRunner } from 'typeorm';
import { projectFunction, CREDENTIALS_INSERT, LIST_UPSERT_DEAL_COLUMNS, SCORECARD_UPSERT, SEAT_VIEWS_UPSERT, SECRET_INSERT, VIEW_UPSERT } from './frozen-project-function';

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
    await q.query(projectFunction('CREATE', [LIST_UPSERT_DEAL_COLUMNS, VIEW_UPSERT, SEAT_VIEWS_UPSERT, SCORECARD_UPSERT], [CREDENTIALS_INSERT, SECRET_INSERT]));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION bismarck_project(text, int, jsonb)`);
    for (const t of ['match_secrets', 'seat_credentials', 'scorecards', 'seat_views', 'match_views', 'match_list']) {
      await q.query(`DROP TABLE ${t}`);
    }
  }
}
