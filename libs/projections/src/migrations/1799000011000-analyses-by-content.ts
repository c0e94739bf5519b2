import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Analyses kept by the deal's content rather than by match (docs/clients.md, "Analysis of a scored
 * deal"): a fork replays its source's deals card for card, and the same deal is solved once.
 * `deal_solves` holds one document per content key (`sha256:<hex>` of the deal's cards, contract and
 * result: apps/api/src/game/analysis/deal-analysis.ts `dealContent`); `deal_analyses` keeps, per match and
 * deal, only the key of its solve. An analysis kept before this migration gets the key
 * `match:<id>:<deal>`: served as before, shared with no other deal (its content is not in the table).
 */
export class AnalysesByContent1799000011000 implements MigrationInterface {
  name = 'AnalysesByContent1799000011000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE deal_solves (
        content text PRIMARY KEY,
        doc jsonb NOT NULL,
        max_nodes bigint NOT NULL,
        compute_ms int NOT NULL,
        computed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      INSERT INTO deal_solves (content, doc, max_nodes, compute_ms, computed_at)
      SELECT 'match:' || match_id || ':' || deal, doc, max_nodes, compute_ms, computed_at FROM deal_analyses`);
    await q.query(`ALTER TABLE deal_analyses ADD COLUMN content text`);
    await q.query(`UPDATE deal_analyses SET content = 'match:' || match_id || ':' || deal`);
    await q.query(`
      ALTER TABLE deal_analyses ALTER COLUMN content SET NOT NULL,
        DROP COLUMN doc, DROP COLUMN max_nodes, DROP COLUMN compute_ms, DROP COLUMN computed_at`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE deal_analyses ADD COLUMN doc jsonb, ADD COLUMN max_nodes bigint, ADD COLUMN compute_ms int,
        ADD COLUMN computed_at timestamptz NOT NULL DEFAULT now()`);
    await q.query(`
      UPDATE deal_analyses a SET doc = s.doc, max_nodes = s.max_nodes, compute_ms = s.compute_ms, computed_at = s.computed_at
        FROM deal_solves s WHERE s.content = a.content`);
    await q.query(`DELETE FROM deal_analyses WHERE doc IS NULL`);
    await q.query(`
      ALTER TABLE deal_analyses ALTER COLUMN doc SET NOT NULL, ALTER COLUMN max_nodes SET NOT NULL,
        ALTER COLUMN compute_ms SET NOT NULL, DROP COLUMN content`);
    await q.query(`DROP TABLE deal_solves`);
  }
}
