import type { MigrationInterface, QueryRunner } from 'typeorm';
import { projectFunction, CREDENTIALS_INSERT, LIST_UPSERT_DEAL_COLUMNS, SCORECARD_UPSERT, SEAT_VIEWS_UPSERT, SECRET_INSERT, SEEDS_INSERT, VIEW_UPSERT } from './frozen-project-function';

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
    await q.query(projectFunction('CREATE OR REPLACE', [LIST_UPSERT_DEAL_COLUMNS, VIEW_UPSERT, SEAT_VIEWS_UPSERT, SCORECARD_UPSERT], [CREDENTIALS_INSERT, SECRET_INSERT, SEEDS_INSERT]));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE deal_seeds`);
  }
}
