import type { MigrationInterface, QueryRunner } from 'typeorm';
import { recordMigration } from '@bismarck/database';
import { PLAYER_PROJECT_FUNCTION, PLAYER_PROJECT_FUNCTION_SQL } from '../project-function';
import { Players1799000014000 } from './1799000014000-players';

/**
 * `bismarck_project_player` as project-function.ts writes it, from the tables' columns: the same
 * statements as Players1799000014000 installed (the account's row moved forward, a new token's hash,
 * the revoked tokens and a deleted account's deleted), laid out anew.
 */
export class PlayerProjectFunction1799000018000 implements MigrationInterface {
  name = 'PlayerProjectFunction1799000018000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(PLAYER_PROJECT_FUNCTION_SQL);
  }

  /** Back to the function Players1799000014000 created, its statement taken from that migration rather than copied. */
  async down(q: QueryRunner): Promise<void> {
    const created = (await recordMigration(Players1799000014000)).up.find((s) => s.sql.includes(`CREATE FUNCTION ${PLAYER_PROJECT_FUNCTION}(`));
    if (!created) throw new Error(`Players1799000014000 no longer creates ${PLAYER_PROJECT_FUNCTION}`);
    await q.query(`DROP FUNCTION ${PLAYER_PROJECT_FUNCTION}(text, int, jsonb)`);
    await q.query(created.sql);
  }
}
