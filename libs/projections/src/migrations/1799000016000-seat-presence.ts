import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Presence (issue 31; docs/architecture.md, "Presence"): which seats have a live stream open, on any
 * api instance. Not a game fact and never in the log: each instance keeps one row per match and seat
 * it holds streams for, with how many, and renews `expires_at` on a heartbeat; a row past it is an
 * instance gone (crashed, cut off) and counts for nothing. UNLOGGED: no WAL for what is rewritten every
 * few seconds anyway; a database crash empties it, and the instances write their rows again on their
 * next heartbeat. The index serves an instance's heartbeat and its goodbye.
 */
export class SeatPresence1799000016000 implements MigrationInterface {
  name = 'SeatPresence1799000016000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE seat_presence (
        match_id    text NOT NULL,
        seat        smallint NOT NULL,
        instance_id text NOT NULL,
        streams     integer NOT NULL CHECK (streams > 0),
        expires_at  timestamptz NOT NULL,
        PRIMARY KEY (match_id, seat, instance_id)
      )`);
    await q.query(`CREATE INDEX seat_presence_instance ON seat_presence (instance_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE seat_presence`);
  }
}
