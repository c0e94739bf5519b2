import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ratings (issue 31): one row per rated identity, a player id or `bot:<strategy>`. Written by the
 * api's ratings projector, which follows the log in commit order under its checkpoint `ratings`
 * (subscription_checkpoints), in the same transaction; the rebuild recomputes it from scratch.
 * The index serves the leaderboard: ordinal descending, then id by code points (COLLATE "C").
 */
export class Ratings1799000015000 implements MigrationInterface {
  name = 'Ratings1799000015000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ratings (
        id      text PRIMARY KEY,
        mu      double precision NOT NULL,
        sigma   double precision NOT NULL,
        ordinal double precision NOT NULL,
        matches integer NOT NULL
      )`);
    await q.query(`CREATE INDEX ratings_leaderboard ON ratings (ordinal DESC, id COLLATE "C")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ratings`);
  }
}
