import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `es_append_batch(items jsonb)`: several appends (to different streams, as a rule) in ONE statement,
 * one transaction and one commit; EventStore uses it when `batchAppends` is on and appends queue up.
 *
 * Every stream's advisory lock is taken first, in one global order (no deadlock between two batches,
 * nor with a single es_append), before anything is written: the transaction id is assigned at the
 * first write, after every earlier append to these streams has committed, so each stream's events
 * still enter the commit-order feed in version order. Then each item is exactly `es_append` (whose own
 * lock is then re-entrant). An item that RAISEs rolls back the whole batch; the caller then runs each
 * item alone, so that only that one fails.
 */
export class EventStoreAppendBatch1764500000000 implements MigrationInterface {
  readonly name = 'EventStoreAppendBatch1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION es_append_batch(p_items jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
      DECLARE
        v_key  bigint;
        v_item jsonb;
        v_out  jsonb[] := '{}';
      BEGIN
        IF jsonb_typeof(p_items) IS DISTINCT FROM 'array' THEN
          RAISE EXCEPTION 'es_append_batch: items must be an array' USING ERRCODE = '22023';
        END IF;
        FOR v_key IN
          SELECT DISTINCT hashtextextended('es_stream:' || (i->>'stream'), 0) FROM jsonb_array_elements(p_items) AS i ORDER BY 1
        LOOP
          PERFORM pg_advisory_xact_lock(v_key);
        END LOOP;
        FOR v_item IN
          SELECT t.e FROM jsonb_array_elements(p_items) WITH ORDINALITY AS t(e, n) ORDER BY t.n
        LOOP
          v_out := v_out || es_append(v_item->>'stream', (v_item->>'expected')::integer, v_item->'events',
                                      v_item->>'idemScope', v_item->>'idemKey', v_item->>'requestHash',
                                      v_item->'response', v_item->>'inlineFn', v_item->'inlineArg');
        END LOOP;
        RETURN to_jsonb(v_out);
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION IF EXISTS es_append_batch(jsonb)`);
  }
}
