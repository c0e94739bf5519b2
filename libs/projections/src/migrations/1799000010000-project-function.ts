import type { MigrationInterface, QueryRunner } from 'typeorm';
import { PROJECT_FUNCTION_SQL } from '../project-function';
import { LIST_PLAYERS_PROJECT_FUNCTION } from './1799000004000-list-players';

/**
 * `bismarck_project` as project-function.ts writes it, from the tables' columns: the same statements
 * as ListPlayers1799000004000 installed, laid out anew, and the list row's `forked_from` is now
 * among the columns an update rewrites (every column but the key and `created_at`; a fork's origin
 * never changes, so the rows stay the same). The only migration that imports today's text: freeze it
 * here before changing that (project-function.ts says how).
 */
export class ProjectFunction1799000010000 implements MigrationInterface {
  name = 'ProjectFunction1799000010000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(PROJECT_FUNCTION_SQL);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(LIST_PLAYERS_PROJECT_FUNCTION);
  }
}
