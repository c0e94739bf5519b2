import type { MigrationInterface, QueryRunner } from 'typeorm';
import { projectFunction, CREDENTIALS_INSERT, LIST_UPSERT_EVERY_COLUMN, SCORECARD_UPSERT_IF_SENT, SEAT_VIEWS_UPSERT, SECRET_INSERT, SEEDS_INSERT, VIEW_UPSERT } from './frozen-project-function';

/** The function as this migration installed it (ProjectFunction1799000010000 puts it back when reverted). */
export const LIST_PLAYERS_PROJECT_FUNCTION = projectFunction('CREATE OR REPLACE', [LIST_UPSERT_EVERY_COLUMN, VIEW_UPSERT, SEAT_VIEWS_UPSERT, SCORECARD_UPSERT_IF_SENT], [CREDENTIALS_INSERT, SECRET_INSERT, SEEDS_INSERT]);

/**
 * The match list follows every change of a match, its players included: until now a join
 * (SeatJoined) left the list at the names of creation, so a lobby browser offered taken seats and the
 * live row differed from a rebuild. `bismarck_project` now updates every column of the list row but
 * its key and creation time; rows written before are mended from the public view (its seats' names).
 */
export class ListPlayers1799000004000 implements MigrationInterface {
  name = 'ListPlayers1799000004000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE match_list l
         SET players = (SELECT jsonb_agg(s.seat->'name' ORDER BY s.n) FROM jsonb_array_elements(v.doc->'seats') WITH ORDINALITY AS s(seat, n))
        FROM match_views v
       WHERE v.match_id = l.id AND jsonb_typeof(v.doc->'seats') = 'array'`);
    await q.query(LIST_PLAYERS_PROJECT_FUNCTION);
  }

  async down(): Promise<void> {
    // The older function left the players as created; keeping the fuller update is harmless.
  }
}
