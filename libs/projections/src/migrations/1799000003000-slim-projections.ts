import type { MigrationInterface, QueryRunner } from 'typeorm';
import { projectFunction, CREDENTIALS_INSERT, LIST_UPSERT_DEAL_COLUMNS, SCORECARD_UPSERT_IF_SENT, SEAT_VIEWS_UPSERT, SECRET_INSERT, SEEDS_INSERT, VIEW_UPSERT } from './frozen-project-function';

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
    await q.query(projectFunction('CREATE OR REPLACE', [LIST_UPSERT_DEAL_COLUMNS, VIEW_UPSERT, SEAT_VIEWS_UPSERT, SCORECARD_UPSERT_IF_SENT], [CREDENTIALS_INSERT, SECRET_INSERT, SEEDS_INSERT]));
  }

  async down(q: QueryRunner): Promise<void> {
    // The whole documents come back from the log: run `bismarck rebuild` after reverting.
    await q.query(`UPDATE scorecards s SET doc = s.doc || jsonb_build_object('id', s.match_id, 'version', s.version)`);
  }
}
