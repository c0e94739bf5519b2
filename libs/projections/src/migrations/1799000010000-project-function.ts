import type { MigrationInterface, QueryRunner } from 'typeorm';
import { LIST_PLAYERS_PROJECT_FUNCTION } from './1799000004000-list-players';

/**
 * `bismarck_project` as project-function.ts writes it, from the tables' columns: the same statements
 * as ListPlayers1799000004000 installed, laid out anew, and the list row's `forked_from` is now
 * among the columns an update rewrites (every column but the key and `created_at`; a fork's origin
 * never changes, so the rows stay the same). Frozen here when TurnDeadline1799000012000 changed it.
 */
export const PROJECT_FUNCTION_10000 = `CREATE OR REPLACE FUNCTION bismarck_project(p_stream text, p_version int, p_arg jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO match_list SELECT * FROM jsonb_populate_record(NULL::match_list, p_arg->'match')
    ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, status = EXCLUDED.status, phase = EXCLUDED.phase, deal_number = EXCLUDED.deal_number, deals_in_match = EXCLUDED.deals_in_match, players = EXCLUDED.players, options = EXCLUDED.options, seeded = EXCLUDED.seeded, totals = EXCLUDED.totals, winners = EXCLUDED.winners, updated_at = EXCLUDED.updated_at, forked_from = EXCLUDED.forked_from
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
    INSERT INTO seat_credentials SELECT * FROM jsonb_populate_recordset(NULL::seat_credentials, p_arg->'credentials');
  END IF;

  IF p_arg ? 'secret' THEN
    INSERT INTO match_secrets SELECT * FROM jsonb_populate_record(NULL::match_secrets, p_arg->'secret');
  END IF;

  IF p_arg ? 'seeds' THEN
    INSERT INTO deal_seeds SELECT * FROM jsonb_populate_recordset(NULL::deal_seeds, p_arg->'seeds');
  END IF;
END
$$`;

export class ProjectFunction1799000010000 implements MigrationInterface {
  name = 'ProjectFunction1799000010000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(PROJECT_FUNCTION_10000);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(LIST_PLAYERS_PROJECT_FUNCTION);
  }
}
