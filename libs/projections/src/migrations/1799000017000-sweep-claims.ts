import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sweep claims (docs/architecture.md, "Turn clocks and sweeps"): which api instance handles an overdue
 * turn. An instance's sweep claims the matches it reads, each at the version it found, for a short
 * lease; another instance's read skips a claim in force (its own tries are its own business), so each timeout is decided by one instance, however
 * many run, and one that dies mid-sweep leaves its claims to lapse. Not a game fact and never in the
 * log: UNLOGGED, like presence (a database crash empties it, which only lets a claim be taken again).
 */
export class SweepClaims1799000017000 implements MigrationInterface {
  name = 'SweepClaims1799000017000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE sweep_claims (
        sweep      text NOT NULL,
        match_id   text NOT NULL,
        version    integer NOT NULL,
        claimed_by text NOT NULL,
        until      timestamptz NOT NULL,
        PRIMARY KEY (sweep, match_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sweep_claims`);
  }
}
