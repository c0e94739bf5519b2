import type { MigrationInterface, QueryRunner } from 'typeorm';

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
    await q.query(`
      CREATE OR REPLACE FUNCTION bismarck_project(p_stream text, p_version int, p_arg jsonb) RETURNS void
      LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO match_list SELECT * FROM jsonb_populate_record(NULL::match_list, p_arg->'match')
        ON CONFLICT (id) DO UPDATE SET
          (version, status, phase, deal_number, deals_in_match, players, options, seeded, totals, winners, updated_at) =
          (EXCLUDED.version, EXCLUDED.status, EXCLUDED.phase, EXCLUDED.deal_number, EXCLUDED.deals_in_match, EXCLUDED.players,
           EXCLUDED.options, EXCLUDED.seeded, EXCLUDED.totals, EXCLUDED.winners, EXCLUDED.updated_at)
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

  async down(): Promise<void> {
    // The older function left the players as created; keeping the fuller update is harmless.
  }
}
