import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event log, idempotency keys, subscription checkpoints and the one-round-trip append function.
 * Raw SQL on purpose: the guarantees live in the database (constraints, triggers, es_append), not
 * in entity metadata. Needs PostgreSQL 13+ (xid8, pg_current_xact_id) — PGlite reports 18.
 */
export class EventStoreSchema1764400000000 implements MigrationInterface {
  readonly name = 'EventStoreSchema1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE events (
        position    bigserial   PRIMARY KEY,
        tx_id       xid8        NOT NULL DEFAULT pg_current_xact_id(),
        stream_id   text        NOT NULL,
        version     integer     NOT NULL CHECK (version > 0),
        type        text        NOT NULL,
        data        jsonb       NOT NULL,
        metadata    jsonb       NOT NULL DEFAULT '{}'::jsonb,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        hash        bytea       NOT NULL,
        CONSTRAINT events_stream_version_key UNIQUE (stream_id, version)
      )`);
    // The commit-order feed reads (tx_id, position) > checkpoint ORDER BY tx_id, position.
    await q.query(`CREATE INDEX events_tx_position_idx ON events (tx_id, position)`);

    // Append-only, enforced by the database: a statement trigger fires even when no row matches.
    await q.query(`
      CREATE FUNCTION es_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'events is append-only: % refused', TG_OP
          USING ERRCODE = 'ES001', HINT = 'Events are never updated or deleted; append a correcting event.';
      END $$`);
    await q.query(`
      CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON events
        FOR EACH STATEMENT EXECUTE FUNCTION es_refuse_change()`);

    await q.query(`
      CREATE TABLE idempotency_keys (
        stream_id    text        NOT NULL,
        scope        text        NOT NULL,
        key          text        NOT NULL,
        request_hash text        NOT NULL,
        response     jsonb,
        version      integer     NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (stream_id, scope, key)
      )`);

    await q.query(`
      CREATE TABLE subscription_checkpoints (
        name       text        PRIMARY KEY,
        tx_id      xid8        NOT NULL,
        position   bigint      NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    // Tamper evidence: each event's hash covers its predecessor's hash and all of its own fields.
    // jsonb's text form is canonical (sorted keys, fixed spacing), so the hash is reproducible.
    await q.query(`
      CREATE FUNCTION es_event_hash(p_prev bytea, p_stream text, p_version integer, p_type text,
                                    p_data jsonb, p_metadata jsonb, p_at timestamptz)
      RETURNS bytea LANGUAGE sql STABLE AS $$
        SELECT sha256(coalesce(p_prev, ''::bytea) || convert_to(jsonb_build_array(
          p_stream, p_version, p_type, p_data, p_metadata,
          (extract(epoch FROM p_at) * 1000000)::bigint)::text, 'UTF8'))
      $$`);

    await q.query(`
      CREATE FUNCTION es_verify_stream(p_stream text) RETURNS integer LANGUAGE plpgsql STABLE AS $$
      DECLARE
        r      record;
        v_prev bytea;
        v_n    integer := 0;
      BEGIN
        FOR r IN SELECT * FROM events WHERE stream_id = p_stream ORDER BY version LOOP
          v_n := v_n + 1;
          IF r.version <> v_n
             OR r.hash <> es_event_hash(v_prev, r.stream_id, r.version, r.type, r.data, r.metadata, r.recorded_at) THEN
            RETURN v_n;
          END IF;
          v_prev := r.hash;
        END LOOP;
        RETURN NULL;
      END $$`);

    // One round trip per append. Called as a single autocommit statement, it IS the transaction.
    await q.query(`
      CREATE FUNCTION es_append(
        p_stream       text,
        p_expected     integer,          -- NULL: any version; 0: the stream must be empty; n: must be at n
        p_events       jsonb,            -- [{type, data, metadata?}], metadata.at overrides recorded_at
        p_idem_scope   text  DEFAULT NULL,
        p_idem_key     text  DEFAULT NULL,
        p_request_hash text  DEFAULT NULL,
        p_response     jsonb DEFAULT NULL,
        p_inline_fn    text  DEFAULT NULL, -- fn(p_stream text, p_version integer, p_arg jsonb)
        p_inline_arg   jsonb DEFAULT NULL
      ) RETURNS jsonb LANGUAGE plpgsql AS $$
      DECLARE
        v_current   integer;
        v_version   integer;
        v_hash      bytea;
        v_event     jsonb;
        v_meta      jsonb;
        v_at        timestamptz;
        v_pos       bigint;
        v_positions text[] := '{}';
        v_fn        regprocedure;
        v_stored    record;
      BEGIN
        IF p_stream IS NULL OR p_stream = '' THEN
          RAISE EXCEPTION 'es_append: a stream id is required' USING ERRCODE = '22023';
        END IF;
        IF jsonb_typeof(p_events) IS DISTINCT FROM 'array' OR jsonb_array_length(p_events) = 0 THEN
          RAISE EXCEPTION 'es_append: events must be a non-empty array' USING ERRCODE = '22023';
        END IF;
        IF p_expected < 0 THEN
          RAISE EXCEPTION 'es_append: expected version % is negative', p_expected USING ERRCODE = '22023';
        END IF;
        IF p_inline_fn IS NOT NULL THEN
          IF p_inline_fn !~ '^[A-Za-z_][A-Za-z0-9_$]*(\\.[A-Za-z_][A-Za-z0-9_$]*)?$' THEN
            RAISE EXCEPTION 'es_append: % is not a function name', p_inline_fn USING ERRCODE = '42602';
          END IF;
          v_fn := to_regprocedure(p_inline_fn || '(text,integer,jsonb)');
          IF v_fn IS NULL THEN
            RAISE EXCEPTION 'es_append: no function %(text, integer, jsonb)', p_inline_fn USING ERRCODE = '42883';
          END IF;
        END IF;

        -- Serialise appends to this stream before writing anything: one stream's events then
        -- enter the global feed in version order, and the checks below cannot race.
        PERFORM pg_advisory_xact_lock(hashtextextended('es_stream:' || p_stream, 0));

        IF p_idem_key IS NOT NULL THEN
          SELECT request_hash, response, version INTO v_stored
            FROM idempotency_keys
           WHERE stream_id = p_stream AND scope = coalesce(p_idem_scope, '') AND key = p_idem_key;
          IF FOUND THEN
            IF v_stored.request_hash IS DISTINCT FROM coalesce(p_request_hash, '') THEN
              RETURN jsonb_build_object('status', 'keyConflict', 'version', v_stored.version);
            END IF;
            RETURN jsonb_build_object('status', 'replayed', 'response', v_stored.response,
                                      'version', v_stored.version);
          END IF;
        END IF;

        SELECT version, hash INTO v_current, v_hash
          FROM events WHERE stream_id = p_stream ORDER BY version DESC LIMIT 1;
        v_current := coalesce(v_current, 0);
        IF p_expected IS NOT NULL AND p_expected <> v_current THEN
          RETURN jsonb_build_object('status', 'conflict', 'version', v_current);
        END IF;

        v_version := v_current;
        FOR v_event IN
          SELECT t.e FROM jsonb_array_elements(p_events) WITH ORDINALITY AS t(e, n) ORDER BY t.n
        LOOP
          IF jsonb_typeof(v_event->'type') IS DISTINCT FROM 'string' OR NOT v_event ? 'data' THEN
            RAISE EXCEPTION 'es_append: each event needs a string type and data' USING ERRCODE = '22023';
          END IF;
          v_version := v_version + 1;
          v_meta := coalesce(v_event->'metadata', '{}'::jsonb);
          v_at := coalesce((v_meta->>'at')::timestamptz, now());
          v_hash := es_event_hash(v_hash, p_stream, v_version, v_event->>'type', v_event->'data', v_meta, v_at);
          INSERT INTO events (stream_id, version, type, data, metadata, recorded_at, hash)
          VALUES (p_stream, v_version, v_event->>'type', v_event->'data', v_meta, v_at, v_hash)
          RETURNING position INTO v_pos;
          v_positions := v_positions || v_pos::text;
        END LOOP;

        IF p_idem_key IS NOT NULL THEN
          INSERT INTO idempotency_keys (stream_id, scope, key, request_hash, response, version)
          VALUES (p_stream, coalesce(p_idem_scope, ''), p_idem_key, coalesce(p_request_hash, ''),
                  p_response, v_version);
        END IF;

        -- The app's inline projection: same transaction, so its rows commit or roll back with the events.
        IF v_fn IS NOT NULL THEN
          EXECUTE format('SELECT %s($1, $2, $3)', v_fn::oid::regproc) USING p_stream, v_version, p_inline_arg;
        END IF;

        -- Only a wake-up (delivered at commit); subscribers read the log itself.
        PERFORM pg_notify('es_events', p_stream || ':' || v_version);

        RETURN jsonb_build_object('status', 'appended', 'version', v_version,
                                  'positions', to_jsonb(v_positions),
                                  'txId', pg_current_xact_id()::text);
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION IF EXISTS es_append(text, integer, jsonb, text, text, text, jsonb, text, jsonb)`);
    await q.query(`DROP FUNCTION IF EXISTS es_verify_stream(text)`);
    await q.query(`DROP FUNCTION IF EXISTS es_event_hash(bytea, text, integer, text, jsonb, jsonb, timestamptz)`);
    await q.query(`DROP TABLE IF EXISTS subscription_checkpoints`);
    await q.query(`DROP TABLE IF EXISTS idempotency_keys`);
    await q.query(`DROP TRIGGER IF EXISTS events_append_only ON events`);
    await q.query(`DROP TABLE IF EXISTS events`);
    await q.query(`DROP FUNCTION IF EXISTS es_refuse_change()`);
  }
}
