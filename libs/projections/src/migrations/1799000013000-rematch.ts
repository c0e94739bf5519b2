import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rematches (docs/clients.md, "Rematch"). A person keeps one seat token for a series of matches: the
 * rematch's seat has the same token hash as the finished match's, so a hash is no longer unique in
 * `seat_credentials` (it stays indexed: a token of another match is told apart from an unknown one by
 * it). The public view gains `rematch`, which views written before get from the log.
 */
export class Rematch1799000013000 implements MigrationInterface {
  name = 'Rematch1799000013000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE seat_credentials DROP CONSTRAINT seat_credentials_token_hash_key`);
    await q.query(`CREATE INDEX seat_credentials_token_hash ON seat_credentials (token_hash)`);
    // From the log, as the projection writes it: null for every match without a RematchOffered (all of them, on an upgrade).
    await q.query(`
      UPDATE match_views v
         SET doc = v.doc || jsonb_build_object('rematch', (SELECT e.data->>'matchId' FROM events e WHERE e.stream_id = v.match_id AND e.type = 'RematchOffered' ORDER BY e.version LIMIT 1))
       WHERE NOT v.doc ? 'rematch'`);
  }

  /** Fails while a token acts in two matches of a series (reverting would cut a person off one of them). */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE match_views SET doc = doc - 'rematch'`);
    await q.query(`DROP INDEX seat_credentials_token_hash`);
    await q.query(`ALTER TABLE seat_credentials ADD CONSTRAINT seat_credentials_token_hash_key UNIQUE (token_hash)`);
  }
}
