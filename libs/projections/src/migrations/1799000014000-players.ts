import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Player accounts (docs/players.md). Each player is a stream of its own in the log (`pl-<uuid>`);
 * `players` is its projection (rebuilt from the log like the match tables), `player_tokens` holds
 * the SHA-256 of each live token beside the log, never in it (as `seat_credentials` does for seats).
 * A GIN index finds the matches whose public view binds a seat to a player ("my matches").
 * `bismarck_project_player` is the accounts' inline projection: it runs in the append's transaction,
 * so a token works, and a revoked one stops working, the moment its event commits, on every instance.
 */
export class Players1799000014000 implements MigrationInterface {
  name = 'Players1799000014000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE players (
        id         text PRIMARY KEY,
        version    integer NOT NULL,
        name       text NOT NULL,
        deleted    boolean NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE player_tokens (
        token_hash text PRIMARY KEY,
        player_id  text NOT NULL,
        token_id   text NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT player_tokens_player_token_key UNIQUE (player_id, token_id)
      )`);
    // "My matches": the views whose seats name a player (a seat's `player`, only on bound seats).
    await q.query(`CREATE INDEX match_views_seat_players ON match_views USING gin ((doc->'seats') jsonb_path_ops)`);
    await q.query(`
      CREATE FUNCTION bismarck_project_player(p_stream text, p_version int, p_arg jsonb) RETURNS void
      LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO players SELECT * FROM jsonb_populate_record(NULL::players, p_arg->'player')
        ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, name = EXCLUDED.name, deleted = EXCLUDED.deleted, updated_at = EXCLUDED.updated_at
        WHERE players.version < EXCLUDED.version;
        IF p_arg ? 'token' THEN
          INSERT INTO player_tokens SELECT * FROM jsonb_populate_record(NULL::player_tokens, p_arg->'token');
        END IF;
        DELETE FROM player_tokens
         WHERE player_id = p_stream
           AND ((p_arg->'player'->>'deleted')::boolean
                OR token_id IN (SELECT jsonb_array_elements_text(coalesce(p_arg->'revoked', '[]'::jsonb))));
      END
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION bismarck_project_player(text, int, jsonb)`);
    await q.query(`DROP INDEX match_views_seat_players`);
    await q.query(`DROP TABLE player_tokens`);
    await q.query(`DROP TABLE players`);
  }
}
