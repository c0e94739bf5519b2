import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event types after which the scorecard can differ: rules' changesScorecard when this migration
 * was written, copied on purpose (a migration must do the same whenever it runs, whatever the rules
 * say later). Code that runs today asks changesScorecard itself.
 */
const SCORECARD_EVENTS = `('MatchCreated', 'SeatJoined', 'ContractChosen', 'DealScored', 'MatchFinished')`;

/**
 * Smaller projection rows, written only when they change (docs/performance.md):
 * - `seat_views.doc` keeps only what the seat sees beyond the public view (`seat`, `hand`, `laidAway`,
 *   `legal`); the read returns `match_views.doc || seat_views.doc`, the same document as before.
 * - `scorecards.doc` no longer repeats `id` and `version`, and `scorecards.version` is the version of
 *   the last event that changed the scorecard: a command that cannot change it (a card played) does
 *   not rewrite it. The read adds `id` and the match's current version.
 * `bismarck_project` writes a scorecard only when the command sends one.
 */
export class SlimProjections1799000003000 implements MigrationInterface {
  name = 'SlimProjections1799000003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE seat_views SET doc = jsonb_build_object('seat', doc->'seat', 'hand', doc->'hand', 'laidAway', doc->'laidAway', 'legal', doc->'legal')`);
    await q.query(`
      UPDATE scorecards s SET doc = s.doc - 'id' - 'version',
             version = coalesce((SELECT max(e.version) FROM events e WHERE e.stream_id = s.match_id AND e.type IN ${SCORECARD_EVENTS}), s.version)`);
    await q.query(`
      CREATE OR REPLACE FUNCTION bismarck_project(p_stream text, p_version int, p_arg jsonb) RETURNS void
      LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO match_list SELECT * FROM jsonb_populate_record(NULL::match_list, p_arg->'match')
        ON CONFLICT (id) DO UPDATE SET
          version = EXCLUDED.version, status = EXCLUDED.status, phase = EXCLUDED.phase,
          deal_number = EXCLUDED.deal_number, totals = EXCLUDED.totals, winners = EXCLUDED.winners,
          updated_at = EXCLUDED.updated_at
        WHERE match_list.version < EXCLUDED.version;

        INSERT INTO match_views SELECT * FROM jsonb_populate_record(NULL::match_views, p_arg->'view')
        ON CONFLICT (match_id) DO UPDATE SET version = EXCLUDED.version, doc = EXCLUDED.doc
        WHERE match_views.version < EXCLUDED.version;

        INSERT INTO seat_views SELECT * FROM jsonb_populate_recordset(NULL::seat_views, p_arg->'seats')
        ON CONFLICT (match_id, seat) DO UPDATE SET version = EXCLUDED.version, doc = EXCLUDED.doc
        WHERE seat_views.version < EXCLUDED.version;

        IF p_arg ? 'scorecard' THEN
          INSERT INTO scorecards SELECT * FROM jsonb_populate_record(NULL::scorecards, p_arg->'scorecard')
          ON CONFLICT (match_id) DO UPDATE SET version = EXCLUDED.version, doc = EXCLUDED.doc
          WHERE scorecards.version < EXCLUDED.version;
        END IF;

        IF p_arg ? 'credentials' THEN
          INSERT INTO seat_credentials
          SELECT * FROM jsonb_populate_recordset(NULL::seat_credentials, p_arg->'credentials');
        END IF;
        IF p_arg ? 'secret' THEN
          INSERT INTO match_secrets SELECT * FROM jsonb_populate_record(NULL::match_secrets, p_arg->'secret');
        END IF;
        IF p_arg ? 'seeds' THEN
          INSERT INTO deal_seeds SELECT * FROM jsonb_populate_recordset(NULL::deal_seeds, p_arg->'seeds');
        END IF;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    // The whole documents come back from the log: run `bismarck rebuild` after reverting.
    await q.query(`UPDATE scorecards s SET doc = s.doc || jsonb_build_object('id', s.match_id, 'version', s.version)`);
  }
}
