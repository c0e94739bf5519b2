import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The analysis of scored deals (`GET /api/matches/{id}/analysis?deal=N`): one row per match and deal,
 * written once, when the api's worker has solved it. It is derived from the log and deterministic
 * (the solver counts nodes, not time), and a scored deal never changes, so a row is never updated:
 * a second writer (another instance that raced) changes nothing (`ON CONFLICT DO NOTHING`). The
 * projection rebuild leaves the table as it is (docs/architecture.md, "Read side").
 */
export class DealAnalyses1799000008000 implements MigrationInterface {
  name = 'DealAnalyses1799000008000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE deal_analyses (
        match_id text NOT NULL,
        deal int NOT NULL,
        doc jsonb NOT NULL,
        max_nodes bigint NOT NULL,
        compute_ms int NOT NULL,
        computed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (match_id, deal)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE deal_analyses`);
  }
}
