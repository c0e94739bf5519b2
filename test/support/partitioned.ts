import type { DataSource } from 'typeorm';

/** A table and the column that holds its match (stream) id: the partition key. */
export interface MatchKeyedTable {
  readonly table: string;
  readonly key: string;
}

/** The event store's tables that are per match. subscription_checkpoints is not: it stays as it is. */
export const EVENT_STORE_TABLES: readonly MatchKeyedTable[] = [
  { table: 'events', key: 'stream_id' },
  { table: 'idempotency_keys', key: 'stream_id' },
];

/** Every per-match table of the api's schema: the log's and the read side's (projections, secrets). */
export const MATCH_TABLES: readonly MatchKeyedTable[] = [
  ...EVENT_STORE_TABLES,
  { table: 'match_list', key: 'id' },
  { table: 'match_views', key: 'match_id' },
  { table: 'seat_views', key: 'match_id' },
  { table: 'scorecards', key: 'match_id' },
  { table: 'seat_credentials', key: 'match_id' },
  { table: 'match_secrets', key: 'match_id' },
  { table: 'deal_seeds', key: 'match_id' },
];

type Row = Record<string, unknown>;

/**
 * Turns tables the real migrations made (still empty) into tables partitioned `BY HASH (key)` into
 * `partitions` partitions named `<table>_p<remainder>`, keeping everything else the migrations said:
 * columns in the same order, defaults (the `position` sequence, `pg_current_xact_id()`), CHECK and
 * NOT NULL constraints, constraint and index names, triggers. Functions (es_append,
 * bismarck_project) name tables only in their bodies, resolved when they run, so they work unchanged.
 *
 * What has to differ, and why (PostgreSQL refuses the rest):
 * - A primary key or UNIQUE constraint on a partitioned table must contain the partition key: each
 *   partition has its own index, and only the key keeps equal values in one partition. So
 *   `events PRIMARY KEY (position)` becomes `(position, stream_id)` (position stays unique because
 *   one sequence hands it out, no longer because an index checks it), and `seat_credentials
 *   UNIQUE (token_hash)` becomes `(token_hash, match_id)` (a token is unique within its match; across
 *   matches only its 256 random bits keep it so). Constraints that already hold the key —
 *   `UNIQUE (stream_id, version)`, the projections' keys — are unchanged, so the optimistic version
 *   check and `ON CONFLICT` work as before. Citus asks exactly the same of a distributed table.
 * - A statement-level trigger on a partitioned table fires only for statements naming the parent:
 *   `DELETE FROM events_p0` would pass the append-only trigger. So statement triggers are also
 *   created on every partition. (Row-level triggers are cloned by PostgreSQL itself.)
 */
export async function partitionByMatch(ds: DataSource, tables: readonly MatchKeyedTable[], partitions = 4): Promise<void> {
  await ds.transaction(async (m) => {
    const q = (sql: string, params: unknown[] = []): Promise<Row[]> => m.query(sql, params);
    for (const { table, key } of tables) {
      const [{ n }] = await q(`SELECT count(*)::int AS n FROM ${table}`);
      if (n !== 0) throw new Error(`${table} is not empty: partition it before anything is written`);
      const keys = await q(
        `SELECT c.conname AS name, c.contype AS type, array_agg(a.attname::text ORDER BY k.ord) AS columns
           FROM pg_constraint c CROSS JOIN unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
           JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
          WHERE c.conrelid = $1::regclass AND c.contype IN ('p', 'u')
          GROUP BY c.conname, c.contype`,
        [table],
      );
      const indexes = await q(
        `SELECT pg_get_indexdef(i.indexrelid) AS def FROM pg_index i
          WHERE i.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
        [table],
      );
      const triggers = await q(
        `SELECT tgname AS name, pg_get_triggerdef(oid) AS def, (tgtype & 1) = 0 AS per_statement
           FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal`,
        [table],
      );
      const sequences = await q(
        `SELECT attname AS column, pg_get_serial_sequence($1, attname) AS sequence
           FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped
            AND pg_get_serial_sequence($1, attname) IS NOT NULL`,
        [table],
      );

      const next = `${table}__partitioned`;
      await q(
        `CREATE TABLE ${next} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMMENTS)
           PARTITION BY HASH (${key})`,
      );
      // The sequence moves to the new table before the old one (its owner) is dropped.
      for (const s of sequences) await q(`ALTER SEQUENCE ${s.sequence} OWNED BY ${next}.${s.column}`);
      await q(`DROP TABLE ${table}`);
      await q(`ALTER TABLE ${next} RENAME TO ${table}`);
      for (let r = 0; r < partitions; r++) {
        await q(`CREATE TABLE ${table}_p${r} PARTITION OF ${table} FOR VALUES WITH (MODULUS ${partitions}, REMAINDER ${r})`);
      }
      for (const k of keys) {
        const columns = (k.columns as string[]).includes(key) ? (k.columns as string[]) : [...(k.columns as string[]), key];
        const kind = k.type === 'p' ? 'PRIMARY KEY' : 'UNIQUE';
        await q(`ALTER TABLE ${table} ADD CONSTRAINT ${k.name} ${kind} (${columns.map((c) => `"${c}"`).join(', ')})`);
      }
      for (const i of indexes) await q(String(i.def));
      for (const t of triggers) {
        await q(String(t.def));
        if (!t.per_statement) continue;
        for (let r = 0; r < partitions; r++) {
          await q(String(t.def).replace(` ON public.${table} `, ` ON public.${table}_p${r} `));
        }
      }
    }
  });
}

/** The partition (its remainder) that a match id lands in: PostgreSQL's own hash, asked of the database. */
export async function partitionOf(ds: DataSource, table: string, matchId: string, partitions = 4): Promise<number> {
  for (let r = 0; r < partitions; r++) {
    const [row] = await ds.query(`SELECT satisfies_hash_partition($1::regclass, $2, $3, $4::text) AS here`, [table, partitions, r, matchId]);
    if (row.here) return r;
  }
  throw new Error(`${matchId} is in no partition of ${table}`);
}
