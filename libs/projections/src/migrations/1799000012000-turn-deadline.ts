import type { MigrationInterface, QueryRunner } from 'typeorm';
import { PROJECT_FUNCTION_SQL } from '../project-function';
import { PROJECT_FUNCTION_10000 } from './1799000010000-project-function';

/**
 * Turn clocks: the list row says when the service has to act next for the person to act
 * (`turn_deadline`: a running clock's deadline, or the turn's start when a stand-in is due), so that
 * any instance's sweep finds the expired ones with an index; the public view gains `away` and
 * `clock`. No match had a clock before: every row written until now has none, and no seat away.
 * `bismarck_project` is installed again because its update now rewrites the new column.
 */
export class TurnDeadline1799000012000 implements MigrationInterface {
  name = 'TurnDeadline1799000012000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE match_list ADD COLUMN turn_deadline timestamptz`);
    await q.query(`CREATE INDEX match_list_turn_deadline ON match_list (turn_deadline) WHERE turn_deadline IS NOT NULL`);
    await q.query(`UPDATE match_views SET doc = doc || '{"away": [false, false, false], "clock": null}'::jsonb WHERE NOT doc ? 'away'`);
    await q.query(PROJECT_FUNCTION_SQL);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(PROJECT_FUNCTION_10000);
    await q.query(`UPDATE match_views SET doc = doc - 'away' - 'clock'`);
    await q.query(`DROP INDEX match_list_turn_deadline`);
    await q.query(`ALTER TABLE match_list DROP COLUMN turn_deadline`);
  }
}
