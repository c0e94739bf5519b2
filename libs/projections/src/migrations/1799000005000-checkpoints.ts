import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each public view now names its checkpoint: the newest version at which nothing in the log was
 * secret, whose chain hash a client may pin (docs/fairness.md §9). Views written before get it from
 * the log by the same rule as `nothingSecret` in libs/rules: if the last deal started is scored (or
 * none was), that is the view's own version; otherwise it is the version just before that deal was
 * first started (a voided attempt keeps its cards secret until the deal is scored).
 */
export class Checkpoints1799000005000 implements MigrationInterface {
  name = 'Checkpoints1799000005000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      WITH last_started AS (
        SELECT DISTINCT ON (stream_id) stream_id, (data->>'deal')::int AS deal
          FROM events WHERE type = 'DealStarted'
         ORDER BY stream_id, version DESC
      ), open_deal AS (
        SELECT l.stream_id, min(e.version) - 1 AS checkpoint
          FROM last_started l
          JOIN events e ON e.stream_id = l.stream_id AND e.type = 'DealStarted' AND (e.data->>'deal')::int = l.deal
         WHERE NOT EXISTS (SELECT 1 FROM events s WHERE s.stream_id = l.stream_id AND s.type = 'DealScored' AND (s.data->>'deal')::int = l.deal)
         GROUP BY l.stream_id
      )
      UPDATE match_views v
         SET doc = v.doc || jsonb_build_object('checkpoint', jsonb_build_object(
               'version', coalesce((SELECT o.checkpoint FROM open_deal o WHERE o.stream_id = v.match_id), v.version)))
       WHERE NOT v.doc ? 'checkpoint'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE match_views SET doc = doc - 'checkpoint'`);
  }
}
