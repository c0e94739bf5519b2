import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A fork names its origin in the match list (`forked_from`) and in its public view (`forkedFrom`),
 * null for every other match. Rows written before get it from the match's MatchCreated event, the
 * only place it was kept until now. The new column is last, so the inline projection's
 * `jsonb_populate_record` and the rebuild (`LIKE match_list`) pick it up by name without a change.
 */
export class ForkedFrom1799000009000 implements MigrationInterface {
  name = 'ForkedFrom1799000009000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE match_list ADD COLUMN forked_from jsonb`);
    // GET /api/matches?forkedFrom={id}: the forks of a match, newest first.
    await q.query(`CREATE INDEX match_list_forks ON match_list ((forked_from->>'matchId'), created_at DESC, id DESC) WHERE forked_from IS NOT NULL`);
    await q.query(`
      UPDATE match_list l SET forked_from = e.data->'forkedFrom'
        FROM events e
       WHERE e.stream_id = l.id AND e.version = 1 AND e.data ? 'forkedFrom'`);
    await q.query(`
      UPDATE match_views v
         SET doc = v.doc || jsonb_build_object('forkedFrom', (SELECT e.data->'forkedFrom' FROM events e WHERE e.stream_id = v.match_id AND e.version = 1))
       WHERE NOT v.doc ? 'forkedFrom'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE match_views SET doc = doc - 'forkedFrom'`);
    await q.query(`DROP INDEX match_list_forks`);
    await q.query(`ALTER TABLE match_list DROP COLUMN forked_from`);
  }
}
